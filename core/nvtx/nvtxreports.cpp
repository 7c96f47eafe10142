// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxreports.h"

#include "core/nvtx/launchindex.h"
#include "core/stats/durationstats.h"
#include "core/stats/reportchecks.h"
#include "core/stats/reportnames.h"
#include "core/stats/summaryreport.h"
#include "core/util/hugepages.h"
#include "core/util/numberformat.h"

#include <QFileInfo>
#include <QHash>
#include <algorithm>

namespace nsw {

namespace {

const QString kPushPop = QStringLiteral("PushPop");
const QString kStartEnd = QStringLiteral("StartEnd");

/// The skip message nsys's NVTX reports give, or an empty string.
QString nvtxTableCheck(const Profile& p)
{
    if (!profileHasTable(p, "StringIds"))
        return QStringLiteral("%1 file does not contain StringIds table.").arg(reportFileName(p));
    if (!profileHasTable(p, "NVTX_EVENTS"))
        return QStringLiteral("%1 does not contain NV Tools Extension (NVTX) data.").arg(reportFileName(p));
    return {};
}

/// nsys's domain name of a range: the create event's text, '' for the default domain and unnamed domains.
const QString& domainName(const Profile& p, std::int32_t domain)
{
    return p.nvtxDomainName(domain);
}

/// Groups rows by nsys's (Range, Style) without building a string per row: the label is a function of
/// (domain name, text, style), and texts are pooled.
class LabelGroups
{
public:
    explicit LabelGroups(const Profile& p)
        : m_p(p)
        , m_emptyRef(p.strings.find(QString()))
    {
        QHash<QString, std::int32_t> keys;
        keys.insert(QString(), 0);
        m_domainNames.push_back(QString());
        for (std::size_t d = 0; d < p.nvtxDomains.size(); ++d) {
            const QString& name = domainName(p, std::int32_t(d));
            auto it = keys.constFind(name);
            if (it == keys.constEnd()) {
                it = keys.insert(name, std::int32_t(m_domainNames.size()));
                m_domainNames.push_back(name);
            }
            m_domainKey.push_back(it.value());
        }
        m_tables.resize(m_domainNames.size() * 2);
    }

    struct Group
    {
        QString label;
        bool pushPop = true;
        QByteArray sortKey;
    };

    std::int32_t groupOf(std::size_t row)
    {
        const NvtxTable& n = m_p.nvtx;
        const std::int32_t dk = n.domain[row] >= 0 ? m_domainKey[std::size_t(n.domain[row])] : 0;
        const bool pushPop = NvtxTable::isPushPop(n.eventType[row]);
        const StringRef ref = n.name[row] >= 0 ? n.name[row] : m_emptyRef; // NULL text and '' give one label
        std::vector<std::int32_t>& table = m_tables[std::size_t(dk) * 2 + (pushPop ? 0 : 1)];
        if (table.empty())
            table.assign(m_p.strings.size() + 1, -1);
        std::int32_t& g = table[std::size_t(ref + 1)];
        if (g < 0) {
            g = std::int32_t(groups.size());
            const QString label = m_domainNames[std::size_t(dk)] + QLatin1Char(':') + m_p.strings.at(ref);
            groups.push_back({ label, pushPop, label.toUtf8() });
        }
        return g;
    }

