// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/profile/profile.h"

#include <utility>
#include <vector>

namespace nsw {

/// The time at least one GPU runs a kernel or a memory operation: the union of their intervals over all GPUs, as
/// sorted, disjoint, non-empty [start, end) intervals.
struct GpuBusyUnion
{
    std::vector<std::pair<TimeNs, TimeNs>> intervals;

    /// The busy time inside [start, end): the intervals clipped to it.
    TimeNs busyWithin(TimeNs start, TimeNs end) const;
};

/// Sorts and merges the kernels and memory operations of @p profile. A cancelled @p job gives an empty union.
GpuBusyUnion gpuBusyUnion(const Profile& profile, const JobContext& job = {});

/// Stretches of GPU activity separated by idle gaps (all GPUs idle) longer than a threshold.
struct GapSegments
{
    TimeNs threshold = 0; ///< gaps longer than this separate segments
    std::vector<std::pair<TimeNs, TimeNs>> segments; ///< first start .. last end of each stretch
};

/// The threshold taken from the gaps' distribution: the gaps sorted by length, the largest ratio between two
/// neighbours among the longest half of them (at least two gaps above it, so at least three segments), when the
/// longer side is at least 4 times the shorter and at least 10 µs; the threshold is their geometric mean. Empty
/// segments when the gaps show no such step (no clear iteration boundary).
GapSegments splitAtIdleGaps(const GpuBusyUnion& busy);

} // namespace nsw
