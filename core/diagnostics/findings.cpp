// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/diagnostics.h"
#include "core/util/timeformat.h"

#include <algorithm>
#include <cmath>

namespace nsw {

namespace {

QString pct(double value)
{
    return QString::number(value, 'f', 1) + QStringLiteral(" %");
}

class FindingsBuilder
{
public:
    FindingsBuilder(DiagnosticsResult& r, const Thresholds& t)
        : r(r)
        , t(t)
    { }

    void run()
    {
        r.findings.clear();
        r.skipped.clear();
        dominantKernel();
        gpuIdleAndGaps();
        nccl();
        launchStorm();
        heavySync();
        memcpys();
        nvtxCoverage();
        iterationOutliers();
        std::stable_sort(r.findings.begin(), r.findings.end(), [](const Finding& a, const Finding& b) {
            if (a.severity != b.severity)
                return a.severity > b.severity;
            if (a.timeLostNs != b.timeLostNs)
                return a.timeLostNs > b.timeLostNs;
            return a.id < b.id;
        });
    }

private:
    double th(const char* name) const { return t.value(QLatin1String(name)); }
    QString thText(const char* name) const { return t.describe(QLatin1String(name)); }
    void skip(const char* check, const QString& reason) { r.skipped.push_back({ QLatin1String(check), reason }); }
    bool hasGpuWork() const { return r.profile->kernels.size() + r.profile->memops.size() > 0; }
    bool hasApi() const { return r.profile->cudaApi.size() > 0; }

    void dominantKernel()
    {
        const LaunchCostResult& l = r.launchCost;
        if (l.kernels.empty() || l.totalKernelNs <= 0) {
            skip("dominant_kernel", QStringLiteral("no kernels in the window (trace CUDA with -t cuda)"));
            return;
        }
        const LaunchCostRow& top = l.kernels.front();
        const double share = 100.0 * double(top.kernelNs) / double(l.totalKernelNs);
        if (share < th("dominant_kernel_pct"))
            return;
        Finding f;
        f.id = QStringLiteral("dominant_kernel");
        f.severity = Severity::Info;
        f.title = QStringLiteral("One kernel takes %1 of all kernel time").arg(pct(share));
        f.detail = QStringLiteral("%1 runs %2 times for %3 (%4 of %5 kernel time).")
                       .arg(top.name)
                       .arg(top.kernels)
                       .arg(formatDuration(top.kernelNs), pct(share), formatDuration(l.totalKernelNs));
        f.metrics = { { QStringLiteral("share_pct"), share, QStringLiteral("%") },
            { QStringLiteral("kernel_ns"), double(top.kernelNs), QStringLiteral("ns") },
            { QStringLiteral("instances"), double(top.kernels), QStringLiteral("count") } };
        f.recommendation = QStringLiteral("Optimise this kernel first (Nsight Compute on one instance): it bounds "
                                          "what any other change can gain.");
        f.evidence.kernelNames = { top.name };
        f.thresholds = { thText("dominant_kernel_pct") };
        r.findings.push_back(f);
    }

    const IdleGap* longestGap(int device) const
    {
        for (const IdleGap& g : r.idleGaps.deviceGaps) // longest first
            if (g.device == device)
                return &g;
        return nullptr;
    }

    QString kernelNameOf(std::int64_t row) const
    {
        const KernelTable& k = r.profile->kernels;
        if (row < 0 || std::size_t(row) >= k.size())
            return {};
        const StringRef ref
            = std::size_t(row) < k.demangledName.size() && k.demangledName[std::size_t(row)] != kNoString
            ? k.demangledName[std::size_t(row)]
            : (std::size_t(row) < k.shortName.size() ? k.shortName[std::size_t(row)] : kNoString);
        return r.profile->strings.at(ref);
    }

    /// The NCCL kernel names with the most time (launchCost.kernels is sorted by kernel time), at most five.
    QStringList topNcclKernels() const
    {
        QStringList names;
        for (const LaunchCostRow& k : r.launchCost.kernels)
            if (names.size() < 5 && k.name.contains(QLatin1String("nccl"), Qt::CaseInsensitive))
                names << k.name;
        return names;
    }

