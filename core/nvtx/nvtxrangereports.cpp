// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxrangereports.h"

#include "core/nvtx/launchindex.h"
#include "core/stats/durationstats.h"
#include "core/stats/reportchecks.h"
#include "core/stats/reportnames.h"
#include "core/stats/summaryreport.h"
#include "core/util/numberformat.h"

#include <QHash>
#include <algorithm>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace nsw {

namespace {

QString noNvtxMessage(const Profile& p)
{
    return QStringLiteral("%1 does not contain NV Tools Extension (NVTX) data.").arg(reportFileName(p));
}

/// Range rows keyed by what their nsys 2022.4 name is made of, (domain, text), so that millions of rows are grouped
/// without building a string per row; the keys are merged by name text afterwards.
class LabelKeys
{
public:
    explicit LabelKeys(const Profile& p)
        : m_p(p)
    { }

    std::uint32_t keyOf(std::size_t row)
    {
        const NvtxTable& n = m_p.nvtx;
        const std::uint64_t k
            = (std::uint64_t(std::uint16_t(n.domain[row] + 1)) << 32) | std::uint32_t(n.name[row] + 1);
        const auto [it, inserted] = m_index.try_emplace(k, std::uint32_t(m_rows.size()));
        if (inserted)
            m_rows.push_back(row);
        return it->second;
    }
    std::size_t size() const { return m_rows.size(); }
    std::optional<QString> label(std::uint32_t key) const { return nvtxLabel2022(m_p, m_rows[key]); }

private:
    const Profile& m_p;
    std::unordered_map<std::uint64_t, std::uint32_t> m_index;
    std::vector<std::size_t> m_rows; ///< a row of each key
};

ReportTable rangeSum(const Profile& p, const ReportName& report, bool pushPop, const FocusRange& focus)
{
    if (!profileHasTable(p, "NVTX_EVENTS"))
        return skippedReport(report.idString(), report.titleString(), noNvtxMessage(p));
    const NvtxTable& n = p.nvtx;
    LabelKeys keys(p);
    std::vector<std::vector<qint64>> byKey;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const bool style = pushPop ? NvtxTable::isPushPop(n.eventType[i]) : NvtxTable::isStartEnd(n.eventType[i]);
        if (!style || !focus.overlaps(n.start[i], n.resolvedEnd(i)))
            continue;
        const std::uint32_t key = keys.keyOf(i);
        if (key >= byKey.size())
            byKey.resize(key + 1);
        byKey[key].push_back(n.resolvedEnd(i) - n.start[i]);
    }
    TextGroups groups;
    for (std::uint32_t key = 0; key < byKey.size(); ++key) {
        const std::optional<QString> label = keys.label(key);
        SummaryGroup& g = groups.group(label ? &*label : nullptr);
        g.values.insert(g.values.end(), byKey[key].begin(), byKey[key].end());
    }
    std::vector<SummaryGroup> grouped = groups.take();
    if (grouped.empty())
        return skippedReport(report.idString(), report.titleString(), noDataMessage());
    SummaryLayout layout;
    layout.nameHeader = QStringLiteral("Range");
    return buildSummaryReport(report.idString(), report.titleString(), layout, std::move(grouped));
}

} // namespace

std::optional<QString> nvtxLabel2022(const Profile& p, std::size_t row)
{
    const StringRef text = p.nvtx.name[row];
    const QString& domain = p.nvtxDomainName(p.nvtx.domain[row]);
    if (text == kNoString)
        return std::nullopt;
    return domain.isEmpty() ? p.strings.at(text) : domain + QLatin1Char(':') + p.strings.at(text);
}

ReportTable nvtxPushPopSum(const Profile& p, const FocusRange& focus)
{
    return rangeSum(p, reportnames::nvtxPushPopSum, true, focus);
}

ReportTable nvtxStartEndSum(const Profile& p, const FocusRange& focus)
{
    return rangeSum(p, reportnames::nvtxStartEndSum, false, focus);
}

