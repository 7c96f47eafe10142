// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelineview.h"

#include "core/timeline/correlation.h"
#include "core/util/timeformat.h"
#include "widgets/timeline/timelinepainter.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace nsw {

namespace {
constexpr double kZoomStep = 1.5;
constexpr double kPanStep = 0.15;
constexpr int kHitTolerancePx = 2;
constexpr int kClickSlopPx = 4;
} // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumHeight(kRulerHeight + 3 * TimelineLayout::kGroupHeight);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_clock.start();
}

template <typename F> void TimelineView::moveView(ViewHistory::Step step, F&& move)
{
    const TimelineViewEntry before = currentView();
    move();
    if (currentView() != before) {
        m_history.moved(step, before, m_clock.elapsed());
        Q_EMIT historyChanged();
    }
    viewMoved();
}

void TimelineView::goBack()
{
    if (m_history.canGoBack())
        showHistoryEntry(m_history.back(currentView()));
}

void TimelineView::goForward()
{
    if (m_history.canGoForward())
        showHistoryEntry(m_history.forward(currentView()));
}

void TimelineView::showHistoryEntry(const TimelineViewEntry& entry)
{
    m_viewport.restore(entry.viewport);
    setVerticalOffset(entry.scrollY);
    Q_EMIT historyChanged();
    viewMoved();
}

void TimelineView::setIndex(TimelineIndexPtr index)
{
    m_index = std::move(index);
    m_counters.reset();
    m_rows = m_index ? withCounterRows(m_index->rows(), nullptr) : TimelineRowTable {};
    m_collapsed.assign(m_rows.rows.size(), 0);
    m_selected = {};
    m_related.clear();
    m_relatedHits.clear();
    Q_EMIT selectedEventChanged(m_selected);
    m_scrollY = 0;
    m_colors.clear();
    m_history.clear();
    Q_EMIT historyChanged();
    if (m_index)
        m_viewport.setLimits(m_index->start(), m_index->end());
    m_viewport.setWidth(timeAreaWidth());
    m_viewport.fitAll();
    relayout();
    viewMoved();
}

void TimelineView::setCounters(TimelineCountersPtr counters)
{
    if (!m_index)
        counters.reset();
    // Folded counter groups stay folded when the counters are rebuilt (an NVLink recording attached, a clock shift).
    QStringList folded;
    for (std::size_t r = m_index ? m_index->rows().size() : 0; r < m_rows.rows.size(); ++r)
        if (m_collapsed[r])
            folded << m_rows.rows[r].label;
    m_counters = std::move(counters);
    updateRows();
    // A profile with counters but no events: the counters set the range.
    if (m_counters && m_index->start() == m_index->end()) {
        const auto [first, last] = m_counters->extent();
        m_viewport.setLimits(first, last);
        m_viewport.fitAll();
        viewMoved();
    }
    for (std::size_t r = m_index ? m_index->rows().size() : 0; r < m_rows.rows.size(); ++r)
        m_collapsed[r] = m_rows.rows[r].isGroup() && folded.contains(m_rows.rows[r].label);
    relayout();
}

void TimelineView::updateRows()
{
    m_rows = m_index ? withCounterRows(m_index->rows(), m_counters.get()) : TimelineRowTable {};
    m_collapsed.resize(m_rows.rows.size(), 0);
}

int TimelineView::counterRow(std::size_t track) const
{
    for (std::size_t r = 0; r < m_rows.rows.size(); ++r)
        if (m_rows.rows[r].kind == TrackKind::Counter && m_rows.rows[r].counter == track)
            return int(r);
    return -1;
}

void TimelineView::setMessage(const QString& message)
{
    m_message = message;
    update();
}

void TimelineView::showRange(double start, double end)
{
    moveView(ViewHistory::Step::Jump, [&]() { m_viewport.showRange(start, end); });
}

void TimelineView::fitAll()
{
    moveView(ViewHistory::Step::Jump, [&]() { m_viewport.fitAll(); });
}

void TimelineView::zoomBy(double factor, ViewHistory::Step step)
{
    moveView(step, [&]() { m_viewport.zoomAt(m_viewport.width() / 2.0, factor); });
}

void TimelineView::panBy(double fractionOfWidth, ViewHistory::Step step)
{
    moveView(step, [&]() { m_viewport.panPixels(fractionOfWidth * m_viewport.width()); });
}

void TimelineView::viewMoved()
{
    update();
    Q_EMIT viewChanged();
}

