// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/profile/loadtypes.h"
#include "core/stats/kernelindex.h"

#include <QMetaType>
#include <memory>

namespace nsw {

/// A profile plus the derived structures every pane needs at once, built off the GUI thread.
struct LoadedProfile
{
    ProfilePtr profile;
    std::shared_ptr<const KernelIndex> kernelIndex; ///< demangled names
    LoadOutcome load; ///< how the file was read, per-stage timings (load.profile == profile)
    /// False for the first stage of a staged load (FirstStageCallback): kernels and memory operations only.
    bool complete = true;
};

/// Called from the load's thread with the first stage (complete == false), its kernel index built.
using FirstStageReady = std::function<void(const std::shared_ptr<LoadedProfile>&)>;

/// The one way the workbench loads a file; `nsys-workbench info --load` uses it too so that it measures exactly
/// what the window does. With @p firstStage the kernel tables are handed over as soon as they are indexed, and the
/// whole profile returned at the end shares them (and the index). Errors and warnings as ProfileLoader::load's.
Result<LoadedProfile> loadForWorkbench(
    const QString& path, const JobContext& job = {}, const FirstStageReady& firstStage = {});

} // namespace nsw

Q_DECLARE_METATYPE(std::shared_ptr<nsw::LoadedProfile>)
