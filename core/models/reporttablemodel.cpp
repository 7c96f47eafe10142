// SPDX-License-Identifier: GPL-3.0-or-later
#include "reporttablemodel.h"

#include "core/models/cellvalue.h"
#include "core/models/modelroles.h"
#include "core/stats/reportformat.h"
#include "core/util/csv.h"

namespace nsw {

ReportTableModel::ReportTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void ReportTableModel::setReport(ReportTable report)
{
    beginResetModel();
    m_report = std::move(report);
    endResetModel();
}

int ReportTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_report.rows.size());
}

int ReportTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_report.columns.size());
}

QVariant ReportTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const ReportValue& v = m_report.rows[std::size_t(index.row())][std::size_t(index.column())];
    if (role == SortRole || role == RawValueRole)
        return cellValue(v);
    if (role == CsvTextRole)
        return reportCellText(v, m_report.columns[std::size_t(index.column())]);
    if (role == Qt::DisplayRole)
        return std::holds_alternative<std::monostate>(v)
            ? QVariant()
            : QVariant(reportDisplayText(v, m_report.columns[std::size_t(index.column())]));
    if (role == Qt::ToolTipRole && std::holds_alternative<QString>(v))
        return std::get<QString>(v);
    if (role == Qt::TextAlignmentRole && !std::holds_alternative<QString>(v))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ReportTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && (role == Qt::DisplayRole || role == RawValueRole) && section >= 0
        && section < int(m_report.columns.size()))
        return m_report.columns[std::size_t(section)].header;
    // The window's CSV is `nsys stats --format csv`'s, byte for byte.
    if (orientation == Qt::Horizontal && role == CsvQuotingRole)
        return int(CsvQuoting::CommaOnly);
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nsw
