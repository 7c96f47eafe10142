// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/profile/loadtypes.h"
#include "core/stats/kernelindex.h"
#include "core/timeline/timelineindex.h"
#include "core/util/cachesettings.h"

#include <QMetaType>
#include <memory>

namespace nsw {

/// A profile plus the derived structures every pane needs at once, built off the GUI thread.
struct LoadedProfile
{
    ProfilePtr profile;
    std::shared_ptr<const KernelIndex> kernelIndex; ///< demangled names
    /// The Timeline pane's index, when the profile came from a profile cache entry that holds one (else null: the
    /// pane builds it).
    TimelineIndexPtr timelineIndex;
    LoadOutcome load; ///< how the file was read, per-stage timings (load.profile == profile)
    /// False for the first stage of a staged load (FirstStageCallback): kernels and memory operations only.
    bool complete = true;
};

/// Called from the load's thread with the first stage (complete == false), its kernel index built.
using FirstStageReady = std::function<void(const std::shared_ptr<LoadedProfile>&)>;

/// The one way the workbench loads a file; `nsys-workbench info --load` uses it too so that it measures exactly
/// what the window does. With @p firstStage the kernel tables are handed over as soon as they are indexed, and the
/// whole profile returned at the end shares them (and the index). Errors and warnings as ProfileLoader::load's.
/// Through the profile cache of @p cache (core/profilecache): a cached profile and its kernel and timeline indexes
/// come whole at once (load.cacheFile set, no first stage); a profile read from SQLite is stored with its kernel index
/// in the background, and with its timeline index (the Timeline pane's, else built on the writer's thread).
/// @p cacheWriteFailed, when set, hears (on the writer's thread) of a write that failed.
Result<LoadedProfile> loadForWorkbench(const QString& path, const JobContext& job = {},
    const FirstStageReady& firstStage = {}, const CacheSettings& cache = {},
    const std::function<void(const Status&)>& cacheWriteFailed = {});

} // namespace nsw

Q_DECLARE_METATYPE(std::shared_ptr<nsw::LoadedProfile>)
