// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/iterations/iterations.h"
#include "widgets/common/chart.h"

#include <memory>

namespace nsw {

/// Iteration durations over the run: one point per iteration (x = index, y = duration in ms), outliers in red, the
/// median as a dashed line, the current iteration ringed.
class IterationsChart : public Chart
{
    Q_OBJECT
public:
    explicit IterationsChart(QWidget* parent = nullptr);

    void setTable(std::shared_ptr<const IterationTable> table);
    /// Rings iteration @p index (-1: none).
    void setCurrent(int index);

    // For tests: the points drawn.
    QCPGraph* durationGraph() const { return m_durations; }
    QCPGraph* outlierGraph() const { return m_outliers; }

Q_SIGNALS:
    /// A point was clicked.
    void iterationClicked(int index);

protected:
    /// Fewer ticks where the numbers would run together; the legend only where it leaves the points room.
    void updateLayout() override;

private:
    std::shared_ptr<const IterationTable> m_table;
    QCPGraph* m_durations;
    QCPGraph* m_outliers;
    QCPGraph* m_current;
    QCPItemStraightLine* m_median;
    QCPItemText* m_empty; ///< shown instead of an empty plot
};

} // namespace nsw
