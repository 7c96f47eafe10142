// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/profile/intervals.h"
#include "core/profile/profile.h"

#include <map>
#include <utility>
#include <vector>

namespace nsw {

/// Per GPU (by id) that ran anything: the time within [@p start, @p end) in which it runs a kernel or a memory
/// operation (the union over all its streams), from the kernels and memory operations with their placement. One
/// GPU's intervals are held at a time: every GPU's at once took 85 MB on the 4M-kernel export while Compare ran.
std::map<int, TimeNs> gpuBusyWithin(const Profile& profile, TimeNs start, TimeNs end);

/// The time at least one GPU runs a kernel or a memory operation: the union of their intervals over all GPUs
/// (IntervalUnion::coveredWithin() gives the busy time inside a range), built @p chunkRows operations at a time (held
/// at once besides the union). A cancelled @p job gives an empty union.
IntervalUnion gpuBusyUnion(const Profile& profile, const JobContext& job = {}, std::size_t chunkRows = 1 << 18);

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
GapSegments splitAtIdleGaps(const IntervalUnion& busy);

} // namespace nsw