    static QString causeAdvice(GapCause cause)
    {
        switch (cause) {
        case GapCause::Sync:
            return QStringLiteral("remove or defer the synchronising calls (cudaStreamSynchronize, .item(), "
                                  ".cpu()) that stall the launch queue");
        case GapCause::MemoryTransfer:
            return QStringLiteral("overlap the transfers with compute (pinned memory, cudaMemcpyAsync on another "
                                  "stream) or move them out of the loop");
        case GapCause::LaunchLatency:
            return QStringLiteral("fuse small kernels or capture the sequence in a CUDA graph to cut launch "
                                  "latency");
        case GapCause::HostWait:
            return QStringLiteral("the host is busy in CUDA calls between launches: batch the API work, use CUDA "
                                  "graphs, or launch earlier");
        case GapCause::CpuBound:
            return QStringLiteral("the host does other work before launching: profile the CPU side (-s cpu, "
                                  "--python-sampling), overlap data loading, or use CUDA graphs");
        }
        return {};
    }

    void gpuIdleAndGaps()
    {
        if (!hasGpuWork() || r.windowEnd <= r.windowStart) {
            const QString reason = QStringLiteral("no kernels or memory operations in the profile");
            skip("gpu_idle", reason);
            skip("long_gaps", reason);
            return;
        }
        const TimeNs longGap = TimeNs(th("long_gap_ms") * 1e6);
        for (const DeviceIdle& d : r.idleGaps.devices) {
            const QString& label = r.deviceLabel(d.device);
            const double idle = d.idlePercent();
            if (idle >= th("gpu_idle_pct")) {
                Finding f;
                f.id = QStringLiteral("gpu_idle");
                f.severity = idle >= th("gpu_idle_critical_pct") ? Severity::Critical : Severity::Warning;
                f.title = QStringLiteral("%1 idle %2 of the window").arg(label, pct(idle));
                f.detail = QStringLiteral("%1 runs no kernel or memory operation for %2 of %3; %4 gaps between its "
                                          "operations add up to %5.")
                               .arg(label, formatDuration(d.idleNs), formatDuration(d.spanNs))
                               .arg(d.gaps)
                               .arg(formatDuration(d.gapNs));
                f.metrics = { { QStringLiteral("idle_pct"), idle, QStringLiteral("%") },
                    { QStringLiteral("idle_ns"), double(d.idleNs), QStringLiteral("ns") },
                    { QStringLiteral("window_ns"), double(d.spanNs), QStringLiteral("ns") },
                    { QStringLiteral("gaps"), double(d.gaps), QStringLiteral("count") } };
                int top = 0;
                for (int c = 1; c < kGapCauseCount; ++c)
                    if (d.causeNs[c] > d.causeNs[top])
                        top = c;
                f.recommendation = d.gapNs > 0
                    ? QStringLiteral("Most gap time is %1: %2.")
                          .arg(gapCauseName(GapCause(top)), causeAdvice(GapCause(top)))
                    : QStringLiteral("The GPU is idle before its first or after its last operation: shorten the "
                                     "capture to the steady state (--range, --nvtx) or start work earlier.");
                f.evidence.devices = { d.device };
                if (const IdleGap* g = longestGap(d.device)) {
                    f.evidence.start = g->start;
                    f.evidence.end = g->end;
                }
                f.timeLostNs = d.idleNs;
                f.thresholds = { thText("gpu_idle_pct"), thText("gpu_idle_critical_pct") };
                r.findings.push_back(f);
            }

            // The totals come from the analysis (every gap), computed with the same threshold unless the pane
            // changed it since: then from the listed gaps.
            qint64 count = 0;
            TimeNs total = 0;
            TimeNs byCause[kGapCauseCount] = {};
            if (r.idleGaps.longMinNs == longGap) {
                count = d.longGaps;
                total = d.longGapNs;
                std::copy(std::begin(d.longCauseNs), std::end(d.longCauseNs), std::begin(byCause));
            } else {
                for (const IdleGap& g : r.idleGaps.deviceGaps) {
                    if (g.device != d.device || g.duration() < longGap)
                        continue;
                    ++count;
                    total += g.duration();
                    byCause[int(g.cause)] += g.duration();
                }
            }
            if (count == 0)
                continue;
            int top = 0;
            for (int c = 1; c < kGapCauseCount; ++c)
                if (byCause[c] > byCause[top])
                    top = c;
            const IdleGap* longest = longestGap(d.device);
            Finding f;
            f.id = QStringLiteral("long_gaps");
            f.severity = Severity::Warning;
            f.title = QStringLiteral("%1: %2 idle gaps of %3 or more, mostly %4")
                          .arg(label)
                          .arg(count)
                          .arg(formatDuration(longGap), gapCauseName(GapCause(top)));
            QStringList causes;
            for (int c = 0; c < kGapCauseCount; ++c)
                if (byCause[c] > 0)
                    causes << QStringLiteral("%1 %2").arg(gapCauseName(GapCause(c)), formatDuration(byCause[c]));
            f.detail = QStringLiteral("%1 gaps add up to %2 (%3); the longest is %4.")
                           .arg(count)
                           .arg(formatDuration(total), causes.join(QStringLiteral(", ")),
                               formatDuration(longest ? longest->duration() : 0));
            f.metrics = { { QStringLiteral("gaps"), double(count), QStringLiteral("count") },
                { QStringLiteral("gap_ns"), double(total), QStringLiteral("ns") },
                { QStringLiteral("longest_ns"), double(longest ? longest->duration() : 0), QStringLiteral("ns") } };
            for (int c = 0; c < kGapCauseCount; ++c)
                f.metrics.push_back(
                    { gapCauseName(GapCause(c)) + QStringLiteral("_ns"), double(byCause[c]), QStringLiteral("ns") });
            f.recommendation = causeAdvice(GapCause(top)) + QLatin1Char('.');
            f.recommendation[0] = f.recommendation[0].toUpper();
            f.evidence.devices = { d.device };
            if (longest) {
                f.evidence.start = longest->start;
                f.evidence.end = longest->end;
                for (const QString& name : { kernelNameOf(longest->previousKernel), kernelNameOf(longest->nextKernel) })
                    if (!name.isEmpty() && !f.evidence.kernelNames.contains(name))
                        f.evidence.kernelNames << name;
                f.evidence.pids = { longest->pid };
            }
            f.timeLostNs = total;
            f.thresholds = { thText("long_gap_ms") };
            if (r.idleGaps.longMinNs != longGap && (r.idleGaps.listedMinNs > longGap || r.idleGaps.truncated))
                f.detail += QStringLiteral(" Counted among the listed gaps only (run the analysis again for all).");
            r.findings.push_back(f);
        }
    }

