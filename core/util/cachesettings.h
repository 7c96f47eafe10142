// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw {

/// Where the workbench keeps what it derives from the user's files, and how much of it: the SQLite exports of
/// .nsys-rep reports (<root>/exports, core/nsys/exportcache.h) and the loaded profiles (<root>/profiles,
/// core/profilecache). One size limit covers both, least recently used entries going first.
struct CacheSettings
{
    static constexpr qint64 kDefaultLimitBytes = 20LL << 30;

    QString root; ///< NSYS_WORKBENCH_CACHE_DIR, else <XDG cache>/nsys-workbench
    /// NSYS_WORKBENCH_CACHE_MAX_MB, else CoreSettings::cacheLimitBytes (Preferences), else 20 GiB
    qint64 limitBytes = kDefaultLimitBytes;
    /// Whether loads read and write cached profiles: false by default (tests, tools), true from fromEnvironment()
    /// unless --no-cache. Reports are exported into <root>/exports either way, since nsys needs a place to write.
    bool profiles = false;

    QString exportsFolder() const { return root + QStringLiteral("/exports"); }
    QString profilesFolder() const { return root + QStringLiteral("/profiles"); }
    bool usesProfiles() const { return profiles && !root.isEmpty(); }

    /// From the environment and coreSettings().
    static CacheSettings fromEnvironment();
};

} // namespace nsw