void TimelineView::setVerticalOffset(int y)
{
    const int clamped = std::clamp(y, 0, std::max(0, contentHeight() - rowsViewportHeight()));
    if (clamped == m_scrollY)
        return;
    m_scrollY = clamped;
    update();
    Q_EMIT verticalOffsetChanged(m_scrollY);
}

bool TimelineView::isCollapsed(int row) const
{
    return row >= 0 && std::size_t(row) < m_collapsed.size() && m_collapsed[std::size_t(row)];
}

void TimelineView::setCollapsed(int row, bool collapsed)
{
    if (row < 0 || std::size_t(row) >= m_collapsed.size() || !m_rows.rows[std::size_t(row)].isGroup())
        return;
    m_collapsed[std::size_t(row)] = collapsed;
    relayout();
}

void TimelineView::relayout()
{
    if (m_index)
        m_layout.update(m_rows.rows, m_rows.order, m_collapsed);
    else
        m_layout = {};
    Q_EMIT verticalRangeChanged(contentHeight(), rowsViewportHeight());
    setVerticalOffset(m_scrollY);
    update();
}

QRect TimelineView::rowRect(int row) const
{
    const TimelineLayout::Item* item = m_layout.itemOfRow(row);
    if (!item)
        return {};
    const QRect r(0, kRulerHeight + item->y - m_scrollY, width(), item->height);
    return r.intersected(QRect(0, kRulerHeight, width(), rowsViewportHeight()));
}

TimelineView::Hit TimelineView::hitAt(const QPoint& pos) const
{
    Hit hit;
    if (!m_index || pos.x() < kLabelWidth || pos.y() < kRulerHeight)
        return hit;
    const TimelineLayout::Item* item = m_layout.itemAt(pos.y() - kRulerHeight + m_scrollY);
    if (!item)
        return hit;
    hit.row = item->row;
    const TimelineRow& row = m_rows.rows[std::size_t(item->row)];
    const int inTrack = pos.y() - kRulerHeight + m_scrollY - item->y - TimelineLayout::kTrackPadding;
    if (row.isGroup() || inTrack < 0 || inTrack >= int(row.laneCount) * TimelineLayout::kLaneHeight)
        return hit;
    hit.lane = row.firstLane + std::uint32_t(inTrack / TimelineLayout::kLaneHeight);
    const double t = m_viewport.timeAt(pos.x() - kLabelWidth);
    const TimeNs tolerance = TimeNs(std::ceil(kHitTolerancePx * m_viewport.nsPerPixel()));
    hit.pos = m_index->hitTest(hit.lane, TimeNs(std::llround(t)), tolerance);
    return hit;
}

QString TimelineView::toolTipAt(const QPoint& pos) const
{
    // A counter's label is often elided: its tooltip gives the whole name and where the values come from.
    if (m_counters && pos.x() < kLabelWidth && pos.y() >= kRulerHeight)
        if (const TimelineLayout::Item* item = m_layout.itemAt(pos.y() - kRulerHeight + m_scrollY))
            if (const TimelineRow& row = m_rows.rows[std::size_t(item->row)]; row.kind == TrackKind::Counter)
                return QStringLiteral("<p><b>%1</b><br>%2</p>")
                    .arg(row.label.toHtmlEscaped(), m_counters->tracks()[row.counter].source.toHtmlEscaped());
    const Hit hit = hitAt(pos);
    if (hit.row >= 0 && m_rows.rows[std::size_t(hit.row)].kind == TrackKind::Counter)
        return counterToolTip(hit.row, pos.x() - kLabelWidth);
    if (!hit.valid())
        return {};
    return spanToolTip(hit);
}

QString TimelineView::counterToolTip(int row, int x) const
{
    const std::size_t track = m_rows.rows[std::size_t(row)].counter;
    const CounterTrack& c = m_counters->tracks()[track];
    const TimeNs t = TimeNs(std::llround(m_viewport.timeAt(x)));
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(c.label.toHtmlEscaped());
    lines << m_counters->groups()[std::size_t(c.group)].label.toHtmlEscaped();
    lines << tr("at %1").arg(formatSeconds(t - m_index->origin(), 9));
    const CounterSample sample = m_counters->sampleAt(track, t);
    if (!sample.valid) {
        lines << tr("no sample at this time");
    } else {
        lines << tr("<b>%1</b> from %2 for %3")
                     .arg(formatCounterValue(sample.value, c.unit).toHtmlEscaped(),
                         formatSeconds(sample.start - m_index->origin(), 9), formatDuration(sample.end - sample.start));
        // Where a pixel holds several samples the area shows their maximum: say so when it is not this one.
        const std::vector<CounterColumn> columns
            = m_counters->columns(track, m_viewport.start(), m_viewport.nsPerPixel(), m_viewport.width());
        if (x >= 0 && x < int(columns.size()) && columns[std::size_t(x)].max > sample.value)
            lines << tr("highest in this pixel: %1").arg(formatCounterValue(columns[std::size_t(x)].max, c.unit));
    }
    lines << c.source.toHtmlEscaped();
    return QStringLiteral("<p>") + lines.join(QStringLiteral("<br>")) + QStringLiteral("</p>");
}