    void nccl()
    {
        if (!r.overlap.hasNccl) {
            const QString reason = QStringLiteral("no NCCL kernels (one GPU, or NCCL not traced)");
            skip("nccl_not_overlapped", reason);
            skip("nccl_shared_stream", reason);
            return;
        }
        for (const DeviceOverlap& d : r.overlap.devices) {
            if (d.ncclNs() <= 0 || d.spanNs <= 0)
                continue;
            const double ncclShare = 100.0 * double(d.ncclNs()) / double(d.spanNs);
            if (ncclShare < th("nccl_min_share_pct") || d.overlapPercent() >= th("nccl_overlap_pct"))
                continue;
            const QString& label = r.deviceLabel(d.device);
            Finding f;
            f.id = QStringLiteral("nccl_not_overlapped");
            f.severity = Severity::Warning;
            f.title = QStringLiteral("%1: only %2 of NCCL time overlaps compute").arg(label, pct(d.overlapPercent()));
            f.detail = QStringLiteral("NCCL kernels run %1 (%2 of the window), of which %3 alone; %4 overlaps "
                                      "compute.")
                           .arg(formatDuration(d.ncclNs()), pct(ncclShare), formatDuration(d.ncclOnlyNs),
                               formatDuration(d.overlappedNs));
            f.metrics = { { QStringLiteral("overlap_pct"), d.overlapPercent(), QStringLiteral("%") },
                { QStringLiteral("nccl_ns"), double(d.ncclNs()), QStringLiteral("ns") },
                { QStringLiteral("nccl_only_ns"), double(d.ncclOnlyNs), QStringLiteral("ns") },
                { QStringLiteral("nccl_share_pct"), ncclShare, QStringLiteral("%") } };
            f.recommendation = QStringLiteral("Run communication on its own stream and overlap it with compute "
                                              "(bucketed gradient all-reduce, async tensor-parallel collectives).");
            f.evidence.devices = { d.device };
            f.evidence.kernelNames = topNcclKernels();
            f.timeLostNs = d.ncclOnlyNs;
            f.thresholds = { thText("nccl_overlap_pct"), thText("nccl_min_share_pct") };
            r.findings.push_back(f);
        }
        if (r.overlap.sharedStreams.empty())
            return;
        Finding f;
        f.id = QStringLiteral("nccl_shared_stream");
        f.severity = Severity::Warning;
        QStringList where;
        TimeNs ncclNs = 0;
        for (const SharedStream& s : r.overlap.sharedStreams) {
            where << QStringLiteral("%1 stream %2 (%3 NCCL, %4 compute kernels)")
                         .arg(r.deviceLabel(s.device))
                         .arg(s.stream)
                         .arg(s.ncclKernels)
                         .arg(s.computeKernels);
            ncclNs += s.ncclNs;
            if (std::find(f.evidence.devices.begin(), f.evidence.devices.end(), s.device) == f.evidence.devices.end())
                f.evidence.devices.push_back(s.device);
        }
        f.title = QStringLiteral("NCCL kernels share a stream with compute on %1 stream(s)")
                      .arg(r.overlap.sharedStreams.size());
        f.detail = where.join(QStringLiteral("; ")) + QLatin1Char('.');
        f.metrics = { { QStringLiteral("streams"), double(r.overlap.sharedStreams.size()), QStringLiteral("count") },
            { QStringLiteral("nccl_ns"), double(ncclNs), QStringLiteral("ns") } };
        f.recommendation = QStringLiteral("Kernels on one stream serialise: give NCCL its own stream so that "
                                          "communication can overlap compute.");
        f.evidence.kernelNames = topNcclKernels();
        f.timeLostNs = ncclNs;
        r.findings.push_back(f);
    }

