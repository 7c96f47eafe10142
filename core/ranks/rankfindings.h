// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/thresholds.h"
#include "core/ranks/ranksresult.h"

namespace nsw {

/// The thresholds the rank findings are decided by, in a stable order (the group "ranks").
const std::vector<ThresholdSpec>& rankThresholdSpecs();

/// The findings about a merged run, most severe first: a persistent straggler (the same rank last at most
/// collectives) or rotating ones, whether a straggler computes slower (which kernels) or starts late (host side),
/// ranks with outlier iterations, and load imbalance (max/mean compute).
std::vector<RankFinding> rankFindings(const RanksResult& result);

} // namespace nsw
