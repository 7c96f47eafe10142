// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportcharts.h"

#include <QApplication>
#include <QBuffer>
#include <QSharedPointer>
#include <qcustomplot.h>

namespace nsw {

namespace {

constexpr int kWidth = 900;
constexpr int kHeight = 420;

QByteArray toPng(QCustomPlot& plot)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    plot.toPixmap(kWidth, kHeight).save(&buffer, "PNG");
    return bytes;
}

void setCategories(QCPAxis* axis, const QStringList& labels)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (qsizetype i = 0; i < labels.size(); ++i)
        ticker->addTick(double(i), labels[i]);
    axis->setTicker(ticker);
    axis->setRange(-0.6, double(labels.size()) - 0.4);
}

} // namespace

std::unique_ptr<QCustomPlot> timeBreakdownPlot(const DiagnosticsResult& r)
{
    if (r.temporal.empty())
        return nullptr;
    auto owned = std::make_unique<QCustomPlot>();
    QCustomPlot& plot = *owned;
    plot.resize(kWidth, kHeight);
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(
        0, 0, new QCPTextElement(&plot, QStringLiteral("GPU time breakdown (share of the window)")));
    QStringList labels;
    for (const DeviceTimeBreakdown& d : r.temporal)
        labels << r.deviceLabel(d.device);
    struct Part
    {
        const char* name;
        QColor color;
        TimeNs DeviceTimeBreakdown::*member;
    };
    const Part parts[] = { { "compute", QColor(0x2e, 0x86, 0xc1), &DeviceTimeBreakdown::computeNs },
        { "communication", QColor(0xe6, 0x7e, 0x22), &DeviceTimeBreakdown::communicationNs },
        { "memory", QColor(0x27, 0xae, 0x60), &DeviceTimeBreakdown::memoryNs },
        { "idle", QColor(0xbd, 0xc3, 0xc7), &DeviceTimeBreakdown::idleNs } };
    QCPBars* below = nullptr;
    for (const Part& part : parts) {
        auto* bars = new QCPBars(plot.xAxis, plot.yAxis);
        bars->setName(QLatin1String(part.name));
        bars->setBrush(part.color);
        bars->setPen(QPen(part.color.darker(130)));
        bars->setWidth(0.6);
        for (std::size_t i = 0; i < r.temporal.size(); ++i) {
            const DeviceTimeBreakdown& d = r.temporal[i];
            bars->addData(double(i), d.spanNs > 0 ? 100.0 * double(d.*(part.member)) / double(d.spanNs) : 0.0);
        }
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    setCategories(plot.xAxis, labels);
    plot.yAxis->setRange(0, 100);
    plot.yAxis->setLabel(QStringLiteral("% of the window"));
    // The legend in a row of its own under the bars: inside the plot it covered the first bar, full to 100 %.
    plot.legend->setVisible(true);
    plot.axisRect()->insetLayout()->take(plot.legend);
    plot.plotLayout()->addElement(2, 0, plot.legend);
    plot.plotLayout()->setRowStretchFactor(2, 0.001);
    plot.legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot.legend->setWrap(int(std::size(parts)));
    return owned;
}

namespace {

QByteArray timeBreakdownChart(const DiagnosticsResult& r)
{
    const std::unique_ptr<QCustomPlot> plot = timeBreakdownPlot(r);
    return plot ? toPng(*plot) : QByteArray();
}

QByteArray gapHistogramChart(const DiagnosticsResult& r)
{
    if (r.idleGaps.devices.empty())
        return {};
    const std::vector<GapBucket> buckets = gapBuckets();
    std::vector<double> counts(buckets.size(), 0.0);
    for (const DeviceIdle& d : r.idleGaps.devices)
        for (std::size_t i = 0; i < d.histogram.size() && i < counts.size(); ++i)
            counts[i] += double(d.histogram[i].count);
    QCustomPlot plot;
    plot.resize(kWidth, kHeight);
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, QStringLiteral("GPU idle gaps by length")));
    auto* bars = new QCPBars(plot.xAxis, plot.yAxis);
    bars->setBrush(QColor(0x8e, 0x44, 0xad));
    bars->setWidth(0.6);
    QStringList labels;
    double top = 1;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        labels << buckets[i].label;
        bars->addData(double(i), counts[i]);
        top = std::max(top, counts[i]);
    }
    setCategories(plot.xAxis, labels);
    plot.yAxis->setRange(0, top * 1.1);
    plot.yAxis->setLabel(QStringLiteral("gaps (all GPUs)"));
    return toPng(plot);
}

} // namespace

std::map<QString, QByteArray> renderReportCharts(const DiagnosticsResult& result)
{
    std::map<QString, QByteArray> charts;
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return charts;
    if (QByteArray png = timeBreakdownChart(result); !png.isEmpty())
        charts[QStringLiteral("gpu_time_breakdown")] = png;
    if (QByteArray png = gapHistogramChart(result); !png.isEmpty())
        charts[QStringLiteral("gap_histogram")] = png;
    return charts;
}

} // namespace nsw