    void launchStorm()
    {
        const LaunchCostResult& l = r.launchCost;
        if (l.totalKernels == 0) {
            skip("launch_storm", QStringLiteral("no kernels in the window"));
            return;
        }
        if (double(l.totalKernels) < th("launch_storm_min_kernels") || l.shortPercent() < th("launch_storm_pct"))
            return;
        Finding f;
        f.id = QStringLiteral("launch_storm");
        f.severity = Severity::Warning;
        f.title = QStringLiteral("Launch storm: %1 of %2 kernels are shorter than %3")
                      .arg(pct(l.shortPercent()))
                      .arg(l.totalKernels)
                      .arg(formatDuration(l.shortKernelNs));
        double rate = 0;
        int pid = 0;
        for (const LaunchRateRow& p : l.processes)
            if (p.launchesPerSecond() > rate) {
                rate = p.launchesPerSecond();
                pid = p.pid;
            }
        f.detail = QStringLiteral("%1 short kernels; their launch calls take %2. Highest launch rate: %3 "
                                  "launches/s (pid %4).")
                       .arg(l.shortKernels)
                       .arg(formatDuration(l.shortKernelApiNs))
                       .arg(qRound64(rate))
                       .arg(pid);
        f.metrics = { { QStringLiteral("short_pct"), l.shortPercent(), QStringLiteral("%") },
            { QStringLiteral("short_kernels"), double(l.shortKernels), QStringLiteral("count") },
            { QStringLiteral("kernels"), double(l.totalKernels), QStringLiteral("count") },
            { QStringLiteral("short_launch_api_ns"), double(l.shortKernelApiNs), QStringLiteral("ns") },
            { QStringLiteral("max_launches_per_s"), rate, QStringLiteral("per s") } };
        f.recommendation = QStringLiteral("Fuse small kernels (torch.compile, fused optimizers) or capture the "
                                          "sequence in CUDA graphs.");
        std::vector<const LaunchCostRow*> rows;
        for (const LaunchCostRow& k : l.kernels)
            rows.push_back(&k);
        std::stable_sort(rows.begin(), rows.end(),
            [](const LaunchCostRow* a, const LaunchCostRow* b) { return a->shortKernels > b->shortKernels; });
        for (std::size_t i = 0; i < rows.size() && i < 5 && rows[i]->shortKernels > 0; ++i)
            f.evidence.kernelNames << rows[i]->name;
        f.evidence.apiNames = { QStringLiteral("cudaLaunchKernel") };
        f.timeLostNs = l.shortKernelApiNs;
        f.thresholds = { thText("short_kernel_us"), thText("launch_storm_pct"), thText("launch_storm_min_kernels") };
        r.findings.push_back(f);
    }

