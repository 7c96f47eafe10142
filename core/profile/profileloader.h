// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/profile/loadtypes.h"

namespace nsw {

/// Loads an nsys SQLite export into a Profile. Synchronous and thread-safe: several loads may run at once,
/// each on its own thread (LoadJob runs it off the GUI thread). Tables are read in parallel, one read-only
/// connection per worker. The file is never written to.
class ProfileLoader
{
public:
    /// Progress and cancel come through @p job, as for every job. With @p firstStage the load runs in two stages and
    /// hands over the kernel tables as soon as they are in memory (see FirstStageCallback); the result is the same
    /// profile either way. An exception inside (std::bad_alloc from a huge allocation...) is the result's error:
    /// OutOfMemory says "not enough memory to load FILE: it needs about N GB".
    static LoadResult load(const QString& path, const LoadOptions& options = {}, const JobContext& job = {},
        const FirstStageCallback& firstStage = {});
};

/// "not enough memory to load PATH: it needs about N GB": a load peaks at about 0.4 times its export's size (0.37
/// measured on the 4M-kernel export).
QString loadOutOfMemoryMessage(const QString& path);

/// The kind of a load error from its message: Busy when the file is locked by a writer, OutOfMemory when SQLite ran
/// out of memory, otherwise Input (the file is unreadable or not what it should be).
ErrorKind loadErrorKind(const QString& message);

} // namespace nsw
