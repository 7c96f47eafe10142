// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpubusy.h"

#include "core/util/hugepages.h"

#include <algorithm>
#include <cmath>

namespace nsw {

namespace {

constexpr double kMinGapRatio = 4.0;
constexpr TimeNs kMinBoundaryGapNs = 10'000;

void addIntervals(const GpuActivityColumns& table, std::vector<TimeInterval>& out)
{
    for (std::size_t i = 0; i < table.size(); ++i)
        if (table.end[i] > table.start[i])
            out.emplace_back(table.start[i], table.end[i]);
}

} // namespace

IntervalUnion gpuBusyUnion(const Profile& profile, const JobContext& job)
{
    std::vector<TimeInterval> all;
    reserveHugePages(all, profile.kernels.size() + profile.memops.size());
    addIntervals(profile.kernels, all);
    addIntervals(profile.memops, all);
    if (job.isCancelled())
        return {};
    return IntervalUnion(std::move(all)); // each table is a few runs in start order: merged, not sorted
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
