// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"
#include "core/nvtx/nvtxtree.h"

namespace nsw {

/// NvtxTree::coverage without building the tree: a kernel that overlaps @p focus counts as attributed when the CUDA
/// API call that launched it starts inside (bounds included) a range of the calling thread that overlaps the focus,
/// which is when the tree would place it under a range. One pass over each thread's ranges and launches of the
/// profile's NvtxTreeIndex (@p index when it is the profile's, else NvtxTreeIndex::shared()).
Result<NvtxCoverage> computeNvtxCoverage(const ProfilePtr& profile, const FocusRange& focus = {},
    const JobContext& job = {}, std::shared_ptr<const NvtxTreeIndex> index = {});

} // namespace nsw
