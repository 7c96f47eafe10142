// SPDX-License-Identifier: GPL-3.0-or-later
#include "profilecache.h"

#include "core/jobs/handoff.h"
#include "core/jobs/jobguard.h"
#include "core/nsys/exportcache.h"
#include "core/nsys/reportexport.h"
#include "core/profile/profileloader.h"
#include "core/profilecache/filesystem.h"
#include "core/util/cachestore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

namespace nsw::profilecache {

namespace {

/// Writer threads, so that the process can wait for them before it exits; and the entries being written, so that
/// one process does not write an entry twice at once.
struct Writers
{
    std::mutex mutex;
    std::condition_variable ended;
    int running = 0;
    std::set<QString> entries;
    /// Cancelled while waitForWrites() waits: a writer then stores no part that is still to be built.
    CancelToken hurry;
};
Writers& writers()
{
    static Writers w;
    return w;
}

bool isReport(const QString& path)
{
    return reportKindOf(path) != ReportKind::NotAReport;
}

/// The export a load of @p path reads: @p path, or a report's export when the export cache has it (else empty).
QString exportOf(const QString& path)
{
    return isReport(path) ? ExportCache::lookUp(QFileInfo(path)) : path;
}

Result<ProfileCacheKey> keyFor(const QString& exportPath, const LoadOptions& options)
{
    Result<ExportIdentity> identity = ExportIdentity::of(exportPath);
    if (!identity)
        return identity.failureAs<ProfileCacheKey>();
    return ProfileCacheKey { *identity, options.parts, options.kernelColumns };
}

LoadResult hitResult(const CachedLoad& cached, const QString& entry, qint64 milliseconds)
{
    LoadOutcome o;
    o.profile = cached.profile;
    o.sqliteAccess = QStringLiteral("profile cache %1 (mapped)").arg(entry);
    o.timings.push_back({ QStringLiteral("Map the profile cache"), milliseconds, -1 });
    o.totalMilliseconds = milliseconds;
    o.cacheFile = entry;
    return LoadResult(std::move(o), cached.warnings);
}

/// Why the cache folder cannot take @p bytes more, or empty.
QString cannotWrite(const CacheSettings& settings, std::uint64_t bytes)
{
    const QString folder = settings.profilesFolder();
    if (qint64(bytes) > settings.limitBytes)
        return QStringLiteral("a %1 MB profile is over the cache limit (%2 MB)")
            .arg(bytes >> 20)
            .arg(settings.limitBytes >> 20);
    if (!QDir().mkpath(folder))
        return QStringLiteral("cannot create the profile cache folder %1").arg(folder);
    const FolderSpace space = folderSpace(folder);
    if (space.readOnly)
        return QStringLiteral("the profile cache folder %1 is on a read-only file system").arg(folder);
    // Room for the entry and some to spare: a cache never fills the disk.
    if (space.known && space.availableBytes < bytes + (std::uint64_t(256) << 20))
        return QStringLiteral("not enough free space in %1 for a %2 MB profile").arg(folder).arg(bytes >> 20);
    return {};
}

Status write(
    const CacheSettings& settings, const ProfileCacheKey& key, const CachedLoad& load, const CancelToken& hurry)
{
    const QString entry = entryPath(settings, key);
    std::uint64_t estimate = load.profile->memoryBytes();
    if (load.kernelIndex)
        estimate += load.kernelIndex->memoryBytes();
    if (const QString why = cannotWrite(settings, estimate); !why.isEmpty())
        return Status::failure(ErrorKind::Input, QStringLiteral("profile cache not written: %1").arg(why));
    if (Status s = writeProfileCacheFile(entry, key, load, hurry); !s)
        return Status::failure(ErrorKind::Input, QStringLiteral("profile cache not written: %1").arg(s.errorMessage()));
    evictLeastRecentlyUsed(settings, { entry, load.profile->meta.filePath });
    return success();
}

} // namespace

QString entryPath(const CacheSettings& settings, const ProfileCacheKey& key)
{
    const QByteArray name = key.identity.canonicalPath.toUtf8() + '\n' + QByteArray::number(key.parts) + '\n'
        + QByteArray::number(key.kernelColumns);
    const QString hash
        = QString::fromLatin1(QCryptographicHash::hash(name, QCryptographicHash::Sha256).toHex().left(24));
    return settings.profilesFolder() + QLatin1Char('/') + QFileInfo(key.identity.canonicalPath).completeBaseName()
        + QLatin1Char('-') + hash + QStringLiteral(".nswprof");
}

Lookup lookUp(const QString& path, const LoadOptions& options, const CacheSettings& settings, const CancelToken& cancel)
{
    Lookup lookup;
    if (!settings.usesProfiles())
        return lookup;
    if (const QString fs = networkFileSystemOf(settings.profilesFolder()); !fs.isEmpty()) {
        lookup.note = QStringLiteral("profile cache not used: %1 is on a network file system (%2)")
                          .arg(settings.profilesFolder(), fs);
        return lookup;
    }
    const QString exportPath = exportOf(path);
    if (exportPath.isEmpty())
        return lookup; // a report not exported yet: the load exports it, then its export is stored
    Result<ProfileCacheKey> key = keyFor(exportPath, options);
    if (!key) {
        lookup.note = QStringLiteral("profile cache not used: %1").arg(key.errorMessage());
        return lookup;
    }
    lookup.key = *key;
    const QString entry = entryPath(settings, *key);
    if (!QFileInfo(entry).exists() && !QFileInfo(entry).isSymLink())
        return lookup;
    QElapsedTimer timer;
    timer.start();
    Result<CachedLoad> read
        = catchingExceptions<CachedLoad>([&]() { return readProfileCacheFile(entry, *key, exportPath, cancel); },
            QStringLiteral("reading %1").arg(entry));
    if (!read) {
        if (read.error().kind == ErrorKind::Input) { // the entry is wrong; out of memory, it may be right
            QFile::remove(entry);
            lookup.note
                = QStringLiteral("profile cache entry dropped (%1); reading the export again").arg(read.errorMessage());
        } else if (!read.isCancelled()) {
            lookup.note = QStringLiteral("profile cache not used (%1); reading the export").arg(read.errorMessage());
            lookup.key.reset(); // not written again either
        }
        return lookup;
    }
    if (isReport(path)) {
        auto profile = std::make_shared<Profile>(*read->profile);
        profile->meta.reportPath = QFileInfo(path).absoluteFilePath();
        read->profile = profile;
        read->kernelIndex = read->kernelIndex ? read->kernelIndex->reboundTo(profile) : nullptr;
        read->timelineIndex = read->timelineIndex ? read->timelineIndex->reboundTo(profile) : nullptr;
    }
    touchCacheEntry(entry);
    lookup.hit = hitResult(*read, entry, timer.elapsed());
    lookup.kernelIndex = read->kernelIndex;
    lookup.timelineIndex = read->timelineIndex;
    lookup.key.reset();
    return lookup;
}

std::optional<ProfileCacheKey> keyAfterLoad(const Lookup& lookup, const QString& path, const Profile& loaded,
    const LoadOptions& options, const CacheSettings& settings)
{
    if (lookup.key || !settings.usesProfiles() || !lookup.note.isEmpty() || !isReport(path))
        return lookup.key;
    Result<ProfileCacheKey> key = keyFor(loaded.meta.filePath, options);
    return key ? std::optional<ProfileCacheKey>(*key) : std::nullopt;
}

void storeInBackground(
    const CacheSettings& settings, const ProfileCacheKey& key, CachedLoad load, std::function<void(const Status&)> done)
{
    const QString entry = entryPath(settings, key);
    CancelToken hurry;
    {
        const std::lock_guard lock(writers().mutex);
        if (!writers().entries.insert(entry).second)
            return; // this process is writing it already
        ++writers().running;
        hurry = writers().hurry;
    }
    const QString task = QStringLiteral("writing the profile cache entry %1").arg(entry);
    const auto ended = [entry]() {
        const std::lock_guard lock(writers().mutex);
        writers().entries.erase(entry);
        --writers().running;
        writers().ended.notify_all();
    };
    // A write that throws (out of memory) or a thread that cannot start fails the write only, never the load.
    try {
        std::thread([settings, key, load = std::move(load), done, task, ended, hurry]() {
            // A first open's panes compute while the entry is written (about a second of CPU for 4M kernels): they
            // come first.
            runThisThreadOnLeftoverCpu();
            const Status status = catchingExceptions<Done>([&]() { return write(settings, key, load, hurry); }, task);
            if (done)
                done(status);
            ended();
        }).detach();
    } catch (...) {
        ended();
        if (done)
            done(Status(errorOfException(std::current_exception(), task)));
    }
}

void waitForWrites()
{
    std::unique_lock lock(writers().mutex);
    writers().hurry.cancel();
    writers().ended.wait(lock, []() { return writers().running == 0; });
    writers().hurry = CancelToken(); // for writes started after this wait
}

LoadResult load(const QString& path, const LoadOptions& options, const CacheSettings& settings, const JobContext& job,
    std::function<void(const Status&)> writeFailed)
{
    Lookup lookup = lookUp(path, options, settings, job.cancelToken());
    if (lookup.hit) {
        (*lookup.hit)->cacheNote = lookup.note;
        return *lookup.hit;
    }
    LoadResult result = ProfileLoader::load(path, options, job);
    if (!result || !settings.usesProfiles())
        return result;
    result->cacheNote = lookup.note;
    if (const std::optional<ProfileCacheKey> key = keyAfterLoad(lookup, path, *result->profile, options, settings))
        storeInBackground(settings, *key, { result->profile, result.warnings(), nullptr, nullptr, {} },
            [writeFailed](const Status& s) {
                if (!s && writeFailed)
                    writeFailed(s);
            });
    return result;
}

} // namespace nsw::profilecache
