// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw {

/// The user's preferences that core needs, passed in by the window (Preferences, at start-up and when saved): core
/// reads no QSettings, so a command-line result never depends on ~/.config. The CLI leaves the defaults; the
/// environment variables (NSYS_WORKBENCH_NSYS, NSYS_WORKBENCH_NSYS_TIMEOUT, NSYS_WORKBENCH_CACHE_MAX_MB) win over
/// these for both.
struct CoreSettings
{
    QString nsysPath; ///< the nsys chosen in Preferences; empty: looked for (nsysCandidates())
    int nsysTimeoutSeconds = 0; ///< how long an nsys export or import may take; 0: the default (1800 s)
    /// The one size limit of the workbench's caches on disk (the export cache; a profile cache shares it); 0: the
    /// default (20 GiB).
    qint64 cacheLimitBytes = 0;
};

/// The settings in force (thread-safe: jobs read them while the window may set them).
CoreSettings coreSettings();
void setCoreSettings(const CoreSettings& settings);

} // namespace nsw
