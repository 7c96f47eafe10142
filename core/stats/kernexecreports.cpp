// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernexecreports.h"

#include "core/stats/durationstats.h"
#include "core/stats/reportchecks.h"
#include "core/stats/reportnames.h"
#include "core/stats/reports.h"
#include "core/util/numberformat.h"

#include <QHash>
#include <algorithm>
#include <memory>
#include <unordered_map>

namespace nsw {

namespace {

/// The reason the report cannot run, as nsys words it; empty when it can.
QString kernExecSkipReason(const Profile& p)
{
    if (!profileHasTable(p, "CUPTI_ACTIVITY_KIND_KERNEL"))
        return QStringLiteral("%1 does not contain CUDA kernel data.").arg(reportFileName(p));
    if (!profileHasTable(p, "CUPTI_ACTIVITY_KIND_RUNTIME"))
        return QStringLiteral("%1 does not contain CUDA API data.").arg(reportFileName(p));
    return {};
}

/// A kernel and one API call with its correlation id in its process.
struct LaunchPair
{
    std::uint32_t kernel;
    std::uint32_t call;
};

/// Every (kernel, call) pair of nsys's join (k.correlationId == r.correlationId, same process) with both overlapping
/// @p focus, in its order: kernel rows, then the calls of each in table order. A kernel matches every call with
/// its correlation id: exports where a launch is also recorded by another API layer (e.g. an eventClass 67 row
/// beside the runtime's) give two rows, as nsys does.
std::vector<LaunchPair> launchPairs(const Profile& p, const FocusRange& focus)
{
    const KernelTable& k = p.kernels;
    const CudaApiTable& a = p.cudaApi;
    std::vector<LaunchPair> pairs;
    if (k.process.size() != k.size() || k.correlation.size() != k.size())
        return pairs;
    auto keyOf = [](ProcessIndex process, std::uint32_t correlation) {
        return (std::uint64_t(std::uint32_t(process)) << 32) | correlation;
    };
    // First call row per key, and the next row of the same key after each row (-1 ends the chain).
    std::unordered_map<std::uint64_t, std::int32_t> first;
    std::vector<std::int32_t> next(a.size(), -1);
    std::unordered_map<std::uint64_t, std::int32_t> last;
    first.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::uint64_t key = keyOf(p.processOfThread(a.thread[i]), a.correlation[i]);
        const auto [it, inserted] = last.try_emplace(key, std::int32_t(i));
        if (inserted)
            first.emplace(key, std::int32_t(i));
        else {
            next[std::size_t(it->second)] = std::int32_t(i);
            it->second = std::int32_t(i);
        }
    }
    for (std::size_t i = 0; i < k.size(); ++i) {
        if (!focus.overlaps(k.start[i], k.end[i]))
            continue;
        const auto it = first.find(keyOf(k.process[i], k.correlation[i]));
        if (it == first.end())
            continue;
        for (std::int32_t c = it->second; c >= 0; c = next[std::size_t(c)])
            if (focus.overlaps(a.start[std::size_t(c)], a.end[std::size_t(c)]))
                pairs.push_back({ std::uint32_t(i), std::uint32_t(c) });
    }
    return pairs;
}

/// What one launch measures (kernexecsum.py's runkern columns).
struct Launch
{
    TimeNs apiDuration;
    TimeNs queueDuration; ///< -1 when the kernel started before the call returned (NULL in nsys)
    TimeNs kernelDuration;
    TimeNs totalDuration;
};

Launch launchOf(const Profile& p, LaunchPair l)
{
    const KernelTable& k = p.kernels;
    const CudaApiTable& a = p.cudaApi;
    const TimeNs queue = k.start[l.kernel] - a.end[l.call];
    return { a.end[l.call] - a.start[l.call], queue >= 0 ? queue : -1, k.end[l.kernel] - k.start[l.kernel],
        std::max(a.end[l.call], k.end[l.kernel]) - a.start[l.call] };
}

ReportValue textOrNull(const Profile& p, StringRef ref)
{
    if (ref == kNoString)
        return std::monostate {};
    return p.strings.at(ref);
}

QString threeInts(const std::uint32_t v[3])
{
    // printf('%4d %4d %4d', ...) in nsys's query.
    return QString::asprintf("%4lld %4lld %4lld", qint64(v[0]), qint64(v[1]), qint64(v[2]));
}

/// Cleaned API names ("cudaLaunchKernel" for "cudaLaunchKernel_v7000") interned per text: nsys groups on the text.
class TextIds
{
public:
    int idOf(const QString& text)
    {
        const auto it = m_ids.constFind(text);
        if (it != m_ids.constEnd())
            return *it;
        m_texts.append(text);
        return *m_ids.insert(text, int(m_texts.size() - 1));
    }
    const QString& text(int id) const { return m_texts[id]; }

private:
    QHash<QString, int> m_ids;
    QStringList m_texts;
};

struct GroupKey
{
    int pid, tid, device, api, kernel; ///< api/kernel: TextIds ids, -1 = NULL
    bool operator==(const GroupKey&) const = default;
};

struct GroupKeyHash
{
    std::size_t operator()(const GroupKey& k) const
    {
        std::size_t h = 0;
        for (const int v : { k.pid, k.tid, k.device, k.api, k.kernel })
            h ^= std::hash<int>()(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        return h;
    }
};

struct LaunchGroup
{
    GroupKey key;
    std::vector<qint64> total, api, queue, kernel;
};

/// A NULL text sorts first, then texts by their UTF-8 bytes (SQLite's BINARY collation).
bool textLess(const QString* a, const QString* b)
{
    if (!a || !b)
        return !a && b;
    return a->toUtf8() < b->toUtf8();
}

void appendStats(std::vector<ReportValue>& cells, std::vector<qint64>& values)
{
    if (values.empty()) {
        // avg/median/min/max of no values are NULL; nsys's stdev() gives 0.0.
        cells.insert(cells.end(), 4, std::monostate {});
        cells.emplace_back(0.0);
        return;
    }
    const DurationSummary s = summarizeWithoutPercentiles(values);
    cells.emplace_back(sqliteRound(s.mean, 1));
    cells.emplace_back(sqliteRound(s.median, 1));
    cells.emplace_back(s.min);
    cells.emplace_back(s.max);
    cells.emplace_back(sqliteRound(s.stddev, 1));
}

/// Sorts the groups as nsys's GROUP BY emits them: PID, TID, device, then API and kernel name (NULL first, then bytes).
void sortGroups(std::vector<LaunchGroup>& groups, const TextIds& texts)
{
    auto textOf = [&](int id) { return id < 0 ? nullptr : &texts.text(id); };
    std::sort(groups.begin(), groups.end(), [&](const LaunchGroup& x, const LaunchGroup& y) {
        const GroupKey& a = x.key;
        const GroupKey& b = y.key;
        if (a.pid != b.pid)
            return a.pid < b.pid;
        if (a.tid != b.tid)
            return a.tid < b.tid;
        if (a.device != b.device)
            return a.device < b.device;
        if (a.api != b.api)
            return textLess(textOf(a.api), textOf(b.api));
        return textLess(textOf(a.kernel), textOf(b.kernel));
    });
}

/// The launches grouped by (PID, TID, device, cleaned API name, kernel name), in nsys's order; @p texts receives the
/// names.
std::vector<LaunchGroup> groupLaunches(
    const Profile& p, const std::vector<LaunchPair>& launched, KernelNameMode mode, TextIds& texts)
{
    const KernelTable& k = p.kernels;
    const CudaApiTable& a = p.cudaApi;
    QHash<StringRef, int> apiIds, kernelIds;
    auto idOf = [&](QHash<StringRef, int>& cache, StringRef ref, bool api) {
        if (ref == kNoString)
            return -1;
        const auto it = cache.constFind(ref);
        if (it != cache.constEnd())
            return *it;
        const QString& text = p.strings.at(ref);
        return *cache.insert(ref, texts.idOf(api ? apiReportName(text) : text));
    };
    std::unordered_map<GroupKey, std::size_t, GroupKeyHash> index;
    std::vector<LaunchGroup> groups;
    for (const LaunchPair& pair : launched) {
        const std::size_t i = pair.kernel;
        const ThreadIndex t = a.thread[pair.call];
        const qint64 globalTid = t >= 0 ? p.threads[std::size_t(t)].globalTid : 0;
        const GroupKey key { pidOf(globalTid), tidOf(globalTid), k.device[i], idOf(apiIds, a.name[pair.call], true),
            idOf(kernelIds, kernelNameOf(k, i, mode), false) };
        const auto [it, inserted] = index.try_emplace(key, groups.size());
        if (inserted)
            groups.push_back({ key, {}, {}, {}, {} });
        LaunchGroup& g = groups[it->second];
        const Launch l = launchOf(p, pair);
        g.total.push_back(l.totalDuration);
        g.api.push_back(l.apiDuration);
        if (l.queueDuration >= 0)
            g.queue.push_back(l.queueDuration);
        g.kernel.push_back(l.kernelDuration);
    }
    sortGroups(groups, texts);
    return groups;
}

std::vector<ReportColumn> kernExecSumColumns()
{
    using T = ReportColumn::Type;
    std::vector<ReportColumn> columns { { QStringLiteral("PID"), T::Integer }, { QStringLiteral("TID"), T::Integer },
        { QStringLiteral("DevId"), T::Integer }, { QStringLiteral("Count"), T::Integer },
        { QStringLiteral("QCount"), T::Integer } };
    for (const char* phase : { "T", "A", "Q", "K" }) {
        const QString p1 = QLatin1String(phase);
        columns.push_back({ p1 + QStringLiteral("Avg (ns)"), T::Real });
        columns.push_back({ p1 + QStringLiteral("Med (ns)"), T::Real });
        columns.push_back({ p1 + QStringLiteral("Min (ns)"), T::Integer });
        columns.push_back({ p1 + QStringLiteral("Max (ns)"), T::Integer });
        columns.push_back({ p1 + QStringLiteral("StdDev (ns)"), T::Real });
    }
    columns.push_back({ QStringLiteral("API Name"), T::Text });
    columns.push_back({ QStringLiteral("Kernel Name"), T::Text });
    return columns;
}

/// One row per group, ordered by the printed TAvg only: equal ones keep the group order (SQLite's sort is stable
/// here).
std::vector<std::vector<ReportValue>> kernExecSumRows(std::vector<LaunchGroup>& groups, const TextIds& texts)
{
    struct Row
    {
        double totalAverage;
        std::vector<ReportValue> cells;
    };
    std::vector<Row> rows;
    rows.reserve(groups.size());
    for (LaunchGroup& g : groups) {
        Row r;
        r.cells = { qint64(g.key.pid), qint64(g.key.tid), qint64(g.key.device), qint64(g.total.size()),
            qint64(g.queue.size()) };
        for (std::vector<qint64>* values : { &g.total, &g.api, &g.queue, &g.kernel })
            appendStats(r.cells, *values);
        r.cells.push_back(g.key.api < 0 ? ReportValue {} : ReportValue { texts.text(g.key.api) });
        r.cells.push_back(g.key.kernel < 0 ? ReportValue {} : ReportValue { texts.text(g.key.kernel) });
        r.totalAverage = std::get<double>(r.cells[5]);
        rows.push_back(std::move(r));
    }
    std::stable_sort(
        rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.totalAverage > y.totalAverage; });
    std::vector<std::vector<ReportValue>> out;
    out.reserve(rows.size());
    for (Row& r : rows)
        out.push_back(std::move(r.cells));
    return out;
}

} // namespace

