// SPDX-License-Identifier: GPL-3.0-or-later
#include "durationbinsmodel.h"

#include "core/models/modelroles.h"
#include "core/util/timeformat.h"

namespace nsw {

DurationBinsModel::DurationBinsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void DurationBinsModel::setHistogram(const DurationHistogram& histogram)
{
    beginResetModel();
    m_bins = histogram.bins;
    m_total = histogram.count;
    endResetModel();
}

int DurationBinsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_bins.size());
}

int DurationBinsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DurationBinsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const HistogramBin& b = m_bins[std::size_t(index.row())];
    const double share = m_total > 0 ? 100.0 * double(b.count) / double(m_total) : 0.0;
    if (role == SortRole || role == RawValueRole) {
        switch (index.column()) {
        case LowerColumn:
            return b.lower;
        case UpperColumn:
            return b.upper;
        case CountColumn:
            return b.count;
        case ShareColumn:
            return share;
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case LowerColumn:
            return formatDuration(b.lower);
        case UpperColumn:
            return formatDuration(b.upper);
        case CountColumn:
            return b.count;
        case ShareColumn:
            return QString::number(share, 'f', 1);
        }
    }
    return {};
}

QVariant DurationBinsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != RawValueRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool raw = role == RawValueRole;
    switch (section) {
    case LowerColumn:
        return raw ? QStringLiteral("From (ns)") : tr("From");
    case UpperColumn:
        return raw ? QStringLiteral("To (ns)") : tr("To");
    case CountColumn:
        return tr("Executions");
    case ShareColumn:
        return raw ? QStringLiteral("Share (%)") : tr("Share (%)");
    }
    return {};
}

} // namespace nsw
