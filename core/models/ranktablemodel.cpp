// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/ranktablemodel.h"

#include "core/models/modelroles.h"
#include "core/util/timeformat.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>

namespace nsw {

namespace {

template <typename T> T middle(std::vector<T> v)
{
    if (v.empty())
        return T {};
    std::sort(v.begin(), v.end());
    return v[(v.size() - 1) / 2];
}

QString signedDuration(TimeNs ns)
{
    return ns < 0 ? QStringLiteral("-") + formatDuration(-ns) : formatDuration(ns);
}

} // namespace

RankTableModel::RankTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void RankTableModel::setResult(std::shared_ptr<const RanksResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    m_medians.clear();
    if (m_result)
        for (const RankRow& row : m_result->ranks) {
            std::vector<TimeNs> durations, compute;
            std::vector<double> bubble;
            for (const RankIterationCell& c : row.iterations) {
                durations.push_back(c.duration());
                compute.push_back(c.computeNs);
                bubble.push_back(c.bubblePercent());
            }
            m_medians.push_back({ middle(durations), middle(compute), middle(bubble) });
        }
    endResetModel();
}

int RankTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_result ? 0 : int(m_result->ranks.size());
}

int RankTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RankTableModel::rawValue(int r, int column) const
{
    const RankRow& row = m_result->ranks[std::size_t(r)];
    const RankSummary& rank = m_result->summaryOf(row);
    const Medians& m = m_medians[std::size_t(r)];
    switch (column) {
    case RankColumn:
        return row.rank;
    case HostColumn:
        return m_result->fileOf(row).host;
    case PidColumn:
        return rank.pid;
    case GpuColumn:
        return rank.gpuLabel;
    case FileColumn:
        return m_result->fileOf(row).exportPath;
    case ClockOffsetColumn:
        return qint64(row.clockOffsetNs);
    case IterationsColumn:
        return qint64(row.iterations.size());
    case MedianIterationColumn:
        return qint64(m.iteration);
    case MedianComputeColumn:
        return qint64(m.compute);
    case BubbleColumn:
        return std::round(m.bubble * 100) / 100;
    case CollectivesColumn:
        return row.collectives;
    case LastArrivalsColumn:
        return row.lastArrivals;
    case LastSharesColumn:
        return row.collectives > 0 ? std::round(10000.0 * double(row.lastArrivals) / double(row.collectives)) / 100
                                   : 0.0;
    case WaitColumn:
        return qint64(row.waitNs);
    case WaitPerIterationColumn:
        return row.iterations.empty() ? qint64(0) : qint64(row.waitNs / TimeNs(row.iterations.size()));
    }
    return {};
}

QVariant RankTableModel::displayValue(int r, int column) const
{
    const RankRow& row = m_result->ranks[std::size_t(r)];
    const QVariant raw = rawValue(r, column);
    switch (column) {
    case FileColumn:
        return QFileInfo(raw.toString()).fileName();
    case ClockOffsetColumn:
        return signedDuration(raw.toLongLong());
    case IterationsColumn:
        return m_result->summaryOf(row).iterationsGuessed ? tr("%1 (guess)").arg(raw.toLongLong()) : raw.toString();
    case MedianIterationColumn:
    case MedianComputeColumn:
    case WaitColumn:
    case WaitPerIterationColumn:
        return formatDuration(raw.toLongLong());
    case BubbleColumn:
    case LastSharesColumn:
        return QString(QString::number(raw.toDouble(), 'f', 1) + QStringLiteral(" %"));
    case CollectivesColumn:
        return row.matched ? raw.toString() : tr("not matched");
    default:
        return raw;
    }
}

QVariant RankTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const RankRow& row = m_result->ranks[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(index.row(), index.column());
    case SortRole:
    case RawValueRole:
        return rawValue(index.row(), index.column());
    case IdentityRole:
        return row.rank;
    case Qt::TextAlignmentRole: {
        const bool text = index.column() == HostColumn || index.column() == GpuColumn || index.column() == FileColumn;
        return QVariant::fromValue((text ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    }
    case Qt::ToolTipRole:
        if (index.column() == FileColumn)
            return m_result->fileOf(row).exportPath;
        if (index.column() == ClockOffsetColumn)
            return row.clockSource;
        if (index.column() == IterationsColumn)
            return m_result->summaryOf(row).iterationDetection;
        return {};
    default:
        return {};
    }
}

QVariant RankTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != RawValueRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool raw = role == RawValueRole;
    switch (section) {
    case RankColumn:
        return tr("Rank");
    case HostColumn:
        return tr("Host");
    case PidColumn:
        return tr("PID");
    case GpuColumn:
        return tr("GPU");
    case FileColumn:
        return tr("Export");
    case ClockOffsetColumn:
        return raw ? QStringLiteral("Clock Offset (ns)") : tr("Clock offset");
    case IterationsColumn:
        return tr("Iterations");
    case MedianIterationColumn:
        return raw ? QStringLiteral("Median Iteration (ns)") : tr("Median iteration");
    case MedianComputeColumn:
        return raw ? QStringLiteral("Median Compute (ns)") : tr("Compute / iteration");
    case BubbleColumn:
        return raw ? QStringLiteral("Median Bubble (%)") : tr("Bubble");
    case CollectivesColumn:
        return tr("Collectives");
    case LastArrivalsColumn:
        return tr("Last arrivals");
    case LastSharesColumn:
        return raw ? QStringLiteral("Last Arrival Share (%)") : tr("Last share");
    case WaitColumn:
        return raw ? QStringLiteral("Wait (ns)") : tr("Wait");
    case WaitPerIterationColumn:
        return raw ? QStringLiteral("Wait per Iteration (ns)") : tr("Wait / iteration");
    }
    return {};
}

} // namespace nsw
