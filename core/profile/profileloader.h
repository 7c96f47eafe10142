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
    static LoadResult load(const QString& path, const LoadOptions& options = {}, const ProgressCallback& progress = {},
        const CancelToken& cancel = CancelToken::never());
};

} // namespace nsw
