// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ranks/ranksresult.h"

#include <QAbstractTableModel>
#include <memory>

namespace nsw {

/// A row per matched collective instance: which collective (kind, NCCL kernel, stream, its place), the reference
/// rank's iteration, when the first rank arrived (reference clock), the arrival skew, the rank that came last and the
/// transfer after it. Raw values (ns) in RawValueRole, the instance index in IdentityRole.
class CollectiveSkewModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        IndexColumn,
        KindColumn,
        NameColumn,
        StreamColumn,
        SequenceColumn,
        IterationColumn,
        FirstArrivalColumn,
        SkewColumn,
        StragglerColumn,
        TransferColumn,
        ColumnCount
    };

    explicit CollectiveSkewModel(QObject* parent = nullptr);

    void setResult(std::shared_ptr<const RanksResult> result);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant rawValue(int row, int column) const;
    std::shared_ptr<const RanksResult> m_result;
};

} // namespace nsw
