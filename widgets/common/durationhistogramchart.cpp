// SPDX-License-Identifier: GPL-3.0-or-later
#include "durationhistogramchart.h"

#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "widgets/common/axisticks.h"
#include "widgets/common/plotexport.h"

#include <QToolTip>
#include <cmath>
#include <utility>

namespace nsw {

namespace {
const QColor kBarColor(118, 185, 0);
const QColor kBrushColor(32, 96, 200);

/// Decade ticks labelled as durations ("10 µs", "1 ms").
class DurationLogTicker : public QCPAxisTickerLog
{
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return formatDuration(qint64(tick)); }
};
/// Evenly spaced ticks for a histogram narrower than a decade, where decade ticks would leave the axis bare.
class DurationLinearTicker : public QCPAxisTicker
{
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return formatDuration(qint64(tick)); }
};

struct Percentile
{
    const char* label;
    double value;
    QColor color;
    Qt::PenStyle style;
};
} // namespace

DurationHistogramChart::DurationHistogramChart(QWidget* parent)
    : Chart(parent)
    , m_title(new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() - 1, QFont::Bold)))
    , m_bars(addGraph())
    , m_brushBars(addGraph())
{
    setProperty("nswBackground", QBrush(Qt::white));
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_title);
    for (QCPGraph* g : { m_bars, m_brushBars })
        g->setLineStyle(QCPGraph::lsStepLeft);
    m_bars->setPen(QPen(kBarColor.darker(130)));
    m_bars->setBrush(kBarColor);
    m_brushBars->setPen(QPen(kBrushColor.darker(130)));
    m_brushBars->setBrush(kBrushColor);
    markScreenOnly(m_brushBars);
    // Compact: in the default layout the chart has the height of a few table rows. The ticks say the units (durations
    // on a log scale, executions), the tooltip the rest.
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(QSharedPointer<DurationLogTicker>::create());
    yAxis->grid()->setSubGridVisible(false);
    // Whole executions, few ticks: the chart may be only a few rows high.
    auto counts = QSharedPointer<QCPAxisTickerFixed>::create();
    counts->setTickStep(1);
    counts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    counts->setTickCount(3);
    yAxis->setTicker(counts);
    m_title->setMargins(QMargins(0, 2, 0, 0));
    setMinimumSize(160, 60);
    setMouseTracking(true);
    connect(this, &QCustomPlot::mousePress, this, &DurationHistogramChart::onPress);
    connect(this, &QCustomPlot::mouseMove, this, &DurationHistogramChart::onMove);
    connect(this, &QCustomPlot::mouseRelease, this, &DurationHistogramChart::onRelease);
    clearHistogram(QString());
}

std::pair<double, double> DurationHistogramChart::drawnRange(int bin) const
{
    const std::vector<HistogramBin>& bins = m_histogram.bins;
    const HistogramBin& b = bins[std::size_t(bin)];
    if (b.upper > 0)
        return { double(b.lower), double(b.upper) + 1.0 };
    const double next = bins.size() > 1 ? double(bins[1].lower) : 1.0;
    return { next / std::pow(10.0, 1.0 / 20.0), next };
}

void DurationHistogramChart::setHistogram(const DurationHistogram& histogram, const QString& title)
{
    m_histogram = histogram;
    m_brushed.reset();
    m_dragStart = -1;
    m_title->setText(title);
    clearItems();
    for (QCPAxis* axis : { xAxis, yAxis })
        axis->setTickLabels(true);
    showBins();
    showPercentiles();
    replot();
}

void DurationHistogramChart::clearHistogram(const QString& message)
{
    m_histogram = {};
    m_brushed.reset();
    m_dragStart = -1;
    m_title->setText(QString());
    clearItems();
    m_bars->data()->clear();
    m_brushBars->data()->clear();
    xAxis->setRange(1000, 1e6);
    yAxis->setRange(0, 1);
    // No numbers on empty axes: in a short pane they would run into the message.
    for (QCPAxis* axis : { xAxis, yAxis })
        axis->setTickLabels(false);
    if (!message.isEmpty()) {
        auto* text = new QCPItemText(this);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.5, 0.5);
        text->setText(message);
    }
    replot();
}

void DurationHistogramChart::showBins()
{
    const std::vector<HistogramBin>& bins = m_histogram.bins;
    QVector<double> keys;
    QVector<double> counts;
    qint64 highest = 0;
    for (int i = 0; i < int(bins.size()); ++i) {
        const auto [left, right] = drawnRange(i);
        if (i == 0) {
            keys << left;
            counts << 0;
        }
        keys << left;
        counts << double(bins[std::size_t(i)].count);
        if (i + 1 == int(bins.size())) {
            keys << right;
            counts << 0;
        }
        highest = std::max(highest, bins[std::size_t(i)].count);
    }
    m_bars->setData(keys, counts, true);
    m_brushBars->data()->clear();
    if (bins.empty())
        return;
    const double left = drawnRange(0).first;
    const double right = drawnRange(int(bins.size()) - 1).second;
    const bool wide = std::log10(right / left) >= 1.5;
    if (wide)
        xAxis->setTicker(QSharedPointer<DurationLogTicker>::create());
    else
        xAxis->setTicker(QSharedPointer<DurationLinearTicker>::create());
    xAxis->setRange(left / 1.25, right * 1.25);
    // Head room for the percentile labels.
    yAxis->setRange(0, double(std::max<qint64>(highest, 1)) * 1.35);
}

void DurationHistogramChart::updateLayout()
{
    fitTickCounts({ xAxis }, [this]() { QCustomPlot::updateLayout(); });
}

