// SPDX-License-Identifier: GPL-3.0-or-later
#include "numberformat.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

namespace nsw {

double sqliteRound(double value, int digits)
{
    if (!std::isfinite(value))
        return value;
    if (digits <= 0) {
        const double a = std::fabs(value);
        if (a < 9.2e18)
            return std::copysign(double(static_cast<long long>(a + 0.5)), value);
        return value;
    }
    // Reports round four cells per row, tens of thousands of rows: exact arithmetic where long double has the bits
    // for it (x87's 64: 53 bits of x times at most 11 bits of 2 * 10^digits). Then floor(x * 10^d + 1/2) =
    // (floor(2x * 10^d) + 1) div 2 with no rounding anywhere, and r / 10^d is the double nearest that decimal, as
    // strtod() gives below.
    if constexpr (std::numeric_limits<long double>::digits >= 64) {
        static constexpr double kPow10[] = { 1, 10, 100, 1000 };
        const double a = std::fabs(value);
        if (digits <= 3 && a * kPow10[digits] < 4.0e15) {
            const long double twice = static_cast<long double>(a) * static_cast<long double>(2 * kPow10[digits]);
            const auto r = (static_cast<unsigned long long>(std::floor(twice)) + 1) / 2;
            return std::copysign(double(r) / kPow10[digits], value);
        }
    }
    // glibc prints the exact decimal expansion of a double, so rounding that string is rounding the exact value.
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.60f", std::fabs(value));
    std::string s(buf);
    const auto dot = s.find('.');
    if (dot == std::string::npos || dot + std::size_t(digits) + 1 >= s.size())
        return value;
    const bool roundUp = s[dot + std::size_t(digits) + 1] >= '5';
    s.resize(dot + std::size_t(digits) + 1);
    if (roundUp) {
        int i = int(s.size()) - 1;
        for (; i >= 0; --i) {
            if (s[std::size_t(i)] == '.')
                continue;
            if (s[std::size_t(i)] == '9') {
                s[std::size_t(i)] = '0';
            } else {
                ++s[std::size_t(i)];
                break;
            }
        }
        if (i < 0)
            s.insert(s.begin(), '1');
    }
    return std::copysign(std::strtod(s.c_str(), nullptr), value);
}

QString pythonFloatRepr(double value)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    if (value == 0)
        return std::signbit(value) ? QStringLiteral("-0.0") : QStringLiteral("0.0");
    // Shortest round-trip digits and decimal exponent, then Python's layout rule (float_repr_style 'short').
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    const std::string sci(buf, res.ptr);
    const auto e = sci.find('e');
    std::string mantissa = sci.substr(0, e);
    const int exponent = std::stoi(sci.substr(e + 1));
    const bool negative = mantissa[0] == '-';
    if (negative)
        mantissa.erase(0, 1);
    std::string digits;
    for (const char c : mantissa)
        if (c != '.')
            digits.push_back(c);
    // Appends only: GCC 12 warns falsely (-Wrestrict) on chains of std::string temporaries at -O3.
    std::string out;
    if (negative)
        out.push_back('-');
    if (exponent >= -4 && exponent < 16) {
        const int pointPos = exponent + 1; // digits before the decimal point
        if (pointPos <= 0) {
            out.append("0.");
            out.append(std::size_t(-pointPos), '0');
            out.append(digits);
        } else if (pointPos >= int(digits.size())) {
            out.append(digits);
            out.append(std::size_t(pointPos - int(digits.size())), '0');
            out.append(".0");
        } else {
            out.append(digits, 0, std::size_t(pointPos));
            out.push_back('.');
            out.append(digits, std::size_t(pointPos), std::string::npos);
        }
    } else {
        out.push_back(digits[0]);
        if (digits.size() > 1) {
            out.push_back('.');
            out.append(digits, 1, std::string::npos);
        }
        char exp[16];
        std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
        out.append(exp);
    }
    return QString::fromLatin1(out.data(), qsizetype(out.size()));
}

namespace {
QString groupDigits(const QString& integerPart)
{
    QString out;
    const bool negative = integerPart.startsWith(QLatin1Char('-'));
    const QString digits = negative ? integerPart.mid(1) : integerPart;
    for (qsizetype i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += QLatin1Char(',');
        out += digits[i];
    }
    return negative ? QLatin1Char('-') + out : out;
}
} // namespace

QString withThousandsSeparators(qint64 value)
{
    return groupDigits(QString::number(value));
}

QString countOf(qint64 count, const QString& one, const QString& many)
{
    return withThousandsSeparators(count) + QLatin1Char(' ') + (count == 1 ? one : many);
}

QString withThousandsSeparators(double value, int decimals)
{
    const QString fixed = QString::number(value, 'f', decimals);
    const qsizetype dot = fixed.indexOf(QLatin1Char('.'));
    if (dot < 0)
        return groupDigits(fixed);
    return groupDigits(fixed.left(dot)) + fixed.mid(dot);
}

QString compactCount(qint64 value)
{
    if (value < 0)
        return QLatin1Char('-') + compactCount(-value);
    if (value < 1000)
        return QString::number(value);
    static const char units[] = { 'k', 'M', 'G', 'T' };
    double scaled = double(value);
    for (const char unit : units) {
        scaled /= 1000;
        const int decimals = scaled < 99.95 ? 1 : 0;
        // Round first so that 999,960 reads "1.0M", not "1000.0k".
        const double shown = std::round(scaled * (decimals ? 10 : 1)) / (decimals ? 10 : 1);
        if (shown < 1000 || unit == 'T')
            return QString::number(shown, 'f', decimals) + QLatin1Char(unit);
    }
    return QString::number(value);
}

} // namespace nsw
