// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkplot.h"

#include "widgets/common/legendentries.h"
#include "widgets/common/plotexport.h"

#include <algorithm>
#include <numeric>

namespace nsw {

namespace {
constexpr double kMinSpanSeconds = 1e-6;
}

NvlinkPlot::NvlinkPlot(QWidget* parent)
    : Chart(parent)
    , m_throughputRect(axisRect(0))
    , m_ncclRect(new QCPAxisRect(this))
{
    setMinimumHeight(220);
    plotLayout()->addElement(1, 0, m_ncclRect);
    // The legend in a row of its own above the plot, wrapped into as many columns as fit (fitLegend): inside the
    // axis rect it hid the data under it, the highest peak included. An unbounded spacer beside it keeps the row
    // from capping the plot's width at the legend's.
    m_legendRow = new QCPLayoutGrid;
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_legendRow);
    m_legendRow->addElement(0, 1, new QCPLayoutElement(this));
    m_legendRow->setColumnStretchFactor(0, 0.001);
    m_legendRow->setMargins(QMargins(6, 2, 6, 0));
    plotLayout()->setRowStretchFactors({ 0.001, 1.0, 0.14 });
    plotLayout()->setRowSpacing(0);
    auto* margins = new QCPMarginGroup(this);
    m_throughputRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_ncclRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_throughputRect->setAutoMargins(QCP::msLeft | QCP::msRight | QCP::msTop);
    m_throughputRect->setMargins(QMargins(0, 0, 0, 4));

    QCPAxis* x = m_throughputRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_throughputRect->axis(QCPAxis::atLeft);
    x->setTickLabels(false);
    y->setLabel(tr("GB/s"));
    y->setRange(0, 1);
    QCPAxis* nx = m_ncclRect->axis(QCPAxis::atBottom);
    QCPAxis* ny = m_ncclRect->axis(QCPAxis::atLeft);
    nx->setLabel(timeAxisLabel(SecondsTicker::Origin {}));
    x->setTicker(m_ticker);
    nx->setTicker(m_ticker);
    ny->setRange(0, 1);
    ny->setTicks(false);
    ny->setTickLabels(false);
    ny->setLabel(tr("NCCL"));
    ny->grid()->setVisible(false);
    ny->setLabelFont(QFont(font().family(), 7));

    m_ncclGraph = addGraph(nx, ny);
    m_ncclGraph->setName(tr("NCCL kernels running"));
    m_ncclGraph->setLineStyle(QCPGraph::lsStepLeft);
    m_ncclGraph->setPen(QPen(QColor(0xc2, 0x41, 0x0c)));
    m_ncclGraph->setBrush(QColor(0xf9, 0x73, 0x16, 150));
    m_ncclGraph->removeFromLegend();

    m_peakGraph = addGraph(x, y);
    m_peakGraph->setName(tr("Top peaks"));
    m_peakGraph->setLineStyle(QCPGraph::lsNone);
    m_peakGraph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), QColor(255, 215, 0), 8));
    m_peakGraph->removeFromLegend();

    m_highlight = new QCPItemRect(this);
    m_highlight->setClipAxisRect(m_throughputRect);
    for (QCPItemPosition* p : { m_highlight->topLeft, m_highlight->bottomRight }) {
        p->setAxisRect(m_throughputRect);
        p->setAxes(x, y);
        p->setTypeX(QCPItemPosition::ptPlotCoords);
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    m_highlight->topLeft->setCoords(0, 0);
    m_highlight->bottomRight->setCoords(0, 1);
    m_highlight->setPen(QPen(QColor(37, 99, 235, 200), 1.5));
    m_highlight->setBrush(QColor(59, 130, 246, 70));
    m_highlight->setVisible(false);
    markScreenOnly(m_highlight);

    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setSelectableParts(QCPLegend::spNone);
    m_throughputRect->insetLayout()->take(legend);
    m_throughputRect->insetLayout()->simplify();
    m_legendRow->addElement(0, 0, legend);
    connect(this, &QCustomPlot::afterLayout, this, &NvlinkPlot::placePeakLabels);

    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    for (QCPAxisRect* r : { m_throughputRect, m_ncclRect }) {
        r->setRangeDrag(Qt::Horizontal);
        r->setRangeZoom(Qt::Horizontal);
        r->setRangeDragAxes(r->axis(QCPAxis::atBottom), nullptr);
        r->setRangeZoomAxes(r->axis(QCPAxis::atBottom), nullptr);
    }
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &NvlinkPlot::onRangeChanged);
    connect(nx, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &NvlinkPlot::onRangeChanged);
    connect(this, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int index, QMouseEvent*) {
        if (p == m_peakGraph && index >= 0 && std::size_t(index) < m_peakRankOfPoint.size())
            Q_EMIT peakClicked(m_peakRankOfPoint[std::size_t(index)]);
    });
    m_reduceTimer.setSingleShot(true);
    m_reduceTimer.setInterval(0);
    connect(&m_reduceTimer, &QTimer::timeout, this, &NvlinkPlot::refresh);
}

