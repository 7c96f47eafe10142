// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/loadtypes.h"

namespace nsw {

/// Loads an nsys SQLite export into a Profile. Synchronous and thread-safe: several loads may run at once,
/// each on its own thread (LoadJob runs it off the GUI thread). Tables are read in parallel, one read-only
/// connection per worker. The file is never written to.
class ProfileLoader
{
public:
    /// With @p firstStage the load runs in two stages and hands over the kernel tables as soon as they are in memory
    /// (see FirstStageCallback); the result is the same profile either way.
    static LoadResult load(const QString& path, const LoadOptions& options = {}, const ProgressCallback& progress = {},
        const CancelToken& cancel = CancelToken::never(), const FirstStageCallback& firstStage = {});
};

} // namespace nsw