void DurationHistogramChart::showPercentiles()
{
    if (m_histogram.count == 0)
        return;
    const Percentile marks[] = { { "p50", m_histogram.median, QColor(20, 40, 120), Qt::SolidLine },
        { "p90", m_histogram.p90, QColor(200, 110, 0), Qt::DashLine },
        { "p99", m_histogram.p99, QColor(190, 20, 20), Qt::DashLine } };
    const double top = yAxis->range().upper;
    const QCPRange keys = xAxis->range();
    const double middle = std::sqrt(keys.lower * keys.upper);
    QFont small = font();
    small.setPointSize(font().pointSize() - 1);
    const int lineHeight = QFontMetrics(small).height();
    int row = 0;
    QCPItemText* previousLabel = nullptr;
    QString previousValue;
    for (const Percentile& p : marks) {
        // A log axis has no place for 0: such a marker stands at the zero bin.
        const double x = p.value > 0 ? p.value : std::sqrt(drawnRange(0).first * drawnRange(0).second);
        auto* line = new QCPItemLine(this);
        line->start->setCoords(x, 0);
        line->end->setCoords(x, top);
        line->setPen(QPen(p.color, 1.5, p.style));
        // Percentiles of one value share a label ("p90 · p99 7.87 ms"): a small chart has no room for a row each.
        const QString value = formatDuration(qint64(p.value + 0.5));
        if (previousLabel && value == previousValue) {
            previousLabel->setText(previousLabel->text().replace(
                QLatin1Char(' ') + value, QStringLiteral(" · %1 %2").arg(QLatin1String(p.label), value)));
            continue;
        }
        // Stacked under the line's top in pixels, so that close percentiles do not overlap; on the side with room.
        auto* label = new QCPItemText(this);
        label->position->setParentAnchor(line->end);
        const bool rightHalf = x > middle;
        label->position->setCoords(rightHalf ? -2 : 2, 1 + lineHeight * row++);
        label->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        label->setColor(p.color);
        label->setFont(small);
        label->setBrush(QColor(255, 255, 255, 210));
        label->setText(QStringLiteral("%1 %2").arg(QLatin1String(p.label), value));
        previousLabel = label;
        previousValue = value;
    }
}

void DurationHistogramChart::setBrushedBins(std::optional<std::pair<int, int>> bins)
{
    const int count = int(m_histogram.bins.size());
    if (bins && (bins->first < 0 || bins->second >= count || bins->first > bins->second))
        bins.reset();
    m_brushed = bins;
    m_brushBars->data()->clear();
    if (bins) {
        QVector<double> keys;
        QVector<double> counts;
        keys << drawnRange(bins->first).first;
        counts << 0;
        for (int i = bins->first; i <= bins->second; ++i) {
            keys << drawnRange(i).first;
            counts << double(m_histogram.bins[std::size_t(i)].count);
        }
        keys << drawnRange(bins->second).second;
        counts << 0;
        m_brushBars->setData(keys, counts, true);
    }
    replot();
}

int DurationHistogramChart::binAtPixel(double x) const
{
    const int count = int(m_histogram.bins.size());
    if (count == 0)
        return -1;
    const double key = xAxis->pixelToCoord(x);
    for (int i = 0; i < count; ++i)
        if (key < drawnRange(i).second)
            return i;
    return count - 1;
}

double DurationHistogramChart::pixelOfBin(int bin) const
{
    const auto [left, right] = drawnRange(bin);
    return xAxis->coordToPixel(std::sqrt(left * right));
}

QString DurationHistogramChart::binToolTip(int bin) const
{
    if (bin < 0 || bin >= int(m_histogram.bins.size()))
        return {};
    const HistogramBin& b = m_histogram.bins[std::size_t(bin)];
    const double share = m_histogram.count > 0 ? 100.0 * double(b.count) / double(m_histogram.count) : 0.0;
    const QString range = b.upper == 0
        ? formatDuration(0)
        : QStringLiteral("%1 – %2").arg(formatDuration(b.lower), formatDuration(b.upper));
    return tr("%1: %2 (%3 %)").arg(range, countOf(b.count, tr("execution"), tr("executions"))).arg(share, 0, 'f', 1);
}

void DurationHistogramChart::onPress(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || m_histogram.bins.empty() || !m_brushing)
        return;
    m_dragStart = binAtPixel(event->position().x());
    setBrushedBins(std::make_pair(m_dragStart, m_dragStart));
}

void DurationHistogramChart::onMove(QMouseEvent* event)
{
    const int bin = binAtPixel(event->position().x());
    if (m_dragStart >= 0 && (event->buttons() & Qt::LeftButton)) {
        setBrushedBins(std::make_pair(std::min(m_dragStart, bin), std::max(m_dragStart, bin)));
        return;
    }
    const QRect area = axisRect()->rect();
    if (bin >= 0 && area.contains(event->position().toPoint()))
        QToolTip::showText(event->globalPosition().toPoint(),
            m_brushing ? binToolTip(bin) + QLatin1Char('\n')
                    + tr("Drag across bins (or click one) to list only their executions")
                       : binToolTip(bin),
            this);
    else
        QToolTip::hideText();
}

void DurationHistogramChart::onRelease(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || m_dragStart < 0)
        return;
    const int start = std::exchange(m_dragStart, -1);
    const int end = binAtPixel(event->position().x());
    setBrushedBins(std::make_pair(std::min(start, end), std::max(start, end)));
    if (m_brushed)
        Q_EMIT binsBrushed(m_brushed->first, m_brushed->second);
}

QString DurationHistogramChart::titleText() const
{
    return m_title->text();
}

} // namespace nsw