QString TimelineView::spanToolTip(const Hit& hit) const
{
    const Profile& profile = m_index->profile();
    const TimeNs start = m_index->startAt(hit.lane, std::uint32_t(hit.pos));
    const TimeNs end = m_index->endAt(hit.lane, std::uint32_t(hit.pos));
    const EventRef event = m_index->eventAt(hit.lane, std::uint32_t(hit.pos));
    QStringList lines;
    if (!event.valid()) {
        lines << QStringLiteral("<b>GPU busy</b>");
        lines << m_rows.rows[std::size_t(m_rows.rows[std::size_t(hit.row)].parent)].label.toHtmlEscaped();
    } else {
        const EventDescription d = describeEvent(profile, event);
        // Templated kernel names run to thousands of characters: keep both ends.
        const QString name = d.name.size() > 300 ? d.name.left(200) + QStringLiteral(" … ") + d.name.right(90) : d.name;
        lines << QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
        lines << d.kind.toHtmlEscaped();
        lines << d.where.toHtmlEscaped();
        for (const QString& detail : d.details)
            lines << detail.toHtmlEscaped();
        if (const QString note = m_eventNote ? m_eventNote(profile, event) : QString(); !note.isEmpty())
            lines << note.toHtmlEscaped();
    }
    lines.insert(1,
        QStringLiteral("start %1 · duration %2")
            .arg(formatSeconds(start - m_index->origin(), 9), formatDuration(end - start)));
    return QStringLiteral("<p>") + lines.join(QStringLiteral("<br>")) + QStringLiteral("</p>");
}

void TimelineView::selectEvent(EventRef event)
{
    if (m_selected == event)
        return;
    m_selected = event;
    m_related = m_index && event.valid() ? correlatedEvents(m_index->profile(), event) : std::vector<EventRef> {};
    m_relatedHits.clear();
    for (const EventRef& related : m_related)
        m_relatedHits.push_back(locate(related));
    update();
    Q_EMIT selectedEventChanged(event);
}

TimelineView::Hit TimelineView::locate(EventRef event) const
{
    Hit hit;
    if (!m_index || !event.valid())
        return hit;
    const TimeNs start = eventStart(m_index->profile(), event);
    for (std::size_t r = 0; r < m_index->rows().size(); ++r) {
        const TimelineRow& row = m_rows.rows[r];
        for (std::uint32_t lane = row.firstLane; lane < row.firstLane + row.laneCount; ++lane) {
            const std::uint32_t n = m_index->lanes()[lane].count;
            for (std::uint32_t k = m_index->firstEndingAtOrAfter(lane, start);
                 k < n && m_index->startAt(lane, k) <= start; ++k)
                if (m_index->eventAt(lane, k) == event)
                    return { int(r), lane, std::int64_t(k) };
        }
    }
    return hit;
}

QRectF TimelineView::hitRect(const Hit& hit) const
{
    const TimelineLayout::Item* item = hit.valid() ? m_layout.itemOfRow(hit.row) : nullptr;
    if (!item)
        return {};
    const TimelineRow& row = m_rows.rows[std::size_t(hit.row)];
    const double top = kRulerHeight - m_scrollY + TimelineLayout::laneTop(*item, hit.lane - row.firstLane) + 1;
    // Far outside the view at a deep zoom, x runs to 1e12: keep it just beyond the edges, where it is drawn clipped.
    const auto x = [&](TimeNs t) {
        return std::clamp(kLabelWidth + m_viewport.xOf(double(t)), kLabelWidth - 20.0, width() + 20.0);
    };
    const double x0 = x(m_index->startAt(hit.lane, std::uint32_t(hit.pos)));
    const double x1 = x(m_index->endAt(hit.lane, std::uint32_t(hit.pos)));
    return QRectF(x0, top, std::max(1.0, x1 - x0), TimelineLayout::kLaneHeight - 2);
}

QRectF TimelineView::eventRect(EventRef event) const
{
    return hitRect(locate(event));
}

