// SPDX-License-Identifier: GPL-3.0-or-later
// Findings on NCCL: communication not hidden behind compute, NCCL sharing a stream with compute, and GPUs waiting
// for their peers in collectives (skew).
#include "core/diagnostics/findingsbuilder.h"
#include "core/util/findby.h"
#include "core/util/timeformat.h"

#include <algorithm>
#include <map>

namespace nsw {

using namespace findingtext;

namespace {

/// An all-to-all's or send/recv's output is what the kernels right after it read.
bool consumedRightAway(const NcclBreakdown& nccl)
{
    return !nccl.collectives.empty()
        && (nccl.collectives.front().collective == Collective::AllToAll
            || nccl.collectives.front().collective == Collective::SendRecv);
}

const QString kConsumedCaveat = QStringLiteral(
    " Most NCCL time here is all-to-all or send/recv, whose output the next kernels usually read: check that "
    "dependency before splitting the streams.");

const NcclSkewDevice* skewOf(const NcclSkewResult& skew, int device)
{
    return findBy(skew.devices, &NcclSkewDevice::device, device);
}

} // namespace

void FindingsBuilder::ncclOverlap()
{
    if (!r.overlap.hasNccl) {
        const QString reason = QStringLiteral("no NCCL kernels (one GPU, or NCCL not traced)");
        skip("nccl_not_overlapped", reason);
        skip("nccl_shared_stream", reason);
        skip("nccl_skew", reason);
        return;
    }
    for (const DeviceOverlap& d : r.overlap.devices) {
        if (d.ncclNs() <= 0 || d.spanNs <= 0)
            continue;
        const double ncclShare = 100.0 * double(d.ncclNs()) / double(d.spanNs);
        if (ncclShare < th("nccl_min_share_pct") || d.overlapPercent() >= th("nccl_overlap_pct"))
            continue;
        Finding f = finding("nccl_not_overlapped", Severity::Warning,
            QStringLiteral("%1: only %2 of NCCL time overlaps compute").arg(kSubjectGpu, pct(d.overlapPercent())));
        f.detail = QStringLiteral("NCCL kernels run %1 (%2 of the window), of which %3 alone; %4 overlaps compute.")
                       .arg(formatDuration(d.ncclNs()), pct(ncclShare), formatDuration(d.ncclOnlyNs),
                           formatDuration(d.overlappedNs));
        if (const NcclSkewDevice* skew = skewOf(r.ncclSkew, d.device); skew && skew->waitNs > 0)
            f.detail += QStringLiteral(" %1 of it is spent waiting for the other GPUs to reach the collectives.")
                            .arg(formatDuration(skew->waitNs));
        TimeNs overlappable = 0;
        bool shared = false;
        for (const SharedStream& s : r.overlap.sharedStreams)
            if (s.device == d.device) {
                shared = true;
                overlappable += s.overlappableNs;
            }
        if (overlappable > 0)
            f.recommendation = QStringLiteral("Up to %1 of compute was queued behind the collectives on their stream: "
                                              "on a stream of its own NCCL could overlap it, if that compute does not "
                                              "use the collectives' results.")
                                   .arg(formatDuration(overlappable))
                + (consumedRightAway(r.nccl) ? kConsumedCaveat : QString());
        else if (shared)
            f.recommendation = QStringLiteral(
                "No compute was queued behind the collectives (the host launched the next work only after they "
                "ended), so a stream of its own would overlap nothing: overlap needs independent work issued before "
                "the collective is waited on (bucketed gradient all-reduce during backward, prefetched all-gathers); "
                "otherwise make the communication cheaper (fewer, larger messages).");
        else
            f.recommendation = QStringLiteral(
                "NCCL runs on streams of its own, yet no compute runs beside it: the work after each collective waits "
                "for its result or is launched late. Issue independent work before waiting on the collective "
                "(bucketed gradient all-reduce during backward, prefetched all-gathers).");
        f.metrics = { { QStringLiteral("overlap_pct"), d.overlapPercent(), QStringLiteral("%") },
            { QStringLiteral("nccl_ns"), double(d.ncclNs()), QStringLiteral("ns") },
            { QStringLiteral("nccl_only_ns"), double(d.ncclOnlyNs), QStringLiteral("ns") },
            { QStringLiteral("nccl_share_pct"), ncclShare, QStringLiteral("%") },
            { QStringLiteral("overlappable_ns"), double(overlappable), QStringLiteral("ns") } };
        f.evidence.devices = { d.device };
        f.evidence.kernelNames = topNcclKernels();
        setGpuCost(f, d.ncclOnlyNs, d.device);
        f.thresholds = { thText("nccl_overlap_pct"), thText("nccl_min_share_pct") };
        add(f, d.device);
    }
}

void FindingsBuilder::ncclSharedStream()
{
    if (!r.overlap.hasNccl || r.overlap.sharedStreams.empty())
        return;
    std::map<int, TimeNs> overlappableByDevice;
    QStringList where;
    qint64 queued = 0;
    for (const SharedStream& s : r.overlap.sharedStreams) {
        overlappableByDevice[s.device] += s.overlappableNs;
        queued += s.queuedKernels;
        where << QStringLiteral("%1 stream %2 (%3 NCCL, %4 compute kernels; up to %5 of queued compute)")
                     .arg(r.deviceLabel(s.device))
                     .arg(s.stream)
                     .arg(s.ncclKernels.count)
                     .arg(s.computeKernels)
                     .arg(formatDuration(s.overlappableNs));
    }
    const auto worst = std::max_element(overlappableByDevice.begin(), overlappableByDevice.end(),
        [](const auto& a, const auto& b) { return a.second < b.second; });
    if (worst->second <= 0) // nothing was waiting behind the collectives: sharing the stream cost nothing
        return;
    Finding f = finding("nccl_shared_stream", Severity::Warning,
        QStringLiteral("NCCL shares a stream with compute: up to %1 of compute queued behind it on %2")
            .arg(formatDuration(worst->second), r.deviceLabel(worst->first)));
    f.detail = QStringLiteral("Compute kernels launched before a collective ended waited for it on the same stream: "
                              "%1.")
                   .arg(where.join(QStringLiteral("; ")));
    f.metrics = { { QStringLiteral("streams"), double(r.overlap.sharedStreams.size()), QStringLiteral("count") },
        { QStringLiteral("queued_kernels"), double(queued), QStringLiteral("count") },
        { QStringLiteral("overlappable_ns"), double(worst->second), QStringLiteral("ns") } };
    f.recommendation = QStringLiteral("Kernels on one stream serialise: run NCCL on a stream of its own, waiting on "
                                      "it with an event only where its result is used, so that compute that does "
                                      "not need the result can overlap it. The time above is an upper bound: it "
                                      "holds only for compute independent of the collectives.")
        + (consumedRightAway(r.nccl) ? kConsumedCaveat : QString());
    for (const auto& [device, ns] : overlappableByDevice)
        f.evidence.devices.push_back(device);
    f.evidence.kernelNames = topNcclKernels();
    setGpuCost(f, worst->second, worst->first);
    add(f);
}

void FindingsBuilder::ncclSkew()
{
    if (!r.overlap.hasNccl)
        return; // ncclOverlap() said why
    if (r.ncclSkew.devices.empty()) {
        skip("nccl_skew", QStringLiteral("no collective runs on two GPUs of this export"));
        return;
    }
    for (const NcclSkewDevice& d : r.ncclSkew.devices) {
        const auto overlap = std::find_if(r.overlap.devices.begin(), r.overlap.devices.end(),
            [&](const DeviceOverlap& o) { return o.device == d.device; });
        const double ncclShare = overlap != r.overlap.devices.end() && window() > 0
            ? 100.0 * double(overlap->ncclNs()) / double(window())
            : 0.0;
        const double waitShare = d.ncclNs > 0 ? 100.0 * double(d.waitNs) / double(d.ncclNs) : 0.0;
        if (waitShare < th("nccl_skew_pct") || ncclShare < th("nccl_min_share_pct"))
            continue;
        // The GPU that reaches the collectives last most often.
        const NcclSkewDevice* late = nullptr;
        for (const NcclSkewDevice& o : r.ncclSkew.devices)
            if (o.device != d.device && (!late || o.arrivedLast > late->arrivedLast))
                late = &o;
        Finding f = finding("nccl_skew", Severity::Warning,
            QStringLiteral("NCCL skew: %1 waits %2 for the other GPUs in collectives (%3 of its NCCL time)")
                .arg(kSubjectGpu, formatDuration(d.waitNs), pct(waitShare)));
        QStringList perCollective;
        qint64 unmatched = 0;
        for (const NcclSkewCollective& c : r.ncclSkew.collectives) {
            QStringList times;
            for (const NcclSkewDevice& g : c.devices)
                times << QStringLiteral("%1 %2").arg(r.deviceLabel(g.device), formatDuration(g.ncclNs));
            perCollective << QStringLiteral("%1 over %2 matched instances: %3")
                                 .arg(collectiveName(c.collective))
                                 .arg(c.groups)
                                 .arg(times.join(QStringLiteral(", ")));
            unmatched += c.unmatched;
        }
        f.detail = QStringLiteral("A collective ends on all its GPUs together, so a GPU that starts it first spins "
                                  "until the last one arrives. %1.")
                       .arg(perCollective.join(QStringLiteral("; ")));
        const bool lateLaunches = late && late->lateLaunchesKnown > 0;
        const TimeNs lag = lateLaunches ? late->launchLagNs / late->lateLaunchesKnown : 0;
        const TimeNs queue = lateLaunches ? late->queueNs / late->lateLaunchesKnown : 0;
        if (late && late->arrivedLast > 0)
            f.detail
                += QStringLiteral(" %1 starts last in %2 of %3 instances%4.")
                       .arg(r.deviceLabel(late->device))
                       .arg(late->arrivedLast)
                       .arg(late->instances)
                       .arg(lateLaunches ? QStringLiteral("; there its launch call ended on average %1 after the "
                                                          "first GPU's, and its kernel then waited %2 in its queue")
                                               .arg(formatDuration(lag), formatDuration(queue))
                                         : QString());
        if (unmatched > 0)
            f.detail += QStringLiteral(" %1 NCCL kernels could not be matched across the GPUs and are not counted.")
                            .arg(unmatched);
        const QString lateName = late ? r.deviceLabel(late->device) : QStringLiteral("the last GPU");
        f.recommendation = (lateLaunches && lag >= queue)
            ? QStringLiteral("%1 reaches the collectives late because its host launches them late: look at what that "
                             "process does before each collective (CPU profile with -s cpu, Python overhead, data "
                             "loading, a synchronisation).")
                  .arg(lateName)
            : QStringLiteral("%1 reaches the collectives late because it still runs earlier work when they are "
                             "launched: the GPUs' work before the collectives is uneven (sequence lengths, expert "
                             "routing, a slower GPU).")
                  .arg(lateName);
        f.recommendation += QStringLiteral(" Balancing the work ahead of the collectives recovers the wait; "
                                           "overlapping communication with compute does not.");
        f.metrics = { { QStringLiteral("wait_ns"), double(d.waitNs), QStringLiteral("ns") },
            { QStringLiteral("wait_pct"), waitShare, QStringLiteral("%") },
            { QStringLiteral("nccl_ns"), double(d.ncclNs), QStringLiteral("ns") },
            { QStringLiteral("instances"), double(d.instances), QStringLiteral("count") },
            { QStringLiteral("unmatched_kernels"), double(unmatched), QStringLiteral("count") } };
        f.evidence.devices = { d.device };
        f.evidence.kernelNames = topNcclKernels();
        f.evidence.start = d.longestWaitStart;
        f.evidence.end = d.longestWaitEnd;
        setGpuCost(f, d.waitNs, d.device);
        f.thresholds = { thText("nccl_skew_pct"), thText("nccl_min_share_pct") };
        add(f, d.device);
    }
}

} // namespace nsw
