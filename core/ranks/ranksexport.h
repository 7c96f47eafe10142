// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ranks/ranksresult.h"

#include <nlohmann/json.hpp>

namespace nsw {

/// `ranks --format json`: {tool, iteration_marker, metric, reference_rank, clock, matched_ranks, ranks: [{rank, file,
/// host, pid, gpu, gpu_name, process, clock_offset_ns, clock_source, matched, collectives, last_arrivals, wait_ns,
/// iterations_guessed, iteration_detection, iterations: [{iteration, start_ns, duration_ns, compute_ns,
/// communication_ns, wait_ns, transfer_ns, memory_ns, idle_ns, bubble_pct, outlier}]}], collectives: [{index, name,
/// kind, stream, sequence, iteration, first_arrival_ns, last_arrival_ns, skew_ns, straggler, transfer_ns,
/// arrivals_ns, waits_ns}], findings, problems}. Iteration starts are on the rank's own export clock, arrivals on the
/// reference rank's (a rank's clock_offset_ns added to its own times).
nlohmann::ordered_json ranksJson(const RanksResult& result, RankMetric metric);

/// `ranks` (markdown): the findings, the problems, a table per rank, @p metric per rank × iteration, and the
/// collectives with the largest skew.
QString ranksMarkdown(const RanksResult& result, RankMetric metric);

/// The "Findings" and (when there are any) "Problems" sections of ranksMarkdown(): what the Ranks pane shows beside
/// the heat map.
QString ranksFindingsMarkdown(const RanksResult& result);

/// A metric's value as text: a duration ("1.25 ms") or a share ("12.5 %").
QString formatRankMetric(RankMetric metric, double value);

} // namespace nsw
