// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/ranks/ranksresult.h"

namespace nsw {

/// Which NCCL kernels of the matched ranks are the same collective: the keys (name and NCCL stream) and, per matched
/// rank, the indices of its collectives of each key in order.
struct CollectiveMatch
{
    std::vector<CollectiveKey> keys;
    std::vector<int> matched; ///< indices into RanksResult::ranks, ascending
    /// Per matched rank (same order), per key: indices into its RankSummary::collectives.
    std::vector<std::vector<std::vector<std::uint32_t>>> byKey;

    /// Leaves matched rank @p column out (its clock cannot be aligned).
    void drop(std::size_t column);
};

/// Matches the NCCL kernels of @p result's ranks by name and order per NCCL stream. The counts per key of most ranks
/// (a tie: the lowest rank's) are the run's; a rank whose counts differ is not matched, with a RankProblem naming its
/// file and the first difference. Fewer than two ranks with the run's counts match nothing. Sets RankRow::matched.
CollectiveMatch matchCollectives(RanksResult& result);

/// Measures every matched collective once the clocks are aligned: fills result.collectives, arrivals and ends (in the
/// reference rank's order), each matched rank's collectives, lastArrivals and waitNs, and the wait and transfer of its
/// iteration cells (which must be filled).
void measureCollectives(RanksResult& result, const CollectiveMatch& match, const JobContext& job = {});

} // namespace nsw