    /// Group indexes in the order SQLite's GROUP BY (Range, Style) emits them: label bytes, then style.
    std::vector<std::int32_t> groupOrder() const
    {
        std::vector<std::int32_t> order(groups.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = std::int32_t(i);
        std::sort(order.begin(), order.end(), [this](std::int32_t a, std::int32_t b) {
            const Group& ga = groups[std::size_t(a)];
            const Group& gb = groups[std::size_t(b)];
            if (ga.sortKey != gb.sortKey)
                return ga.sortKey < gb.sortKey;
            return ga.pushPop && !gb.pushPop; // "PushPop" < "StartEnd"
        });
        return order;
    }

    std::vector<Group> groups;

private:
    const Profile& m_p;
    StringRef m_emptyRef;
    std::vector<QString> m_domainNames;
    std::vector<std::int32_t> m_domainKey;
    std::vector<std::vector<std::int32_t>> m_tables; ///< per (domain name, style): group by StringRef + 1
};

} // namespace

QString nvtxReportLabel(const Profile& p, std::size_t row)
{
    return domainName(p, p.nvtx.domain[row]) + QLatin1Char(':') + p.strings.at(p.nvtx.name[row]);
}

ReportTable nvtxSum(const Profile& p, const FocusRange& focus)
{
    const QString name = reportnames::nvtxSum.idString();
    const QString title = reportnames::nvtxSum.titleString();
    if (const QString reason = nvtxTableCheck(p); !reason.isEmpty())
        return skippedReport(name, title, reason);
    const NvtxTable& n = p.nvtx;
    LabelGroups labels(p);
    // (row, group) of each range in the focus, then the durations grouped in one buffer (a counting sort): tens of
    // thousands of groups (PyTorch op_ids) would otherwise each grow a vector of their own.
    std::vector<std::pair<std::uint32_t, std::int32_t>> members;
    reserveHugePages(members, n.size());
    for (std::size_t i = 0; i < n.size(); ++i) {
        if (!NvtxTable::isRange(n.eventType[i]))
            continue;
        const TimeNs end = n.resolvedEnd(i);
        if (focus.overlaps(n.start[i], end))
            members.emplace_back(std::uint32_t(i), labels.groupOf(i));
    }
    if (labels.groups.empty())
        return skippedReport(name, title, noDataMessage());
    std::vector<std::size_t> begin(labels.groups.size() + 1, 0);
    for (const auto& [row, g] : members)
        ++begin[std::size_t(g) + 1];
    for (std::size_t g = 0; g < labels.groups.size(); ++g)
        begin[g + 1] += begin[g];
    std::vector<qint64> durations;
    reserveHugePages(durations, members.size());
    durations.resize(members.size());
    std::vector<std::size_t> fill(begin.begin(), begin.end() - 1);
    for (const auto& [row, g] : members)
        durations[fill[std::size_t(g)]++] = n.resolvedEnd(row) - n.start[row];
    members = {};
    // One list per style, shared by the groups (copies of a QStringList share its data).
    const QStringList pushPop { kPushPop }, startEnd { kStartEnd };
    std::vector<SummaryGroup> groups;
    groups.reserve(labels.groups.size());
    for (const std::int32_t g : labels.groupOrder()) {
        const LabelGroups::Group& lg = labels.groups[std::size_t(g)];
        const std::span<qint64> slice(
            durations.data() + begin[std::size_t(g)], durations.data() + begin[std::size_t(g) + 1]);
        groups.push_back({ lg.label, {}, lg.pushPop ? pushPop : startEnd, slice });
    }
    SummaryLayout layout;
    layout.nameHeader = QStringLiteral("Range");
    layout.extraHeaders = { QStringLiteral("Style") };
    return buildSummaryReport(name, title, layout, std::move(groups));
}

namespace {

struct ProjectionOpen
{
    std::uint32_t row;
    TimeNs start;
    TimeNs end;
    TimeNs first;
    TimeNs last;
    qint64 ops;
    std::uint32_t lastCorrelation;
    bool counted; ///< lastCorrelation is valid
    std::int32_t level;
    std::int32_t parentRow;
};

/// nsys's NVTX GPU projection, one thread at a time: the thread's ranges (outer first) and the launch calls on it
/// swept in start order with a stack of open ranges; every open range that encloses a call takes its GPU work.
class ProjectionSweep
{
public:
    explicit ProjectionSweep(const Profile& p)
        : m_p(p)
        , m_index(p)
    { }

