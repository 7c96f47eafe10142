// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeformat.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace nsw {

namespace {
/// Three significant digits; the decimals follow the *rounded* magnitude, so 9.999 reads "10.0", not "10.00".
QString threeSignificant(double value, const char* unit)
{
    const double a = std::fabs(value);
    const int decimals = std::round(a * 10) >= 1000 ? 0 : std::round(a * 100) >= 1000 ? 1 : 2;
    return QString::number(value, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit);
}
} // namespace

QString formatDuration(qint64 ns)
{
    if (std::fabs(double(ns)) < 1000)
        return QString::number(ns) + QStringLiteral(" ns");
    // The unit is chosen after rounding, so that 999999 ns reads "1.00 ms", not "1000 µs".
    struct Unit
    {
        double scale;
        const char* name;
    };
    for (const Unit unit : { Unit { 1e3, "µs" }, Unit { 1e6, "ms" } }) {
        const double value = double(ns) / unit.scale;
        if (std::round(std::fabs(value)) < 1000)
            return threeSignificant(value, unit.name);
    }
    return QString::number(double(ns) / 1e9, 'f', 3) + QStringLiteral(" s");
}

QString formatSeconds(qint64 ns, int decimals)
{
    const qint64 whole = ns / 1000000000;
    const qint64 frac = std::llabs(ns % 1000000000);
    QString f = QStringLiteral("%1").arg(frac, 9, 10, QLatin1Char('0')).left(decimals);
    const QString sign = (ns < 0 && whole == 0) ? QStringLiteral("-") : QString();
    return sign + QString::number(whole) + (decimals > 0 ? QLatin1Char('.') + f : QString()) + QStringLiteral(" s");
}

QString formatTimeSpan(qint64 startNs, qint64 endNs)
{
    const double length = std::max(1.0, double(endNs) - double(startNs));
    const int decimals = std::clamp(int(std::ceil(std::log10(100e9 / length))), 1, 9);
    return formatSeconds(startNs, decimals) + QStringLiteral(" – ") + formatSeconds(endNs, decimals);
}

QString formatBytes(qint64 bytes)
{
    const double b = double(bytes);
    if (std::fabs(b) < 1e3)
        return QString::number(bytes) + QStringLiteral(" B");
    if (std::fabs(b) < 1e6)
        return QString::number(b / 1e3, 'f', 1) + QStringLiteral(" kB");
    if (std::fabs(b) < 1e9)
        return QString::number(b / 1e6, 'f', 1) + QStringLiteral(" MB");
    return QString::number(b / 1e9, 'f', 2) + QStringLiteral(" GB");
}

} // namespace nsw
