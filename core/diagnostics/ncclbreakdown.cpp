// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/ncclbreakdown.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace nsw {

QString collectiveName(Collective c)
{
    static const char* names[kCollectiveCount]
        = { "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "SendRecv", "AllToAll", "other" };
    return QString::fromLatin1(names[int(c)]);
}

Collective collectiveOf(const QString& kernelName)
{
    QString n = kernelName.toLower();
    n.remove(QLatin1Char('_'));
    // Most specific first: "reducescatter" and "allreduce" both contain "reduce".
    if (n.contains(QLatin1String("allreduce")))
        return Collective::AllReduce;
    if (n.contains(QLatin1String("reducescatter")))
        return Collective::ReduceScatter;
    if (n.contains(QLatin1String("allgather")))
        return Collective::AllGather;
    if (n.contains(QLatin1String("alltoall")) || n.contains(QLatin1String("a2a")))
        return Collective::AllToAll;
    if (n.contains(QLatin1String("broadcast")) || n.contains(QLatin1String("bcast")))
        return Collective::Broadcast;
    if (n.contains(QLatin1String("sendrecv")) || n.contains(QLatin1String("send")) || n.contains(QLatin1String("recv")))
        return Collective::SendRecv;
    if (n.contains(QLatin1String("reduce")))
        return Collective::Reduce;
    return Collective::Other;
}

NcclBreakdown computeNcclBreakdown(const AnalysisContext& c, const JobContext& job)
{
    NcclBreakdown result;
    const Profile& p = *c.profile;
    NcclStats collectives[kCollectiveCount];
    std::map<std::pair<int, std::uint32_t>, NcclStats> streams;
    std::unordered_map<StringRef, Collective> byName;
    CancelPoll<> poll(job.cancelToken());
    c.forEachKernel([&](std::size_t i) {
        if (poll() || !c.kernelIsNccl[i])
            return;
        const StringRef ref = c.kernelNameRef(i);
        auto it = byName.find(ref);
        if (it == byName.end())
            it = byName.emplace(ref, collectiveOf(p.strings.at(ref))).first;
        const TimeNs d = p.kernels.duration(i);
        collectives[int(it->second)].add(d);
        streams[{ c.kernelDevice[i], i < p.kernels.stream.size() ? p.kernels.stream[i] : 0u }].add(d);
        result.total.add(d);
    });
    auto share = [&](NcclStats& s) {
        s.sharePercent = result.total.total > 0 ? 100.0 * double(s.total) / double(result.total.total) : 0.0;
    };
    share(result.total);
    for (int k = 0; k < kCollectiveCount; ++k) {
        if (collectives[k].count == 0)
            continue;
        share(collectives[k]);
        result.collectives.push_back({ Collective(k), collectives[k] });
    }
    for (auto& [key, s] : streams) {
        share(s);
        result.streams.push_back({ key.first, std::int64_t(key.second), s });
    }
    std::stable_sort(result.collectives.begin(), result.collectives.end(),
        [](const NcclCollectiveRow& a, const NcclCollectiveRow& b) { return a.stats.total > b.stats.total; });
    std::stable_sort(result.streams.begin(), result.streams.end(),
        [](const NcclStreamRow& a, const NcclStreamRow& b) { return a.stats.total > b.stats.total; });
    return result;
}

} // namespace nsw
