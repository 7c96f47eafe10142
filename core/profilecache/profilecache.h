// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/profile/loadtypes.h"
#include "core/profilecache/profilecodec.h"
#include "core/util/cachesettings.h"

#include <functional>
#include <optional>

namespace nsw {

/// The persistent cache of loaded profiles (issue 37). A load writes its profile to
/// <cache root>/profiles/<entry>.nswprof in the background; a later load of the same export with the same options
/// maps that file and reads its columns in place instead of decoding SQLite again. Nothing is ever written next to
/// the export. An entry is used only when it matches the export exactly (ProfileCacheKey) and passes every check
/// (readProfileCacheFile); anything else is dropped, said in a note, and made again by the load that follows.
///
/// Not cached: exports with a -wal or -journal beside them (another writer may be at work), folders on network file
/// systems (their mapped pages may change under the reader). A folder that is read-only, full or not writable only
/// keeps the load from being written, with a warning.
namespace profilecache {

/// A profile found in the cache, or what to store once the load is made.
struct Lookup
{
    std::optional<LoadResult> hit; ///< the cached profile, as a load returns it (cacheFile set)
    std::shared_ptr<const KernelIndex> kernelIndex; ///< of the hit, when its entry holds one
    TimelineIndexPtr timelineIndex; ///< of the hit, when its entry holds one
    std::optional<ProfileCacheKey> key; ///< on a miss: the entry the load should be stored as
    QString note; ///< an entry dropped, or why the cache cannot be used for this export
};

/// Looks @p path (an export, or a report whose export is in the export cache) up. A miss costs a stat and the
/// export's first pages.
Lookup lookUp(const QString& path, const LoadOptions& options, const CacheSettings& settings,
    const CancelToken& cancel = CancelToken::never());

/// The entry a load of @p path made after @p lookup missed is stored as: lookup.key, or, for a report the load has
/// just exported, its export's; nothing when the profile is not to be cached.
std::optional<ProfileCacheKey> keyAfterLoad(const Lookup& lookup, const QString& path, const Profile& loaded,
    const LoadOptions& options, const CacheSettings& settings);

/// Writes @p load as @p key's entry on a thread of its own, then evicts least recently used entries of both caches
/// beyond the limit. @p done, when set, is called on that thread with the outcome (a failure names the folder and
/// the reason). Two writers of one entry never mix: each writes its own temporary file and renames it.
void storeInBackground(const CacheSettings& settings, const ProfileCacheKey& key, CachedLoad load,
    std::function<void(const Status&)> done = {});

/// Waits until every write started by storeInBackground() has ended (before the process exits).
void waitForWrites();

/// The entry file of @p key under @p settings.
QString entryPath(const CacheSettings& settings, const ProfileCacheKey& key);

/// ProfileLoader::load through the cache: the cached profile when there is one, else a load from SQLite that is
/// then stored in the background (with its warnings). @p writeFailed, when set, hears of a write that failed.
LoadResult load(const QString& path, const LoadOptions& options, const CacheSettings& settings,
    const JobContext& job = {}, std::function<void(const Status&)> writeFailed = {});

} // namespace profilecache
} // namespace nsw
