// SPDX-License-Identifier: GPL-3.0-or-later
// Findings on the host side: launch storms, synchronisation, pageable and blocking copies. Their host time is said
// as host time, per thread; what they cost the GPUs is the idle time of the gaps they caused.
#include "core/diagnostics/findingsbuilder.h"
#include "core/util/outputtext.h"
#include "core/util/timeformat.h"

#include <algorithm>

namespace nsw {

using namespace findingtext;

void FindingsBuilder::launchStorm()
{
    const LaunchCostResult& l = r.launchCost;
    if (l.totalKernels == 0) {
        skip("launch_storm", QStringLiteral("no kernels in the window"));
        return;
    }
    if (double(l.totalKernels) < th("launch_storm_min_kernels") || l.shortPercent() < th("launch_storm_pct"))
        return;
    Finding f = finding("launch_storm", Severity::Warning,
        QStringLiteral("Launch storm: %1 of %2 kernels are shorter than %3")
            .arg(pct(l.shortPercent()))
            .arg(l.totalKernels)
            .arg(formatDuration(l.shortKernelNs)));
    double rate = 0;
    int pid = 0;
    for (const LaunchRateRow& p : l.processes)
        if (p.launchesPerSecond() > rate) {
            rate = p.launchesPerSecond();
            pid = p.pid;
        }
    int device = -1;
    const TimeNs idle = worstCauseIdle({ GapCause::LaunchLatency, GapCause::HostWait }, &device);
    f.detail = QStringLiteral("%1 short kernels; their launch calls take %2 of host time%3. Highest launch rate: %4 "
                              "launches/s (pid %5). GPU idle in gaps of launch latency or host wait: %6%7.")
                   .arg(l.shortKernels)
                   .arg(formatDuration(l.shortKernelApiNs),
                       l.processes.size() > 1 ? QStringLiteral(" (summed over %1 processes)").arg(l.processes.size())
                                              : QString())
                   .arg(qRound64(rate))
                   .arg(pid)
                   .arg(formatDuration(idle), device >= 0 ? QStringLiteral(" on ") + r.deviceLabel(device) : QString());
    f.metrics = { { QStringLiteral("short_pct"), l.shortPercent(), QStringLiteral("%") },
        { QStringLiteral("short_kernels"), double(l.shortKernels), QStringLiteral("count") },
        { QStringLiteral("kernels"), double(l.totalKernels), QStringLiteral("count") },
        { QStringLiteral("short_launch_api_ns"), double(l.shortKernelApiNs), QStringLiteral("ns") },
        { QStringLiteral("max_launches_per_s"), rate, QStringLiteral("per s") } };
    f.recommendation = QStringLiteral("Fuse small kernels (torch.compile, fused optimizers) or capture the sequence "
                                      "in CUDA graphs.");
    std::vector<const LaunchCostRow*> rows;
    for (const LaunchCostRow& k : l.kernels)
        rows.push_back(&k);
    std::stable_sort(rows.begin(), rows.end(),
        [](const LaunchCostRow* a, const LaunchCostRow* b) { return a->shortKernels > b->shortKernels; });
    for (std::size_t i = 0; i < rows.size() && i < 5 && rows[i]->shortKernels > 0; ++i)
        f.evidence.kernelNames << rows[i]->name;
    f.evidence.apiNames = { QStringLiteral("cudaLaunchKernel") };
    setGpuCost(f, idle, device);
    f.thresholds = { thText("short_kernel_us"), thText("launch_storm_pct"), thText("launch_storm_min_kernels") };
    add(f);
}

void FindingsBuilder::heavySync()
{
    if (!hasApi()) {
        skip("heavy_sync", QStringLiteral("no CUDA API calls in the profile (trace CUDA with -t cuda)"));
        return;
    }
    const SyncResult& s = r.sync;
    const SyncThreadRow* worst = nullptr; // the largest share of its time
    for (const SyncThreadRow& t : s.threads)
        if (!worst || t.sharePercent() > worst->sharePercent())
            worst = &t;
    const bool apiHeavy = s.calls.total > 0 && s.apiSharePercent() >= th("sync_api_share_pct");
    const bool threadHeavy = worst && worst->sharePercent() >= th("sync_thread_share_pct");
    if (!apiHeavy && !threadHeavy)
        return;
    Finding f = finding("heavy_sync", Severity::Warning,
        apiHeavy ? QStringLiteral("Synchronisation takes %1 of CUDA API time (host time)").arg(pct(s.apiSharePercent()))
                 : QStringLiteral("Thread %1 spends %2 of its time synchronising (host time)")
                       .arg(worst->thread, pct(worst->sharePercent())));
    QStringList threads; // s.threads is by sync time, most first
    for (std::size_t i = 0; i < s.threads.size() && i < 4; ++i)
        threads << QStringLiteral("%1 %2 (%3 of its time)")
                       .arg(s.threads[i].thread, formatDuration(s.threads[i].calls.total),
                           pct(s.threads[i].sharePercent()));
    if (s.threads.size() > 4)
        threads << QStringLiteral("%1 more threads").arg(s.threads.size() - 4);
    QStringList idle;
    for (const DeviceIdle& d : r.idleGaps.devices)
        if (d.causeNs[int(GapCause::Sync)] > 0)
            idle << QStringLiteral("%1 %2").arg(
                r.deviceLabel(d.device), formatDuration(d.causeNs[int(GapCause::Sync)]));
    f.detail = QStringLiteral("%1 sync-like calls (%2 of CUDA API time); host time in them per thread: %3. A thread "
                              "waiting is host time, not GPU time lost: the GPUs sat idle in gaps these calls caused "
                              "for %4.")
                   .arg(s.calls.count)
                   .arg(pct(s.apiSharePercent()), listed(threads),
                       idle.isEmpty() ? QStringLiteral("no time") : listed(idle));
    if (!s.apis.empty())
        f.detail += QStringLiteral(" The most: %1 in pid %2 (%3).")
                        .arg(cutLongText(s.apis.front().name))
                        .arg(s.apis.front().pid)
                        .arg(formatDuration(s.apis.front().calls.total));
    int device = -1;
    const TimeNs gpuIdle = worstCauseIdle({ GapCause::Sync }, &device);
    f.metrics = { { QStringLiteral("sync_calls"), double(s.calls.count), QStringLiteral("count") },
        { QStringLiteral("api_share_pct"), s.apiSharePercent(), QStringLiteral("%") },
        { QStringLiteral("worst_thread_share_pct"), worst ? worst->sharePercent() : 0.0, QStringLiteral("%") },
        { QStringLiteral("max_thread_sync_ns"), double(s.threads.empty() ? 0 : s.threads.front().calls.total),
            QStringLiteral("ns") },
        { QStringLiteral("gpu_idle_sync_ns"), double(gpuIdle), QStringLiteral("ns") } };
    f.recommendation = QStringLiteral("Each synchronisation drains the GPU queue: remove the ones not needed (.item(), "
                                      ".cpu(), print of tensors), use events and cudaStreamWaitEvent between streams, "
                                      "and synchronise once per iteration.");
    for (std::size_t i = 0; i < s.apis.size() && f.evidence.apiNames.size() < 5; ++i)
        if (!f.evidence.apiNames.contains(s.apis[i].name))
            f.evidence.apiNames << s.apis[i].name;
    if (worst)
        f.evidence.pids = { worst->pid };
    setGpuCost(f, gpuIdle, device);
    if (!s.threads.empty())
        setHostTime(f, s.threads.front().calls.total, s.threads.front().thread);
    f.thresholds = { thText("sync_api_share_pct"), thText("sync_thread_share_pct") };
    add(f);
}

void FindingsBuilder::memcpys()
{
    const MemoryResult& m = r.memory;
    if (!m.kindsKnown) {
        skip("pageable_memcpy", QStringLiteral("memory kinds unknown: %1").arg(m.kindsMissing));
    } else if (m.pageableCopies > 0 && double(m.pageableCopies) >= th("pageable_memcpy_min")) {
        Finding f = finding("pageable_memcpy", Severity::Warning,
            QStringLiteral("%1 memcpys use pageable host memory").arg(m.pageableCopies));
        f.detail = QStringLiteral("%1 memcpys with a pageable side move %2 in %3 of GPU copy time; %4 of them were "
                                  "issued by an *Async call, which runs synchronously with pageable memory.")
                       .arg(m.pageableCopies)
                       .arg(formatBytes(m.pageableBytes), formatDuration(m.pageableNs))
                       .arg(m.pageableAsyncCopies);
        f.metrics = { { QStringLiteral("pageable_copies"), double(m.pageableCopies), QStringLiteral("count") },
            { QStringLiteral("pageable_bytes"), double(m.pageableBytes), QStringLiteral("bytes") },
            { QStringLiteral("pageable_ns"), double(m.pageableNs), QStringLiteral("ns") },
            { QStringLiteral("pageable_async_copies"), double(m.pageableAsyncCopies), QStringLiteral("count") } };
        f.recommendation = QStringLiteral("Use pinned host memory (cudaMallocHost, pin_memory=True) so that copies are "
                                          "asynchronous and faster.");
        f.evidence.apiNames = { QStringLiteral("cudaMemcpyAsync") };
        f.thresholds = { thText("pageable_memcpy_min") };
        add(f);
    }
    if (!hasApi()) {
        skip("sync_memcpy", QStringLiteral("no CUDA API calls in the profile"));
        return;
    }
    if (m.syncCopyCalls == 0 || double(m.syncCopyCalls) < th("sync_memcpy_min"))
        return;
    Finding f = finding("sync_memcpy", Severity::Warning,
        QStringLiteral("%1 synchronous memcpy/memset calls block the host").arg(m.syncCopyCalls));
    f.detail = QStringLiteral("Blocking copy calls (%1) take %2 of host time on %3%4; the GPU idle they cause counts "
                              "among the sync gaps.")
                   .arg(m.syncCopyApis.mid(0, 4).join(QStringLiteral(", ")), formatDuration(m.syncCopyThreadNs),
                       m.syncCopyThread,
                       m.syncCopyThreads > 1 ? QStringLiteral(" (the most of %1 threads)").arg(m.syncCopyThreads)
                                             : QString());
    f.metrics = { { QStringLiteral("calls"), double(m.syncCopyCalls), QStringLiteral("count") },
        { QStringLiteral("api_ns"), double(m.syncCopyApiNs), QStringLiteral("ns") },
        { QStringLiteral("max_thread_ns"), double(m.syncCopyThreadNs), QStringLiteral("ns") } };
    f.recommendation = QStringLiteral("Use cudaMemcpyAsync/cudaMemsetAsync on a stream with pinned memory "
                                      "(non_blocking=True) and synchronise only where the result is needed.");
    f.evidence.apiNames = m.syncCopyApis.mid(0, 5);
    setHostTime(f, m.syncCopyThreadNs, m.syncCopyThread);
    f.thresholds = { thText("sync_memcpy_min") };
    add(f);
}

} // namespace nsw
