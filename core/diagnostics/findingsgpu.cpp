// SPDX-License-Identifier: GPL-3.0-or-later
// Findings on GPU idle time: the share of the window each GPU sits idle, and its long gaps with their cause.
#include "core/diagnostics/findingsbuilder.h"
#include "core/util/timeformat.h"

#include <algorithm>

namespace nsw {

QString findingtext::causeAdvice(GapCause cause)
{
    switch (cause) {
    case GapCause::Sync:
        return QStringLiteral("remove or defer the synchronising calls (cudaStreamSynchronize, .item(), .cpu()) that "
                              "stall the launch queue");
    case GapCause::PageMigration:
        return QStringLiteral("unified-memory pages migrate on demand (page faults): prefetch them to where they are "
                              "used next with cudaMemPrefetchAsync (to the GPU before its kernels, to the host with "
                              "cudaCpuDeviceId before the CPU reads them) and give cudaMemAdvise hints "
                              "(SetPreferredLocation, SetReadMostly, SetAccessedBy); pinned memory does not apply to "
                              "managed memory");
    case GapCause::BlockedCall:
        return QStringLiteral("the host sat in one CUDA call that issued only a short GPU operation, so the call "
                              "itself blocked (an implicit synchronisation, an allocation, lazy module loading, a lock "
                              "in the driver): find what it waits for (nsys --cudabacktrace, -s cpu, -t osrt) and "
                              "move it out of the loop");
    case GapCause::MemoryTransfer:
        return QStringLiteral("overlap the transfers with compute (pinned memory, cudaMemcpyAsync on another stream) "
                              "or move them out of the loop");
    case GapCause::LaunchLatency:
        return QStringLiteral("fuse small kernels or capture the sequence in a CUDA graph to cut launch latency");
    case GapCause::HostWait:
        return QStringLiteral("the host is busy in CUDA calls between launches: batch the API work, use CUDA graphs, "
                              "or launch earlier");
    case GapCause::CpuBound:
        return QStringLiteral("the host does other work before launching: profile the CPU side (-s cpu, "
                              "--python-sampling), overlap data loading, or use CUDA graphs");
    }
    return {};
}

using namespace findingtext;

namespace {

int topCause(const TimeNs (&byCause)[kGapCauseCount])
{
    return int(std::max_element(std::begin(byCause), std::end(byCause)) - std::begin(byCause));
}

} // namespace

void FindingsBuilder::gpuIdle()
{
    if (!hasGpuWork() || r.windowEnd <= r.windowStart) {
        const QString reason = QStringLiteral("no kernels or memory operations in the profile");
        skip("gpu_idle", reason);
        skip("long_gaps", reason);
        return;
    }
    for (const DeviceIdle& d : r.idleGaps.devices) {
        const double idle = d.idlePercent();
        if (idle < th("gpu_idle_pct"))
            continue;
        const TimeNs edges = std::max<TimeNs>(0, d.idleNs - d.gapNs); // before the first, after the last operation
        Finding f = finding("gpu_idle", idle >= th("gpu_idle_critical_pct") ? Severity::Critical : Severity::Warning,
            QStringLiteral("%1 idle %2 of the window").arg(kSubjectGpu, pct(idle)));
        f.detail = QStringLiteral("%1: no kernel or memory operation for %2 of %3; %4 gaps between its operations add "
                                  "up to %5%6.")
                       .arg(kSubjectGpu, formatDuration(d.idleNs), formatDuration(d.spanNs))
                       .arg(d.gaps)
                       .arg(formatDuration(d.gapNs),
                           edges > 0 ? QStringLiteral(", %1 lies before its first or after its last operation")
                                           .arg(formatDuration(edges))
                                     : QString());
        f.metrics = { { QStringLiteral("idle_pct"), idle, QStringLiteral("%") },
            { QStringLiteral("idle_ns"), double(d.idleNs), QStringLiteral("ns") },
            { QStringLiteral("window_ns"), double(d.spanNs), QStringLiteral("ns") },
            { QStringLiteral("gaps"), double(d.gaps), QStringLiteral("count") } };
        const GapCause top = GapCause(topCause(d.causeNs));
        const QString gapAdvice = QStringLiteral("%1: %2.").arg(gapCauseName(top), causeAdvice(top));
        if (d.gapNs >= edges)
            f.recommendation = QStringLiteral("Most gap time is ") + gapAdvice;
        else if (r.focus.isActive()) // the capture is not what to change: the focus is
            f.recommendation = QStringLiteral("Most of the idle time lies before the first or after the last GPU "
                                              "operation inside the focus: the focus reaches beyond the GPU work "
                                              "(narrow it to see the gaps inside), or look at what the host does "
                                              "there.");
        else
            f.recommendation = QStringLiteral("Most of the idle time lies before the first or after the last GPU "
                                              "operation: shorten the capture to the steady state (--range, --nvtx, "
                                              "nsys --capture-range) or start the GPU work earlier.");
        if (d.gapNs > 0 && d.gapNs < edges)
            f.recommendation
                += QStringLiteral(" Of the gaps between operations (%1), most is ").arg(formatDuration(d.gapNs))
                + gapAdvice;
        f.evidence.devices = { d.device };
        if (const IdleGap* g = longestGap(d.device)) {
            f.evidence.start = g->start;
            f.evidence.end = g->end;
        }
        setGpuCost(f, d.idleNs, d.device);
        f.thresholds = { thText("gpu_idle_pct"), thText("gpu_idle_critical_pct") };
        add(f, d.device);
    }
}

void FindingsBuilder::longGaps()
{
    if (!hasGpuWork() || r.windowEnd <= r.windowStart)
        return; // gpuIdle() said why
    const TimeNs longGap = TimeNs(th("long_gap_ms") * 1e6);
    for (const DeviceIdle& d : r.idleGaps.devices) {
        // The totals come from the analysis (every gap), computed with this threshold: a change of it runs the
        // analyses again (analysisThresholdsDiffer()).
        const qint64 count = d.longGaps;
        const TimeNs total = d.longGapNs;
        TimeNs byCause[kGapCauseCount] = {};
        std::copy(std::begin(d.longCauseNs), std::end(d.longCauseNs), std::begin(byCause));
        if (count == 0)
            continue;
        const GapCause top = GapCause(topCause(byCause));
        const IdleGap* longest = longestGap(d.device);
        Finding f = finding("long_gaps", Severity::Warning,
            QStringLiteral("%1: %2 idle gaps of %3 or more, mostly %4")
                .arg(kSubjectGpu)
                .arg(count)
                .arg(formatDuration(longGap), gapCauseName(top)));
        QStringList causes;
        for (int c = 0; c < kGapCauseCount; ++c)
            if (byCause[c] > 0)
                causes << QStringLiteral("%1 %2").arg(gapCauseName(GapCause(c)), formatDuration(byCause[c]));
        f.detail = QStringLiteral("%1 gaps add up to %2 (%3); the longest is %4.")
                       .arg(count)
                       .arg(formatDuration(total), causes.join(QStringLiteral(", ")),
                           formatDuration(longest ? longest->duration() : 0));
        if (longest && longest->cause == GapCause::BlockedCall && longest->nextCall >= 0) {
            const auto call = std::size_t(longest->nextCall);
            const CudaApiTable& api = r.profile->cudaApi;
            const QString name = r.profile->strings.at(api.name[call]);
            const MemOpTable& m = r.profile->memops;
            const bool memOp = longest->nextMemOp >= 0 && std::size_t(longest->nextMemOp) < m.size();
            const TimeNs opNs = memOp ? m.duration(std::size_t(longest->nextMemOp))
                                      : r.profile->kernels.duration(std::size_t(longest->nextKernel));
            f.detail += QStringLiteral(" In the longest, the host sat %1 in %2, whose %3 took %4: a blocked call, not "
                                       "a transfer.")
                            .arg(formatDuration(api.end[call] - api.start[call]), name,
                                memOp ? (m.copyKind[std::size_t(longest->nextMemOp)] == MemOpTable::kMemset
                                        ? QStringLiteral("memset")
                                        : QStringLiteral("memcpy"))
                                      : QStringLiteral("kernel"),
                                formatDuration(opNs));
            f.evidence.apiNames = { name };
        }
        f.metrics = { { QStringLiteral("gaps"), double(count), QStringLiteral("count") },
            { QStringLiteral("gap_ns"), double(total), QStringLiteral("ns") },
            { QStringLiteral("longest_ns"), double(longest ? longest->duration() : 0), QStringLiteral("ns") } };
        for (int c = 0; c < kGapCauseCount; ++c)
            f.metrics.push_back(
                { gapCauseName(GapCause(c)) + QStringLiteral("_ns"), double(byCause[c]), QStringLiteral("ns") });
        f.recommendation = sentence(causeAdvice(top));
        f.evidence.devices = { d.device };
        if (longest) {
            f.evidence.start = longest->start;
            f.evidence.end = longest->end;
            for (const QString& name : { kernelNameOf(longest->previousKernel), kernelNameOf(longest->nextKernel) })
                if (!name.isEmpty() && !f.evidence.kernelNames.contains(name))
                    f.evidence.kernelNames << name;
            f.evidence.pids = { longest->pid };
        }
        setGpuCost(f, total, d.device);
        f.thresholds = { thText("long_gap_ms") };
        add(f, d.device);
    }
}

} // namespace nsw
