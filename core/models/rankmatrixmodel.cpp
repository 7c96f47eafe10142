// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/rankmatrixmodel.h"

#include "core/models/modelroles.h"
#include "core/ranks/ranksexport.h"
#include "core/util/timeformat.h"

#include <cmath>

namespace nsw {

RankMatrixModel::RankMatrixModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void RankMatrixModel::setResult(std::shared_ptr<const RanksResult> result, RankMetric metric)
{
    beginResetModel();
    m_result = std::move(result);
    m_metric = metric;
    m_iterations = m_result ? m_result->iterationCount() : 0;
    endResetModel();
}

int RankMatrixModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_result ? 0 : int(m_result->ranks.size());
}

int RankMatrixModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_result ? 0 : 1 + m_iterations;
}

QVariant RankMatrixModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const RankRow& row = m_result->ranks[std::size_t(index.row())];
    if (role == IdentityRole)
        return row.rank;
    if (index.column() == 0)
        return role == Qt::DisplayRole || role == SortRole || role == RawValueRole ? QVariant(row.rank) : QVariant();
    const std::size_t i = std::size_t(index.column() - 1);
    if (i >= row.iterations.size())
        return {};
    const RankIterationCell& c = row.iterations[i];
    const double value = c.value(m_metric);
    switch (role) {
    case Qt::DisplayRole:
        return formatRankMetric(m_metric, value);
    case SortRole:
    case RawValueRole:
        return m_metric == RankMetric::Bubble ? QVariant(std::round(value * 100) / 100) : QVariant(qint64(value));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return tr("rank %1, iteration %2%3: %4\ncompute %5, communication %6 (wait %7, transfer %8), memory %9, "
                  "idle %10")
            .arg(row.rank)
            .arg(c.iteration)
            .arg(c.outlier ? tr(" (an outlier)") : QString())
            .arg(formatDuration(c.duration()), formatDuration(c.computeNs), formatDuration(c.communicationNs),
                formatDuration(c.waitNs), formatDuration(c.transferNs), formatDuration(c.memoryNs),
                formatDuration(c.idleNs));
    default:
        return {};
    }
}

QVariant RankMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != RawValueRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == 0)
        return tr("Rank");
    const QString unit = m_metric == RankMetric::Bubble ? QStringLiteral("%") : QStringLiteral("ns");
    return role == RawValueRole ? QStringLiteral("%1 (%2)").arg(section - 1).arg(unit) : QString::number(section - 1);
}

} // namespace nsw
