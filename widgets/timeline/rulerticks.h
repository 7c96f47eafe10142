// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <vector>

namespace nsw {

struct RulerTick
{
    double time = 0; ///< on the capture clock (ns)
    bool major = false; ///< labelled
    QString label;
};

struct RulerTicks
{
    /// Non-empty when labels are offsets ("+20 µs") from this base ("60.123456 s"): far from zero at a fine zoom,
    /// absolute labels would need a dozen digits.
    QString base;
    double baseTime = 0;
    double majorStep = 0;
    std::vector<RulerTick> ticks;
};

/// Ticks for [start, end] (capture clock, ns) drawn @p nsPerPixel: labelled ticks 1, 2 or 5 × 10^k ns apart and at
/// least @p minLabelSpacing px apart, in the unit that suits the step (ns, µs, ms or s), with four unlabelled ticks
/// between them.
RulerTicks rulerTicks(double start, double end, double nsPerPixel, double minLabelSpacing = 90);

/// "250 ns", "1.5 µs", "12 ms", "3.25 s": @p ns in the unit of @p step, or of @p magnitude when that is larger, with
/// the decimals the step needs.
QString rulerLabel(double ns, double step, double magnitude = 0);

} // namespace nsw
