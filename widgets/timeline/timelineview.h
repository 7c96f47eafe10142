// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/samples/samplecounts.h"
#include "core/timeline/timelinecounters.h"
#include "core/timeline/timelineindex.h"
#include "widgets/timeline/eventcolors.h"
#include "widgets/timeline/timelinelayout.h"
#include "widgets/timeline/timelineviewport.h"
#include "widgets/timeline/viewhistory.h"

#include <QElapsedTimer>
#include <QWidget>
#include <functional>
#include <vector>

namespace nsw {

/// The painted timeline: row labels on the left, a ruler on top, the lanes of every visible row. Wheel zooms at the
/// cursor, dragging pans, W/S zoom and A/D pan, F fits all, Alt+Left/Alt+Right go back and forward through previous
/// views; hovering shows the event under the cursor, a click
/// selects it, a click on a group's label collapses or expands it.
class TimelineView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kLabelWidth = 250;
    static constexpr int kRulerHeight = 26;

    /// Where an event is drawn: a lane position.
    struct Hit
    {
        int row = -1;
        std::uint32_t lane = 0;
        std::int64_t pos = -1;
        bool valid() const { return pos >= 0; }
    };

    explicit TimelineView(QWidget* parent = nullptr);

    /// Shows @p index (null: nothing) with every group expanded, fitted to its events.
    void setIndex(TimelineIndexPtr index);
    const TimelineIndexPtr& index() const { return m_index; }
    /// Adds counter rows (null: none) to the index shown; setIndex() clears them. Groups keep their folding.
    void setCounters(TimelineCountersPtr counters);
    const TimelineCountersPtr& counters() const { return m_counters; }
    /// Every row: the index's rows with their numbers, then the counter groups and rows (see withCounterRows()).
    const std::vector<TimelineRow>& rows() const { return m_rows.rows; }
    /// The row showing counter track @p track, -1 when none.
    int counterRow(std::size_t track) const;
    /// Text drawn instead of the rows while there is no index ("Building the timeline… 40 %").
    void setMessage(const QString& message);

    TimelineViewport& viewport() { return m_viewport; }
    const TimelineViewport& viewport() const { return m_viewport; }
    /// Shows [start, end] of the profile's own clock (not the capture clock).
    void showRange(double start, double end);
    void fitAll();
    void zoomBy(double factor, ViewHistory::Step step = ViewHistory::Step::Keys);
    void panBy(double fractionOfWidth, ViewHistory::Step step = ViewHistory::Step::Keys);

    /// The view shown now, as Back and Forward record it.
    TimelineViewEntry currentView() const { return { m_viewport.state(), m_scrollY }; }
    const ViewHistory& history() const { return m_history; }
    void goBack();
    void goForward();

    int verticalOffset() const { return m_scrollY; }
    void setVerticalOffset(int y);
    int contentHeight() const { return m_layout.totalHeight(); }
    int rowsViewportHeight() const { return height() - kRulerHeight; }

    bool isCollapsed(int row) const;
    void setCollapsed(int row, bool collapsed);
    const TimelineLayout& layout() const { return m_layout; }
    /// Where row @p row is drawn (widget coordinates), empty when hidden or scrolled away.
    QRect rowRect(int row) const;

    Hit hitAt(const QPoint& pos) const;
    QString toolTipAt(const QPoint& pos) const;
    EventRef selectedEvent() const { return m_selected; }
    /// The other end of the selected event's CUDA launch (its API call, or the GPU operations a selected API call
    /// launched), highlighted with it.
    const std::vector<EventRef>& relatedEvents() const { return m_related; }
    /// Where @p event is drawn (widget coordinates, possibly outside the visible area); empty when it is under a
    /// collapsed group or not in the index.
    QRectF eventRect(EventRef event) const;
    /// The arrows from the selected event's launching API call to the GPU operations it launched, from the call's
    /// start to the operation's start (on the edges that face each other); none when an end is hidden.
    std::vector<QLineF> correlationArrows() const;
    /// Selects @p event (invalid: none) without moving the view.
    void selectEvent(EventRef event);
    /// Selects @p event and brings it into view with context: its groups expanded, scrolled to, zoomed so that it
    /// is @p share of the width when it was not visible (or narrower than a sixth of that). False when the index
    /// does not hold it.
    bool revealEvent(EventRef event, double share = 0.1);
    /// The lane position of @p event, searched in the rows that can hold it.
    Hit locate(EventRef event) const;
    EventColors& colors() { return m_colors; }
    /// A line the tooltip adds for an event ("category gemm"), empty for none; null: no line.
    using EventNote = std::function<QString(const Profile&, EventRef)>;
    void setEventNote(EventNote note) { m_eventNote = std::move(note); }
    /// The time range dragged on the ruler (or with Shift anywhere), drawn as a band; empty when there is none.
    std::pair<TimeNs, TimeNs> selectedRange() const;
    /// Shows @p start..@p end as the selected range (both kNoTime: none).
    void setSelectedRange(TimeNs start, TimeNs end);
    /// Marks these CPU samples on their threads' rows (null: none).
    void setSampleMarks(std::shared_ptr<const SampleMarks> marks);
    const std::shared_ptr<const SampleMarks>& sampleMarks() const { return m_marks; }

Q_SIGNALS:
    /// A click selected an event (invalid when the click hit nothing).
    void eventClicked(nsw::EventRef event);
    void verticalRangeChanged(int contentHeight, int pageHeight);
    void verticalOffsetChanged(int offset);
    void viewChanged();
    /// Back or Forward became possible or impossible.
    void historyChanged();
    /// The selected event changed (a click, a reveal, another index).
    void selectedEventChanged(nsw::EventRef event);
    /// A drag on the ruler (or with Shift) selected @p start..@p end on the events' clock.
    void rangeSelected(qint64 start, qint64 end);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    int timeAreaWidth() const { return std::max(1, width() - kLabelWidth); }
    void relayout();
    void viewMoved();
    /// Runs @p move (which changes the viewport or the scroll position) and records the view before it in the
    /// history when it changed anything.
    template <typename F> void moveView(ViewHistory::Step step, F&& move);
    void showHistoryEntry(const TimelineViewEntry& entry);
    void clickAt(const QPoint& pos);
    QString spanToolTip(const Hit& hit) const;
    QString counterToolTip(int row, int x) const;
    void updateRows();
    QRectF hitRect(const Hit& hit) const;

    TimelineIndexPtr m_index;
    TimelineCountersPtr m_counters;
    std::shared_ptr<const SampleMarks> m_marks;
    TimelineRowTable m_rows;
    TimelineViewport m_viewport;
    ViewHistory m_history;
    QElapsedTimer m_clock; ///< times history steps, to merge bursts
    TimelineLayout m_layout;
    std::vector<char> m_collapsed; ///< per row
    EventColors m_colors;
    EventNote m_eventNote;
    EventRef m_selected;
    std::vector<EventRef> m_related;
    std::vector<Hit> m_relatedHits; ///< where m_related are, located once per selection
    QString m_message;
    int m_scrollY = 0;
    QPoint m_pressPos;
    QPoint m_lastDragPos;
    bool m_dragging = false;
    bool m_selecting = false;
    double m_rangeFrom = 0;
    double m_rangeTo = 0; ///< equal to m_rangeFrom when there is no selected range
};

} // namespace nsw
