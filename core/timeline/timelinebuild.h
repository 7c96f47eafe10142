// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/timeline/timelineindex.h"

namespace nsw {

/// The timeline of a loaded profile: rows per GPU (a busy row, then one per stream) and per process and thread
/// (CUDA API, NVTX by depth, NVTX start/end ranges, NVTX marks, OS runtime), events sorted and packed into lanes.
/// Runs off the GUI thread; polls the job's cancel token and reports progress per table.
Result<TimelineIndexPtr> buildTimelineIndex(const ProfilePtr& profile, const JobContext& job = {});

} // namespace nsw
