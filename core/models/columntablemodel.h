// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>
#include <functional>
#include <vector>

namespace nsw {

/// A table model described column by column: each column's header, raw value, shown text, tool tip and alignment are
/// said once, and data()/headerData() answer from them. DisplayRole is the column's text (its raw value where it has
/// none), SortRole and RawValueRole the raw value; the header's RawValueRole is the header of raw exports (units
/// made explicit). A subclass says how many rows there are and answers the roles of a whole row (IdentityRole...).
class ColumnTableModel : public QAbstractTableModel
{
public:
    /// A value of a row (by row number).
    using Value = std::function<QVariant(int row)>;
    /// The text shown for a row, from its raw value.
    using Text = std::function<QVariant(int row, const QVariant& raw)>;

    struct ColumnSpec
    {
        QString header;
        QString rawHeader = {}; ///< empty: the header
        Value raw;
        Text text = {}; ///< empty: the raw value is shown
        Value toolTip = {};
        Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter; ///< none: no TextAlignmentRole
        QString headerToolTip = {};
    };

    int rowCount(const QModelIndex& parent = {}) const final;
    int columnCount(const QModelIndex& parent = {}) const final;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final;

    /// Texts shared by many columns: a duration in ns, a time on the session clock in seconds, a number with
    /// @p decimals decimals, a count with thousands separators.
    static Text durationText();
    static Text secondsText(int decimals);
    static Text fixedText(int decimals);
    static Text countText();

protected:
    explicit ColumnTableModel(QObject* parent);
    /// Call in the subclass's constructor, or between beginResetModel and endResetModel for columns that follow the
    /// data (one per bar of a chart).
    void setColumns(std::vector<ColumnSpec> columns) { m_columns = std::move(columns); }
    /// For a header that names what the rows hold (a time mode): call between beginResetModel and endResetModel.
    void setHeader(int column, const QString& header) { m_columns[std::size_t(column)].header = header; }
    virtual int rows() const = 0;
    /// The roles of a whole row (IdentityRole, KernelNameRole...); none by default.
    virtual QVariant rowData(int row, int role) const;

    static constexpr Qt::Alignment kLeft = Qt::AlignLeft | Qt::AlignVCenter;

private:
    std::vector<ColumnSpec> m_columns;
};

} // namespace nsw
