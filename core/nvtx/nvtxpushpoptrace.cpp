// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxpushpoptrace.h"

#include "core/nvtx/nvtxrangereports.h"
#include "core/stats/exportquery.h"
#include "core/stats/reportchecks.h"
#include "core/stats/reportnames.h"

#include <algorithm>
#include <memory>

namespace nsw {

namespace {

struct PushPopRange
{
    std::uint32_t row = 0; ///< NvtxTable row
    qint64 rowId = 0; ///< NVTX_EVENTS rowid
    TimeNs start = 0;
    TimeNs end = 0; ///< unterminated: the table-wide maximum timestamp
    float boxStart = 0; ///< start and end as nsys's R*Tree index holds them (rtreeBox)
    float boxEnd = 0;
    std::int32_t parent = -1; ///< index of the parent range
    std::int32_t level = -1; ///< -1: no root above it (its parents form a cycle)
    std::int32_t children = 0;
    qint64 childDuration = 0;
    TimeNs duration() const { return end - start; }
};

/// SQLite's R*Tree stores coordinates as 32-bit floats rounded outward, a lower bound down and an upper bound up, by
/// one more step than needed when the nearest float lies on the wrong side (rtreeValueDown/Up in SQLite's rtree.c).
float rtreeDown(qint64 value)
{
    const double d = double(value);
    const float f = float(d);
    return double(f) > d ? float(d * (d < 0 ? 1.0 + 1.0 / 8388608.0 : 1.0 - 1.0 / 8388608.0)) : f;
}

float rtreeUp(qint64 value)
{
    const double d = double(value);
    const float f = float(d);
    return double(f) < d ? float(d * (d < 0 ? 1.0 - 1.0 / 8388608.0 : 1.0 + 1.0 / 8388608.0)) : f;
}

/// The push/pop ranges of the profile with their rowids, read from the export (in rowid order, as the loader read
/// them). Fails when the loader skipped a push/pop row (a damaged time): the rowids would not line up.
QString readRanges(const Profile& p, std::vector<PushPopRange>& ranges)
{
    const NvtxTable& n = p.nvtx;
    for (std::size_t i = 0; i < n.size(); ++i)
        if (NvtxTable::isPushPop(n.eventType[i]))
            ranges.push_back({ std::uint32_t(i), 0, n.start[i], n.resolvedEnd(i), rtreeDown(n.start[i]),
                rtreeUp(n.resolvedEnd(i)) });
    std::size_t read = 0;
    bool aligned = true;
    const QString error = readExportRows(p, QStringLiteral("NVTX_EVENTS"),
        QStringLiteral("SELECT rowid, start FROM NVTX_EVENTS WHERE eventType IN (%1, %2) ORDER BY rowid")
            .arg(int(NvtxTable::kPushPop))
            .arg(int(NvtxTable::kNvtxtPushPop)),
        [&](const Statement& row) {
            if (read < ranges.size() && !row.isNull(1) && row.int64(1) == ranges[read].start)
                ranges[read].rowId = row.int64(0);
            else
                aligned = false;
            ++read;
        });
    if (!error.isEmpty())
        return error;
    if (!aligned || read != ranges.size())
        return QStringLiteral("%1: NVTX_EVENTS has %2 push/pop rows, %3 of them readable (the others have a damaged "
                              "start or end): the trace needs every one")
            .arg(reportFileName(p))
            .arg(read)
            .arg(ranges.size());
    return {};
}

/// Each range's parent: of the ranges of its thread that start no later and end no earlier, the one with the least
/// (start gap + end gap), the lowest rowid on a tie. Identical ranges are each other's parents. nsys looks the
/// candidates up in an R*Tree of 32-bit floats first, so a range whose float box does not lie within the other's is no
/// candidate even when its exact times are (60 s into a capture the floats are 4 us apart, and pushes that close
/// together lose their parent).
void findParents(const Profile& p, std::vector<PushPopRange>& ranges)
{
    std::vector<std::vector<std::int32_t>> byThread(p.threads.size());
    for (std::size_t i = 0; i < ranges.size(); ++i)
        if (const ThreadIndex t = p.nvtx.thread[ranges[i].row]; t >= 0)
            byThread[std::size_t(t)].push_back(std::int32_t(i));
    auto r = [&ranges](std::int32_t i) -> PushPopRange& { return ranges[std::size_t(i)]; };
    for (std::vector<std::int32_t>& list : byThread) {
        std::sort(list.begin(), list.end(), [&](std::int32_t a, std::int32_t b) {
            if (r(a).start != r(b).start)
                return r(a).start < r(b).start;
            return r(a).end != r(b).end ? r(a).end > r(b).end : r(a).rowId < r(b).rowId;
        });
        std::vector<std::int32_t> open; // ranges that started before and have not ended before the current start
        for (std::size_t at = 0; at < list.size();) {
            std::size_t runEnd = at + 1; // ranges identical to list[at] follow it, by rowid
            while (runEnd < list.size() && r(list[runEnd]).start == r(list[at]).start
                && r(list[runEnd]).end == r(list[at]).end)
                ++runEnd;
            const TimeNs start = r(list[at]).start;
            std::erase_if(open, [&](std::int32_t o) { return r(o).end < start; });
            for (std::size_t c = at; c < runEnd; ++c) {
                PushPopRange& child = r(list[c]);
                if (runEnd - at > 1) {
                    child.parent = list[c == at ? at + 1 : at]; // the identical range of lowest rowid but itself
                    continue;
                }
                qint64 best = 0;
                for (const std::int32_t o : open) {
                    if (r(o).end < child.end || r(o).boxStart > child.boxStart || r(o).boxEnd < child.boxEnd)
                        continue;
                    const qint64 tightness = (child.start - r(o).start) + (r(o).end - child.end);
                    if (child.parent < 0 || tightness < best
                        || (tightness == best && r(o).rowId < r(child.parent).rowId)) {
                        best = tightness;
                        child.parent = o;
                    }
                }
            }
            open.insert(open.end(), list.begin() + std::ptrdiff_t(at), list.begin() + std::ptrdiff_t(runEnd));
            at = runEnd;
        }
    }
}

/// Levels from the roots down; ranges whose parent chain ends in a cycle keep level -1. Children counted.
void findLevels(std::vector<PushPopRange>& ranges)
{
    enum State : char
    {
        Unknown,
        OnPath,
        Done
    };
    std::vector<char> state(ranges.size(), Unknown);
    std::vector<std::int32_t> path;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        std::int32_t at = std::int32_t(i);
        while (at >= 0 && state[std::size_t(at)] == Unknown) {
            state[std::size_t(at)] = OnPath;
            path.push_back(at);
            at = ranges[std::size_t(at)].parent;
        }
        // at < 0: the path ends at a root; Done: above a range of known level; OnPath: the path runs into a cycle.
        const bool reachable = at < 0 || (state[std::size_t(at)] == Done && ranges[std::size_t(at)].level >= 0);
        std::int32_t level = at < 0 ? -1 : ranges[std::size_t(at)].level;
        for (auto it = path.rbegin(); it != path.rend(); ++it) {
            ranges[std::size_t(*it)].level = reachable ? ++level : -1;
            state[std::size_t(*it)] = Done;
        }
        path.clear();
    }
    for (PushPopRange& child : ranges) {
        if (child.parent < 0)
            continue;
        PushPopRange& parent = ranges[std::size_t(child.parent)];
        ++parent.children;
        parent.childDuration += child.duration();
    }
}

} // namespace

