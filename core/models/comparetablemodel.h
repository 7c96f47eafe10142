// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparison.h"
#include "core/models/modelroles.h"

#include <QAbstractTableModel>
#include <QHash>

namespace nsw {

/// The comparison table: key and status, then one column group per profile (total, instances, average, the median in
/// per-instance mode, share, and for every profile but the baseline its delta, delta of instances and delta %). Row 0
/// is the totals row ("(all GPU time)"), pinned (PinnedRole) so that it stays on top of any sort and filter; the other
/// rows come in the comparison's order (largest |delta| first), which is the table's default order.
class CompareTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    /// int(CompareStatus): the row's summary on the key and status columns, the column's profile's elsewhere.
    static constexpr int StatusRole = FirstCustomRole;
    /// 0xAARRGGBB of a category key (the category pane's colour); invalid for other keys.
    static constexpr int ColorRole = FirstCustomRole + 1;
    /// headerData: the profile index of a column, -1 for the key and status columns.
    static constexpr int ProfileRole = FirstCustomRole + 2;

    enum class Column : std::uint8_t
    {
        Key,
        Status,
        Total,
        Instances,
        Average,
        Share,
        Delta,
        DeltaPercent,
        Median, ///< per-instance mode only
        DeltaInstances
    };
    /// Bit 1 << int(CompareStatus) per status shown.
    static constexpr unsigned kAllStatuses = 0x1Fu;

    explicit CompareTableModel(QObject* parent = nullptr);

    void setComparison(Comparison comparison);
    const Comparison& comparison() const { return m_comparison; }
    /// Shows only the rows whose summary status is in @p mask; the totals row always stays.
    void setStatusFilter(unsigned mask);
    unsigned statusFilter() const { return m_statusMask; }

    /// The comparison row of a model row (the totals row for row 0), or nullptr.
    const CompareRow* rowAt(int row) const;
    /// Index into Comparison::rows of a model row; -1 for the totals row.
    int comparisonRow(int row) const;
    /// Model row of a key, or -1 (filtered out or absent).
    int rowOfKey(const QString& key) const;
    Column columnKind(int column) const;
    /// Profile of a column, -1 for the key and status columns.
    int profileOfColumn(int column) const;
    /// Column of @p kind in @p profile's group (the key and status columns ignore @p profile), or -1.
    int columnOf(Column kind, int profile = -1) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuildRows();
    QVariant cellData(const CompareRow& row, Column kind, int profile, int role) const;

    Comparison m_comparison;
    unsigned m_statusMask = kAllStatuses;
    std::vector<std::pair<Column, int>> m_columns;
    std::vector<int> m_rows; ///< per model row: index into m_comparison.rows, -1 = totals
    QStringList m_shortLabels; ///< compactProfileLabels(), for the headers
    QHash<QString, std::uint32_t> m_categoryColors; ///< categoryColors() of the keys, by category
};

} // namespace nsw
