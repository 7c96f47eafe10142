// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/ranks/ranksresult.h"

namespace nsw {

/// What `ranks` and the Ranks pane ask for.
struct RanksRequest
{
    /// Exports (.sqlite, or reports through nsys), rank summaries, and folders of them (their files, not deeper).
    QStringList inputs;
    /// The NVTX range of one iteration on every rank (as `iterations --marker`); empty: automatic.
    QString iterationMarker;
};

/// Reads every input (in parallel), then mergeRanks(). An input that cannot be read, is not an export or summary,
/// holds no rank, or was summarized with another marker is a RankProblem naming it; the other inputs are analysed.
/// NoData (Input when every input failed to read) when no rank is left. Cancellable.
Result<RanksResult> computeRanks(const RanksRequest& request, const JobContext& job = {});

/// What `summarize` asks for.
struct SummarizeRequest
{
    QString trace; ///< an export, or a report through nsys
    QString iterationMarker;
};

/// Loads the trace (rankLoadOptions()) and summarizes its ranks (summarizeProfile()).
Result<RankFile> summarizeTrace(const SummarizeRequest& request, const JobContext& job = {});

/// The files the inputs name: each file as given, each folder's rank summaries and exports (sorted by name). A
/// missing path, a special file or a folder without either is a RankProblem.
QStringList expandRankInputs(const QStringList& inputs, std::vector<RankProblem>& problems);

/// Reads one input: a rank summary (refused when made with another iteration marker than @p iterationMarker), else
/// an export.
Result<RankFile> readRankInput(const QString& path, const QString& iterationMarker, const JobContext& job = {});

} // namespace nsw
