// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpubusy.h"

#include "core/profile/gpukey.h"
#include "core/util/hugepages.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace nsw {

namespace {

constexpr double kMinGapRatio = 4.0;
constexpr TimeNs kMinBoundaryGapNs = 10'000;

/// Calls @p f(table, row) for every kernel, then every memory operation, until it returns false.
template <class F> bool forEachGpuOperation(const Profile& p, F&& f)
{
    for (const GpuActivityColumns* t :
        { static_cast<const GpuActivityColumns*>(&p.kernels), static_cast<const GpuActivityColumns*>(&p.memops) })
        for (std::size_t i = 0; i < t->size(); ++i)
            if (!f(*t, i))
                return false;
    return true;
}

} // namespace

std::map<int, TimeNs> gpuBusyWithin(const Profile& profile, TimeNs start, TimeNs end)
{
    GpuKeyOfRow gpuOf(profile);
    // Only what reaches into the window is held (Compare asks for an iteration as well as for the whole capture).
    const auto inWindow
        = [&](const GpuActivityColumns& t, std::size_t i) { return t.end[i] > start && t.start[i] < end; };
    // Counted first, so that each GPU's list is reserved once (one grown by doubling kept up to twice the intervals);
    // a GPU with nothing in the window is counted too: it was idle all of it.
    std::map<int, std::size_t> counts;
    forEachGpuOperation(profile, [&](const GpuActivityColumns& t, std::size_t i) {
        counts[gpuOf(t, i)] += inWindow(t, i) ? 1 : 0;
        return true;
    });
    std::map<int, TimeNs> busy;
    for (const auto& [id, n] : counts) {
        const int gpu = id; // a structured binding cannot be captured before C++20 in every compiler (clang 14)
        std::vector<TimeInterval> intervals;
        reserveHugePages(intervals, n);
        forEachGpuOperation(profile, [&](const GpuActivityColumns& t, std::size_t i) {
            if (inWindow(t, i) && gpuOf(t, i) == gpu)
                intervals.emplace_back(t.start[i], t.end[i]);
            return true;
        });
        busy[gpu] = IntervalUnion(std::move(intervals)).coveredWithin(start, end);
    }
    return busy;
}

IntervalUnion gpuBusyUnion(const Profile& profile, const JobContext& job, std::size_t chunkRows)
{
    // Every operation's interval a chunk at a time, each chunk's union merged into the union so far: the GPUs overlap,
    // so the union is small (315k intervals for the 5.3M operations of a 4M-kernel export, 5 MB) while each GPU's own
    // union hardly merges (85 MB for them all, as every operation's interval).
    chunkRows = std::max<std::size_t>(chunkRows, 1);
    IntervalUnion busy;
    std::vector<TimeInterval> chunk;
    const auto addChunk = [&] {
        busy = unite(busy, IntervalUnion(std::move(chunk)));
        chunk = {};
        chunk.reserve(chunkRows);
    };
    chunk.reserve(chunkRows);
    const bool whole = forEachGpuOperation(profile, [&](const GpuActivityColumns& t, std::size_t i) {
        chunk.emplace_back(t.start[i], t.end[i]);
        if (chunk.size() < chunkRows)
            return true;
        if (job.isCancelled())
            return false;
        addChunk();
        return true;
    });
    if (!whole || job.isCancelled())
        return {};
    addChunk();
    return busy;
}

GapSegments splitAtIdleGaps(const IntervalUnion& busy)
{
    const auto& iv = busy.intervals();
    std::vector<TimeNs> gaps;
    for (std::size_t i = 1; i < iv.size(); ++i)
        gaps.push_back(iv[i].first - iv[i - 1].second);
    std::sort(gaps.begin(), gaps.end(), std::greater<>());
    // k = how many gaps are boundaries: the step between gaps[k - 1] and gaps[k].
    std::size_t best = 0;
    double bestRatio = 0;
    // At least two boundaries: two stretches of GPU work are not yet a repeating pattern.
    for (std::size_t k = 2; k <= gaps.size() / 2; ++k) {
        if (gaps[k - 1] < kMinBoundaryGapNs)
            break;
        const double ratio = double(gaps[k - 1]) / double(std::max<TimeNs>(gaps[k], 1));
        if (ratio >= kMinGapRatio && ratio > bestRatio) {
            bestRatio = ratio;
            best = k;
        }
    }
    GapSegments result;
    if (best == 0)
        return result;
    result.threshold
        = TimeNs(std::llround(std::sqrt(double(gaps[best - 1]) * double(std::max<TimeNs>(gaps[best], 1)))));
    result.segments.push_back(iv.front());
    for (std::size_t i = 1; i < iv.size(); ++i) {
        if (iv[i].first - iv[i - 1].second > result.threshold)
            result.segments.push_back(iv[i]);
        else
            result.segments.back().second = iv[i].second;
    }
    return result;
}

} // namespace nsw
