// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"

namespace nsw {

/// Why a GPU (or a stream) sat idle, decided in this order for each gap, from the CUDA API calls of the process
/// whose operation ends the gap:
enum class GapCause : std::uint8_t
{
    Sync, ///< a synchronizing call (ApiSync or ApiWait) overlaps the gap
    /// the operation ending the gap is a unified-memory page migration (on-demand paging of managed memory)
    PageMigration,
    /// the host sat in the one call that issued the next operation, not a sync call, for at least half of the gap
    /// and at least kBlockedCallMinNs, and that call lasted at least 10 times its operation: the call itself
    /// blocked (a memset that took 768 ns issued by a 5.7 ms cudaMemsetAsync is no memory transfer)
    BlockedCall,
    MemoryTransfer, ///< a memcpy/memset call overlaps the gap, or the operation ending the gap is a memory operation
    LaunchLatency, ///< the next operation's launch call began before the gap: it was queued in time
    HostWait, ///< the launch call began inside the gap and the host was in CUDA calls for most of it
    CpuBound, ///< the launch began inside the gap (or is unknown) and CUDA calls cover less than half of the gap
};
inline constexpr int kGapCauseCount = 7;
inline constexpr TimeNs kBlockedCallMinNs = 100'000;
/// "sync", "page_migration", "blocked_call", "memory_transfer", "launch_latency", "host_wait", "cpu_bound"
QString gapCauseName(GapCause cause);

struct IdleGap
{
    int device = -1; ///< DiagnosticsDevice::key
    std::int64_t stream = -1; ///< -1 for a whole-device gap
    TimeNs start = 0; ///< end of the previous operation
    TimeNs end = 0; ///< start of the next one
    GapCause cause = GapCause::CpuBound;
    std::int64_t nextKernel = -1; ///< kernel row that ends the gap, -1 when a memory operation does
    std::int64_t previousKernel = -1;
    int pid = 0; ///< process of the operation that ends the gap
    std::int64_t nextCall = -1; ///< CUDA API row that issued the operation ending the gap, -1 when unknown
    std::int64_t nextMemOp = -1; ///< memory operation row that ends the gap, -1 when a kernel does
    TimeNs duration() const { return end - start; }
};

/// Gap lengths in buckets: < 10 µs, 10–100 µs, 100 µs–1 ms, 1–5 ms, 5–50 ms, > 50 ms (lower bound inclusive).
struct GapBucket
{
    QString label; ///< "1-5 ms"
    TimeNs lower = 0;
    TimeNs upper = 0; ///< exclusive; INT64_MAX for the last
    qint64 count = 0;
    TimeNs totalNs = 0;
};

struct DeviceIdle
{
    int device = -1;
    TimeNs spanNs = 0; ///< the window (focus or capture span)
    TimeNs busyNs = 0; ///< union of kernels and memory operations, clipped to the window
    TimeNs idleNs = 0; ///< spanNs - busyNs
    qint64 gaps = 0; ///< gaps between operations (inside the device's first..last operation)
    TimeNs gapNs = 0;
    TimeNs causeNs[kGapCauseCount] = {}; ///< gap time by GapCause
    qint64 causeCount[kGapCauseCount] = {};
    std::vector<GapBucket> histogram;
    /// Gaps of IdleGapResult::longMinNs and longer, every one (not only the listed ones), and their time by cause.
    qint64 longGaps = 0;
    TimeNs longGapNs = 0;
    TimeNs longCauseNs[kGapCauseCount] = {};
    double idlePercent() const { return spanNs > 0 ? 100.0 * double(idleNs) / double(spanNs) : 0.0; }
};

struct IdleGapResult
{
    TimeNs listedMinNs = 0; ///< gaps at least this long are listed (the totals count every gap)
    TimeNs longMinNs = 0; ///< gaps at least this long count in DeviceIdle::longGaps
    std::vector<DeviceIdle> devices;
    std::vector<IdleGap> deviceGaps; ///< listed whole-device gaps, longest first
    std::vector<IdleGap> streamGaps; ///< listed per-stream gaps, longest first
    qint64 streamGapCount = 0; ///< every per-stream gap, listed or not
    TimeNs streamGapNs = 0;
    bool truncated = false; ///< more gaps than maxListed were long enough; the longest are kept
};

/// Idle gaps per device (no kernel or memory operation on any stream of the device) and per stream, between the
/// device's (stream's) operations that overlap the focus, clipped to it. Gaps of @p listedMinNs and longer are
/// listed (at most @p maxListed of each kind, longest first); all gaps count in the totals and the histogram, those
/// of @p longMinNs and longer also in the long-gap totals.
IdleGapResult computeIdleGaps(const AnalysisContext& context, TimeNs listedMinNs = 100'000,
    std::size_t maxListed = 2000, const JobContext& job = {}, TimeNs longMinNs = 5'000'000);

/// Every whole-device gap of any length (no per-stream gaps), by device then start: the idle time the CPU samples
/// are joined to (core/diagnostics/idlesamples.h).
std::vector<IdleGap> allDeviceGaps(const AnalysisContext& context, const JobContext& job = {});

/// The histogram's buckets, empty.
std::vector<GapBucket> gapBuckets();

} // namespace nsw
