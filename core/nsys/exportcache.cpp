// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportcache.h"

#include "core/util/coresettings.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QStandardPaths>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace nsw {

namespace {
constexpr qint64 kDefaultLimitBytes = 20LL << 30;

QString keyOf(const QFileInfo& report)
{
    const QString canonical
        = report.canonicalFilePath().isEmpty() ? report.absoluteFilePath() : report.canonicalFilePath();
    const QByteArray identity = canonical.toUtf8() + '\n' + QByteArray::number(report.size()) + '\n'
        + QByteArray::number(report.lastModified().toMSecsSinceEpoch());
    return QString::fromLatin1(QCryptographicHash::hash(identity, QCryptographicHash::Sha256).toHex().left(24));
}

void markUsed(const QString& path)
{
    QFile file(path);
    if (file.open(QIODevice::ReadWrite))
        file.setFileTime(QDateTime::currentDateTime(), QFileDevice::FileModificationTime);
}
} // namespace

QString ExportCache::folder()
{
    const QString configured = qEnvironmentVariable("NSYS_WORKBENCH_CACHE_DIR");
    if (!configured.isEmpty())
        return configured;
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation)
        + QStringLiteral("/nsys-workbench/exports");
}

qint64 ExportCache::limitBytes()
{
    bool ok = false;
    const qint64 megabytes = qEnvironmentVariable("NSYS_WORKBENCH_CACHE_MAX_MB").toLongLong(&ok);
    if (ok && megabytes >= 0)
        return megabytes << 20;
    const qint64 configured = coreSettings().cacheLimitBytes;
    return configured > 0 ? configured : kDefaultLimitBytes;
}

QString ExportCache::entryFor(const QFileInfo& report)
{
    return folder() + QLatin1Char('/') + keyOf(report) + QLatin1Char('/') + report.completeBaseName()
        + QStringLiteral(".sqlite");
}

QString ExportCache::lookUp(const QFileInfo& report)
{
    const QString entry = entryFor(report);
    const QFileInfo info(entry);
    if (!info.isFile() || info.size() == 0)
        return {};
    markUsed(entry);
    return entry;
}

QString ExportCache::store(const QFileInfo& report, const QString& finishedExport, QString* error)
{
    const QString entry = entryFor(report);
    const QFileInfo entryInfo(entry);
    if (!QDir().mkpath(entryInfo.absolutePath())) {
        *error = QStringLiteral("cannot create the export cache folder %1").arg(entryInfo.absolutePath());
        return {};
    }
    // rename(2) replaces atomically; a concurrent load of the same report stored the same bytes.
    if (::rename(QFile::encodeName(finishedExport).constData(), QFile::encodeName(entry).constData()) != 0) {
        *error = QStringLiteral("cannot move the export into the cache (%1): %2")
                     .arg(entry, QString::fromLocal8Bit(strerror(errno)));
        return {};
    }
    return entry;
}

void ExportCache::evict(qint64 maxBytes, const QString& keepEntry)
{
    struct Entry
    {
        QString folder;
        qint64 bytes = 0;
        QDateTime used;
    };
    std::vector<Entry> entries;
    qint64 total = 0;
    const QDir root(folder());
    for (const QFileInfo& dir : root.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (dir.fileName().startsWith(QLatin1String("tmp-")))
            continue;
        Entry e { dir.absoluteFilePath(), 0, dir.lastModified() };
        for (const QFileInfo& f : QDir(e.folder).entryInfoList(QDir::Files)) {
            e.bytes += f.size();
            e.used = std::max(e.used, f.lastModified());
        }
        total += e.bytes;
        entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    const QString keepFolder = QFileInfo(keepEntry).absolutePath();
    for (const Entry& e : entries) {
        if (total <= maxBytes)
            break;
        if (e.folder == keepFolder)
            continue;
        if (QDir(e.folder).removeRecursively())
            total -= e.bytes;
    }
}

} // namespace nsw
