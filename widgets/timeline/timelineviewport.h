// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

namespace nsw {

/// The visible time range of the timeline: where pixel 0 is and how many ns a pixel covers. The left edge is kept
/// as a double so that panning at sub-nanosecond zoom does not stick.
class TimelineViewport
{
public:
    /// Exactly what is shown (Back and Forward restore it to the bit).
    struct State
    {
        double start = 0;
        double nsPerPixel = 1;
        int width = 1000;
        bool operator==(const State&) const = default;
    };

    /// Smallest zoom: 10 ns across 1000 px.
    static constexpr double kMinNsPerPixel = 0.01;

    void setWidth(int pixels);
    int width() const { return m_width; }
    /// The range zoom and pan stay around: the profile's events (plus a margin).
    void setLimits(TimeNs start, TimeNs end);
    /// Shows [start, end] across the width.
    void showRange(double start, double end);
    void fitAll() { showRange(double(m_limitStart), double(m_limitEnd)); }
    /// Zooms by @p factor (> 1 zooms in) keeping the time under pixel @p x where it is.
    void zoomAt(double x, double factor);
    /// Moves the view by @p pixels (positive: later times come into view).
    void panPixels(double pixels);

    State state() const { return { m_start, m_nsPerPixel, m_width }; }
    /// Shows @p state; at another width, the same start and end.
    void restore(const State& state);

    double start() const { return m_start; }
    double end() const { return m_start + m_nsPerPixel * m_width; }
    double nsPerPixel() const { return m_nsPerPixel; }
    double xOf(double t) const { return (t - m_start) / m_nsPerPixel; }
    double timeAt(double x) const { return m_start + x * m_nsPerPixel; }

private:
    double maxNsPerPixel() const;
    void clamp();

    int m_width = 1000;
    double m_start = 0;
    double m_nsPerPixel = 1;
    TimeNs m_limitStart = 0;
    TimeNs m_limitEnd = 1000;
};

} // namespace nsw
