// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorytimeline.h"
#include "core/categories/ruleevaluation.h"
#include "core/compare/comparekeys.h"
#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"

#include <memory>
#include <vector>

namespace nsw {

/// One profile's keys for one key choice and, when asked for linking, what turns a key back into kernel rows.
struct CompareEntry
{
    std::shared_ptr<const ProfileKeys> keys;
    std::shared_ptr<const KernelIndex> index; ///< kernel keys, when linking
    std::vector<std::int32_t> keyOfGroup; ///< kernel keys, when linking: key of each index group
    std::shared_ptr<const CategoryTimeline> timeline; ///< category keys (focused when the request is)
    std::shared_ptr<const CategoryBreakdown> breakdown; ///< category keys
    std::shared_ptr<const NvtxTree> tree; ///< NVTX keys (Merged grouping)
    std::vector<std::int32_t> keyOfNode; ///< NVTX keys
};

/// What the `compare` command and the Compare pane ask of each profile.
struct CompareEntryRequest
{
    ProfilePtr profile;
    CompareKeyOptions options;
    /// Keys count what overlaps it (kernels with whole durations, category occupancy clipped, NVTX ranges that
    /// overlap) and "per second" divides by its length. Inactive = the whole capture.
    FocusRange focus;
    /// Keep the kernel index and the key of each index group / tree node, so that a key can be turned back into
    /// kernel rows (the pane's linked selection). Kernel keys then always come from the index, with medians.
    bool forLinking = false;
    /// Reused when given (a session's own), built otherwise: the kernel index (of options.kernelNames), the category
    /// timeline of the whole profile and its names' rule matches.
    std::shared_ptr<const KernelIndex> index;
    std::shared_ptr<const CategoryTimeline> categoryTimeline;
    std::shared_ptr<RuleMatchCache> categoryMatches;
};

/// A profile's keys: builds (or reuses) the kernel index, category timeline or NVTX tree (Merged) the key kind needs.
Result<CompareEntry> computeCompareEntry(const CompareEntryRequest& request, const JobContext& job = {});

} // namespace nsw
