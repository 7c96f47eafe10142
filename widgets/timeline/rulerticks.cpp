// SPDX-License-Identifier: GPL-3.0-or-later
#include "rulerticks.h"

#include <algorithm>
#include <cmath>

namespace nsw {

namespace {

double niceStep(double minimum)
{
    const double decade = std::pow(10.0, std::floor(std::log10(std::max(minimum, 1e-3))));
    for (const double m : { 1.0, 2.0, 5.0, 10.0 })
        if (m * decade >= minimum)
            return m * decade;
    return 10 * decade;
}

struct Unit
{
    double scale;
    const char* name;
};

Unit unitFor(double step)
{
    if (step >= 1e9)
        return { 1e9, "s" };
    if (step >= 1e6)
        return { 1e6, "ms" };
    if (step >= 1e3)
        return { 1e3, "µs" };
    return { 1, "ns" };
}

} // namespace

QString rulerLabel(double ns, double step, double magnitude)
{
    const Unit unit = unitFor(std::max(step, magnitude));
    const double stepInUnit = step / unit.scale;
    const int decimals = stepInUnit >= 1 ? 0 : int(std::ceil(-std::log10(stepInUnit) - 1e-9));
    double value = ns / unit.scale;
    if (std::fabs(value) < 0.5 * std::pow(10.0, -decimals))
        value = 0; // no "-0"
    return QString::number(value, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit.name);
}

RulerTicks rulerTicks(double start, double end, double nsPerPixel, double minLabelSpacing)
{
    RulerTicks r;
    if (!(end > start) || nsPerPixel <= 0)
        return r;
    r.majorStep = niceStep(minLabelSpacing * nsPerPixel);
    const double minor = r.majorStep / 5;
    // Offsets once absolute labels would need more than six significant digits beyond the step.
    const bool relative = std::max(std::fabs(start), std::fabs(end)) / r.majorStep >= 1e5;
    if (relative) {
        const double coarse = r.majorStep * 1000;
        r.baseTime = std::floor(start / coarse) * coarse;
        const int decimals = std::max(0, int(std::ceil(-std::log10(coarse / 1e9) - 1e-9)));
        r.base = QString::number(r.baseTime / 1e9, 'f', decimals) + QStringLiteral(" s");
    }
    // Absolute labels share the unit of the largest time in view ("60.15 s", not "60150 ms").
    const double magnitude = std::max(std::fabs(start), std::fabs(end));
    const double first = std::ceil(start / minor) * minor;
    for (double t = first; t <= end; t += minor) {
        const double k = std::round(t / minor);
        const double snapped = k * minor; // no drift over many additions
        RulerTick tick;
        tick.time = snapped;
        tick.major = std::fmod(k, 5.0) == 0;
        if (tick.major)
            tick.label = relative ? QStringLiteral("+") + rulerLabel(snapped - r.baseTime, r.majorStep)
                                  : rulerLabel(snapped, r.majorStep, magnitude);
        r.ticks.push_back(tick);
        t = snapped;
    }
    return r;
}

} // namespace nsw
