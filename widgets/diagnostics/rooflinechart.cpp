// SPDX-License-Identifier: GPL-3.0-or-later
#include "rooflinechart.h"

#include "widgets/common/axisticks.h"

#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace nsw {

namespace {
const QColor kRoofColor(40, 40, 40);
const QColor kIterationColor(32, 96, 200);
const QColor kRangeColor(200, 110, 0);

/// Decades labelled as plain numbers while short ("0.1", "100", "1000"), else as powers of ten ("1e5").
class DecadeTicker : public QCPAxisTickerLog
{
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        const int exponent = int(std::lround(std::log10(tick)));
        return exponent >= -2 && exponent <= 4 ? QString::number(tick, 'g', 6) : QStringLiteral("1e%1").arg(exponent);
    }
};

double decadeBelow(double v)
{
    return std::pow(10.0, std::floor(std::log10(v)));
}
double decadeAbove(double v)
{
    return std::pow(10.0, std::ceil(std::log10(v)));
}

QString number(double v)
{
    return QString::number(v, 'g', 4);
}
} // namespace

RooflineChart::RooflineChart(QWidget* parent)
    : Chart(parent)
    , m_title(new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() - 1, QFont::Bold)))
    , m_roof(addGraph())
    , m_iterations(addGraph())
    , m_ranges(addGraph())
{
    setObjectName(QStringLiteral("mfu_roofline"));
    setProperty("nswBackground", QBrush(Qt::white));
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_title);
    m_title->setMargins(QMargins(0, 2, 0, 0));
    for (QCPAxis* axis : { xAxis, yAxis }) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<DecadeTicker>::create());
        axis->grid()->setSubGridVisible(true);
    }
    xAxis->setLabel(tr("FLOPs per byte"));
    yAxis->setLabel(tr("TFLOP/s per GPU"));
    m_roof->setPen(QPen(kRoofColor, 2));
    m_roof->setName(tr("roof"));
    m_iterations->setLineStyle(QCPGraph::lsNone);
    m_iterations->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kIterationColor, 7));
    m_iterations->setName(tr("iterations"));
    m_ranges->setLineStyle(QCPGraph::lsNone);
    m_ranges->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, kRangeColor, kRangeColor, 9));
    m_ranges->setName(tr("NVTX ranges"));
    setMinimumSize(240, 160);
    setMouseTracking(true);
    connect(this, &QCustomPlot::mouseMove, this, &RooflineChart::onMove);
    clearRoofline(QString());
}

void RooflineChart::clearRoofline(const QString& message)
{
    m_roofline = {};
    m_title->setText(QString());
    clearItems();
    m_message = nullptr;
    m_slopeLabel = nullptr;
    m_sideLabels.clear();
    for (QCPGraph* g : { m_roof, m_iterations, m_ranges })
        g->data()->clear();
    xAxis->setRange(0.1, 1e4);
    yAxis->setRange(1, 1e4);
    for (QCPAxis* axis : { xAxis, yAxis })
        axis->setTickLabels(false);
    if (!message.isEmpty()) {
        m_message = new QCPItemText(this);
        m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
        m_message->position->setCoords(0.5, 0.5);
        m_message->setText(message);
    }
    replot();
}

void RooflineChart::setResult(const MfuResult& result)
{
    // The peak table's short name ("H100 SXM") where the peak comes from it: the title of a docked chart is short.
    const QString gpu = result.peakGpu != QLatin1String("given") ? result.peakGpu
        : result.gpuName.isEmpty()                               ? tr("GPU")
                                                                 : result.gpuName;
    setRoofline(result.roofline, tr("Roofline per GPU · %1 · %2").arg(gpu, precisionName(result.precision)));
}

void RooflineChart::setRoofline(const MfuRoofline& roofline, const QString& title)
{
    clearRoofline(QString());
    m_roofline = roofline;
    m_title->setText(title);
    for (QCPAxis* axis : { xAxis, yAxis })
        axis->setTickLabels(true);
    // Keys: a decade either side of the ridge and the points; values: from under the slowest point to over the peak.
    double left = roofline.ridge > 0 ? roofline.ridge : 1.0, right = left;
    double low = roofline.peakTflops, high = roofline.peakTflops;
    for (const MfuRooflinePoint& p : roofline.points) {
        left = std::min(left, p.intensity);
        right = std::max(right, p.intensity);
        if (p.achievedTflops > 0)
            low = std::min(low, p.achievedTflops);
    }
    const QCPRange keys(decadeBelow(left) / 10, decadeAbove(right) * 10);
    xAxis->setRange(keys);
    if (roofline.hasRoof())
        low = std::min(low, keys.lower * roofline.bandwidthTBs);
    yAxis->setRange(decadeBelow(low), decadeAbove(high * 2));
    drawRoof(keys);
    drawPoints();
    if (roofline.points.empty()) {
        m_message = new QCPItemText(this);
        m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
        m_message->position->setCoords(0.5, 0.6);
        m_message->setBrush(QColor(255, 255, 255, 220));
        m_message->setText(tr("No achieved point: no bytes given"));
    }
    replot();
}

