// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosticstablemodel.h"

#include "core/models/cellvalue.h"
#include "core/models/modelroles.h"
#include "core/util/numberformat.h"
#include "core/util/readablename.h"
#include "core/util/timeformat.h"

namespace nsw {

namespace {
/// Durations read as durations ("1.25 ms"), the rest as numbers with separators; the column names say which
/// ("total_ns", "idle_pct"), as in the report's CSV files.
QString displayCell(const DiagnosticsCell& cell, const QString& column)
{
    // A time on the session clock, to the nanosecond (typed into Focus on Range it selects the same events).
    const bool time = column == QLatin1String("start_ns") || column == QLatin1String("end_ns");
    if (const auto* i = std::get_if<qint64>(&cell))
        return time                                 ? formatSeconds(*i, 9)
            : column.endsWith(QLatin1String("_ns")) ? formatDuration(*i)
                                                    : withThousandsSeparators(*i);
    if (const auto* d = std::get_if<double>(&cell)) {
        if (column.endsWith(QLatin1String("_pct")))
            return QStringLiteral("%1 %").arg(*d, 0, 'f', 1);
        return withThousandsSeparators(*d, std::abs(*d) >= 100 ? 1 : 3);
    }
    if (const auto* s = std::get_if<QString>(&cell))
        return *s;
    return {};
}
} // namespace

DiagnosticsTableModel::DiagnosticsTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void DiagnosticsTableModel::setTable(std::shared_ptr<const DiagnosticsTable> table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int DiagnosticsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_table->rows.size());
}

int DiagnosticsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_table->columns.size());
}

QVariant DiagnosticsTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_table || !index.isValid() || std::size_t(index.row()) >= m_table->rows.size())
        return {};
    const auto& row = m_table->rows[std::size_t(index.row())];
    if (std::size_t(index.column()) >= row.size())
        return {};
    const DiagnosticsCell& cell = row[std::size_t(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return displayCell(cell, m_table->columns.value(index.column()));
    case SortRole:
    case RawValueRole:
        return cellValue(cell);
    case CsvTextRole: {
        const QVariant raw = cellValue(cell);
        return raw.isValid() ? raw.toString() : QString();
    }
    case Qt::TextAlignmentRole:
        return std::holds_alternative<QString>(cell) ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant DiagnosticsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || !m_table)
        return QAbstractTableModel::headerData(section, orientation, role);
    const QString column = m_table->columns.value(section);
    // Read in words over formatted values ("Total", not "total_ns" over "1.25 ms"); the CSV keeps the names.
    switch (role) {
    case Qt::DisplayRole:
        return QString(
            readableName(column) + (column.endsWith(QLatin1String("_pct")) ? QStringLiteral(" %") : QString()));
    case CsvTextRole:
        return column;
    case Qt::ToolTipRole:
        return tr("%1 in the report's CSV and JSON (raw values: ns, bytes, percent)").arg(column);
    default:
        return QAbstractTableModel::headerData(section, orientation, role);
    }
}

FindingsModel::FindingsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void FindingsModel::setFindings(std::vector<Finding> findings)
{
    beginResetModel();
    m_findings = std::move(findings);
    endResetModel();
}

int FindingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || std::size_t(index.row()) >= m_findings.size())
        return {};
    const Finding& f = m_findings[std::size_t(index.row())];
    if (role == IdentityRole)
        return index.row();
    switch (index.column()) {
    case SeverityColumn:
        if (role == Qt::DisplayRole || role == CsvTextRole)
            return severityName(f.severity);
        if (role == SortRole || role == RawValueRole)
            return int(f.severity);
        break;
    case TitleColumn:
        if (role == Qt::DisplayRole || role == SortRole || role == CsvTextRole)
            return f.title;
        if (role == Qt::ToolTipRole)
            return f.detail;
        break;
    case GpuCostColumn:
        if (role == Qt::DisplayRole)
            return f.gpuCostNs > 0
                ? QStringLiteral("%1 (%2 %)").arg(formatDuration(f.gpuCostNs)).arg(f.gpuCostPercent, 0, 'f', 1)
                : QString();
        if (role == Qt::ToolTipRole)
            return tr(
                "GPU time this finding's cause costs on the GPU it hurts most (idle time it causes, "
                "communication not hidden, waiting for a peer), as a share of the window. Findings are ranked by it.");
        if (role == SortRole || role == RawValueRole || role == CsvTextRole)
            return role == CsvTextRole ? QVariant(QString::number(f.gpuCostNs)) : QVariant(qint64(f.gpuCostNs));
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    }
    return {};
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case TitleColumn:
        return tr("Finding");
    case GpuCostColumn:
        return tr("GPU cost");
    }
    return {};
}

} // namespace nsw