ReportTable cudaKernExecSum(const Profile& p, KernelNameMode mode, const FocusRange& focus)
{
    const QString name = reportnames::cudaKernExecSum.idString();
    const QString title = reportnames::cudaKernExecSum.titleString();
    if (const QString reason = kernExecSkipReason(p); !reason.isEmpty())
        return skippedReport(name, title, reason);
    const std::vector<LaunchPair> launched = launchPairs(p, focus);
    if (launched.empty())
        return skippedReport(name, title, noDataMessage());
    TextIds texts;
    std::vector<LaunchGroup> groups = groupLaunches(p, launched, mode, texts);
    ReportTable t;
    t.name = name;
    t.title = title;
    t.columns = kernExecSumColumns();
    t.rows = kernExecSumRows(groups, texts);
    return t;
}

ReportTable cudaKernExecTrace(const Profile& p, KernelNameMode mode, const FocusRange& focus)
{
    const QString name = reportnames::cudaKernExecTrace.idString();
    const QString title = reportnames::cudaKernExecTrace.titleString();
    if (const QString reason = kernExecSkipReason(p); !reason.isEmpty())
        return skippedReport(name, title, reason);
    auto order = std::make_shared<std::vector<LaunchPair>>(launchPairs(p, focus));
    if (order->empty())
        return skippedReport(name, title, noDataMessage());
    const CudaApiTable& a = p.cudaApi;
    // ORDER BY the call's start; equal starts keep the join's order.
    std::stable_sort(order->begin(), order->end(),
        [&a](const LaunchPair& x, const LaunchPair& y) { return a.start[x.call] < a.start[y.call]; });

    ReportTable t;
    t.name = name;
    t.title = title;
    using T = ReportColumn::Type;
    t.columns = { { QStringLiteral("API Start (ns)"), T::Integer }, { QStringLiteral("API Dur (ns)"), T::Integer },
        { QStringLiteral("Queue Start (ns)"), T::Integer }, { QStringLiteral("Queue Dur (ns)"), T::Integer },
        { QStringLiteral("Kernel Start (ns)"), T::Integer }, { QStringLiteral("Kernel Dur (ns)"), T::Integer },
        { QStringLiteral("Total Dur (ns)"), T::Integer }, { QStringLiteral("PID"), T::Integer },
        { QStringLiteral("TID"), T::Integer }, { QStringLiteral("DevId"), T::Integer },
        { QStringLiteral("API Function"), T::Text }, { QStringLiteral("GridXYZ"), T::Text },
        { QStringLiteral("BlockXYZ"), T::Text }, { QStringLiteral("Kernel Name"), T::Text } };
    t.lazyRowCount = order->size();
    const Profile* profile = &p;
    t.lazyRow = [profile, order, mode](std::size_t row, std::vector<ReportValue>& cells) {
        const Profile& pr = *profile;
        const KernelTable& kt = pr.kernels;
        const CudaApiTable& at = pr.cudaApi;
        const LaunchPair pair = (*order)[row];
        const std::size_t i = pair.kernel;
        const std::size_t call = pair.call;
        const Launch l = launchOf(pr, pair);
        const ThreadIndex thread = at.thread[call];
        const qint64 globalTid = thread >= 0 ? pr.threads[std::size_t(thread)].globalTid : 0;
        cells.clear();
        cells.emplace_back(at.start[call]);
        cells.emplace_back(l.apiDuration);
        if (l.queueDuration >= 0) {
            cells.emplace_back(at.end[call]);
            cells.emplace_back(l.queueDuration);
        } else {
            cells.emplace_back(std::monostate {});
            cells.emplace_back(std::monostate {});
        }
        cells.emplace_back(kt.start[i]);
        cells.emplace_back(l.kernelDuration);
        cells.emplace_back(l.totalDuration);
        cells.emplace_back(qint64(pidOf(globalTid)));
        cells.emplace_back(qint64(tidOf(globalTid)));
        cells.emplace_back(qint64(kt.device[i]));
        const StringRef api = at.name[call];
        cells.emplace_back(api == kNoString ? ReportValue {} : ReportValue { apiReportName(pr.strings.at(api)) });
        const LaunchShape& shape = pr.launchShapes[kt.shape[i]];
        cells.emplace_back(threeInts(shape.grid));
        cells.emplace_back(threeInts(shape.block));
        cells.push_back(textOrNull(pr, kernelNameOf(kt, i, mode)));
    };
    return t;
}

} // namespace nsw
