// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/stats/durationhistogram.h"
#include "widgets/common/chart.h"

#include <optional>
#include <utility>

namespace nsw {

/// The duration histogram of one kernel (or NVTX range): log-scaled bins as filled steps, p50/p90/p99 lines, the bin
/// under the mouse in a tooltip. Dragging across bins (or clicking one) brushes them: binsBrushed() tells which.
class DurationHistogramChart : public Chart
{
    Q_OBJECT
public:
    explicit DurationHistogramChart(QWidget* parent = nullptr);

    void setHistogram(const DurationHistogram& histogram, const QString& title);
    /// No histogram: @p message in the middle of the chart.
    void clearHistogram(const QString& message);
    const DurationHistogram& histogram() const { return m_histogram; }
    /// Whether dragging brushes bins (on by default; off where nothing lists the executions).
    void setBrushingEnabled(bool enabled) { m_brushing = enabled; }

    /// Highlights bins first..last (no signal); nullopt clears the highlight.
    void setBrushedBins(std::optional<std::pair<int, int>> bins);
    std::optional<std::pair<int, int>> brushedBins() const { return m_brushed; }
    /// The bin drawn under the horizontal pixel @p x (the nearest at either end), or -1 without bins.
    int binAtPixel(double x) const;
    /// The horizontal pixel at the middle of bin @p bin as drawn (for tests and keyboard-free brushing).
    double pixelOfBin(int bin) const;
    /// "141 µs – 158 µs: 34 executions (50.0 %)".
    QString binToolTip(int bin) const;
    /// The line above the bars, as drawn ("3 executions · …", or the message when empty).
    QString titleText() const;

Q_SIGNALS:
    void binsBrushed(int firstBin, int lastBin);

protected:
    /// Fewer duration ticks where their labels would run together (the docked chart is ~290 px wide at 1366x768).
    void updateLayout() override;

private:
    /// Where bin @p bin is drawn on the log axis: [left, right). The zero bin, which a log axis cannot place, is
    /// drawn one bin width left of the first other bin.
    std::pair<double, double> drawnRange(int bin) const;
    void showBins();
    void showPercentiles();
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);
    void onRelease(QMouseEvent* event);

    DurationHistogram m_histogram;
    QCPTextElement* m_title;
    QCPGraph* m_bars;
    QCPGraph* m_brushBars;
    std::optional<std::pair<int, int>> m_brushed;
    int m_dragStart = -1;
    bool m_brushing = true;
};

} // namespace nsw
