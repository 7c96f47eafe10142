// SPDX-License-Identifier: GPL-3.0-or-later
#include "cachestore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <sys/stat.h>
#include <utime.h>

namespace nsw {

namespace {

bool isTemporary(const QString& name)
{
    return name.startsWith(QLatin1String("tmp-")) || name.contains(QLatin1String(".tmp-"));
}

/// Temporary files (profile writers) and folders (nsys exports) whose writer stopped an hour ago or more.
void removeStaleTemporaries(const CacheSettings& settings)
{
    const QDateTime stale = QDateTime::currentDateTime().addSecs(-3600);
    for (const QString& folder : { settings.exportsFolder(), settings.profilesFolder() })
        for (const QFileInfo& f : QDir(folder).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot))
            if (isTemporary(f.fileName()) && f.lastModified() < stale) {
                if (f.isDir() && !f.isSymLink())
                    QDir(f.absoluteFilePath()).removeRecursively();
                else
                    QFile::remove(f.absoluteFilePath());
            }
}

bool holdsAny(const CacheEntry& e, const QStringList& keep)
{
    return std::any_of(keep.begin(), keep.end(),
        [&](const QString& path) { return path == e.path || path.startsWith(e.path + QLatin1Char('/')); });
}

bool removeEntry(const CacheEntry& e)
{
    return e.kind == CacheEntry::Kind::Export ? QDir(e.path).removeRecursively() : QFile::remove(e.path);
}

} // namespace

std::vector<CacheEntry> listCacheEntries(const CacheSettings& settings)
{
    std::vector<CacheEntry> entries;
    for (const QFileInfo& dir : QDir(settings.exportsFolder()).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (isTemporary(dir.fileName()) || dir.isSymLink())
            continue;
        // Used when its export was last touched (ExportCache marks it); the folder's own time is its creation.
        CacheEntry e { CacheEntry::Kind::Export, dir.absoluteFilePath(), 0, QDateTime() };
        for (const QFileInfo& f : QDir(e.path).entryInfoList(QDir::Files)) {
            e.bytes += f.size();
            e.lastUsed = e.lastUsed.isValid() ? std::max(e.lastUsed, f.lastModified()) : f.lastModified();
        }
        if (!e.lastUsed.isValid())
            e.lastUsed = dir.lastModified();
        entries.push_back(std::move(e));
    }
    for (const QFileInfo& f : QDir(settings.profilesFolder()).entryInfoList(QDir::Files | QDir::System)) {
        if (isTemporary(f.fileName()))
            continue;
        entries.push_back(
            { CacheEntry::Kind::Profile, f.absoluteFilePath(), f.isSymLink() ? 0 : f.size(), f.lastModified() });
    }
    std::sort(entries.begin(), entries.end(),
        [](const CacheEntry& a, const CacheEntry& b) { return a.lastUsed < b.lastUsed; });
    return entries;
}

void evictLeastRecentlyUsed(const CacheSettings& settings, const QStringList& keep)
{
    removeStaleTemporaries(settings);
    const std::vector<CacheEntry> entries = listCacheEntries(settings);
    qint64 total = 0;
    for (const CacheEntry& e : entries)
        total += e.bytes;
    for (const CacheEntry& e : entries) {
        if (total <= settings.limitBytes)
            break;
        if (!holdsAny(e, keep) && removeEntry(e))
            total -= e.bytes;
    }
}

qint64 clearCaches(const CacheSettings& settings)
{
    qint64 freed = 0;
    for (const CacheEntry& e : listCacheEntries(settings))
        if (removeEntry(e))
            freed += e.bytes;
    return freed;
}

void touchCacheEntry(const QString& path)
{
    // utime(2) with times == nullptr sets both to now; it needs write permission or ownership, which a cache has.
    ::utime(QFile::encodeName(path).constData(), nullptr);
}

} // namespace nsw
