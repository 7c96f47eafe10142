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

/// buildTimelineIndex() through the profile's derived values, kept while someone holds the index: the Timeline pane
/// and the profile cache's writer (which stores the index with the profile, so that a reopen does not build it
/// again) get one build, whichever asks first, the other waiting for it.
Result<TimelineIndexPtr> sharedTimelineIndex(const ProfilePtr& profile, const JobContext& job = {});

/// The ProfileSession attachment under which the Timeline pane keeps (and a load from the profile cache hands it) the
/// profile's index.
QString timelineIndexAttachmentKey();

} // namespace nsw
