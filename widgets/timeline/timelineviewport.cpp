// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelineviewport.h"

#include <algorithm>

namespace nsw {

void TimelineViewport::setWidth(int pixels)
{
    m_width = std::max(1, pixels);
    clamp();
}

void TimelineViewport::setLimits(TimeNs start, TimeNs end)
{
    m_limitStart = start;
    m_limitEnd = std::max(end, start + 1);
    clamp();
}

void TimelineViewport::showRange(double start, double end)
{
    m_start = start;
    m_nsPerPixel = std::max(end - start, 1e-3) / m_width;
    clamp();
}

void TimelineViewport::restore(const State& state)
{
    if (state.width != m_width) {
        showRange(state.start, state.start + state.nsPerPixel * state.width);
        return;
    }
    m_start = state.start;
    m_nsPerPixel = state.nsPerPixel;
    clamp();
}

void TimelineViewport::zoomAt(double x, double factor)
{
    const double t = timeAt(x);
    m_nsPerPixel /= factor;
    m_nsPerPixel = std::clamp(m_nsPerPixel, kMinNsPerPixel, maxNsPerPixel());
    m_start = t - x * m_nsPerPixel;
    clamp();
}

void TimelineViewport::panPixels(double pixels)
{
    m_start += pixels * m_nsPerPixel;
    clamp();
}

double TimelineViewport::maxNsPerPixel() const
{
    // Zooming out stops a little beyond "fit all".
    return std::max(kMinNsPerPixel, 1.25 * double(m_limitEnd - m_limitStart) / m_width);
}

void TimelineViewport::clamp()
{
    m_nsPerPixel = std::clamp(m_nsPerPixel, kMinNsPerPixel, maxNsPerPixel());
    // Panning keeps part of the events in view: at most a fifth of the width beyond either end.
    const double margin = 0.2 * m_width * m_nsPerPixel;
    const double lo = double(m_limitStart) - margin;
    const double hi = double(m_limitEnd) + margin - m_width * m_nsPerPixel;
    m_start = hi < lo ? (lo + hi) / 2 : std::clamp(m_start, lo, hi);
}

} // namespace nsw
