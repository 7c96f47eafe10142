// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinepainter.h"

#include "widgets/timeline/rulerticks.h"

#include <QFontMetrics>
#include <cmath>

namespace nsw {

namespace {

constexpr int kMinTextWidth = 28;

bool darkText(const QColor& c)
{
    return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue() > 150;
}

/// Merged spans are darker the more events they hold per pixel, so a dense stretch reads apart from a lone event.
/// Scaling R, G and B alike is QColor::darker() (which scales HSV's value) without its two conversions, which cost a
/// mid-zoom paint of a 4M-kernel profile several milliseconds.
QColor densityShade(const QColor& base, double eventsPerPixel)
{
    // 22 * log2(1 + x) reaches the cap of 90 at x = 2^(90/22) - 1 ~ 16.
    const int darker = eventsPerPixel >= 16 ? 190 : 100 + int(std::min(90.0, 22 * std::log2(1 + eventsPerPixel)));
    const QRgb rgb = base.rgb();
    return QColor(qRed(rgb) * 100 / darker, qGreen(rgb) * 100 / darker, qBlue(rgb) * 100 / darker);
}

/// NVLink rows in NVIDIA green, the other metrics of a group in hues that differ from their neighbours'.
QColor counterColor(const TimelineCounters& counters, std::uint32_t track)
{
    const CounterTrack& c = counters.tracks()[track];
    if (c.label.startsWith(QLatin1String("NVLink")))
        return QColor(96, 160, 0);
    static const QColor palette[] = { QColor(45, 110, 200), QColor(200, 95, 30), QColor(130, 70, 180),
        QColor(20, 140, 140), QColor(190, 50, 90), QColor(150, 120, 20) };
    std::size_t ordinal = 0;
    for (std::uint32_t k = 0; k < track; ++k)
        ordinal
            += counters.tracks()[k].group == c.group && !counters.tracks()[k].label.startsWith(QLatin1String("NVLink"));
    return palette[ordinal % (sizeof(palette) / sizeof(palette[0]))];
}

} // namespace

TimelinePainter::TimelinePainter(QPainter& painter, const TimelineFrame& frame, EventColors& colors)
    : m_p(painter)
    , m_f(frame)
    , m_colors(colors)
    , m_viewStart(frame.viewport.start())
    , m_pixelsPerNs(1 / frame.viewport.nsPerPixel())
    , m_laneRow(std::max(1, frame.area.width()), 1, QImage::Format_ARGB32_Premultiplied)
{
    m_laneRow.fill(Qt::transparent);
}

void TimelinePainter::paint()
{
    paintRowBackgrounds();
    m_p.save();
    m_p.setClipRect(m_f.area);
    const int top = m_f.area.top() - m_f.scrollY;
    for (const TimelineLayout::Item& item : m_f.layout.items()) {
        if (top + item.y + item.height < m_f.area.top() || top + item.y > m_f.area.bottom())
            continue;
        const TimelineRow& row = m_f.rows[std::size_t(item.row)];
        if (row.kind == TrackKind::Counter && m_f.counters)
            paintCounter(row.counter, top + item.y, item.height);
        for (std::uint32_t l = 0; l < row.laneCount; ++l)
            paintLane(row.firstLane + l, top + TimelineLayout::laneTop(item, l));
    }
    paintSampleMarks();
    paintCorrelation();
    paintSelection();
    m_p.restore();
    paintLabels();
    paintRuler();
}

QRect TimelinePainter::spanRect(TimeNs start, TimeNs end, int top) const
{
    // Whole pixels (the raster engine's fast path), clipped to just outside the area, at least one pixel wide.
    const double w = m_f.area.width();
    const int x0 = int(std::floor(std::clamp((double(start) - m_viewStart) * m_pixelsPerNs, -2.0, w + 2)));
    const int x1 = int(std::ceil(std::clamp((double(end) - m_viewStart) * m_pixelsPerNs, -2.0, w + 2)));
    return QRect(m_f.area.left() + x0, top + 1, std::max(1, x1 - x0), TimelineLayout::kLaneHeight - 2);
}

void TimelinePainter::paintLane(std::uint32_t lane, int top)
{
    const TimelineViewport& vp = m_f.viewport;
    const TimelineIndex& index = m_f.index;
    index.spans(lane, TimeNs(std::floor(vp.start())), TimeNs(std::ceil(vp.end())), vp.nsPerPixel(), m_spans);
    if (m_spans.empty())
        return;
    const bool busy = index.lanes()[lane].source == LaneSource::GpuBusy;
    // A mid-zoom view holds ~150k spans, and a fillRect() each cost ~130 ns of QPainter bookkeeping, beyond the 16 ms
    // of a frame: the spans are written into one pixel row, which is then drawn lane-high in one call (transparent
    // where there is no span).
    QRgb* row = reinterpret_cast<QRgb*>(m_laneRow.scanLine(0));
    const int width = m_laneRow.width();
    int touchedFrom = width, touchedTo = 0;
    for (const TimelineSpan& span : m_spans) {
        const QRect r = spanRect(span.start, span.end, top);
        const int x0 = std::max(0, r.left() - m_f.area.left());
        const int x1 = std::min(width, r.left() - m_f.area.left() + r.width());
        if (x1 <= x0)
            continue;
        QColor color
            = busy ? EventColors::busyColor() : m_colors.colorOf(index.profile(), index.eventAt(lane, span.first));
        if (span.count > 1)
            color = densityShade(color, double(span.count) / r.width());
        std::fill(row + x0, row + x1, color.rgba()); // opaque: premultiplied is the same
        touchedFrom = std::min(touchedFrom, x0);
        touchedTo = std::max(touchedTo, x1);
    }
    if (touchedTo > touchedFrom) {
        // Only the stretch the spans touched: a lane with a few spans blends a few pixels, not the whole width.
        const int touched = touchedTo - touchedFrom;
        m_p.drawImage(QRect(m_f.area.left() + touchedFrom, top + 1, touched, TimelineLayout::kLaneHeight - 2),
            m_laneRow, QRect(touchedFrom, 0, touched, 1));
        std::fill(row + touchedFrom, row + touchedTo, 0u);
    }
    if (!busy)
        for (const TimelineSpan& span : m_spans)
            if (span.count == 1)
                paintName(lane, span, top);
}

void TimelinePainter::paintName(std::uint32_t lane, const TimelineSpan& span, int top)
{
    const QRect r = spanRect(span.start, span.end, top);
    if (r.width() < kMinTextWidth)
        return;
    const QRect visible = r.intersected(m_f.area).adjusted(3, 0, -2, 0);
    if (visible.width() < kMinTextWidth - 5)
        return;
    const TimelineIndex& index = m_f.index;
    const EventRef event = index.eventAt(lane, span.first);
    // Demangled names run to hundreds of characters: shape only what could fit.
    const QString name = eventName(index.profile(), event).left(visible.width() / 3 + 2);
    const QString text = m_p.fontMetrics().elidedText(name, Qt::ElideRight, visible.width());
    if (text.isEmpty() || text == QStringLiteral("…"))
        return;
    m_p.setPen(darkText(m_colors.colorOf(index.profile(), event)) ? Qt::black : Qt::white);
    m_p.drawText(visible, Qt::AlignVCenter | Qt::AlignLeft, text);
}

void TimelinePainter::paintCounter(std::uint32_t track, int top, int height)
{
    const CounterTrack& c = m_f.counters->tracks()[track];
    const TimelineViewport& vp = m_f.viewport;
    const std::vector<CounterColumn> columns
        = m_f.counters->columns(track, vp.start(), vp.nsPerPixel(), m_f.area.width());
    const int baseline = top + height - 3, usable = height - 7, left = m_f.area.left();
    const QColor line = counterColor(*m_f.counters, track);
    // Opaque (the colour at 45 % over the row background): whole-pixel opaque rectangles are the raster engine's
    // fast path, where a translucent polygon of thousands of vertices is not.
    const auto mix = [&](int c, int bg) { return int(std::lround(c * 0.45 + bg * 0.55)); };
    const QColor fill(mix(line.red(), 248), mix(line.green(), 248), mix(line.blue(), 249));
    m_p.fillRect(QRect(m_f.area.left(), baseline, m_f.area.width(), 1), QColor(205, 208, 214));
    // Runs of columns of one height: a filled rectangle down to the baseline, a line on top, a step between runs.
    int runStart = -1, runY = 0;
    const auto flush = [&](int end) {
        if (runStart < 0)
            return;
        if (runY < baseline)
            m_p.fillRect(QRect(left + runStart, runY, end - runStart, baseline - runY), fill);
        m_p.fillRect(QRect(left + runStart, runY, end - runStart, 1), line);
        runStart = -1;
    };
    int previousY = -1;
    for (int x = 0; x < int(columns.size()); ++x) {
        if (!columns[std::size_t(x)].hasData) {
            flush(x);
            previousY = -1;
            continue;
        }
        const double share = std::clamp(columns[std::size_t(x)].max / c.fullScale, 0.0, 1.0);
        // A non-zero value is at least a pixel high, so that a small peak is still seen.
        const int h = columns[std::size_t(x)].max > 0 ? std::max(1, int(std::lround(share * usable))) : 0;
        const int y = baseline - h;
        if (runStart >= 0 && y == runY)
            continue;
        flush(x);
        if (previousY >= 0 && previousY != y)
            m_p.fillRect(QRect(left + x, std::min(previousY, y), 1, std::abs(previousY - y) + 1), line);
        runStart = x;
        runY = previousY = y;
    }
    flush(int(columns.size()));
}

void TimelinePainter::paintSelection()
{
    if (!m_f.selected.valid())
        return;
    const Profile& profile = m_f.index.profile();
    const TimeNs start = eventStart(profile, m_f.selected), end = eventEnd(profile, m_f.selected);
    const int top = m_f.area.top() - m_f.scrollY;
    for (const TimelineLayout::Item& item : m_f.layout.items()) {
        if (top + item.y + item.height < m_f.area.top() || top + item.y > m_f.area.bottom())
            continue;
        const TimelineRow& row = m_f.rows[std::size_t(item.row)];
        for (std::uint32_t l = 0; l < row.laneCount; ++l) {
            const std::uint32_t lane = row.firstLane + l;
            const std::uint32_t n = m_f.index.lanes()[lane].count;
            for (std::uint32_t k = m_f.index.firstEndingAtOrAfter(lane, start);
                 k < n && m_f.index.startAt(lane, k) <= start; ++k) {
                if (m_f.index.eventAt(lane, k) != m_f.selected)
                    continue;
                const QRect r = spanRect(start, end, top + TimelineLayout::laneTop(item, l)).adjusted(-1, -1, 1, 1);
                m_p.setPen(QPen(Qt::black, 2));
                m_p.setBrush(Qt::NoBrush);
                m_p.drawRect(r);
                m_p.setPen(QPen(QColor(255, 230, 0), 1));
                m_p.drawRect(r.adjusted(-2, -2, 2, 2));
                return;
            }
        }
    }
}

void TimelinePainter::paintCorrelation()
{
    m_p.save();
    m_p.setRenderHint(QPainter::Antialiasing);
    m_p.setBrush(Qt::NoBrush);
    for (const QRectF& r : m_f.related) {
        m_p.setPen(QPen(Qt::black, 2));
        m_p.drawRect(r.adjusted(-1, -1, 1, 1));
        m_p.setPen(QPen(QColor(255, 140, 0), 1.5));
        m_p.drawRect(r.adjusted(-3, -3, 3, 3));
    }
    const QColor arrowColor(220, 90, 0);
    for (const QLineF& line : m_f.arrows) {
        if (line.length() < 1)
            continue;
        m_p.setPen(QPen(arrowColor, 1.5));
        m_p.drawLine(line);
        // The head: two 8 px strokes 25 degrees either side of the line, at its end.
        const QLineF back(line.p2(), line.p1());
        for (const double turn : { 25.0, -25.0 }) {
            QLineF stroke = back;
            stroke.setLength(8);
            stroke.setAngle(back.angle() + turn);
            m_p.drawLine(stroke);
        }
    }
    m_p.restore();
}

void TimelinePainter::paintSampleMarks()
{
    if (!m_f.marks)
        return;
    const int top = m_f.area.top() - m_f.scrollY;
    const QColor mark(220, 60, 200);
    for (const TimelineLayout::Item& item : m_f.layout.items()) {
        const TimelineRow& row = m_f.rows[std::size_t(item.row)];
        const auto it = row.thread >= 0 ? m_f.marks->times.find(row.thread) : m_f.marks->times.end();
        if (it == m_f.marks->times.end() || top + item.y + item.height < m_f.area.top()
            || top + item.y > m_f.area.bottom())
            continue;
        const std::vector<TimeNs>& times = it->second;
        auto t = std::lower_bound(times.begin(), times.end(), TimeNs(std::floor(m_viewStart)));
        int lastX = std::numeric_limits<int>::min();
        for (; t != times.end(); ++t) {
            const int x = int(std::floor((double(*t) - m_viewStart) * m_pixelsPerNs));
            if (x > m_f.area.width())
                break;
            if (x == lastX)
                continue;
            lastX = x;
            m_p.fillRect(QRect(m_f.area.left() + x, top + item.y + 2, 2, TimelineLayout::kGroupHeight - 4), mark);
        }
    }
}

void TimelinePainter::paintRowBackgrounds()
{
    const QColor even(250, 250, 250), odd(240, 242, 245), group(225, 229, 236), separator(215, 218, 224);
    const int top = m_f.area.top() - m_f.scrollY;
    m_p.fillRect(m_f.area.united(m_f.labels), even);
    int topLevel = 0;
    for (const TimelineLayout::Item& item : m_f.layout.items()) {
        const TimelineRow& row = m_f.rows[std::size_t(item.row)];
        if (row.parent < 0)
            ++topLevel;
        const QRect r(m_f.labels.left(), top + item.y, m_f.labels.width() + m_f.area.width(), item.height);
        if (r.bottom() < m_f.area.top() || r.top() > m_f.area.bottom())
            continue;
        m_p.fillRect(r, row.isGroup() ? group : (topLevel % 2 ? odd : even));
        // The separator as a one-pixel fill: QPainter::drawLine() cost ~10 µs a row, a tenth of the whole paint.
        m_p.fillRect(QRect(r.left(), r.bottom(), r.width(), 1), separator);
    }
}

void TimelinePainter::paintLabels()
{
    m_p.save();
    m_p.setClipRect(m_f.labels);
    const int top = m_f.area.top() - m_f.scrollY;
    QFont bold = m_p.font();
    bold.setBold(true);
    const QFont normal = m_p.font();
    for (const TimelineLayout::Item& item : m_f.layout.items()) {
        const TimelineRow& row = m_f.rows[std::size_t(item.row)];
        const int y = top + item.y;
        if (y + item.height < m_f.labels.top() || y > m_f.labels.bottom())
            continue;
        const int indent = 6 + row.level * 14;
        QRect text(m_f.labels.left() + indent, y, m_f.labels.width() - indent - 4, std::min(item.height, 22));
        m_p.setPen(QColor(40, 40, 40));
        if (row.isGroup()) {
            const bool collapsed = std::size_t(item.row) < m_f.collapsed.size() && m_f.collapsed[std::size_t(item.row)];
            m_p.setFont(bold);
            m_p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
                m_p.fontMetrics().elidedText((collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + row.label,
                    Qt::ElideRight, text.width()));
            m_p.setFont(normal);
        } else {
            m_p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
                m_p.fontMetrics().elidedText(row.label, Qt::ElideRight, text.width()));
            if (row.kind == TrackKind::Counter && m_f.counters)
                paintCounterScale(m_f.counters->tracks()[row.counter], text.translated(0, item.height - 22));
        }
    }
    m_p.setPen(QColor(190, 194, 200));
    m_p.drawLine(m_f.labels.topRight(), m_f.labels.bottomRight());
    m_p.restore();
}