std::vector<QLineF> TimelineView::correlationArrows() const
{
    std::vector<QLineF> arrows;
    if (m_related.empty())
        return arrows;
    const QRectF selected = eventRect(m_selected);
    if (selected.isEmpty())
        return arrows;
    const bool fromSelected = m_selected.table == EventTable::CudaApi;
    const double left = kLabelWidth, right = width();
    for (const Hit& hit : m_relatedHits) {
        const QRectF other = hitRect(hit);
        if (other.isEmpty())
            continue;
        const QRectF& call = fromSelected ? selected : other;
        const QRectF& op = fromSelected ? other : selected;
        // GPU rows are above the threads: the arrow usually leaves the call's top for the operation's bottom.
        const bool up = op.center().y() < call.center().y();
        arrows.emplace_back(QPointF(std::clamp(call.left(), left, right), up ? call.top() : call.bottom()),
            QPointF(std::clamp(op.left(), left, right), up ? op.bottom() : op.top()));
    }
    return arrows;
}

bool TimelineView::revealEvent(EventRef event, double share)
{
    const Hit hit = locate(event);
    if (!hit.valid())
        return false;
    for (int p = m_rows.rows[std::size_t(hit.row)].parent; p >= 0; p = m_rows.rows[std::size_t(p)].parent)
        m_collapsed[std::size_t(p)] = 0;
    relayout();
    const double start = double(m_index->startAt(hit.lane, std::uint32_t(hit.pos)));
    const double end = double(m_index->endAt(hit.lane, std::uint32_t(hit.pos)));
    selectEvent(event);
    moveView(ViewHistory::Step::Jump, [&]() {
        // Seen well enough: inside the view and not much narrower than it would be once revealed.
        const double minPixels = std::max(3.0, share * m_viewport.width() / 6);
        const bool visible = start >= m_viewport.start() && end <= m_viewport.end()
            && (end - start) / m_viewport.nsPerPixel() >= minPixels;
        if (!visible) {
            const double span = std::max(end - start, 1000.0);
            const double context = span * (1 / std::clamp(share, 0.01, 1.0) - 1) / 2;
            m_viewport.showRange(start - context, end + context);
        }
        if (const TimelineLayout::Item* item = m_layout.itemOfRow(hit.row))
            if (item->y < m_scrollY || item->y + item->height > m_scrollY + rowsViewportHeight())
                setVerticalOffset(item->y - rowsViewportHeight() / 3);
    });
    return true;
}

bool TimelineView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    if (!m_index || m_rows.rows.empty()) {
        p.fillRect(rect(), palette().window());
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(rect(), Qt::AlignCenter,
            !m_message.isEmpty() ? m_message
                : m_index        ? tr("This profile has no GPU, CUDA API, NVTX or OS runtime events.")
                                 : tr("Open a profile to see its timeline."));
        return;
    }
    std::vector<QRectF> related;
    for (const Hit& hit : m_relatedHits)
        if (const QRectF r = hitRect(hit); !r.isEmpty())
            related.push_back(r);
    TimelineFrame frame { *m_index, m_rows.rows, m_counters.get(), m_viewport, m_layout, m_collapsed, m_selected,
        m_scrollY, QRect(0, kRulerHeight, kLabelWidth, rowsViewportHeight()),
        QRect(kLabelWidth, 0, timeAreaWidth(), kRulerHeight),
        QRect(kLabelWidth, kRulerHeight, timeAreaWidth(), rowsViewportHeight()), related, correlationArrows() };
    frame.marks = m_marks.get();
    TimelinePainter(p, frame, m_colors).paint();
    if (const auto [start, end] = selectedRange(); end > start) {
        const double x0 = std::max(0.0, m_viewport.xOf(double(start))) + kLabelWidth;
        const double x1 = std::min(double(timeAreaWidth()), m_viewport.xOf(double(end))) + kLabelWidth;
        if (x1 > x0) {
            const QRectF band(x0, 0, std::max(1.0, x1 - x0), height());
            p.fillRect(band, QColor(66, 133, 244, 50));
            p.setPen(QColor(66, 133, 244));
            p.drawLine(band.topLeft(), band.bottomLeft());
            p.drawLine(band.topRight(), band.bottomRight());
        }
    }
}

void TimelineView::setSampleMarks(std::shared_ptr<const SampleMarks> marks)
{
    m_marks = std::move(marks);
    update();
}

void TimelineView::resizeEvent(QResizeEvent*)
{
    // Keep the visible range when the width changes.
    const double start = m_viewport.start(), end = m_viewport.end();
    m_viewport.setWidth(timeAreaWidth());
    if (m_index)
        m_viewport.showRange(start, end);
    Q_EMIT verticalRangeChanged(contentHeight(), rowsViewportHeight());
    setVerticalOffset(m_scrollY);
}

