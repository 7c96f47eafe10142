// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/models/columntablemodel.h"
#include "core/ranks/ranksresult.h"

#include <memory>

namespace nsw {

/// A row per matched collective instance: which collective (kind, NCCL kernel, stream, its place), the reference
/// rank's iteration, when the first rank arrived (reference clock), the arrival skew, the rank that came last and the
/// transfer after it. Raw values (ns) in RawValueRole, the instance index in IdentityRole.
class CollectiveSkewModel : public ColumnTableModel
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

protected:
    int rows() const override { return m_result ? int(m_result->collectives.size()) : 0; }
    QVariant rowData(int row, int role) const override;

private:
    const CollectiveInstance& at(int row) const { return m_result->collectives[std::size_t(row)]; }
    const CollectiveKey& keyAt(int row) const { return m_result->keys[std::size_t(at(row).key)]; }

    std::shared_ptr<const RanksResult> m_result;
};

} // namespace nsw
