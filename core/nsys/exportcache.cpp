// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportcache.h"

#include "core/util/cachestore.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace nsw {

namespace {
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
    return CacheSettings::fromEnvironment().exportsFolder();
}

qint64 ExportCache::limitBytes()
{
    return CacheSettings::fromEnvironment().limitBytes;
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
    CacheSettings settings = CacheSettings::fromEnvironment();
    settings.limitBytes = maxBytes;
    evictLeastRecentlyUsed(settings, keepEntry.isEmpty() ? QStringList() : QStringList { keepEntry });
}

} // namespace nsw
