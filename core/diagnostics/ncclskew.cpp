// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/ncclskew.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace nsw {

namespace {

struct Instance
{
    TimeNs start;
    TimeNs end;
    TimeNs launchEnd; ///< kNoTime when the launch call is unknown
};

using Lanes = std::map<int, std::vector<Instance>>; ///< per device key, by start

bool sameInstance(const Instance& a, const Instance& b)
{
    const TimeNs tolerance = std::max(kNcclEndToleranceNs, std::min(a.end - a.start, b.end - b.start) / 10);
    return a.start < b.end && b.start < a.end && std::abs(a.end - b.end) <= tolerance;
}

/// Measures one matched instance (one kernel per device, in Lanes order) into the devices' rows.
void measureGroup(const std::vector<const Instance*>& group, std::vector<NcclSkewDevice>& devices)
{
    TimeNs lastStart = group.front()->start, firstStart = lastStart, firstLaunch = kNoTime;
    bool launchesKnown = true;
    for (const Instance* i : group) {
        lastStart = std::max(lastStart, i->start);
        firstStart = std::min(firstStart, i->start);
        launchesKnown = launchesKnown && i->launchEnd != kNoTime;
        if (i->launchEnd != kNoTime)
            firstLaunch = firstLaunch == kNoTime ? i->launchEnd : std::min(firstLaunch, i->launchEnd);
    }
    const auto lastCount
        = std::count_if(group.begin(), group.end(), [&](const Instance* i) { return i->start == lastStart; });
    for (std::size_t g = 0; g < group.size(); ++g) {
        const Instance& i = *group[g];
        NcclSkewDevice& d = devices[g];
        ++d.instances;
        d.ncclNs += i.end - i.start;
        const TimeNs wait = std::min(lastStart - i.start, i.end - i.start);
        d.waitNs += wait;
        if (wait > d.longestWaitNs) {
            d.longestWaitNs = wait;
            d.longestWaitStart = i.start;
            d.longestWaitEnd = i.end;
        }
        if (i.start != lastStart || lastCount > 1 || lastStart == firstStart)
            continue;
        ++d.arrivedLast;
        if (!launchesKnown)
            continue;
        ++d.lateLaunchesKnown;
        d.launchLagNs += i.launchEnd - firstLaunch;
        d.queueNs += std::max<TimeNs>(0, i.start - i.launchEnd);
    }
}

NcclSkewCollective matchCollective(Collective collective, const Lanes& lanes)
{
    NcclSkewCollective out;
    out.collective = collective;
    std::vector<const std::vector<Instance>*> lists;
    std::size_t reference = 0, total = 0;
    for (const auto& [device, list] : lanes) {
        if (list.size() > (lists.empty() ? 0 : lists[reference]->size()))
            reference = lists.size();
        lists.push_back(&list);
        total += list.size();
        out.devices.push_back({ device });
    }
    std::vector<std::size_t> next(lists.size(), 0);
    std::vector<const Instance*> group(lists.size());
    for (const Instance& ref : *lists[reference]) {
        bool complete = true;
        for (std::size_t g = 0; g < lists.size(); ++g) {
            if (g == reference) {
                group[g] = &ref;
                continue;
            }
            const std::vector<Instance>& list = *lists[g];
            while (next[g] < list.size() && list[next[g]].end < ref.start) // ended before it: in no instance
                ++next[g];
            if (next[g] < list.size() && sameInstance(ref, list[next[g]])) {
                group[g] = &list[next[g]++];
            } else {
                complete = false;
            }
        }
        if (!complete)
            continue;
        ++out.groups;
        measureGroup(group, out.devices);
    }
    out.unmatched = qint64(total) - out.groups * qint64(lists.size());
    return out;
}

} // namespace

TimeNs NcclSkewCollective::maxWaitNs() const
{
    TimeNs most = 0;
    for (const NcclSkewDevice& d : devices)
        most = std::max(most, d.waitNs);
    return most;
}

NcclSkewResult computeNcclSkew(const AnalysisContext& c, const JobContext& job)
{
    NcclSkewResult result;
    const Profile& p = *c.profile;
    std::map<Collective, Lanes> byCollective;
    std::unordered_map<StringRef, Collective> collectiveOfName;
    CancelPoll<> poll(job.cancelToken());
    c.forEachKernel([&](std::size_t i) {
        if (poll() || !c.kernelIsNccl[i])
            return;
        const StringRef ref = c.kernelNameRef(i);
        auto it = collectiveOfName.find(ref);
        if (it == collectiveOfName.end())
            it = collectiveOfName.emplace(ref, collectiveOf(p.strings.at(ref))).first;
        const std::int32_t api = i < p.kernels.api.size() ? p.kernels.api[i] : -1;
        byCollective[it->second][c.kernelDevice[i]].push_back(
            { p.kernels.start[i], p.kernels.end[i], api >= 0 ? p.cudaApi.end[std::size_t(api)] : kNoTime });
    });
    if (poll.stopped())
        return result;
    std::map<int, NcclSkewDevice> totals;
    for (auto& [collective, lanes] : byCollective) {
        if (lanes.size() < 2)
            continue;
        for (auto& [device, list] : lanes)
            std::sort(list.begin(), list.end(), [](const Instance& a, const Instance& b) { return a.start < b.start; });
        NcclSkewCollective matched = matchCollective(collective, lanes);
        for (const NcclSkewDevice& d : matched.devices) {
            NcclSkewDevice& t = totals[d.device];
            t.device = d.device;
            t.instances += d.instances;
            t.ncclNs += d.ncclNs;
            t.waitNs += d.waitNs;
            if (d.longestWaitNs > t.longestWaitNs) {
                t.longestWaitNs = d.longestWaitNs;
                t.longestWaitStart = d.longestWaitStart;
                t.longestWaitEnd = d.longestWaitEnd;
            }
            t.arrivedLast += d.arrivedLast;
            t.lateLaunchesKnown += d.lateLaunchesKnown;
            t.launchLagNs += d.launchLagNs;
            t.queueNs += d.queueNs;
        }
        result.collectives.push_back(std::move(matched));
    }
    for (const auto& [device, t] : totals)
        result.devices.push_back(t);
    std::stable_sort(result.collectives.begin(), result.collectives.end(),
        [](const NcclSkewCollective& a, const NcclSkewCollective& b) { return a.maxWaitNs() > b.maxWaitNs(); });
    return result;
}

} // namespace nsw
