// SPDX-License-Identifier: GPL-3.0-or-later
#include "rankheatmap.h"

#include "widgets/common/axisticks.h"
#include "widgets/common/plotexport.h"

#include <QFontMetrics>
#include <QToolTip>
#include <cmath>
#include <limits>

namespace nsw {

namespace {

constexpr double kNsPerMs = 1e6;

/// The rank numbers on the vertical axis: ticks at whole rows, labelled with the rank number of the row.
class RankTicker : public QCPAxisTickerFixed
{
public:
    std::vector<int> rankOfRow;

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override
    {
        const auto row = std::llround(tick);
        if (row >= 0 && std::size_t(row) < rankOfRow.size())
            return QString::number(rankOfRow[std::size_t(row)]);
        return QCPAxisTickerFixed::getTickLabel(tick, locale, formatChar, precision);
    }
};

/// Items [first, last) of @p count shown as @p bins bins: bin b holds the items i with floor(i × bins / count) = b.
std::pair<int, int> binItems(int bin, int bins, int count)
{
    const auto first = [&](int b) { return int((qint64(b) * count + bins - 1) / bins); };
    return { first(bin), first(bin + 1) };
}

/// The bin of a coordinate (items are 1 wide, item i centred on i), clamped; -1 outside [-0.5, count - 0.5].
int binOf(double coordinate, int bins, int count)
{
    const double item = coordinate + 0.5;
    if (bins <= 0 || item < 0 || item >= count)
        return -1;
    return std::min(bins - 1, int(item * bins / count));
}

QCPColorGradient heatGradient()
{
    // Light for a small value, dark red for the worst: the eye goes to the stragglers.
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, QColor(0xff, 0xff, 0xcc));
    gradient.setColorStopAt(0.35, QColor(0xfe, 0xb2, 0x4c));
    gradient.setColorStopAt(0.7, QColor(0xf0, 0x3b, 0x20));
    gradient.setColorStopAt(1.0, QColor(0x80, 0x00, 0x26));
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    return gradient;
}

} // namespace

RankHeatmap::RankHeatmap(QWidget* parent)
    : Chart(parent)
    , m_map(new QCPColorMap(xAxis, yAxis))
    , m_scale(new QCPColorScale(this))
    , m_current(new QCPItemRect(this))
    , m_empty(new QCPItemText(this))
{
    xAxis->setLabel(tr("iteration"));
    yAxis->setLabel(tr("rank"));
    yAxis->setRangeReversed(true);
    auto ticker = QSharedPointer<RankTicker>::create();
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    yAxis->setTicker(ticker);
    auto iterationTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    iterationTicker->setTickStep(1);
    iterationTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    xAxis->setTicker(iterationTicker);
    plotLayout()->addElement(0, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setGradient(heatGradient());
    m_map->setColorScale(m_scale);
    m_map->setGradient(heatGradient());
    m_map->setInterpolate(false);
    m_map->setTightBoundary(true);
    auto* margins = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_current->setPen(QPen(QColor(0x1f, 0x77, 0xb4), 2));
    m_current->setBrush(Qt::NoBrush);
    m_current->setVisible(false);
    markScreenOnly(m_current);
    m_empty->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_empty->position->setCoords(0.5, 0.5);
    m_empty->setColor(QColor(90, 90, 90));
    setMouseTracking(true);
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const auto [row, iteration] = cellAt(event->position());
        if (row >= 0)
            Q_EMIT cellClicked(row, iteration);
    });
    setResult(nullptr, RankMetric::Time);
}

int RankHeatmap::rankCount() const
{
    return m_result ? int(m_result->ranks.size()) : 0;
}

void RankHeatmap::setResult(std::shared_ptr<const RanksResult> result, RankMetric metric)
{
    m_result = std::move(result);
    m_metric = metric;
    m_iterations = m_result ? m_result->iterationCount() : 0;
    const int rows = rankCount();
    m_values.assign(std::size_t(rows) * std::size_t(m_iterations), std::numeric_limits<float>::quiet_NaN());
    const double scale = metric == RankMetric::Bubble ? 1.0 : 1.0 / kNsPerMs;
    auto ticker = yAxis->ticker().staticCast<RankTicker>();
    ticker->rankOfRow.clear();
    for (int r = 0; r < rows; ++r) {
        const RankRow& row = m_result->ranks[std::size_t(r)];
        ticker->rankOfRow.push_back(row.rank);
        for (const RankIterationCell& cell : row.iterations)
            if (cell.iteration >= 0 && cell.iteration < m_iterations)
                m_values[std::size_t(r) * std::size_t(m_iterations) + std::size_t(cell.iteration)]
                    = float(cell.value(metric) * scale);
    }
    const bool any = rows > 0 && m_iterations > 0;
    m_scaleTitle
        = any ? rankMetricTitle(metric) + (metric == RankMetric::Bubble ? tr(" (%)") : tr(" (ms)")) : QString();
    m_scale->axis()->setLabel(m_scaleTitle);
    m_scale->setVisible(any);
    // Ranks without iterations (no marker found) are open: saying "open ranks" over them misled.
    m_empty->setText(rows == 0 ? tr("Open rank exports, summaries or a folder of them")
                               : tr("No iterations in these ranks: name the NVTX range of a step under Marker"));
    m_empty->setVisible(!any);
    m_map->setVisible(any);
    for (QCPAxis* axis : { xAxis, yAxis })
        axis->setTickLabels(any);
    xAxis->setRange(-0.5, std::max(m_iterations, 1) - 0.5);
    yAxis->setRange(-0.5, std::max(rows, 1) - 0.5);
    m_binRows = m_binColumns = 0; // rebinned by the next layout
    m_current->setVisible(false);
    replot();
}

