// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ranks/ranksresult.h"

#include <QAbstractTableModel>
#include <memory>

namespace nsw {

/// One metric per rank × iteration: a row per rank (column 0 its number), a column per iteration (each rank's own
/// iterations, in order). What the heat map colours, its CSV, and `ranks --format csv`. Raw values (ns, or % for the
/// bubble share) in RawValueRole; a rank without that iteration has an empty cell.
class RankMatrixModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit RankMatrixModel(QObject* parent = nullptr);

    void setResult(std::shared_ptr<const RanksResult> result, RankMetric metric);
    const std::shared_ptr<const RanksResult>& result() const { return m_result; }
    RankMetric metric() const { return m_metric; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const RanksResult> m_result;
    RankMetric m_metric = RankMetric::Time;
    int m_iterations = 0;
};

} // namespace nsw