namespace {

/// For each CUDA API row asked about, the ranges that contain the whole call on its thread (ranges that end on
/// another thread excluded, unterminated ones end at the table-wide maximum), in compressed rows.
class ContainingRanges
{
public:
    ContainingRanges(const Profile& p, std::vector<std::uint32_t> apiRows)
        : m_apiRows(std::move(apiRows))
    {
        const NvtxTable& n = p.nvtx;
        const CudaApiTable& api = p.cudaApi;
        std::sort(m_apiRows.begin(), m_apiRows.end());
        m_apiRows.erase(std::unique(m_apiRows.begin(), m_apiRows.end()), m_apiRows.end());
        std::vector<std::vector<std::uint32_t>> rangesOf(p.threads.size()), callsOf(p.threads.size());
        std::vector<char> endsElsewhere(n.size(), 0);
        for (const auto& [row, thread] : n.endThread)
            endsElsewhere[row] = 1;
        for (std::size_t i = 0; i < n.size(); ++i)
            if (NvtxTable::isRange(n.eventType[i]) && !endsElsewhere[i] && n.thread[i] >= 0)
                rangesOf[std::size_t(n.thread[i])].push_back(std::uint32_t(i));
        for (std::uint32_t c = 0; c < m_apiRows.size(); ++c)
            if (api.thread[m_apiRows[c]] >= 0)
                callsOf[std::size_t(api.thread[m_apiRows[c]])].push_back(c);
        std::vector<std::vector<std::uint32_t>> found(m_apiRows.size());
        for (std::size_t t = 0; t < p.threads.size(); ++t)
            sweep(p, rangesOf[t], callsOf[t], found);
        m_begin.assign(found.size() + 1, 0);
        for (std::size_t c = 0; c < found.size(); ++c) {
            m_begin[c + 1] = m_begin[c] + std::uint32_t(found[c].size());
            m_ranges.insert(m_ranges.end(), found[c].begin(), found[c].end());
        }
    }

    /// The ranges containing API row @p apiRow (one of those given), as [begin, end).
    std::pair<const std::uint32_t*, const std::uint32_t*> of(std::uint32_t apiRow) const
    {
        const auto c = std::size_t(std::lower_bound(m_apiRows.begin(), m_apiRows.end(), apiRow) - m_apiRows.begin());
        return { m_ranges.data() + m_begin[c], m_ranges.data() + m_begin[c + 1] };
    }

private:
    /// The ranges and calls (indexes into m_apiRows) of one thread in start order: a range stays open until a call
    /// starts after its end, and contains a call when it ends at or after the call's end.
    void sweep(const Profile& p, std::vector<std::uint32_t>& ranges, std::vector<std::uint32_t>& calls,
        std::vector<std::vector<std::uint32_t>>& found) const
    {
        const NvtxTable& n = p.nvtx;
        const CudaApiTable& api = p.cudaApi;
        std::sort(
            ranges.begin(), ranges.end(), [&](std::uint32_t a, std::uint32_t b) { return n.start[a] < n.start[b]; });
        std::sort(calls.begin(), calls.end(),
            [&](std::uint32_t a, std::uint32_t b) { return api.start[m_apiRows[a]] < api.start[m_apiRows[b]]; });
        std::vector<std::uint32_t> open;
        std::size_t next = 0;
        for (const std::uint32_t c : calls) {
            const TimeNs start = api.start[m_apiRows[c]];
            const TimeNs end = api.end[m_apiRows[c]];
            while (next < ranges.size() && n.start[ranges[next]] <= start)
                open.push_back(ranges[next++]);
            std::erase_if(open, [&](std::uint32_t r) { return n.resolvedEnd(r) < start; });
            for (const std::uint32_t r : open)
                if (n.resolvedEnd(r) >= end)
                    found[c].push_back(r);
        }
    }

    std::vector<std::uint32_t> m_apiRows;
    std::vector<std::uint32_t> m_begin;
    std::vector<std::uint32_t> m_ranges;
};

/// One group of nvtx_kern_sum: (PID, TID, range name, style, kernel name), each part NULL (-1) when absent.
struct KernGroupKey
{
    std::int32_t pid = -1;
    std::int32_t tid = -1;
    std::int32_t label = -1; ///< index into the distinct range names
    std::int8_t style = -1; ///< 0 PushPop, 1 StartEnd
    std::int32_t kernel = -1; ///< index into the distinct kernel names
    bool operator==(const KernGroupKey&) const = default;
};

struct KernGroupKeyHash
{
    std::size_t operator()(const KernGroupKey& k) const
    {
        std::uint64_t h = std::uint64_t(std::uint32_t(k.pid)) * 0x9E3779B97F4A7C15ULL;
        h ^= std::uint64_t(std::uint32_t(k.tid)) + 0x7F4A7C15ULL + (h << 6) + (h >> 2);
        h ^= std::uint64_t(std::uint32_t(k.label)) * 0xC2B2AE3D27D4EB4FULL + (h << 6) + (h >> 2);
        h ^= std::uint64_t(std::uint32_t(k.kernel)) * 0x165667B19E3779F9ULL + std::uint64_t(k.style + 1);
        return std::size_t(h);
    }
};

struct KernGroup
{
    KernGroupKey key;
    std::vector<qint64> durations;
    std::vector<std::uint32_t> kernels;
    std::vector<std::uint32_t> ranges;
};

/// Distinct texts (NULL = -1), with the text of each index; names are grouped and ordered by their text. Each text is
/// held once and compared once: a report repeats a kernel's name on many rows, and names can be megabytes long.
class DistinctTexts
{
public:
    std::int32_t idOf(const std::optional<QString>& text)
    {
        if (!text)
            return -1;
        if (const auto it = m_index.constFind(*text); it != m_index.constEnd())
            return it.value();
        const auto id = std::int32_t(m_texts.size());
        m_index.insert(*text, id);
        m_texts.push_back(*text);
        return id;
    }
    /// SQLite's order: NULL first, then UTF-8 bytes (UTF-16 order differs from it above U+FFFF).
    bool less(std::int32_t a, std::int32_t b) const
    {
        if (a < 0 || b < 0)
            return a < 0 && b >= 0;
        if (m_rank.size() != m_texts.size())
            rankTexts();
        return m_rank[std::size_t(a)] < m_rank[std::size_t(b)];
    }
    ReportValue value(std::int32_t id) const
    {
        return id < 0 ? ReportValue {} : ReportValue { m_texts[std::size_t(id)] };
    }

private:
    void rankTexts() const
    {
        std::vector<QByteArray> utf8;
        utf8.reserve(m_texts.size());
        for (const QString& text : m_texts)
            utf8.push_back(text.toUtf8());
        std::vector<std::int32_t> order(m_texts.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(),
            [&](std::int32_t a, std::int32_t b) { return utf8[std::size_t(a)] < utf8[std::size_t(b)]; });
        m_rank.assign(m_texts.size(), 0);
        for (std::size_t r = 0; r < order.size(); ++r)
            m_rank[std::size_t(order[r])] = std::int32_t(r);
    }