    std::vector<NvtxProjection> run()
    {
        findUnterminatedEnd();
        bucketRanges();
        bucketLaunches();
        for (std::size_t t = 0; t < m_p.threads.size(); ++t)
            if (!m_ranges[t].empty() && !m_launches[t].empty())
                sweepThread(t);
        countChildren();
        return std::move(m_result);
    }

private:
    using Launch = std::pair<std::uint32_t, std::uint32_t>; ///< (API row, row whose operations it launched)

    TimeNs endOf(std::uint32_t row) const { return m_p.nvtx.end[row] == kNoTime ? m_maxTs : m_p.nvtx.end[row]; }

    /// End of unterminated ranges: the maximum over the range rows only (the report's own MINMAXTS table).
    void findUnterminatedEnd()
    {
        const NvtxTable& n = m_p.nvtx;
        for (std::size_t i = 0; i < n.size(); ++i)
            if (NvtxTable::isRange(n.eventType[i]))
                m_maxTs = std::max({ m_maxTs, n.start[i], n.end[i] });
    }

    /// Ranges that start and end on the same thread (endGlobalTid NULL), by thread.
    void bucketRanges()
    {
        const NvtxTable& n = m_p.nvtx;
        std::vector<char> hasEndThread(n.size(), 0);
        for (const auto& [row, t] : n.endThread)
            hasEndThread[row] = 1;
        m_ranges.resize(m_p.threads.size());
        for (std::size_t i = 0; i < n.size(); ++i)
            if (NvtxTable::isRange(n.eventType[i]) && !hasEndThread[i] && n.thread[i] >= 0)
                m_ranges[std::size_t(n.thread[i])].push_back(std::uint32_t(i));
    }

    /// Launch calls by thread, with the rows that only share a launch's correlation id.
    void bucketLaunches()
    {
        const CudaApiTable& api = m_p.cudaApi;
        m_launches.resize(m_p.threads.size());
        for (std::size_t t = 0; t < m_p.threads.size(); ++t)
            for (const std::uint32_t a : m_index.threadLaunches(t))
                m_launches[t].emplace_back(a, a);
        for (const auto& [dup, joined] : duplicateLaunchRows(m_p, m_index))
            if (api.thread[dup] >= 0)
                m_launches[std::size_t(api.thread[dup])].emplace_back(dup, joined);
    }

    void sweepThread(std::size_t t)
    {
        const NvtxTable& n = m_p.nvtx;
        const CudaApiTable& api = m_p.cudaApi;
        std::vector<std::uint32_t>& rs = m_ranges[t];
        std::vector<Launch>& ls = m_launches[t];
        std::sort(rs.begin(), rs.end(), [&](std::uint32_t a, std::uint32_t b) {
            if (n.start[a] != n.start[b])
                return n.start[a] < n.start[b];
            if (endOf(a) != endOf(b))
                return endOf(a) > endOf(b);
            return a < b;
        });
        std::sort(ls.begin(), ls.end(), [&](const Launch& a, const Launch& b) {
            return api.start[a.first] != api.start[b.first] ? api.start[a.first] < api.start[b.first]
                                                            : a.first < b.first;
        });
        m_stack.clear();
        std::size_t ri = 0, li = 0;
        while (ri < rs.size() || li < ls.size()) {
            if (ri < rs.size() && (li == ls.size() || n.start[rs[ri]] <= api.start[ls[li].first])) {
                openRange(rs[ri++]);
            } else {
                addLaunch(ls[li].first, ls[li].second);
                ++li;
            }
        }
        while (!m_stack.empty()) {
            close(m_stack.back());
            m_stack.pop_back();
        }
    }

