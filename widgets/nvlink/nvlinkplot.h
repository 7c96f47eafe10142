// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/plotreduction.h"
#include "widgets/common/chart.h"
#include "widgets/common/secondsticker.h"

#include <QColor>
#include <QTimer>
#include <memory>

namespace nsw {

struct NvlinkPlotSeries
{
    std::shared_ptr<const void> keepAlive; ///< owner of *series (a recording or GPU-metrics set)
    const ThroughputSeries* series = nullptr;
    std::shared_ptr<const SeriesMaxIndex> index;
    TimeNs shift = 0; ///< series time + shift = session ns
    double scale = 1.0; ///< native unit -> displayed unit
    QString name;
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
};

struct NvlinkPlotPeak
{
    int rank = 0;
    TimeNs start = 0;
    TimeNs end = 0;
    double y = 0; ///< displayed unit
};

/// Throughput over time (seconds since the capture start) with an NCCL-activity band below. Long recordings are
/// reduced to the maximum per visible pixel, again after every zoom or pan, so QCustomPlot never holds more than
/// a few points per pixel. Drag to pan and wheel to zoom, horizontally.
class NvlinkPlot : public Chart
{
    Q_OBJECT
public:
    explicit NvlinkPlot(QWidget* parent = nullptr);

    void setSeries(std::vector<NvlinkPlotSeries> series, const QString& yLabel);
    void setNcclBusy(std::vector<std::pair<TimeNs, TimeNs>> busy);
    void setPeaks(std::vector<NvlinkPlotPeak> peaks);
    /// Highlights a peak (rank; 0 = none) and, when @p reveal, pans so that it is visible.
    void highlightPeak(int rank, bool reveal);
    /// Shows [from, to) (session ns); the whole data range when from >= to.
    void showRange(TimeNs from = 0, TimeNs to = 0);
    /// Reduces again for the current range and size, then replots (normally done on range changes).
    void refresh();
    /// Nothing shown: no series, peaks, band or highlight, the axes back to their empty ranges (a profile without
    /// NVLink data must not keep the previous one's).
    void clearData();

    /// The visible range overlaps the data.
    bool rangeShowsData() const;
    TimeNs dataFrom() const { return m_dataFrom; }
    TimeNs dataTo() const { return m_dataTo; }
    /// Points currently handed to QCustomPlot (all graphs), for tests.
    int plottedPoints() const;
    QCPAxisRect* throughputRect() const { return m_throughputRect; }
    QCPAxisRect* ncclRect() const { return m_ncclRect; }
    QCPGraph* peakGraph() const { return m_peakGraph; }
    QCPItemRect* highlightItem() const { return m_highlight; }
    /// The "#rank" labels, in the order of peakGraph()'s points (by time).
    const std::vector<QCPItemText*>& peakLabels() const { return m_peakLabels; }
    /// The x axis' title for @p origin: the origin of the tick labels when they are offsets.
    static QString timeAxisLabel(const SecondsTicker::Origin& origin);

Q_SIGNALS:
    void peakClicked(int rank);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void reduce();
    void onRangeChanged(const QCPRange& range);
    void fitLegend();
    /// Pixel squares of the peak marks, in m_peaks order (after layout).
    std::vector<QRectF> markRects() const;
    void placePeakLabels();

    QCPAxisRect* m_throughputRect;
    QCPAxisRect* m_ncclRect;
    QCPLayoutGrid* m_legendRow;
    QSharedPointer<SecondsTicker> m_ticker = QSharedPointer<SecondsTicker>::create();
    QCPGraph* m_ncclGraph;
    QCPGraph* m_peakGraph;
    QCPItemRect* m_highlight;
    std::vector<QCPGraph*> m_graphs;
    std::vector<NvlinkPlotSeries> m_series;
    std::vector<std::pair<TimeNs, TimeNs>> m_busy;
    std::vector<NvlinkPlotPeak> m_peaks;
    std::vector<QCPItemText*> m_peakLabels;
    std::vector<int> m_peakRankOfPoint;
    TimeNs m_dataFrom = 0;
    TimeNs m_dataTo = 0;
    QTimer m_reduceTimer;
    bool m_syncing = false;
};

/// Renders series, peaks and NCCL band to a PNG of @p size without a window (the CLI's --png); returns an error
/// naming the file, or "".
QString saveNvlinkPlotPng(std::vector<NvlinkPlotSeries> series, const QString& yLabel,
    std::vector<NvlinkPlotPeak> peaks, std::vector<std::pair<TimeNs, TimeNs>> ncclBusy, const QString& title,
    const QString& fileName, QSize size = QSize(1600, 700));

} // namespace nsw