void TimelineView::wheelEvent(QWheelEvent* e)
{
    const QPoint delta = e->angleDelta();
    if (e->position().x() < kLabelWidth || (e->modifiers() & Qt::ControlModifier)) {
        setVerticalOffset(m_scrollY - delta.y() / 2);
    } else if (e->modifiers() & Qt::ShiftModifier || std::abs(delta.x()) > std::abs(delta.y())) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        moveView(ViewHistory::Step::Wheel, [&]() { m_viewport.panPixels(-d / 2.0); });
    } else {
        moveView(ViewHistory::Step::Wheel,
            [&]() { m_viewport.zoomAt(e->position().x() - kLabelWidth, std::pow(1.25, delta.y() / 120.0)); });
    }
    e->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* e)
{
    // The mouse's own back and forward buttons, as in a browser.
    if (e->button() == Qt::BackButton || e->button() == Qt::ForwardButton) {
        e->button() == Qt::BackButton ? goBack() : goForward();
        return;
    }
    m_history.endBurst();
    m_pressPos = m_lastDragPos = e->pos();
    m_dragging = false;
    // Dragging on the ruler, or with Shift, selects a time range instead of panning.
    m_selecting = m_index && e->button() == Qt::LeftButton && e->pos().x() >= kLabelWidth
        && (e->pos().y() < kRulerHeight || (e->modifiers() & Qt::ShiftModifier));
    setFocus(Qt::MouseFocusReason);
}

void TimelineView::mouseMoveEvent(QMouseEvent* e)
{
    if (!(e->buttons() & Qt::LeftButton))
        return;
    if (!m_dragging && (e->pos() - m_pressPos).manhattanLength() < kClickSlopPx)
        return;
    m_dragging = true;
    if (m_selecting) {
        m_rangeFrom = m_viewport.timeAt(m_pressPos.x() - kLabelWidth);
        m_rangeTo = m_viewport.timeAt(std::clamp(e->pos().x(), kLabelWidth, width()) - kLabelWidth);
        update();
        return;
    }
    const QPoint d = e->pos() - m_lastDragPos;
    m_lastDragPos = e->pos();
    moveView(ViewHistory::Step::Drag, [&]() {
        m_viewport.panPixels(-d.x());
        setVerticalOffset(m_scrollY - d.y());
    });
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton && m_selecting && m_dragging) {
        const auto [start, end] = selectedRange();
        if (end > start)
            Q_EMIT rangeSelected(start, end);
    } else if (e->button() == Qt::LeftButton && !m_dragging) {
        clickAt(e->pos());
    }
    m_dragging = false;
    m_selecting = false;
    m_history.endBurst();
}

std::pair<TimeNs, TimeNs> TimelineView::selectedRange() const
{
    if (m_rangeFrom == m_rangeTo)
        return { kNoTime, kNoTime };
    return { TimeNs(std::llround(std::min(m_rangeFrom, m_rangeTo))),
        TimeNs(std::llround(std::max(m_rangeFrom, m_rangeTo))) };
}

void TimelineView::setSelectedRange(TimeNs start, TimeNs end)
{
    m_rangeFrom = start == kNoTime ? 0 : double(start);
    m_rangeTo = end == kNoTime ? 0 : double(end);
    update();
}

void TimelineView::clickAt(const QPoint& pos)
{
    if (!m_index)
        return;
    if (pos.x() < kLabelWidth && pos.y() >= kRulerHeight) {
        if (const TimelineLayout::Item* item = m_layout.itemAt(pos.y() - kRulerHeight + m_scrollY))
            setCollapsed(item->row, !isCollapsed(item->row));
        return;
    }
    const Hit hit = hitAt(pos);
    const EventRef event = hit.valid() ? m_index->eventAt(hit.lane, std::uint32_t(hit.pos)) : EventRef {};
    selectEvent(event);
    Q_EMIT eventClicked(event);
}

void TimelineView::keyPressEvent(QKeyEvent* e)
{
    if (e->modifiers() & Qt::AltModifier && (e->key() == Qt::Key_Left || e->key() == Qt::Key_Right)) {
        e->key() == Qt::Key_Left ? goBack() : goForward();
        return;
    }
    switch (e->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(kZoomStep);
        break;
    case Qt::Key_S:
    case Qt::Key_Minus:
        zoomBy(1 / kZoomStep);
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        panBy(-kPanStep);
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        panBy(kPanStep);
        break;
    case Qt::Key_F:
    case Qt::Key_Home:
        fitAll();
        break;
    default:
        QWidget::keyPressEvent(e);
    }
}

} // namespace nsw
