// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ranks/collectivematch.h"

namespace nsw {

/// After the best shift, the same collectives may end this far apart (median deviation) on two clocks; further
/// apart, the clocks cannot be aligned.
inline constexpr TimeNs kMaxAlignedSpreadNs = 1'000'000;

/// Puts every rank on the reference clock (the export clock of the lowest matched rank, else of the lowest rank):
/// the ranks of one file share its offset; a file's offset is the difference of the session start times (UTC), then
/// refined by the matched collectives' ends (the median of the reference rank's end minus the file's). Sets
/// referenceRank and each rank's clockOffsetNs and clockSource. A file whose collectives still end far apart after
/// the shift (kMaxAlignedSpreadNs) cannot be aligned: its ranks leave @p match, with a RankProblem.
void alignRankClocks(RanksResult& result, CollectiveMatch& match);

} // namespace nsw