    void openRange(std::uint32_t row)
    {
        const TimeNs start = m_p.nvtx.start[row];
        const TimeNs end = endOf(row);
        popBefore(start);
        // Parent = the enclosing range with the smallest (start gap + end gap); the first found from the innermost
        // wins ties.
        std::int32_t parent = -1;
        TimeNs best = std::numeric_limits<TimeNs>::max();
        for (std::size_t s = m_stack.size(); s-- > 0;) {
            const ProjectionOpen& o = m_stack[s];
            if (o.end < end)
                continue;
            const TimeNs tightness = (start - o.start) + (o.end - end);
            if (tightness < best) {
                best = tightness;
                parent = std::int32_t(s);
            }
        }
        ProjectionOpen open { row, start, end, std::numeric_limits<TimeNs>::max(), std::numeric_limits<TimeNs>::min(),
            0, 0, false, 0, -1 };
        if (parent >= 0) {
            ProjectionOpen& po = m_stack[std::size_t(parent)];
            open.parentRow = std::int32_t(po.row);
            open.level = po.level < 0 ? -1 : po.level + 1;
            if (!m_stack.empty() && m_stack.back().start == start && m_stack.back().end == end) {
                // Two identical ranges are each other's tightest parent in nsys's query, so neither is reachable
                // from a root: no level for them nor for anything inside them.
                ProjectionOpen& twin = m_stack.back();
                twin.parentRow = std::int32_t(row);
                twin.level = -1;
                open.level = -1;
            }
        }
        m_stack.push_back(open);
    }

    void addLaunch(std::uint32_t a, std::uint32_t joined)
    {
        const CudaApiTable& api = m_p.cudaApi;
        const KernelTable& k = m_p.kernels;
        const MemOpTable& m = m_p.memops;
        const std::uint32_t kernelCount = m_index.kernelCount();
        popBefore(api.start[a]);
        TimeNs first = std::numeric_limits<TimeNs>::max(), last = std::numeric_limits<TimeNs>::min();
        for (const std::uint32_t op : m_index.ops(joined)) {
            first = std::min(first, op < kernelCount ? k.start[op] : m.start[op - kernelCount]);
            last = std::max(last, op < kernelCount ? k.end[op] : m.end[op - kernelCount]);
        }
        const std::uint32_t correlation = api.correlation[a];
        for (ProjectionOpen& o : m_stack) {
            if (o.end < api.end[a])
                continue; // o.start <= api start holds for everything on the stack
            o.first = std::min(o.first, first);
            o.last = std::max(o.last, last);
            if (!o.counted || o.lastCorrelation != correlation)
                ++o.ops;
            o.counted = true;
            o.lastCorrelation = correlation;
        }
    }

    void popBefore(TimeNs time)
    {
        while (!m_stack.empty() && m_stack.back().end < time) {
            close(m_stack.back());
            m_stack.pop_back();
        }
    }

    void close(const ProjectionOpen& o)
    {
        if (o.ops > 0)
            m_result.push_back(
                { o.row, o.first, o.last - o.first, o.start, o.end - o.start, o.ops, o.level, o.parentRow, 0 });
    }

    /// Children that have a projection themselves, counted on their parent.
    void countChildren()
    {
        std::sort(m_result.begin(), m_result.end(), [](const auto& a, const auto& b) { return a.row < b.row; });
        for (const NvtxProjection& r : m_result) {
            if (r.parentRow < 0)
                continue;
            const auto it = std::lower_bound(m_result.begin(), m_result.end(), std::uint32_t(r.parentRow),
                [](const NvtxProjection& e, std::uint32_t row) { return e.row < row; });
            if (it != m_result.end() && it->row == std::uint32_t(r.parentRow))
                ++it->numChild;
        }
    }