void NvlinkPlot::setSeries(std::vector<NvlinkPlotSeries> series, const QString& yLabel)
{
    for (QCPGraph* g : m_graphs)
        removeGraph(g);
    m_graphs.clear();
    m_series = std::move(series);
    m_throughputRect->axis(QCPAxis::atLeft)->setLabel(yLabel);
    bool any = false;
    for (const NvlinkPlotSeries& s : m_series) {
        QCPGraph* g = addGraph(m_throughputRect->axis(QCPAxis::atBottom), m_throughputRect->axis(QCPAxis::atLeft));
        g->setName(s.name);
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(s.color, 1.2, s.style));
        g->setAdaptiveSampling(false); // the data is already one or two points per pixel
        m_graphs.push_back(g);
        const ThroughputSeries& ts = *s.series;
        if (ts.time.size() < 2)
            continue;
        const TimeNs a = ts.time.front() + s.shift, z = ts.time.back() + s.shift;
        m_dataFrom = any ? std::min(m_dataFrom, a) : a;
        m_dataTo = any ? std::max(m_dataTo, z) : z;
        any = true;
    }
    if (!any)
        m_dataFrom = m_dataTo = 0;
    // A hidden legend would still take its row's height: it leaves the layout instead.
    const bool showLegend = !m_series.empty() && m_series.size() <= 12;
    legend->setVisible(showLegend);
    if (showLegend && !m_legendRow->hasElement(0, 0))
        m_legendRow->addElement(0, 0, legend);
    else if (!showLegend && m_legendRow->hasElement(0, 0))
        m_legendRow->take(legend);
    keepLegendInk(*legend);
    fitLegend();
    m_reduceTimer.start();
}

void NvlinkPlot::setNcclBusy(std::vector<std::pair<TimeNs, TimeNs>> busy)
{
    m_busy = std::move(busy);
    m_reduceTimer.start();
}

void NvlinkPlot::setPeaks(std::vector<NvlinkPlotPeak> peaks)
{
    m_peaks = std::move(peaks);
    std::sort(m_peaks.begin(), m_peaks.end(),
        [](const NvlinkPlotPeak& a, const NvlinkPlotPeak& b) { return a.start + a.end < b.start + b.end; });
    for (QCPItemText* t : m_peakLabels)
        removeItem(t);
    m_peakLabels.clear();
    m_peakRankOfPoint.clear();
    QVector<double> xs, ys;
    for (const NvlinkPlotPeak& p : m_peaks) {
        const double mid = (plotSeconds(p.start) + plotSeconds(p.end)) / 2;
        xs.append(mid);
        ys.append(p.y);
        m_peakRankOfPoint.push_back(p.rank);
        auto* label = new QCPItemText(this);
        label->setClipAxisRect(m_throughputRect);
        label->position->setAxisRect(m_throughputRect);
        label->position->setAxes(m_throughputRect->axis(QCPAxis::atBottom), m_throughputRect->axis(QCPAxis::atLeft));
        label->position->setCoords(mid, p.y);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setPadding(QMargins(0, 0, 0, 6)); // placePeakLabels moves it where it collides with nothing
        label->setText(QStringLiteral("#%1").arg(p.rank));
        label->setFont(QFont(font().family(), 8, QFont::Bold));
        m_peakLabels.push_back(label);
    }
    m_peakGraph->setData(xs, ys, true);
    m_reduceTimer.start();
}

