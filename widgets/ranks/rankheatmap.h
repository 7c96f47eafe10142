// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ranks/ranksresult.h"
#include "widgets/common/chart.h"

#include <memory>

namespace nsw {

/// The ranks × iterations heat map: a row per rank (rank 0 on top), a column per iteration, coloured by one metric
/// (ms, or % for the bubble share); a rank without that iteration is left blank. When there are more ranks (or
/// iterations) than pixels, neighbouring rows (columns) share a pixel and it shows the worst of them (the largest
/// value), so a straggler among 1,024 ranks stays visible; a click then picks that worst cell.
class RankHeatmap : public Chart
{
    Q_OBJECT
public:
    explicit RankHeatmap(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const RanksResult> result, RankMetric metric);
    /// Outlines the cell of rank row @p row (index into RanksResult::ranks) and iteration @p iteration; -1: none.
    void setCurrent(int row, int iteration);

    /// The cell under a point of the widget (the worst of its rows and columns when they share pixels): row into
    /// RanksResult::ranks and iteration, or {-1, -1} outside the cells.
    std::pair<int, int> cellAt(const QPointF& pos) const;
    /// The metric's value of a cell (ms, or %), NaN when the rank has no such iteration.
    double cellValue(int row, int iteration) const;

    // For tests: what is drawn.
    QCPColorMap* colorMap() const { return m_map; }
    int shownRows() const { return m_binRows; }
    int shownColumns() const { return m_binColumns; }

Q_SIGNALS:
    /// A cell was clicked.
    void cellClicked(int row, int iteration);

protected:
    /// Bins the rows and columns to the pixels the cells have.
    void updateLayout() override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    void rebin(int rows, int columns);
    /// The row of [first, last) with the largest value in @p iteration, or -1 when none has the iteration.
    int worstRow(int first, int last, int iteration) const;
    int rankCount() const;

    std::shared_ptr<const RanksResult> m_result;
    RankMetric m_metric = RankMetric::Time;
    int m_iterations = 0;
    std::vector<float> m_values; ///< [row × m_iterations + iteration], NaN when missing
    int m_binRows = 0;
    int m_binColumns = 0;
    QCPColorMap* m_map;
    QCPColorScale* m_scale;
    QString m_scaleTitle; ///< the colour scale's whole title (its axis shows it elided)
    QCPItemRect* m_current;
    QCPItemText* m_empty;
};

} // namespace nsw
