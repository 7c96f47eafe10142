// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvtx/nvtxphases.h"

namespace nsw {

/// Phases found in the NVTX ranges themselves, for a run without a phase map: the ranges of one level of the tree,
/// by label. The level is the ranges directly under the iteration marker's ranges when @p markerNames (the marker
/// instances' names, e.g. "ProfilerStep#3") name ranges of the tree that have ranges under them; else the outermost
/// ranges, and while every range of the level has the same label (a wrapper such as "main"), the ranges under them.
struct NvtxLevelPhases
{
    /// One per label of the level, most GPU time first. cpuTime: the level's ranges of that label (sum of end -
    /// start); gpuTime and kernels: the kernels attributed to them or to ranges under them (the tree's projection);
    /// firstRow: the NVTX row of its earliest instance (its own name, not normalized).
    std::vector<NvtxPhaseRow> rows;
    QString level; ///< the ranges taken as phases, in words ("the NVTX ranges directly under ProfilerStep#N")
    QString missing; ///< why there are no phases (no ranges, a single label); rows is then empty
};

/// Labels differing only by numbers (normalizeNvtxName) are one phase, whether or not @p tree was built with
/// normalized names, and @p markerNames are compared the same way.
NvtxLevelPhases nvtxLevelPhases(const NvtxTree& tree, const QStringList& markerNames = {});

} // namespace nsw