    void heavySync()
    {
        if (!hasApi()) {
            skip("heavy_sync", QStringLiteral("no CUDA API calls in the profile (trace CUDA with -t cuda)"));
            return;
        }
        const SyncResult& s = r.sync;
        const SyncThreadRow* worst = nullptr;
        for (const SyncThreadRow& t : s.threads)
            if (!worst || t.sharePercent() > worst->sharePercent())
                worst = &t;
        const bool apiHeavy = s.totalNs > 0 && s.apiSharePercent() >= th("sync_api_share_pct");
        const bool threadHeavy = worst && worst->sharePercent() >= th("sync_thread_share_pct");
        if (!apiHeavy && !threadHeavy)
            return;
        Finding f;
        f.id = QStringLiteral("heavy_sync");
        f.severity = Severity::Warning;
        const QString topName = s.apis.empty() ? QString() : s.apis.front().name;
        f.title = apiHeavy ? QStringLiteral("Synchronisation takes %1 of CUDA API time").arg(pct(s.apiSharePercent()))
                           : QStringLiteral("Thread %1 spends %2 of its time synchronising")
                                 .arg(worst->thread, pct(worst->sharePercent()));
        f.detail = QStringLiteral("%1 sync-like calls for %2 (%3 of %4 CUDA API time); the most: %5 (%6).")
                       .arg(s.calls)
                       .arg(formatDuration(s.totalNs), pct(s.apiSharePercent()), formatDuration(s.apiNs), topName,
                           formatDuration(s.apis.empty() ? 0 : s.apis.front().totalNs));
        if (worst)
            f.detail += QStringLiteral(" Busiest thread: %1, %2 of its time.")
                            .arg(worst->thread, pct(worst->sharePercent()));
        f.metrics = { { QStringLiteral("sync_ns"), double(s.totalNs), QStringLiteral("ns") },
            { QStringLiteral("sync_calls"), double(s.calls), QStringLiteral("count") },
            { QStringLiteral("api_share_pct"), s.apiSharePercent(), QStringLiteral("%") },
            { QStringLiteral("worst_thread_share_pct"), worst ? worst->sharePercent() : 0.0, QStringLiteral("%") } };
        f.recommendation = QStringLiteral("Each synchronisation drains the GPU queue: remove the ones not needed "
                                          "(.item(), .cpu(), print of tensors), use events and "
                                          "cudaStreamWaitEvent between streams, and synchronise once per iteration.");
        for (std::size_t i = 0; i < s.apis.size() && f.evidence.apiNames.size() < 5; ++i)
            if (!f.evidence.apiNames.contains(s.apis[i].name))
                f.evidence.apiNames << s.apis[i].name;
        if (worst)
            f.evidence.pids = { worst->pid };
        f.timeLostNs = s.totalNs;
        f.thresholds = { thText("sync_api_share_pct"), thText("sync_thread_share_pct") };
        r.findings.push_back(f);
    }

