// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/deviceunions.h"
#include "core/util/tally.h"

#include <optional>

namespace nsw {

/// Compute/communication overlap of one GPU over the window: the union of its NCCL kernels (N) against the union
/// of its other kernels (C). Memory operations are neither.
struct DeviceOverlap
{
    int device = -1;
    TimeNs spanNs = 0; ///< the window
    TimeNs computeOnlyNs = 0; ///< C \ N
    TimeNs ncclOnlyNs = 0; ///< N \ C
    TimeNs overlappedNs = 0; ///< C ∩ N
    TimeNs idleNs = 0; ///< span - (C ∪ N): no kernel at all
    TimeNs ncclNs() const { return ncclOnlyNs + overlappedNs; }
    /// Share of the NCCL time hidden behind compute, 0 without NCCL.
    double overlapPercent() const { return ncclNs() > 0 ? 100.0 * double(overlappedNs) / double(ncclNs()) : 0.0; }
};

/// A stream on which both NCCL and compute kernels run: the two serialize, so communication cannot overlap.
struct SharedStream
{
    int device = -1;
    std::int64_t stream = 0;
    Tally ncclKernels; ///< of their durations
    qint64 computeKernels = 0;
    /// Compute queued behind the collectives: compute kernels of the stream launched before an NCCL kernel ended
    /// and run after it (the host did not wait for the collective to launch them; counted until they would cover
    /// the collective). Only such work could overlap the collective on a stream of its own, and only if it does not
    /// use the collective's result.
    qint64 queuedKernels = 0;
    /// The most that work could hide: per NCCL kernel, the smaller of its duration and the compute queued behind
    /// it, summed. An upper bound, not a prediction.
    TimeNs overlappableNs = 0;
};

struct OverlapResult
{
    std::vector<DeviceOverlap> devices;
    std::vector<SharedStream> sharedStreams;
    bool hasNccl = false;
};

/// Kernels that overlap the focus, clipped to the window.
OverlapResult computeOverlap(const AnalysisContext& context, const JobContext& job = {});
/// One device's overlap from its unions (runDiagnostics shares them with the temporal breakdown); nothing for a
/// device without kernels in the window.
std::optional<DeviceOverlap> deviceOverlap(const AnalysisContext& context, int device, const DeviceUnions& unions);
/// The result of these devices' overlaps: the streams shared by NCCL and compute kernels added.
OverlapResult overlapOf(const AnalysisContext& context, std::vector<DeviceOverlap> devices);

} // namespace nsw
