// SPDX-License-Identifier: GPL-3.0-or-later
#include "secondsticker.h"

#include <cmath>

namespace nsw {

SecondsTicker::Origin SecondsTicker::originFor(const QCPRange& range)
{
    Origin o;
    const double step = getTickStep(range);
    if (!(step > 0) || !std::isfinite(step))
        return o;
    // As many decimals as the step needs exactly: 0.25 takes two, 0.2 one.
    while (o.decimals < 9) {
        const double scaled = step * std::pow(10.0, o.decimals);
        if (std::fabs(scaled - std::round(scaled)) <= 1e-6 * scaled)
            break;
        ++o.decimals;
    }
    o.relative = std::max(std::fabs(range.lower), std::fabs(range.upper)) / step >= 1e5;
    if (o.relative)
        o.seconds = std::floor(range.lower / step + 1e-6) * step; // a tick a rounding error below lower is lower
    return o;
}

QString SecondsTicker::originText(const Origin& origin)
{
    return QString::number(origin.seconds, 'f', origin.decimals) + QStringLiteral(" s");
}

void SecondsTicker::generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision,
    QVector<double>& ticks, QVector<double>* subTicks, QVector<QString>* tickLabels)
{
    m_origin = originFor(range);
    QCPAxisTicker::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
}

QString SecondsTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    const double value = m_origin.relative ? tick - m_origin.seconds : tick;
    // Within half a last digit of zero: "0", never "-0.0" (ticks are sums of binary fractions).
    const double shown = std::fabs(value) < 0.5 * std::pow(10.0, -m_origin.decimals) ? 0.0 : value;
    const QString text = QString::number(shown, 'f', m_origin.decimals);
    return m_origin.relative ? QStringLiteral("+") + text : text;
}

} // namespace nsw
