// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/samples/samplestates.h"

#include "core/profile/intervals.h"

#include <algorithm>
#include <map>

namespace nsw {

QString sampleActivityName(SampleActivity activity)
{
    switch (activity) {
    case SampleActivity::Running:
        return QStringLiteral("running");
    case SampleActivity::OsRuntime:
        return QStringLiteral("OS runtime");
    case SampleActivity::Waiting:
        return QStringLiteral("waiting");
    case SampleActivity::Unknown:
        return QStringLiteral("unknown");
    }
    return {};
}

namespace {

SampleActivity activityOfState(std::uint8_t state)
{
    if (state == CpuSamples::kRunning)
        return SampleActivity::Running;
    if (state == CpuSamples::kOsRuntime)
        return SampleActivity::OsRuntime;
    return state == CpuSamples::kUnknownState ? SampleActivity::Unknown : SampleActivity::Waiting;
}

/// The OS runtime calls of each of @p threads, united.
std::map<ThreadIndex, IntervalUnion> osRuntimeCalls(const Profile& p, const std::map<ThreadIndex, std::size_t>& threads)
{
    std::map<ThreadIndex, std::vector<TimeInterval>> calls;
    for (std::size_t i = 0; i < p.osrt.size(); ++i)
        if (threads.count(p.osrt.thread[i]))
            calls[p.osrt.thread[i]].emplace_back(p.osrt.start[i], p.osrt.end[i]);
    std::map<ThreadIndex, IntervalUnion> out;
    for (auto& [thread, intervals] : calls)
        out.emplace(thread, IntervalUnion(std::move(intervals)));
    return out;
}

} // namespace

ThreadStateBins threadStateBins(
    const Profile& profile, std::span<const std::uint32_t> rows, TimeNs start, TimeNs end, int bins)
{
    ThreadStateBins out;
    bins = std::max(1, bins);
    out.start = start;
    out.binNs = std::max<TimeNs>(1, (end - start + bins - 1) / bins);
    const CpuSamples& s = profile.cpuSamples;
    std::map<ThreadIndex, std::size_t> rowOf;
    for (const std::uint32_t r : rows)
        if (rowOf.try_emplace(s.thread[r], out.rows.size()).second)
            out.rows.push_back(
                { s.thread[r], 0, std::vector<std::array<std::uint32_t, kSampleActivityCount>>(std::size_t(bins)) });
    const std::map<ThreadIndex, IntervalUnion> osrt = osRuntimeCalls(profile, rowOf);
    for (const std::uint32_t r : rows) {
        const TimeNs t = s.time[r];
        if (t < start || t >= end)
            continue;
        ThreadStateBins::Row& row = out.rows[rowOf[s.thread[r]]];
        SampleActivity a = activityOfState(s.state[r]);
        if (a == SampleActivity::Running)
            if (const auto it = osrt.find(row.thread); it != osrt.end() && it->second.coveredWithin(t, t + 1) > 0)
                a = SampleActivity::OsRuntime;
        const auto bin = std::size_t(std::min<TimeNs>((t - start) / out.binNs, bins - 1));
        ++row.bins[bin][std::size_t(a)];
        ++row.samples;
    }
    std::erase_if(out.rows, [](const ThreadStateBins::Row& row) { return row.samples == 0; });
    std::stable_sort(out.rows.begin(), out.rows.end(),
        [](const ThreadStateBins::Row& a, const ThreadStateBins::Row& b) { return a.samples > b.samples; });
    return out;
}

} // namespace nsw
