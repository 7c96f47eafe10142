// SPDX-License-Identifier: GPL-3.0-or-later
#include "iterationschart.h"

#include "widgets/common/axisticks.h"

namespace nsw {

namespace {

constexpr double kNsPerMs = 1e6;

} // namespace

IterationsChart::IterationsChart(QWidget* parent)
    : Chart(parent)
    , m_durations(addGraph())
    , m_outliers(addGraph())
    , m_current(addGraph())
    , m_median(new QCPItemStraightLine(this))
    , m_empty(new QCPItemText(this))
{
    xAxis->setLabel(tr("iteration"));
    yAxis->setLabel(tr("duration (ms)"));
    m_durations->setName(tr("duration"));
    m_durations->setPen(QPen(QColor(0x1f, 0x77, 0xb4), 1.5));
    m_durations->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    m_outliers->setName(tr("outlier (median ± 3 × 1.4826 × MAD)"));
    m_outliers->setLineStyle(QCPGraph::lsNone);
    m_outliers->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0xd6, 0x27, 0x28), 2), QColor(0xd6, 0x27, 0x28), 8));
    m_current->setName(tr("selected"));
    m_current->setLineStyle(QCPGraph::lsNone);
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 13));
    m_empty->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_empty->position->setCoords(0.5, 0.5);
    m_empty->setText(tr("No iterations to chart"));
    m_empty->setColor(QColor(90, 90, 90));
    m_median->setPen(QPen(QColor(0x7f, 0x7f, 0x7f), 1, Qt::DashLine));
    m_median->setVisible(false);
    legend->setFont(QFont(font().family(), 8));
    legend->setBrush(QColor(255, 255, 255, 210));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(this, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int dataIndex, QMouseEvent*) {
        if (p == m_durations || p == m_outliers)
            Q_EMIT iterationClicked(int(std::lround(static_cast<QCPGraph*>(p)->data()->at(dataIndex)->key)));
    });
    setTable(nullptr);
}

void IterationsChart::setTable(std::shared_ptr<const IterationTable> table)
{
    m_table = std::move(table);
    QVector<double> x, y, ox, oy;
    if (m_table)
        for (const Iteration& it : m_table->iterations) {
            x << it.index;
            y << double(it.duration()) / kNsPerMs;
            if (it.outlier) {
                ox << it.index;
                oy << double(it.duration()) / kNsPerMs;
            }
        }
    m_durations->setData(x, y, true);
    m_outliers->setData(ox, oy, true);
    m_current->data()->clear();
    const bool any = !x.isEmpty();
    m_median->setVisible(any);
    if (any) {
        const double median = m_table->medianDurationNs / kNsPerMs;
        m_median->point1->setCoords(0, median);
        m_median->point2->setCoords(1, median);
        const double top = *std::max_element(y.begin(), y.end());
        xAxis->setRange(-0.5, double(x.size()) - 0.5);
        yAxis->setRange(0, top * 1.1 > 0 ? top * 1.1 : 1);
    }
    m_median->setVisible(any);
    // Empty: a sentence instead of a legend over a blank plot and numbers on empty axes (the legend: updateLayout).
    for (QCPAxis* axis : { xAxis, yAxis })
        axis->setTickLabels(any);
    m_empty->setVisible(!any);
    replot();
}

void IterationsChart::setCurrent(int index)
{
    m_current->data()->clear();
    if (m_table && index >= 0 && std::size_t(index) < m_table->iterations.size())
        m_current->addData(index, double(m_table->iterations[std::size_t(index)].duration()) / kNsPerMs);
    replot();
}

void IterationsChart::updateLayout()
{
    fitTickCounts({ xAxis, yAxis }, [this]() { QCustomPlot::updateLayout(); });
    // The legend sits over the plot (top right): in a short chart it would hide the points it explains (the table
    // has the outlier column).
    const bool any = m_durations->dataCount() > 0;
    const bool fits = axisRect()->height() >= 3 * legend->minimumOuterSizeHint().height();
    if (legend->visible() != (any && fits)) {
        legend->setVisible(any && fits);
        QCustomPlot::updateLayout();
    }
}

} // namespace nsw
