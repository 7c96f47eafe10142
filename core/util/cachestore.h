// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/util/cachesettings.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <vector>

namespace nsw {

/// One entry of the workbench's caches: an export of a report (a folder under <root>/exports) or a cached profile
/// (a file under <root>/profiles).
struct CacheEntry
{
    enum class Kind
    {
        Export,
        Profile
    };
    Kind kind = Kind::Profile;
    QString path; ///< the entry's folder (export) or file (profile)
    qint64 bytes = 0;
    QDateTime lastUsed; ///< its newest modification time: entries are touched when used
};

/// Every entry of both caches, least recently used first. Temporary files and folders of writers are left out.
std::vector<CacheEntry> listCacheEntries(const CacheSettings& settings);

/// Removes least recently used entries of both caches until they hold at most @p settings.limitBytes together,
/// never an entry that holds one of @p keep (paths of files in use). Temporary files left by writers that died more
/// than an hour ago go too.
void evictLeastRecentlyUsed(const CacheSettings& settings, const QStringList& keep = {});

/// Removes every entry of both caches; returns the bytes freed. Open profiles keep their mapped files until closed.
qint64 clearCaches(const CacheSettings& settings);

/// Marks @p path (a file) as just used, for the LRU order.
void touchCacheEntry(const QString& path);

} // namespace nsw
