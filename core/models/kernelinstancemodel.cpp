// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernelinstancemodel.h"

#include "core/models/modelroles.h"
#include "core/profile/sessionclock.h"
#include "core/util/timeformat.h"

#include <algorithm>
#include <unordered_map>

namespace nsw {

namespace {
QString shapeText(const std::uint32_t (&v)[3])
{
    return QStringLiteral("%1 × %2 × %3").arg(v[0]).arg(v[1]).arg(v[2]);
}
qint64 shapeVolume(const std::uint32_t (&v)[3])
{
    return qint64(v[0]) * v[1] * v[2];
}
} // namespace

KernelInstanceModel::KernelInstanceModel(QObject* parent)
    : ColumnTableModel(parent)
{
    const auto raw = [this](int column) -> Value {
        return [this, column](int r) { return rawValueOf(*m_profile, kernelRowAt(r), column); };
    };
    const auto shape = [this](int r) -> const LaunchShape& {
        return m_profile->launchShapes[m_profile->kernels.shape[kernelRowAt(r)]];
    };
    setColumns({
        { .header = tr("Start"),
            .rawHeader = QStringLiteral("Start (ns)"),
            .raw = raw(StartColumn),
            .text =
                [this](int, const QVariant& start) { // as the timeline's ruler
                    return formatSeconds(start.toLongLong() - sessionClockOrigin(*m_profile), 9);
                } },
        { .header = tr("Duration"),
            .rawHeader = QStringLiteral("Duration (ns)"),
            .raw = raw(DurationColumn),
            .text = durationText() },
        { .header = tr("Device"), .raw = raw(DeviceColumn) },
        { .header = tr("Stream"), .raw = raw(StreamColumn) },
        { .header = tr("PID"), .raw = raw(ProcessColumn) },
        { .header = tr("Grid"),
            .rawHeader = QStringLiteral("Grid (blocks)"),
            .raw = raw(GridColumn),
            .text = [shape](int r, const QVariant&) { return shapeText(shape(r).grid); } },
        { .header = tr("Block"),
            .rawHeader = QStringLiteral("Block (threads)"),
            .raw = raw(BlockColumn),
            .text = [shape](int r, const QVariant&) { return shapeText(shape(r).block); } },
        { .header = tr("Registers"), .raw = raw(RegistersColumn) },
        { .header = tr("Shared mem"),
            .rawHeader = QStringLiteral("Shared memory (bytes)"),
            .raw = raw(SharedMemoryColumn),
            .text = [](int, const QVariant& bytes) { return formatBytes(bytes.toLongLong()); } },
        { .header = tr("Correlation"), .raw = raw(CorrelationColumn) },
        { .header = tr("Launched by"), .raw = raw(LaunchColumn) },
    });
}

KernelInstanceModel::Rows KernelInstanceModel::noRows()
{
    static const Rows none = std::make_shared<const std::vector<std::uint32_t>>();
    return none;
}

void KernelInstanceModel::dropSort()
{
    if (!m_sortJob.isBusy())
        return;
    m_sortJob.cancel();
    Q_EMIT sortingChanged(false);
}

void KernelInstanceModel::setInstances(ProfilePtr profile, std::vector<std::uint32_t> kernelRows)
{
    dropSort();
    beginResetModel();
    m_profile = std::move(profile);
    m_allRows = std::make_shared<const std::vector<std::uint32_t>>(std::move(kernelRows));
    m_durationFilter.reset();
    m_sortColumn = -1;
    filterRows();
    endResetModel();
}

void KernelInstanceModel::setDurationFilter(std::optional<DurationRange> range)
{
    if (range == m_durationFilter)
        return;
    dropSort();
    beginResetModel();
    m_durationFilter = range;
    filterRows();
    endResetModel();
    sortRows(); // the sort order stays
}

qint64 KernelInstanceModel::durationOf(std::uint32_t kernelRow) const
{
    return m_profile->kernels.end[kernelRow] - m_profile->kernels.start[kernelRow];
}

void KernelInstanceModel::filterRows()
{
    if (!m_durationFilter || !m_profile) {
        m_rows = m_allRows;
    } else {
        auto rows = std::make_shared<std::vector<std::uint32_t>>();
        for (const std::uint32_t k : *m_allRows)
            if (m_durationFilter->contains(durationOf(k)))
                rows->push_back(k);
        m_rows = std::move(rows);
    }
    m_shown = std::min(m_rows->size(), kRowsPerFetch);
}

int KernelInstanceModel::rows() const
{
    return int(std::min(m_rows->size(), m_shown));
}

bool KernelInstanceModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && m_shown < m_rows->size();
}

