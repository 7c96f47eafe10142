// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/profile/loadtypes.h"
#include "core/ranks/ranksummary.h"

namespace nsw {

/// What a rank summary reads of an export: kernels (names and placement), memory operations, NVTX (the iteration
/// markers).
LoadOptions rankLoadOptions();

/// The ranks of a loaded export (every process that ran kernels), each with its iterations (@p iterationMarker,
/// empty: automatic, per process), their GPU time split, its NCCL kernels and its kernel sums per name. @p
/// loadWarnings (the load's, each naming the file) travel with it. NoData when no process ran a kernel.
Result<RankFile> summarizeProfile(const ProfilePtr& profile, const QString& iterationMarker,
    const QStringList& loadWarnings = {}, const JobContext& job = {});

/// The rank a file name gives: "rank3", "rank_03", "RANK-3" anywhere in the name, else a number at its end after
/// "_", "-" or "." ("run_3.sqlite", "profile.3.nsys-rep", what `-o run_%q{RANK}` makes). -1 when none.
int rankFromFileName(const QString& path);

} // namespace nsw