ReportTable nvtxPushPopTrace(const Profile& p, const FocusRange& focus)
{
    const QString name = reportnames::nvtxPushPopTrace.idString();
    const QString title = reportnames::nvtxPushPopTrace.titleString();
    if (!profileHasTable(p, "NVTX_EVENTS"))
        return skippedReport(
            name, title, QStringLiteral("%1 does not contain NV Tools Extension (NVTX) data.").arg(reportFileName(p)));
    auto ranges = std::make_shared<std::vector<PushPopRange>>();
    if (const QString error = readRanges(p, *ranges); !error.isEmpty())
        return skippedReport(name, title, error);
    findParents(p, *ranges);
    findLevels(*ranges);
    auto shown = std::make_shared<std::vector<std::uint32_t>>();
    for (std::size_t i = 0; i < ranges->size(); ++i)
        if ((*ranges)[i].level >= 0 && focus.overlaps((*ranges)[i].start, (*ranges)[i].end))
            shown->push_back(std::uint32_t(i));
    if (shown->empty())
        return skippedReport(name, title, noDataMessage());

    ReportTable t;
    t.name = name;
    t.title = title;
    using T = ReportColumn::Type;
    t.columns = { { QStringLiteral("Start (ns)"), T::Integer }, { QStringLiteral("End (ns)"), T::Integer },
        { QStringLiteral("Duration (ns)"), T::Integer }, { QStringLiteral("DurChild (ns)"), T::Integer },
        { QStringLiteral("DurNonChild (ns)"), T::Integer }, { QStringLiteral("Name"), T::Text },
        { QStringLiteral("PID"), T::Integer }, { QStringLiteral("TID"), T::Integer },
        { QStringLiteral("Lvl"), T::Integer }, { QStringLiteral("NumChild"), T::Integer },
        { QStringLiteral("RangeId"), T::Integer }, { QStringLiteral("ParentId"), T::Integer },
        { QStringLiteral("RangeStack"), T::Text }, { QStringLiteral("NameTree"), T::Text } };
    t.lazyRowCount = shown->size();
    t.lazyRow = [&p, ranges, shown](std::size_t i, std::vector<ReportValue>& cells) {
        const PushPopRange& r = (*ranges)[(*shown)[i]];
        const std::optional<QString> label = nvtxLabel2022(p, r.row);
        const ThreadIndex thread = p.nvtx.thread[r.row];
        const ReportValue pid
            = thread >= 0 ? ReportValue { qint64(pidOf(p.threads[std::size_t(thread)].globalTid)) } : ReportValue {};
        const ReportValue tid
            = thread >= 0 ? ReportValue { qint64(tidOf(p.threads[std::size_t(thread)].globalTid)) } : ReportValue {};
        QString stack;
        for (std::int32_t at = std::int32_t((*shown)[i]); at >= 0; at = (*ranges)[std::size_t(at)].parent)
            stack.prepend(QLatin1Char(':') + QString::number((*ranges)[std::size_t(at)].rowId));
        cells.assign({ r.start, r.end, r.duration(), r.childDuration, r.duration() - r.childDuration,
            label ? ReportValue { *label } : ReportValue {}, pid, tid, qint64(r.level), qint64(r.children), r.rowId,
            r.parent >= 0 ? ReportValue { (*ranges)[std::size_t(r.parent)].rowId } : ReportValue {}, stack,
            label ? ReportValue { QString(r.level * 2, QLatin1Char('-')) + *label } : ReportValue {} });
    };
    return t;
}

} // namespace nsw