void KernelInstanceModel::fetchMore(const QModelIndex& parent)
{
    if (canFetchMore(parent))
        showRowsUpTo(m_shown + kRowsPerFetch - 1);
}

void KernelInstanceModel::showRowsUpTo(std::size_t row)
{
    const std::size_t shown = std::min(m_rows->size(), row + 1);
    if (shown <= m_shown)
        return;
    beginInsertRows({}, int(m_shown), int(shown - 1));
    m_shown = shown;
    endInsertRows();
}

int KernelInstanceModel::showRowOfKernel(std::uint32_t kernelRow)
{
    const auto it = std::find(m_rows->begin(), m_rows->end(), kernelRow);
    if (it == m_rows->end())
        return -1;
    const std::size_t row = std::size_t(it - m_rows->begin());
    showRowsUpTo(row);
    return int(row);
}

void KernelInstanceModel::clear()
{
    setInstances(nullptr, {});
}

QVariant KernelInstanceModel::rawValueOf(const Profile& profile, std::uint32_t k, int column)
{
    const KernelTable& t = profile.kernels;
    const LaunchShape& shape = profile.launchShapes[t.shape[k]];
    switch (column) {
    case StartColumn:
        return qint64(t.start[k]);
    case DurationColumn:
        return qint64(t.end[k] - t.start[k]);
    case DeviceColumn:
        return t.device[k];
    case StreamColumn:
        return t.stream[k];
    case ProcessColumn:
        return t.process[k] >= 0 ? profile.processes[std::size_t(t.process[k])].pid : -1;
    case GridColumn:
        return shapeVolume(shape.grid);
    case BlockColumn:
        return shapeVolume(shape.block);
    case RegistersColumn:
        return shape.registersPerThread;
    case SharedMemoryColumn:
        return shape.staticSharedMemory + shape.dynamicSharedMemory;
    case CorrelationColumn:
        return t.correlation[k];
    case LaunchColumn:
        // Empty until a staged load's second stage links kernels to their launching calls.
        return k < t.api.size() && t.api[k] >= 0 ? profile.strings.at(profile.cudaApi.name[std::size_t(t.api[k])])
                                                 : QString();
    }
    return {};
}

QVariant KernelInstanceModel::rowData(int row, int role) const
{
    return role == IdentityRole ? QVariant(kernelRowAt(row)) : QVariant();
}

void KernelInstanceModel::sort(int column, Qt::SortOrder order)
{
    if (!m_profile || column < 0 || column >= ColumnCount)
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    sortRows();
}