void TimelinePainter::paintCounterScale(const CounterTrack& track, const QRect& line)
{
    m_p.save();
    QFont small = m_p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_p.setFont(small);
    m_p.setPen(QColor(110, 110, 110));
    m_p.drawText(line.adjusted(0, 0, 0, -2), Qt::AlignBottom | Qt::AlignRight,
        QStringLiteral("0 – %1").arg(formatCounterValue(track.fullScale, track.unit)));
    m_p.restore();
}

void TimelinePainter::paintRuler()
{
    const QRect& r = m_f.ruler;
    m_p.fillRect(r.adjusted(-m_f.labels.width(), 0, 0, 0), QColor(232, 235, 240));
    const TimelineViewport& vp = m_f.viewport;
    const double origin = double(m_f.index.origin());
    const RulerTicks ticks = rulerTicks(vp.start() - origin, vp.end() - origin, vp.nsPerPixel());
    m_p.save();
    m_p.setClipRect(r);
    for (const RulerTick& tick : ticks.ticks) {
        const int x = r.left() + int(std::lround(vp.xOf(tick.time + origin)));
        m_p.setPen(QColor(90, 90, 90));
        m_p.drawLine(x, r.bottom() - (tick.major ? 8 : 4), x, r.bottom());
        if (tick.major)
            m_p.drawText(QRect(x + 3, r.top(), 200, r.height() - 6), Qt::AlignVCenter | Qt::AlignLeft, tick.label);
    }
    m_p.restore();
    const QString corner = ticks.base.isEmpty() ? QStringLiteral("session time") : QStringLiteral("from ") + ticks.base;
    m_p.setPen(QColor(70, 70, 70));
    m_p.drawText(QRect(6, r.top(), m_f.labels.width() - 10, r.height()), Qt::AlignVCenter | Qt::AlignLeft, corner);
    m_p.setPen(QColor(190, 194, 200));
    m_p.drawLine(r.left() - m_f.labels.width(), r.bottom(), r.right(), r.bottom());
}

} // namespace nsw