QCPItemText* RooflineChart::addLabel(
    double key, double value, Qt::Alignment alignment, const QColor& color, const QString& text)
{
    QFont small = font();
    small.setPointSize(font().pointSize() - 1);
    auto* label = new QCPItemText(this);
    label->position->setCoords(key, value);
    label->setPositionAlignment(alignment);
    label->setPadding(QMargins(4, 1, 4, 1));
    label->setFont(small);
    label->setColor(color);
    label->setText(text);
    label->setClipToAxisRect(true);
    return label;
}

Qt::Alignment RooflineChart::besideAlignment(double key, double split) const
{
    // Right of the mark in the left part of the chart, left of it in the right part: the text stays inside.
    const QCPRange keys = xAxis->range();
    const double fraction = std::log(key / keys.lower) / std::log(keys.upper / keys.lower);
    return fraction < split ? Qt::AlignLeft : Qt::AlignRight;
}

void RooflineChart::drawRoof(const QCPRange& keys)
{
    const MfuRoofline& r = m_roofline;
    if (r.hasRoof()) {
        // Drawn from the left edge of the chart: under the ridge the bandwidth bounds the speed, past it the peak.
        m_roof->setData(
            { keys.lower, r.ridge, keys.upper }, { keys.lower * r.bandwidthTBs, r.peakTflops, r.peakTflops }, true);
        m_roof->setName(tr("roof: %1 TB/s, %2 TFLOP/s").arg(number(r.bandwidthTBs), number(r.peakTflops)));
        // Labelled where drawn (a legend box would cover a docked chart): the slope by its bandwidth, halfway up.
        // (placeSlopeLabel() moves it along the slope once the chart's size is known.)
        m_slopeLabel = addLabel(r.ridge, r.peakTflops, Qt::AlignRight | Qt::AlignBottom, kRoofColor,
            tr("%1 TB/s").arg(number(r.bandwidthTBs)));
        auto* ridge = new QCPItemLine(this);
        ridge->start->setCoords(r.ridge, yAxis->range().lower);
        ridge->end->setCoords(r.ridge, r.peakTflops);
        ridge->setPen(QPen(kRoofColor, 1, Qt::DashLine));
        addLabel(r.ridge, yAxis->range().lower, besideAlignment(r.ridge) | Qt::AlignBottom, kRoofColor,
            tr("ridge %1").arg(number(r.ridge))); // the axis says FLOPs per byte
    } else {
        m_roof->setData({ keys.lower, keys.upper }, { r.peakTflops, r.peakTflops }, true);
        m_roof->setName(tr("peak %1 TFLOP/s (no memory roof)").arg(number(r.peakTflops)));
    }
    addLabel(keys.upper, r.peakTflops, Qt::AlignRight | Qt::AlignBottom, kRoofColor,
        r.hasRoof() ? tr("peak %1 TFLOP/s").arg(number(r.peakTflops))
                    : tr("peak %1 TFLOP/s (no memory roof known)").arg(number(r.peakTflops)));
}

void RooflineChart::drawPoints()
{
    std::vector<const MfuRooflinePoint*> iterations;
    int ranges = 0;
    for (const MfuRooflinePoint& p : m_roofline.points) {
        if (p.achievedTflops <= 0)
            continue;
        (p.iteration ? m_iterations : m_ranges)->addData(p.intensity, p.achievedTflops);
        if (p.iteration) {
            iterations.push_back(&p);
            continue;
        }
        ++ranges;
        QCPItemText* label = addLabel(
            p.intensity, p.achievedTflops, Qt::AlignLeft | Qt::AlignBottom, kRangeColor.darker(140), p.label);
        label->setPadding(QMargins(6, 0, 6, 2)); // right of and above its mark: the iterations are labelled left
        m_sideLabels.push_back(label);
    }
    if (!iterations.empty()) {
        // One label for the column of iterations (they share an intensity), beside the median one: the fastest are
        // near the roof and its label.
        std::sort(iterations.begin(), iterations.end(),
            [](const MfuRooflinePoint* a, const MfuRooflinePoint* b) { return a->achievedTflops < b->achievedTflops; });
        const MfuRooflinePoint* median = iterations[(iterations.size() - 1) / 2];
        // Left of the column unless at the left edge: ranges, labelled to their right, tend to lie right of it.
        QCPItemText* label = addLabel(median->intensity, median->achievedTflops,
            besideAlignment(median->intensity, 0.25) | Qt::AlignVCenter, kIterationColor.darker(130),
            tr("iterations (%1)").arg(iterations.size()));
        label->setPadding(QMargins(8, 0, 8, 0));
        m_sideLabels.push_back(label);
    }
    m_iterations->setName(tr("iterations (%1)").arg(iterations.size()));
    m_ranges->setName(tr("NVTX ranges (%1)").arg(ranges));
}

