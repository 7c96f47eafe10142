// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvtx/nvtxcoverage.h"

#include "core/profile/timezones.h"

#include <algorithm>
#include <limits>

namespace nsw {

namespace {

/// Adds to @p coverage the kernels of @p thread's launches that start inside one of @p ranges (in nesting order, so
/// by start): a launch at t is inside when some range with start <= t ends at or after t.
template <typename Ranges>
void addThread(const Profile& p, const NvtxTreeIndex& index, std::size_t thread, const Ranges& ranges,
    const FocusRange& focus, NvtxCoverage& coverage)
{
    const LaunchIndex& launchIndex = index.launchIndex();
    const std::uint32_t kernelCount = launchIndex.kernelCount();
    std::size_t next = 0;
    TimeNs reach = std::numeric_limits<TimeNs>::min(); // latest end of the ranges started so far
    for (const std::uint32_t call : index.launches(thread)) {
        const TimeNs t = p.cudaApi.start[call];
        for (; next < ranges.size() && p.nvtx.start[ranges[next]] <= t; ++next)
            reach = std::max(reach, p.nvtx.resolvedEnd(ranges[next]));
        if (next == 0 || reach < t)
            continue;
        for (const std::uint32_t op : launchIndex.ops(call)) {
            if (op >= kernelCount || !focus.overlaps(p.kernels.start[op], p.kernels.end[op]))
                continue;
            coverage.attributedNs += p.kernels.end[op] - p.kernels.start[op];
            ++coverage.attributedKernels;
        }
    }
}

} // namespace

Result<NvtxCoverage> computeNvtxCoverage(const ProfilePtr& profile, const FocusRange& focus, const JobContext& job,
    std::shared_ptr<const NvtxTreeIndex> index)
{
    NvtxCoverage coverage;
    if (!profile)
        return coverage;
    const Profile& p = *profile;
    timeZonesOf(p)->kernels.forEachOverlapping(focus, p.kernels.start, p.kernels.end, [&](std::size_t i) {
        coverage.totalNs += p.kernels.end[i] - p.kernels.start[i];
        ++coverage.totalKernels;
    });
    if (!index || index->profile() != &p)
        index = NvtxTreeIndex::shared(profile, job);
    if (!index)
        return Result<NvtxCoverage>::cancelled();
    std::vector<std::uint32_t> focused;
    for (std::size_t t = 0; t < index->threadCount(); ++t) {
        if (job.isCancelled())
            return Result<NvtxCoverage>::cancelled();
        if (!focus.isActive()) {
            if (const PackedRows::Slice ranges = index->ranges(t); !ranges.empty())
                addThread(p, *index, t, ranges, focus, coverage);
            continue;
        }
        focused.clear();
        index->appendOverlapping(t, focus, focused);
        if (!focused.empty())
            addThread(p, *index, t, focused, focus, coverage);
    }
    return coverage;
}

} // namespace nsw