void KernelInstanceModel::applyOrder(std::vector<std::uint32_t> rows)
{
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // Keep selections on the same kernels: find the rows the persistent indexes point at in the new order (a pass
    // over the rows with a small set, not a map of every row).
    const QModelIndexList persistent = persistentIndexList();
    std::vector<std::uint32_t> kernels;
    std::unordered_map<std::uint32_t, int> newRow;
    for (const QModelIndex& p : persistent) {
        kernels.push_back(kernelRowAt(p.row()));
        newRow.emplace(kernels.back(), -1);
    }
    m_rows = std::make_shared<const std::vector<std::uint32_t>>(std::move(rows));
    if (!newRow.empty()) {
        for (std::size_t i = 0; i < m_rows->size(); ++i)
            if (const auto it = newRow.find((*m_rows)[i]); it != newRow.end())
                it->second = int(i);
        // The rows shown stay as many: a selection sorted past them is dropped (the rows keep their count through a
        // layout change).
        QModelIndexList moved;
        for (int i = 0; i < persistent.size(); ++i)
            moved.append(index(newRow.at(kernels[std::size_t(i)]), persistent[i].column()));
        changePersistentIndexList(persistent, moved);
    }
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

std::unique_ptr<QAbstractItemModel> KernelInstanceModel::csvSnapshot() const
{
    auto copy = std::make_unique<KernelInstanceModel>();
    copy->m_profile = m_profile;
    copy->m_allRows = m_rows; // the rows as listed, filtered and sorted: shared, not copied
    copy->m_rows = m_rows;
    copy->m_shown = m_rows->size(); // every row, not only those fetched into the view
    copy->moveToThread(nullptr);
    return copy;
}

namespace {
/// @p rows ordered by @p column of @p profile's kernels (raw values; call names by their text), stable.
std::vector<std::uint32_t> sortedRows(const Profile& p, const std::vector<std::uint32_t>& rows, int column,
    Qt::SortOrder order, const JobContext& job = {})
{
    std::vector<std::uint32_t> sorted(rows.size());
    const KernelTable& t = p.kernels;
    const auto key = [&](std::uint32_t k) -> qint64 {
        switch (column) {
        case KernelInstanceModel::StartColumn:
            return t.start[k];
        case KernelInstanceModel::DurationColumn:
            return t.end[k] - t.start[k];
        case KernelInstanceModel::DeviceColumn:
            return t.device[k];
        case KernelInstanceModel::StreamColumn:
            return t.stream[k];
        case KernelInstanceModel::CorrelationColumn:
            return t.correlation[k];
        default:
            return KernelInstanceModel::rawValueOf(p, k, column).toLongLong();
        }
    };
    const auto before = [order](const auto& a, const auto& b) {
        return order == Qt::AscendingOrder ? a.first < b.first : b.first < a.first;
    };
    if (column == KernelInstanceModel::LaunchColumn) {
        // Group by call name: sort by the pooled string's text.
        std::vector<std::pair<QString, std::uint32_t>> byName;
        byName.reserve(rows.size());
        for (const std::uint32_t k : rows)
            byName.emplace_back(KernelInstanceModel::rawValueOf(p, k, column).toString(), k);
        std::stable_sort(byName.begin(), byName.end(), before);
        for (std::size_t i = 0; i < byName.size(); ++i)
            sorted[i] = byName[i].second;
        return sorted;
    }
    std::vector<std::pair<qint64, std::uint32_t>> keyed;
    keyed.reserve(rows.size());
    for (const std::uint32_t k : rows)
        keyed.emplace_back(key(k), k);
    if (job.isCancelled())
        return {};
    std::stable_sort(keyed.begin(), keyed.end(), before);
    for (std::size_t i = 0; i < keyed.size(); ++i)
        sorted[i] = keyed[i].second;
    return sorted;
}
} // namespace

void KernelInstanceModel::sortRows()
{
    if (!m_profile || m_sortColumn < 0)
        return;
    dropSort();
    if (m_rows->size() <= kSortInPlaceRows) {
        applyOrder(sortedRows(*m_profile, *m_rows, m_sortColumn, m_sortOrder));
        return;
    }
    // Off the GUI thread (1.29M executions took 3.2 s), on the shared rows and profile; a newer sort, filter or kernel
    // drops this one.
    Q_EMIT sortingChanged(true);
    m_sortJob.run<std::vector<std::uint32_t>>(
        [profile = m_profile, rows = m_rows, column = m_sortColumn, order = m_sortOrder](const JobContext& job)
            -> Result<std::vector<std::uint32_t>> { return sortedRows(*profile, *rows, column, order, job); },
        [this](Result<std::vector<std::uint32_t>> rows) {
            // A failed sort (out of memory) leaves the rows in their order.
            if (rows && rows->size() == m_rows->size())
                applyOrder(std::move(*rows));
            Q_EMIT sortingChanged(false);
        });
}

} // namespace nsw
