// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxtreeindex.h"

#include "core/util/hugepages.h"

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

namespace nsw {

NvtxTreeIndex::NvtxTreeIndex(ProfilePtr profile)
    : m_profile(std::move(profile))
    , m_launches(*m_profile)
{ }

std::shared_ptr<const NvtxTreeIndex> NvtxTreeIndex::shared(const ProfilePtr& profile, const JobContext& job)
{
    // Two trees of one profile that start together (the NVTX pane's, the Findings') wait for one build.
    return profile->derived.getWhileHeld<NvtxTreeIndex>(
        "nvtx tree index", job.cancelToken(), [&] { return build(profile, job); });
}

std::shared_ptr<const NvtxTreeIndex> NvtxTreeIndex::build(const ProfilePtr& profile, const JobContext& job)
{
    const Profile& p = *profile;
    const NvtxTable& n = p.nvtx;
    const std::size_t threads = p.threads.size();
    job.report(QStringLiteral("NVTX tree"), 0.0);
    std::shared_ptr<NvtxTreeIndex> index(new NvtxTreeIndex(profile));
    if (job.isCancelled())
        return nullptr;

    // Range rows by thread (a counting sort), each thread's in nesting order.
    index->m_rangeBegin.assign(threads + 1, 0);
    const auto indexed = [&](std::size_t i) { return NvtxTable::isRange(n.eventType[i]) && n.thread[i] >= 0; };
    for (std::size_t i = 0; i < n.size(); ++i) {
        if (n.eventType[i] == NvtxTable::kMark)
            index->m_markStarts.push_back(n.start[i]);
        else if (indexed(i))
            ++index->m_rangeBegin[std::size_t(n.thread[i]) + 1];
    }
    std::sort(index->m_markStarts.begin(), index->m_markStarts.end());
    for (std::size_t t = 0; t < threads; ++t)
        index->m_rangeBegin[t + 1] += index->m_rangeBegin[t];
    std::vector<std::uint32_t> ranges;
    reserveHugePages(ranges, index->m_rangeBegin[threads]);
    ranges.resize(index->m_rangeBegin[threads]);
    std::vector<std::uint32_t> fill(index->m_rangeBegin.begin(), index->m_rangeBegin.end() - 1);
    for (std::size_t i = 0; i < n.size(); ++i)
        if (indexed(i))
            ranges[fill[std::size_t(n.thread[i])]++] = std::uint32_t(i);
    fill = {};

    const auto rangeBefore = [&](std::uint32_t a, std::uint32_t b) {
        if (n.start[a] != n.start[b])
            return n.start[a] < n.start[b];
        const TimeNs ea = n.resolvedEnd(a), eb = n.resolvedEnd(b);
        if (ea != eb)
            return ea > eb;
        return a < b;
    };
    for (std::size_t t = 0; t < threads; ++t) {
        job.report(QStringLiteral("NVTX tree"), double(t) / double(threads));
        if (job.isCancelled())
            return nullptr;
        std::uint32_t* rb = ranges.data() + index->m_rangeBegin[t];
        std::uint32_t* re = ranges.data() + index->m_rangeBegin[t + 1];
        if (!std::is_sorted(rb, re, rangeBefore))
            std::sort(rb, re, rangeBefore);
    }

    const std::size_t rows = ranges.size();
    index->m_blocks.reserve((rows + kBlockRows - 1) / kBlockRows);
    for (std::size_t b = 0; b < rows; b += kBlockRows) {
        Block block { std::numeric_limits<TimeNs>::max(), std::numeric_limits<TimeNs>::min(), false };
        for (std::size_t i = b; i < std::min(rows, b + kBlockRows); ++i) {
            const std::uint32_t row = ranges[i];
            const TimeNs end = n.resolvedEnd(row);
            block.minStart = std::min(block.minStart, n.start[row]);
            block.maxEnd = std::max(block.maxEnd, end);
            block.anyReversed = block.anyReversed || end < n.start[row];
        }
        index->m_blocks.push_back(block);
    }
    index->m_ranges = PackedRows(std::move(ranges));

    for (const auto& [row, endThread] : n.endThread)
        if (endThread != n.thread[row])
            index->m_crossRows.push_back(row);
    return index;
}

void NvtxTreeIndex::appendOverlapping(
    std::size_t thread, const FocusRange& focus, std::vector<std::uint32_t>& out) const
{
    const NvtxTable& n = m_profile->nvtx;
    const std::size_t begin = m_rangeBegin[thread];
    const std::size_t end = m_rangeBegin[thread + 1];
    // Blocks can be skipped only for a proper range; a degenerate one is tested row by row.
    const bool skipBlocks = focus.isActive() && focus.start < focus.end;
    for (std::size_t b = begin / kBlockRows * kBlockRows; b < end; b += kBlockRows) {
        const Block& block = m_blocks[b / kBlockRows];
        if (skipBlocks && !block.anyReversed && (block.minStart >= focus.end || block.maxEnd < focus.start))
            continue;
        for (std::size_t i = std::max(b, begin); i < std::min(end, b + kBlockRows); ++i) {
            const std::uint32_t row = m_ranges[i];
            if (focus.overlaps(n.start[row], n.resolvedEnd(row)))
                out.push_back(row);
        }
    }
}

qint64 NvtxTreeIndex::marksIn(const FocusRange& focus) const
{
    if (!focus.isActive())
        return qint64(m_markStarts.size());
    // FocusRange::overlaps(t, t): t in [start, end), or (a reversed range) t in [end, start).
    const auto count = [&](TimeNs from, TimeNs to) {
        if (from >= to)
            return qint64(0);
        return qint64(std::lower_bound(m_markStarts.begin(), m_markStarts.end(), to)
            - std::lower_bound(m_markStarts.begin(), m_markStarts.end(), from));
    };
    return count(focus.start, focus.end) + count(focus.end, focus.start);
}

} // namespace nsw