    void memcpys()
    {
        const MemoryResult& m = r.memory;
        if (!m.kindsKnown) {
            skip("pageable_memcpy", QStringLiteral("memory kinds unknown: %1").arg(m.kindsMissing));
        } else if (m.pageableCopies > 0 && double(m.pageableCopies) >= th("pageable_memcpy_min")) {
            Finding f;
            f.id = QStringLiteral("pageable_memcpy");
            f.severity = Severity::Warning;
            f.title = QStringLiteral("%1 memcpys use pageable host memory").arg(m.pageableCopies);
            f.detail = QStringLiteral("%1 memcpys with a pageable side move %2 in %3; %4 of them were issued "
                                      "by an *Async call, which runs synchronously with pageable memory.")
                           .arg(m.pageableCopies)
                           .arg(formatBytes(m.pageableBytes), formatDuration(m.pageableNs))
                           .arg(m.pageableAsyncCopies);
            f.metrics = { { QStringLiteral("pageable_copies"), double(m.pageableCopies), QStringLiteral("count") },
                { QStringLiteral("pageable_bytes"), double(m.pageableBytes), QStringLiteral("bytes") },
                { QStringLiteral("pageable_ns"), double(m.pageableNs), QStringLiteral("ns") },
                { QStringLiteral("pageable_async_copies"), double(m.pageableAsyncCopies), QStringLiteral("count") } };
            f.recommendation = QStringLiteral("Use pinned host memory (cudaMallocHost, pin_memory=True) so that "
                                              "copies are asynchronous and faster.");
            f.evidence.apiNames = { QStringLiteral("cudaMemcpyAsync") };
            f.timeLostNs = m.pageableNs;
            f.thresholds = { thText("pageable_memcpy_min") };
            r.findings.push_back(f);
        }
        if (!hasApi()) {
            skip("sync_memcpy", QStringLiteral("no CUDA API calls in the profile"));
            return;
        }
        if (m.syncCopyCalls == 0 || double(m.syncCopyCalls) < th("sync_memcpy_min"))
            return;
        Finding f;
        f.id = QStringLiteral("sync_memcpy");
        f.severity = Severity::Warning;
        f.title = QStringLiteral("%1 synchronous memcpy/memset calls block the host").arg(m.syncCopyCalls);
        f.detail = QStringLiteral("Blocking copy calls (%1) take %2 of host time.")
                       .arg(m.syncCopyApis.mid(0, 4).join(QStringLiteral(", ")), formatDuration(m.syncCopyApiNs));
        f.metrics = { { QStringLiteral("calls"), double(m.syncCopyCalls), QStringLiteral("count") },
            { QStringLiteral("api_ns"), double(m.syncCopyApiNs), QStringLiteral("ns") } };
        f.recommendation = QStringLiteral("Use cudaMemcpyAsync/cudaMemsetAsync on a stream with pinned memory "
                                          "(non_blocking=True) and synchronise only where the result is needed.");
        f.evidence.apiNames = m.syncCopyApis.mid(0, 5);
        f.timeLostNs = m.syncCopyApiNs;
        f.thresholds = { thText("sync_memcpy_min") };
        r.findings.push_back(f);
    }