QStringList RooflineChart::labelTexts() const
{
    QStringList texts;
    for (int i = 0; i < itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(item(i)); text && text != m_message)
            texts << text->text();
    return texts;
}

void RooflineChart::updateLayout()
{
    fitTickCounts({ xAxis }, [this]() { QCustomPlot::updateLayout(); });
    placeSlopeLabel();
    keepSideLabelsInside();
}

void RooflineChart::keepSideLabelsInside()
{
    // A label beside a mark goes to the other side when its side has no room for it (small charts).
    const QRect axes = axisRect()->rect();
    for (QCPItemText* label : m_sideLabels) {
        const double x = label->position->pixelPosition().x();
        const QMargins pad = label->padding();
        const double width = QFontMetrics(label->font()).horizontalAdvance(label->text()) + pad.left() + pad.right();
        const Qt::Alignment vertical = label->positionAlignment() & Qt::AlignVertical_Mask;
        if (label->positionAlignment() & Qt::AlignRight && x - width < axes.left())
            label->setPositionAlignment(Qt::AlignLeft | vertical);
        else if (label->positionAlignment() & Qt::AlignLeft && x + width > axes.right())
            label->setPositionAlignment(Qt::AlignRight | vertical);
    }
}

void RooflineChart::placeSlopeLabel()
{
    if (!m_slopeLabel || !m_roofline.hasRoof())
        return;
    // Above the slope, ending halfway along it in pixels, but never past the chart's left edge.
    const double left = xAxis->coordToPixel(xAxis->range().lower);
    const double ridge = xAxis->coordToPixel(m_roofline.ridge);
    const double width = QFontMetrics(m_slopeLabel->font()).horizontalAdvance(m_slopeLabel->text()) + 10;
    const double end = std::min(ridge, std::max((left + ridge) / 2, left + width));
    const double key = xAxis->pixelToCoord(end);
    m_slopeLabel->position->setCoords(key, key * m_roofline.bandwidthTBs);
}

QString RooflineChart::titleText() const
{
    return m_title->text();
}

QString RooflineChart::messageText() const
{
    return m_message ? m_message->text() : QString();
}

QString RooflineChart::pointToolTip(int index) const
{
    if (index < 0 || index >= int(m_roofline.points.size()))
        return {};
    const MfuRooflinePoint& p = m_roofline.points[std::size_t(index)];
    QString tip
        = tr("%1: %2 TFLOP/s per GPU at %3 FLOPs/byte").arg(p.label, number(p.achievedTflops), number(p.intensity));
    if (p.attainableTflops > 0)
        tip += tr("\n%1 % of the %2 TFLOP/s the roof allows there (%3-bound)")
                   .arg(p.attainablePercent(), 0, 'f', 1)
                   .arg(number(p.attainableTflops), p.memoryBound ? tr("memory") : tr("compute"));
    return tip;
}

QPointF RooflineChart::pixelOfPoint(int index) const
{
    const MfuRooflinePoint& p = m_roofline.points[std::size_t(index)];
    return { xAxis->coordToPixel(p.intensity), yAxis->coordToPixel(p.achievedTflops) };
}

void RooflineChart::onMove(QMouseEvent* event)
{
    // The nearest point within a few pixels; iterations share one intensity, so the nearest in speed among them.
    int nearest = -1;
    double best = 8 * 8;
    for (int i = 0; i < int(m_roofline.points.size()); ++i) {
        const QPointF d = pixelOfPoint(i) - event->position();
        if (const double d2 = d.x() * d.x() + d.y() * d.y(); d2 <= best) {
            best = d2;
            nearest = i;
        }
    }
    if (nearest >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), pointToolTip(nearest), this);
    else
        QToolTip::hideText();
}

} // namespace nsw
