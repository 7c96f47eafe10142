// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeformat.h"

#include <cmath>
#include <cstdlib>

namespace nsw {

namespace {
QString threeSignificant(double value, const char* unit)
{
    const double a = std::fabs(value);
    const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    return QString::number(value, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit);
}
} // namespace

QString formatDuration(qint64 ns)
{
    const double a = std::fabs(double(ns));
    if (a < 1000)
        return QString::number(ns) + QStringLiteral(" ns");
    if (a < 1e6)
        return threeSignificant(double(ns) / 1e3, "µs");
    if (a < 1e9)
        return threeSignificant(double(ns) / 1e6, "ms");
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