    void nvtxCoverage()
    {
        if (!r.nvtxCoverage) {
            skip("nvtx_coverage", QStringLiteral("no NVTX ranges in the profile (annotate with NVTX, trace -t nvtx)"));
            return;
        }
        const NvtxCoverage& c = *r.nvtxCoverage;
        if (c.totalNs <= 0) {
            skip("nvtx_coverage", QStringLiteral("no kernel time to attribute to NVTX ranges"));
            return;
        }
        if (c.percent() >= th("nvtx_coverage_pct"))
            return;
        Finding f;
        f.id = QStringLiteral("nvtx_coverage");
        f.severity = Severity::Info;
        f.title = QStringLiteral("NVTX ranges cover only %1 of kernel time").arg(pct(c.percent()));
        f.detail = QStringLiteral("%1 of %2 kernel time (%3 of %4 kernels) was launched inside an NVTX range.")
                       .arg(formatDuration(c.attributedNs), formatDuration(c.totalNs))
                       .arg(c.attributedKernels)
                       .arg(c.totalKernels);
        f.metrics = { { QStringLiteral("coverage_pct"), c.percent(), QStringLiteral("%") },
            { QStringLiteral("attributed_ns"), double(c.attributedNs), QStringLiteral("ns") },
            { QStringLiteral("kernel_ns"), double(c.totalNs), QStringLiteral("ns") } };
        f.recommendation = QStringLiteral("Per-range and per-phase numbers explain only the covered part: add NVTX "
                                          "ranges around the main phases (forward, backward, optimizer, decode).");
        f.thresholds = { thText("nvtx_coverage_pct") };
        r.findings.push_back(f);
    }

    void iterationOutliers()
    {
        if (!r.iterations) {
            skip("iteration_outliers", QStringLiteral("no iterations detected: %1").arg(r.iterationsMissing));
            return;
        }
        const IterationTable& it = *r.iterations;
        std::vector<const Iteration*> outliers;
        for (const Iteration& i : it.iterations) // outliers are flagged over the whole run, reported in the focus
            if (i.outlier && r.focus.overlaps(i.start, i.end))
                outliers.push_back(&i);
        if (outliers.empty() || double(outliers.size()) < th("iteration_outliers_min"))
            return;
        const Iteration* worst = outliers.front();
        TimeNs lost = 0;
        for (const Iteration* i : outliers) {
            lost += std::max<TimeNs>(0, i->duration() - TimeNs(it.medianDurationNs));
            if (std::abs(double(i->duration()) - it.medianDurationNs)
                > std::abs(double(worst->duration()) - it.medianDurationNs))
                worst = i;
        }
        Finding f;
        f.id = QStringLiteral("iteration_outliers");
        f.severity = Severity::Warning;
        f.title = QStringLiteral("%1 of %2 iterations are outliers").arg(outliers.size()).arg(it.iterations.size());
        f.detail = QStringLiteral("Median iteration %1; the farthest, %2, takes %3.%4")
                       .arg(formatDuration(TimeNs(it.medianDurationNs)), it.label(worst->index),
                           formatDuration(worst->duration()),
                           it.isGuess() ? QStringLiteral(" Iterations were guessed from GPU idle gaps.") : QString());
        f.metrics = { { QStringLiteral("outliers"), double(outliers.size()), QStringLiteral("count") },
            { QStringLiteral("iterations"), double(it.iterations.size()), QStringLiteral("count") },
            { QStringLiteral("median_ns"), it.medianDurationNs, QStringLiteral("ns") },
            { QStringLiteral("worst_ns"), double(worst->duration()), QStringLiteral("ns") },
            { QStringLiteral("excess_ns"), double(lost), QStringLiteral("ns") } };
        f.recommendation = QStringLiteral("Compare the outlier with the median iteration (compare TRACE#iter=N "
                                          "TRACE#iter=median) to see which kernels or gaps differ.");
        f.evidence.start = worst->start;
        f.evidence.end = worst->end;
        if (worst->name != kNoString)
            f.evidence.nvtxRange = r.profile->strings.at(worst->name);
        f.timeLostNs = lost;
        f.thresholds = { thText("iteration_outliers_min") };
        r.findings.push_back(f);
    }

    DiagnosticsResult& r;
    const Thresholds& t;
};

} // namespace

void computeFindings(DiagnosticsResult& result, const Thresholds& thresholds)
{
    result.thresholds = thresholds;
    if (result.profile)
        FindingsBuilder(result, thresholds).run();
}

} // namespace nsw