    QHash<QString, std::int32_t> m_index;
    std::vector<QString> m_texts;
    mutable std::vector<std::int32_t> m_rank; ///< each text's place in SQLite's order; made again when texts were added
};

/// NULL (-1) first, as SQLite orders integers with NULLs.
bool nullFirstLess(std::int32_t a, std::int32_t b)
{
    return a < b;
}

ReportValue nullableInt(std::int32_t v)
{
    return v < 0 ? ReportValue {} : ReportValue { qint64(v) };
}

} // namespace

ReportTable nvtxKernSum(const Profile& p, KernelNameMode mode, const FocusRange& focus)
{
    const QString name = reportnames::nvtxKernSum.idString();
    const QString title = reportnames::nvtxKernSum.titleString();
    if (!profileHasTable(p, "NVTX_EVENTS"))
        return skippedReport(name, title, noNvtxMessage(p));
    if (!profileHasTable(p, "CUPTI_ACTIVITY_KIND_KERNEL"))
        return skippedReport(
            name, title, QStringLiteral("%1 does not contain CUDA kernel data.").arg(reportFileName(p)));
    if (!profileHasTable(p, "CUPTI_ACTIVITY_KIND_RUNTIME"))
        return skippedReport(name, title, QStringLiteral("%1 does not contain CUDA API data.").arg(reportFileName(p)));
    const KernelTable& k = p.kernels;
    const CudaApiTable& api = p.cudaApi;
    const NvtxTable& n = p.nvtx;
    // The loader's join of each kernel to its call (empty when the placement columns were not loaded).
    const bool joined = k.api.size() == k.size();
    auto callOf = [&](std::size_t i) { return joined ? k.api[i] : -1; };

    // The API rows of each kernel: the loader's join, and the rows of the same process with the same correlation id.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> duplicates; // (joined row, duplicate row)
    if (joined)
        for (const auto& [dup, first] : duplicateLaunchRows(p, LaunchIndex(p)))
            duplicates.emplace_back(first, dup);
    std::sort(duplicates.begin(), duplicates.end());
    std::vector<std::uint32_t> calls;
    for (std::size_t i = 0; i < k.size(); ++i)
        if (callOf(i) >= 0 && focus.overlaps(k.start[i], k.end[i]))
            calls.push_back(std::uint32_t(callOf(i)));
    for (const auto& [joined, dup] : duplicates)
        calls.push_back(dup);
    const ContainingRanges containing(p, std::move(calls));

    LabelKeys labelKeys(p);
    std::vector<std::int32_t> labelOfKey;
    DistinctTexts labels, kernelNames;
    std::unordered_map<StringRef, std::int32_t> kernelNameOfRef;
    std::unordered_map<KernGroupKey, std::size_t, KernGroupKeyHash> groupIndex;
    std::vector<KernGroup> groups;
    auto add = [&](const KernGroupKey& key, std::uint32_t kernel, std::int64_t range) {
        const auto [it, inserted] = groupIndex.try_emplace(key, groups.size());
        if (inserted)
            groups.push_back({ key, {}, {}, {} });
        KernGroup& g = groups[it->second];
        g.durations.push_back(k.end[kernel] - k.start[kernel]);
        g.kernels.push_back(kernel);
        if (range >= 0)
            g.ranges.push_back(std::uint32_t(range));
    };
    auto addCall = [&](KernGroupKey key, std::uint32_t kernel, std::uint32_t call) {
        if (api.thread[call] >= 0) {
            const ThreadInfo& t = p.threads[std::size_t(api.thread[call])];
            key.pid = pidOf(t.globalTid);
            key.tid = tidOf(t.globalTid);
        }
        const auto [begin, end] = containing.of(call);
        if (begin == end)
            add(key, kernel, -1);
        for (const std::uint32_t* r = begin; r != end; ++r) {
            const std::uint32_t lk = labelKeys.keyOf(*r);
            if (lk >= labelOfKey.size())
                labelOfKey.resize(lk + 1, std::numeric_limits<std::int32_t>::min());
            if (labelOfKey[lk] == std::numeric_limits<std::int32_t>::min())
                labelOfKey[lk] = labels.idOf(labelKeys.label(lk));
            KernGroupKey ranged = key;
            ranged.label = labelOfKey[lk];
            ranged.style = NvtxTable::isPushPop(n.eventType[*r]) ? 0 : 1;
            add(ranged, kernel, *r);
        }
    };
    for (std::size_t i = 0; i < k.size(); ++i) {
        if (!focus.overlaps(k.start[i], k.end[i]))
            continue;
        const StringRef ref = kernelNameOf(k, i, mode);
        auto [named, inserted] = kernelNameOfRef.try_emplace(ref, -1);
        if (inserted)
            named->second = kernelNames.idOf(ref == kNoString ? std::nullopt : std::optional(p.strings.at(ref)));
        KernGroupKey key;
        key.kernel = named->second;
        if (callOf(i) < 0) {
            add(key, std::uint32_t(i), -1);
            continue;
        }
        const auto call = std::uint32_t(callOf(i));
        addCall(key, std::uint32_t(i), call);
        for (auto d = std::lower_bound(duplicates.begin(), duplicates.end(), std::make_pair(call, std::uint32_t(0)));
             d != duplicates.end() && d->first == call; ++d)
            addCall(key, std::uint32_t(i), d->second);
    }
    if (groups.empty())
        return skippedReport(name, title, noDataMessage());

    struct Row
    {
        const KernGroup* group;
        DurationSummary stats;
    };
    std::vector<Row> rows;
    for (KernGroup& g : groups)
        rows.push_back({ &g, summarize(g.durations) });
    // ORDER BY range, PID, TID, total descending; equal rows in GROUP BY (PID, TID, range, style, kernel) order.
    std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
        const KernGroupKey& x = a.group->key;
        const KernGroupKey& y = b.group->key;
        if (x.label != y.label)
            return labels.less(x.label, y.label);
        if (x.pid != y.pid)
            return nullFirstLess(x.pid, y.pid);
        if (x.tid != y.tid)
            return nullFirstLess(x.tid, y.tid);
        if (a.stats.total != b.stats.total)
            return a.stats.total > b.stats.total;
        if (x.style != y.style)
            return x.style < y.style;
        return kernelNames.less(x.kernel, y.kernel);
    });

    ReportTable t;
    t.name = name;
    t.title = title;
    using T = ReportColumn::Type;
    t.columns = { { QStringLiteral("NVTX Range"), T::Text }, { QStringLiteral("Style"), T::Text },
        { QStringLiteral("PID"), T::Integer }, { QStringLiteral("TID"), T::Integer },
        { QStringLiteral("NVTX Inst"), T::Integer }, { QStringLiteral("Kern Inst"), T::Integer },
        { QStringLiteral("Total Time (ns)"), T::Integer }, { QStringLiteral("Avg (ns)"), T::Real },
        { QStringLiteral("Med (ns)"), T::Real }, { QStringLiteral("Min (ns)"), T::Integer },
        { QStringLiteral("Max (ns)"), T::Integer }, { QStringLiteral("StdDev (ns)"), T::Real },
        { QStringLiteral("Kernel Name"), T::Text } };
    auto distinct = [](std::vector<std::uint32_t> v) {
        std::sort(v.begin(), v.end());
        return qint64(std::unique(v.begin(), v.end()) - v.begin());
    };
    const QString styles[] = { QStringLiteral("PushPop"), QStringLiteral("StartEnd") };
    for (const Row& r : rows) {
        const KernGroupKey& key = r.group->key;
        const DurationSummary& s = r.stats;
        t.rows.push_back({ labels.value(key.label), key.style < 0 ? ReportValue {} : ReportValue { styles[key.style] },
            nullableInt(key.pid), nullableInt(key.tid), distinct(r.group->ranges), distinct(r.group->kernels), s.total,
            sqliteRound(s.mean, 1), sqliteRound(s.median, 1), s.min, s.max, sqliteRound(s.stddev, 1),
            kernelNames.value(key.kernel) });
    }
    return t;
}

} // namespace nsw
