// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/ncclbreakdown.h"

namespace nsw {

/// The NCCL kernels of one GPU in the collectives it shares with the other GPUs of the export.
struct NcclSkewDevice
{
    int device = -1;
    qint64 instances = 0; ///< matched instances
    TimeNs ncclNs = 0; ///< their summed durations
    /// Time it waited for its peers: per instance, the last GPU's start minus its own start, at most its duration.
    TimeNs waitNs = 0;
    /// The instance in which it waited longest (its own kernel's start and end), kNoTime without.
    TimeNs longestWaitNs = 0;
    TimeNs longestWaitStart = kNoTime;
    TimeNs longestWaitEnd = kNoTime;
    qint64 arrivedLast = 0; ///< instances in which it started last (ties: none is last)
    /// Over the instances in which it started last and all launch calls are known: its launch call's end minus the
    /// earliest launch end of the instance (its host launched late), and its start minus its launch end (its GPU
    /// was still busy with earlier work).
    qint64 lateLaunchesKnown = 0;
    TimeNs launchLagNs = 0;
    TimeNs queueNs = 0;
};

struct NcclSkewCollective
{
    Collective collective = Collective::Other;
    qint64 groups = 0; ///< matched instances (one kernel on each GPU)
    qint64 unmatched = 0; ///< kernels of this collective in no group
    std::vector<NcclSkewDevice> devices; ///< by device key
    TimeNs maxWaitNs() const;
};

struct NcclSkewResult
{
    std::vector<NcclSkewCollective> collectives; ///< collectives run on two GPUs or more, most waiting first
    std::vector<NcclSkewDevice> devices; ///< totals over the collectives, by device key
};

/// Two kernels of one collective on two GPUs are one instance when they overlap in time and end within this much
/// (or a tenth of the shorter one) of each other: a collective ends on all its GPUs together.
inline constexpr TimeNs kNcclEndToleranceNs = 50'000;

/// NCCL arrival skew between the GPUs of one export: a collective runs on every GPU of its communicator and ends on
/// all of them together, so the GPU whose kernel starts first spins until the last one starts. Instances are
/// matched per collective type (collectiveOf) in time order: with the GPU holding the most instances as reference,
/// each other GPU's next kernel joins a reference instance when the two overlap and end together
/// (kNcclEndToleranceNs); instances not matched on every GPU are counted as unmatched, never guessed. Kernels that
/// overlap the focus, whole durations.
NcclSkewResult computeNcclSkew(const AnalysisContext& context, const JobContext& job = {});

} // namespace nsw
