// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/ranks/ranksresult.h"

namespace nsw {

/// Captures of one run start within this of each other; a file further from the others is from another run.
inline constexpr TimeNs kSameRunWindowNs = 10LL * 60 * 1'000'000'000;

/// Puts the ranks of @p files side by side: leaves out a file given twice, files of another run and repeated rank
/// numbers (each a RankProblem naming the files), numbers the ranks, matches their collectives, aligns the clocks,
/// measures every wait, fills every rank × iteration and adds the findings. @p problems (inputs that could not be read)
/// are kept in the result. NoData when no rank is left.
Result<RanksResult> mergeRanks(std::vector<std::shared_ptr<const RankFile>> files, std::vector<RankProblem> problems,
    const QString& iterationMarker, const JobContext& job = {});

/// Rank numbers for the ranks of @p files (in input order): the numbers the file names give when every file holds
/// one rank and names its number; otherwise consecutive from 0, files ordered by the number in their name (those
/// without one after, in input order) and the ranks of a file in its process order by GPU. Repeated numbers are left
/// out (a RankProblem). The rows are sorted by rank number, only rank, file and indexInFile set.
std::vector<RankRow> numberRanks(
    const std::vector<std::shared_ptr<const RankFile>>& files, std::vector<RankProblem>& problems);

/// Leaves out files given twice (the same export, or an export and its summary) and files whose capture started more
/// than kSameRunWindowNs from the run's (the largest group of files that started together; a tie keeps the group of
/// the first input), each a RankProblem.
void dropRepeatedAndForeignFiles(
    std::vector<std::shared_ptr<const RankFile>>& files, std::vector<RankProblem>& problems);

} // namespace nsw