    const Profile& m_p;
    LaunchIndex m_index;
    TimeNs m_maxTs = kNoTime;
    std::vector<std::vector<std::uint32_t>> m_ranges;
    std::vector<std::vector<Launch>> m_launches;
    std::vector<ProjectionOpen> m_stack;
    std::vector<NvtxProjection> m_result;
};

} // namespace

std::vector<NvtxProjection> nvtxGpuProjection(const Profile& p)
{
    return ProjectionSweep(p).run();
}

ReportTable nvtxGpuProjSum(const Profile& p, const FocusRange& focus)
{
    const QString name = reportnames::nvtxGpuProjSum.idString();
    const QString title = reportnames::nvtxGpuProjSum.titleString();
    if (const QString reason = nvtxTableCheck(p); !reason.isEmpty())
        return skippedReport(name, title, reason);
    if (!profileHasTable(p, "CUPTI_ACTIVITY_KIND_RUNTIME"))
        return skippedReport(name, title, QStringLiteral("%1 does not contain CUDA API data.").arg(reportFileName(p)));
    if (!profileHasTable(p, "CUPTI_ACTIVITY_KIND_KERNEL") && !profileHasTable(p, "CUPTI_ACTIVITY_KIND_MEMCPY")
        && !profileHasTable(p, "CUPTI_ACTIVITY_KIND_MEMSET"))
        return skippedReport(
            name, title, QStringLiteral("%1 does not contain GPU operation data.").arg(reportFileName(p)));
    const std::vector<NvtxProjection> projection = nvtxGpuProjection(p);
    if (projection.empty())
        return skippedReport(name, title, noDataMessage());

    struct Acc
    {
        std::vector<qint64> spans;
        qint64 rangeTime = 0;
        qint64 ops = 0;
        qint64 levelSum = 0;
        qint64 levels = 0;
        qint64 children = 0;
    };
    LabelGroups labels(p);
    std::vector<Acc> acc;
    for (const NvtxProjection& r : projection) {
        if (!focus.overlaps(r.origStart, r.origStart + r.origDuration))
            continue;
        const std::size_t g = std::size_t(labels.groupOf(r.row));
        if (g >= acc.size())
            acc.resize(g + 1);
        Acc& a = acc[g];
        a.spans.push_back(r.projectedDuration);
        a.rangeTime += r.origDuration;
        a.ops += r.gpuOps;
        if (r.level >= 0) {
            a.levelSum += r.level;
            ++a.levels;
        }
        a.children += r.numChild;
    }

    ReportTable t;
    t.name = name;
    t.title = title;
    using T = ReportColumn::Type;
    t.columns = { { QStringLiteral("Range"), T::Text }, { QStringLiteral("Style"), T::Text },
        { QStringLiteral("Total Proj Time (ns)"), T::Integer }, { QStringLiteral("Total Range Time (ns)"), T::Integer },
        { QStringLiteral("Range Instances"), T::Integer }, { QStringLiteral("Proj Avg (ns)"), T::Real },
        { QStringLiteral("Proj Med (ns)"), T::Real }, { QStringLiteral("Proj Min (ns)"), T::Integer },
        { QStringLiteral("Proj Max (ns)"), T::Integer }, { QStringLiteral("Proj StdDev (ns)"), T::Real },
        { QStringLiteral("Total GPU Ops"), T::Integer }, { QStringLiteral("Avg GPU Ops"), T::Real },
        { QStringLiteral("Avg Range Lvl"), T::Real }, { QStringLiteral("Avg Num Child"), T::Real } };
    struct Row
    {
        std::int32_t group;
        DurationSummary stats;
    };
    std::vector<Row> rows;
    for (const std::int32_t g : labels.groupOrder())
        rows.push_back({ g, summarize(acc[std::size_t(g)].spans) });
    std::stable_sort(
        rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.stats.total > b.stats.total; });
    for (const Row& r : rows) {
        const Acc& a = acc[std::size_t(r.group)];
        const LabelGroups::Group& lg = labels.groups[std::size_t(r.group)];
        const DurationSummary& s = r.stats;
        const double count = double(s.count);
        ReportValue level = std::monostate {};
        if (a.levels > 0)
            level = sqliteRound(double(a.levelSum) / double(a.levels), 1);
        t.rows.push_back({ lg.label, lg.pushPop ? kPushPop : kStartEnd, s.total, a.rangeTime, s.count,
            sqliteRound(s.mean, 1), sqliteRound(s.median, 1), s.min, s.max, sqliteRound(s.stddev, 1), a.ops,
            sqliteRound(double(a.ops) / count, 1), level, sqliteRound(double(a.children) / count, 1) });
    }
    return t;
}

} // namespace nsw