void RankHeatmap::updateLayout()
{
    fitTickCounts({ xAxis, yAxis }, [this]() { QCustomPlot::updateLayout(); });
    const QRect cells = axisRect()->rect();
    // The scale's title runs along it: in a short pane it is elided, not cut at both ends ("ait for other ranks (m").
    // Its width is the font's height whatever the text, so the layout stands.
    m_scale->axis()->setLabel(QFontMetrics(m_scale->axis()->labelFont())
                                  .elidedText(m_scaleTitle, Qt::ElideRight, std::max(0, m_scale->rect().height())));
    const int rows = std::min(rankCount(), std::max(1, cells.height()));
    const int columns = std::min(m_iterations, std::max(1, cells.width()));
    if (rows != m_binRows || columns != m_binColumns)
        rebin(rows, columns);
}

void RankHeatmap::rebin(int rows, int columns)
{
    m_binRows = rows;
    m_binColumns = columns;
    const int n = rankCount();
    if (n == 0 || m_iterations == 0) {
        m_map->data()->clear();
        return;
    }
    // Bin centres: the bins' extents, in items (rows, iterations) each 1 wide, are [b × n / k - 0.5, ...).
    const auto centres = [](int bins, int count) {
        const double half = double(count) / (2.0 * bins);
        return QCPRange(half - 0.5, double(count) - half - 0.5);
    };
    auto* data = new QCPColorMapData(columns, rows, centres(columns, m_iterations), centres(rows, n));
    for (int br = 0; br < rows; ++br) {
        const auto [firstRow, lastRow] = binItems(br, rows, n);
        for (int bc = 0; bc < columns; ++bc) {
            const auto [firstColumn, lastColumn] = binItems(bc, columns, m_iterations);
            float worst = std::numeric_limits<float>::quiet_NaN();
            for (int r = firstRow; r < lastRow; ++r)
                for (int c = firstColumn; c < lastColumn; ++c) {
                    const float v = m_values[std::size_t(r) * std::size_t(m_iterations) + std::size_t(c)];
                    if (!std::isnan(v) && (std::isnan(worst) || v > worst))
                        worst = v;
                }
            data->setCell(bc, br, worst);
        }
    }
    m_map->setData(data, false);
    // Not rescaleDataRange(): a blank (NaN) first cell would make the range NaN.
    float low = std::numeric_limits<float>::infinity(), high = -low;
    for (const float v : m_values)
        if (!std::isnan(v)) {
            low = std::min(low, v);
            high = std::max(high, v);
        }
    if (low > high)
        low = high = 0;
    m_map->setDataRange(QCPRange(low, high > low ? high : low + 1));
}

int RankHeatmap::worstRow(int first, int last, int iteration) const
{
    int worst = -1;
    for (int r = first; r < last; ++r) {
        const double v = cellValue(r, iteration);
        if (!std::isnan(v) && (worst < 0 || v > cellValue(worst, iteration)))
            worst = r;
    }
    return worst;
}

double RankHeatmap::cellValue(int row, int iteration) const
{
    if (row < 0 || row >= rankCount() || iteration < 0 || iteration >= m_iterations)
        return std::numeric_limits<double>::quiet_NaN();
    return m_values[std::size_t(row) * std::size_t(m_iterations) + std::size_t(iteration)];
}

std::pair<int, int> RankHeatmap::cellAt(const QPointF& pos) const
{
    const int n = rankCount();
    const int rowBin = binOf(yAxis->pixelToCoord(pos.y()), m_binRows, n);
    const int columnBin = binOf(xAxis->pixelToCoord(pos.x()), m_binColumns, m_iterations);
    if (rowBin < 0 || columnBin < 0)
        return { -1, -1 };
    const auto [firstRow, lastRow] = binItems(rowBin, m_binRows, n);
    const auto [firstColumn, lastColumn] = binItems(columnBin, m_binColumns, m_iterations);
    int bestRow = -1, bestColumn = -1;
    for (int c = firstColumn; c < lastColumn; ++c) {
        const int r = worstRow(firstRow, lastRow, c);
        if (r >= 0 && (bestRow < 0 || cellValue(r, c) > cellValue(bestRow, bestColumn))) {
            bestRow = r;
            bestColumn = c;
        }
    }
    return { bestRow, bestColumn };
}

void RankHeatmap::setCurrent(int row, int iteration)
{
    const bool shown = !std::isnan(cellValue(row, iteration));
    m_current->setVisible(shown);
    if (shown) {
        m_current->topLeft->setCoords(iteration - 0.5, row - 0.5);
        m_current->bottomRight->setCoords(iteration + 0.5, row + 0.5);
    }
    replot();
}

void RankHeatmap::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    const auto [row, iteration] = cellAt(event->position());
    if (row < 0) {
        QToolTip::hideText();
        return;
    }
    const RankRow& rank = m_result->ranks[std::size_t(row)];
    const QString unit = m_metric == RankMetric::Bubble ? QStringLiteral("%") : QStringLiteral("ms");
    QString text = tr("rank %1, iteration %2: %3 %4 %5")
                       .arg(rank.rank)
                       .arg(iteration)
                       .arg(rankMetricTitle(m_metric))
                       .arg(cellValue(row, iteration), 0, 'f', 3)
                       .arg(unit);
    if (m_binRows < rankCount() || m_binColumns < m_iterations)
        text += tr("\n(the worst of the ranks and iterations this pixel shows)");
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace nsw
