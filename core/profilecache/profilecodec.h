// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"
#include "core/jobs/result.h"
#include "core/profile/loadtypes.h"
#include "core/profilecache/exportidentity.h"
#include "core/stats/kernelindex.h"
#include "core/timeline/timelineindex.h"

#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

namespace nsw {

/// What a cache file must match to stand for a load: the export it was read from, and what was read of it.
struct ProfileCacheKey
{
    ExportIdentity identity;
    unsigned parts = LoadEverything;
    unsigned kernelColumns = KernelAllColumns;
    bool operator==(const ProfileCacheKey&) const = default;
};

/// What a cache file keeps of a load: the profile, the warnings the load printed, the demangled-name kernel index
/// the window builds at once (null when the load did not build one) and the Timeline pane's index of the profile
/// (null when the entry has none: entries written by the command line).
struct CachedLoad
{
    ProfilePtr profile;
    QStringList warnings;
    std::shared_ptr<const KernelIndex> kernelIndex;
    TimelineIndexPtr timelineIndex;
    /// Writing only, when timelineIndex is null: called on the writer's thread before anything is written (the
    /// window's Timeline pane is building the index: the writer waits for it instead of competing with the panes),
    /// for the timeline index to store after the profile's sections; null stores none. Its token is cancelled when the
    /// process is about to exit (profilecache::waitForWrites()): then only an index already built is worth waiting for.
    /// An index of another profile is not stored.
    std::function<TimelineIndexPtr(const CancelToken&)> timelineIndexWhenWriting;
};

/// The cache file format's version (bump it when an encoding changes) and its fingerprint: the version and every
/// section's name and element size, so that a table added to Profile::forEachTable changes it by itself.
// 3: the timeline index; 4: 1-byte index columns; 5: the kernel index's sorted lanes as an index column
inline constexpr std::uint32_t kProfileCacheFormatVersion = 5;
std::uint64_t profileCacheFingerprint();

/// Writes @p load to @p path (through a temporary file renamed at the end). @p hurry goes to
/// load.timelineIndexWhenWriting.
Status writeProfileCacheFile(const QString& path, const ProfileCacheKey& key, const CachedLoad& load,
    const CancelToken& hurry = CancelToken::never());

/// A cache file read back: its columns are views of the file mapped into memory, kept mapped as long as the
/// profile lives. Refused (Input, saying why) when it is not the entry of @p expected (another export, a changed
/// one, other load options, another format), or cut short, damaged or malformed; the file is checked completely
/// (checksums, every index within its table) before anything of it is used. @p exportPath becomes the profile's
/// file path, as a load of it would have it.
Result<CachedLoad> readProfileCacheFile(
    const QString& path, const ProfileCacheKey& expected, const QString& exportPath, const CancelToken& cancel);

/// The key of a cache file without checking the rest (for `cache list`); fails for a file that is no cache file of
/// this format.
Result<ProfileCacheKey> readProfileCacheKey(const QString& path);

} // namespace nsw