void NvlinkPlot::highlightPeak(int rank, bool reveal)
{
    const auto it
        = std::find_if(m_peaks.begin(), m_peaks.end(), [rank](const NvlinkPlotPeak& p) { return p.rank == rank; });
    if (it == m_peaks.end()) {
        m_highlight->setVisible(false);
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    // At least a few pixels wide, so that a 1 ms interval in a 10 min view is still visible.
    const QCPRange range = m_throughputRect->axis(QCPAxis::atBottom)->range();
    const double minWidth = range.size() / std::max(1, m_throughputRect->width()) * 6;
    double a = plotSeconds(it->start), z = plotSeconds(it->end);
    if (z - a < minWidth) {
        const double mid = (a + z) / 2;
        a = mid - minWidth / 2;
        z = mid + minWidth / 2;
    }
    m_highlight->topLeft->setCoords(a, 0);
    m_highlight->bottomRight->setCoords(z, 1);
    m_highlight->setVisible(true);
    if (reveal && (a < range.lower || z > range.upper)) {
        const double half = range.size() / 2, mid = (a + z) / 2;
        m_throughputRect->axis(QCPAxis::atBottom)->setRange(mid - half, mid + half);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void NvlinkPlot::showRange(TimeNs from, TimeNs to)
{
    if (from >= to) {
        from = m_dataFrom;
        to = m_dataTo;
    }
    if (from >= to)
        to = from + 1000000000;
    m_throughputRect->axis(QCPAxis::atBottom)->setRange(plotSeconds(from), plotSeconds(to));
    m_reduceTimer.start();
}

bool NvlinkPlot::rangeShowsData() const
{
    const QCPRange range = m_throughputRect->axis(QCPAxis::atBottom)->range();
    return range.upper > plotSeconds(m_dataFrom) && range.lower < plotSeconds(m_dataTo);
}

void NvlinkPlot::onRangeChanged(const QCPRange& range)
{
    if (m_syncing)
        return;
    m_syncing = true;
    QCPRange r = range;
    if (r.size() < kMinSpanSeconds)
        r = QCPRange(r.center() - kMinSpanSeconds / 2, r.center() + kMinSpanSeconds / 2);
    m_throughputRect->axis(QCPAxis::atBottom)->setRange(r);
    m_ncclRect->axis(QCPAxis::atBottom)->setRange(r);
    m_syncing = false;
    m_reduceTimer.start();
}

void NvlinkPlot::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    fitLegend();
    m_reduceTimer.start();
}

void NvlinkPlot::clearData()
{
    setSeries({}, tr("GB/s"));
    setPeaks({});
    setNcclBusy({});
    m_highlight->setVisible(false);
    showRange();
    refresh();
}

QString NvlinkPlot::timeAxisLabel(const SecondsTicker::Origin& origin)
{
    return origin.relative ? tr("Seconds after %1 (session time)").arg(SecondsTicker::originText(origin))
                           : tr("Session time (s)");
}

void NvlinkPlot::fitLegend()
{
    // Columns first, as many as the widest entry allows across the plot (so that no entry is squeezed or cut).
    int widest = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem* item = legend->item(i))
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const int room = width() - m_legendRow->margins().left() - m_legendRow->margins().right() - 12;
    const int columns = widest > 0 ? std::max(1, room / (widest + legend->columnSpacing())) : 1;
    if (legend->wrap() != columns || legend->fillOrder() != QCPLayoutGrid::foColumnsFirst) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

std::vector<QRectF> NvlinkPlot::markRects() const
{
    std::vector<QRectF> marks;
    const QCPAxis* x = m_throughputRect->axis(QCPAxis::atBottom);
    const QCPAxis* y = m_throughputRect->axis(QCPAxis::atLeft);
    const double r = m_peakGraph->scatterStyle().size() / 2 + 1;
    for (const NvlinkPlotPeak& p : m_peaks) {
        const QPointF at(x->coordToPixel((plotSeconds(p.start) + plotSeconds(p.end)) / 2), y->coordToPixel(p.y));
        marks.emplace_back(at.x() - r, at.y() - r, 2 * r, 2 * r);
    }
    return marks;
}

void NvlinkPlot::placePeakLabels()
{
    // Highest rank first: each label goes above its mark, else beside it, else higher up; one that would still cover
    // another label or mark is left out (the mark stays, and the peak list names it).
    const QRect area = m_throughputRect->rect();
    const std::vector<QRectF> marks = markRects();
    std::vector<std::size_t> order(m_peaks.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(
        order.begin(), order.end(), [this](std::size_t a, std::size_t b) { return m_peaks[a].rank < m_peaks[b].rank; });
    std::vector<QRectF> taken;
    for (const std::size_t i : order) {
        QCPItemText* label = m_peakLabels[i];
        const QRectF mark = marks[i];
        if (!QRectF(area).contains(mark.center())) {
            label->setVisible(false);
            continue;
        }
        // The text's rectangle as QCustomPlot measures it.
        const QRect measured = QFontMetrics(label->font())
                                   .boundingRect(0, 0, 0, 0, Qt::TextDontClip | label->textAlignment(), label->text());
        const QSizeF text(measured.width(), measured.height());
        const double gap = 3;
        struct Place
        {
            Qt::Alignment alignment;
            QMargins padding;
            QRectF box;
        };
        const QPointF c = mark.center();
        const double h = text.height(), w = text.width(), half = mark.height() / 2;
        const Place places[] = {
            { Qt::AlignHCenter | Qt::AlignBottom, QMargins(0, 0, 0, int(half + gap)),
                QRectF(c.x() - w / 2, c.y() - half - gap - h, w, h) },
            { Qt::AlignLeft | Qt::AlignVCenter, QMargins(int(half + gap), 0, 0, 0),
                QRectF(c.x() + half + gap, c.y() - h / 2, w, h) },
            { Qt::AlignRight | Qt::AlignVCenter, QMargins(0, 0, int(half + gap), 0),
                QRectF(c.x() - half - gap - w, c.y() - h / 2, w, h) },
            { Qt::AlignHCenter | Qt::AlignBottom, QMargins(0, 0, 0, int(half + gap + h)),
                QRectF(c.x() - w / 2, c.y() - half - gap - 2 * h, w, h) },
        };
        const Place* chosen = nullptr;
        for (const Place& place : places) {
            if (!QRectF(area).contains(place.box))
                continue;
            // Against other labels with the padding, as QCustomPlot reports a label's box; against marks the text
            // alone. A pixel more all round for QCustomPlot's rounding of positions.
            const QRectF box = place.box.marginsAdded(QMarginsF(place.padding)).adjusted(-1, -1, 1, 1);
            const QRectF ink = place.box.adjusted(-1, -1, 1, 1);
            const auto hits = [&](const QRectF& r) { return r.intersects(ink); };
            if (std::any_of(taken.begin(), taken.end(), [&](const QRectF& r) { return r.intersects(box); }))
                continue;
            bool coversMark = false;
            for (std::size_t m = 0; m < marks.size(); ++m)
                coversMark = coversMark || (m != i && hits(marks[m]));
            if (coversMark)
                continue;
            chosen = &place;
            taken.push_back(box);
            break;
        }
        label->setVisible(chosen != nullptr);
        if (chosen) {
            label->setPositionAlignment(chosen->alignment);
            label->setPadding(chosen->padding);
        }
    }
}

void NvlinkPlot::refresh()
{
    m_reduceTimer.stop();
    reduce();
    replot(QCustomPlot::rpQueuedReplot);
}

void NvlinkPlot::reduce()
{
    const QCPRange range = m_throughputRect->axis(QCPAxis::atBottom)->range();
    m_ncclRect->axis(QCPAxis::atBottom)->setLabel(timeAxisLabel(m_ticker->originFor(range)));
    const TimeNs from = TimeNs(range.lower * 1e9), to = TimeNs(range.upper * 1e9);
    const int buckets = std::max(100, m_throughputRect->width());
    double yMax = 0;
    for (std::size_t i = 0; i < m_series.size(); ++i) {
        const NvlinkPlotSeries& s = m_series[i];
        const PlotPoints pts = reduceForPlot(*s.series, *s.index, s.shift, from, to, buckets, s.scale);
        m_graphs[i]->setData(
            QVector<double>(pts.x.begin(), pts.x.end()), QVector<double>(pts.y.begin(), pts.y.end()), true);
        yMax = std::max(yMax, pts.yMax);
    }
    for (const NvlinkPlotPeak& p : m_peaks)
        if (p.end > from && p.start < to)
            yMax = std::max(yMax, p.y);
    // Head room for the peak labels above their marks.
    m_throughputRect->axis(QCPAxis::atLeft)->setRange(0, yMax > 0 ? yMax * (m_peaks.empty() ? 1.08 : 1.22) : 1.0);

    const int bandBuckets = std::max(50, m_ncclRect->width() / 2);
    const std::vector<double> busy = busyFraction(m_busy, from, to, bandBuckets);
    QVector<double> bx, by;
    if (!m_busy.empty() && to > from) {
        const double width = (range.upper - range.lower) / bandBuckets;
        for (int b = 0; b < bandBuckets; ++b) {
            bx.append(range.lower + b * width);
            by.append(busy[std::size_t(b)]);
        }
        bx.append(range.upper);
        by.append(by.back());
    }
    m_ncclGraph->setData(bx, by, true);
}

int NvlinkPlot::plottedPoints() const
{
    int n = m_ncclGraph->dataCount() + m_peakGraph->dataCount();
    for (const QCPGraph* g : m_graphs)
        n += g->dataCount();
    return n;
}

QString saveNvlinkPlotPng(std::vector<NvlinkPlotSeries> series, const QString& yLabel,
    std::vector<NvlinkPlotPeak> peaks, std::vector<std::pair<TimeNs, TimeNs>> ncclBusy, const QString& title,
    const QString& fileName, QSize size)
{
    NvlinkPlot plot;
    plot.resize(size);
    if (!title.isEmpty()) {
        plot.plotLayout()->insertRow(0);
        plot.plotLayout()->addElement(
            0, 0, new QCPTextElement(&plot, title, QFont(plot.font().family(), 10, QFont::Bold)));
    }
    plot.setSeries(std::move(series), yLabel);
    plot.setPeaks(std::move(peaks));
    plot.setNcclBusy(std::move(ncclBusy));
    plot.showRange();
    plot.replot(); // lays out the axis rects, so that the reduction knows their width in pixels
    plot.refresh();
    plot.replot();
    PngExportOptions options;
    options.width = size.width();
    options.height = size.height();
    return savePlotPng(plot, fileName, options);
}

} // namespace nsw
