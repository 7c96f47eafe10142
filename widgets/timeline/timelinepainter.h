// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/samples/samplecounts.h"
#include "core/timeline/timelinecounters.h"
#include "core/timeline/timelineindex.h"
#include "widgets/timeline/eventcolors.h"
#include "widgets/timeline/timelinelayout.h"
#include "widgets/timeline/timelineviewport.h"

#include <QImage>
#include <QLineF>
#include <QPainter>
#include <QRect>
#include <QRectF>
#include <vector>

namespace nsw {

/// Everything one paint of the timeline reads.
struct TimelineFrame
{
    const TimelineIndex& index;
    const std::vector<TimelineRow>& rows; ///< the index's rows and the counter rows
    const TimelineCounters* counters; ///< null when there are no counter rows
    const TimelineViewport& viewport;
    const TimelineLayout& layout;
    const std::vector<char>& collapsed;
    EventRef selected;
    int scrollY = 0;
    QRect labels; ///< the row label column, below the ruler
    QRect ruler; ///< above the time area
    QRect area; ///< where lanes are drawn
    std::vector<QRectF> related; ///< boxes of the selected event's correlated partners
    std::vector<QLineF> arrows; ///< from launching API call to GPU operation
    const SampleMarks* marks = nullptr; ///< CPU samples of a function picked in the Samples pane, on thread rows
};

/// Paints a frame: ruler, labels, the merged spans of every visible lane, the selection.
class TimelinePainter
{
public:
    TimelinePainter(QPainter& painter, const TimelineFrame& frame, EventColors& colors);
    void paint();

private:
    void paintRuler();
    void paintRowBackgrounds();
    void paintLabels();
    /// The value at the top of a counter row, at the bottom right of its label.
    void paintCounterScale(const CounterTrack& track, const QRect& line);
    void paintLane(std::uint32_t lane, int top);
    /// The event's name inside a single-event span wide enough for it.
    void paintName(std::uint32_t lane, const TimelineSpan& span, int top);
    /// An area chart of the per-pixel-column maxima of counter @p track in the row from @p top, @p height tall.
    void paintCounter(std::uint32_t track, int top, int height);
    void paintSelection();
    void paintCorrelation();
    /// A tick per pixel column holding a marked sample, on the row of the sample's thread.
    void paintSampleMarks();
    QRect spanRect(TimeNs start, TimeNs end, int top) const;

    QPainter& m_p;
    const TimelineFrame& m_f;
    EventColors& m_colors;
    std::vector<TimelineSpan> m_spans; ///< reused for every lane
    double m_viewStart; ///< the viewport's, for spanRect()'s hot path
    double m_pixelsPerNs;
    QImage m_laneRow; ///< one pixel row of the area: a lane's spans, drawn lane-high
};

} // namespace nsw
