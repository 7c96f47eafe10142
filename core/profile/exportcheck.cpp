// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportcheck.h"

#include "core/sqlite/sqlitedb.h"

#include <QFile>
#include <QFileInfo>

namespace nsw {

namespace {
quint32 bigEndian32(const uchar* p)
{
    return (quint32(p[0]) << 24) | (quint32(p[1]) << 16) | (quint32(p[2]) << 8) | quint32(p[3]);
}
} // namespace

QString checkFileBeforeOpen(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return QStringLiteral("%1: no such file").arg(path);
    if (info.isDir())
        return QStringLiteral("%1: is a directory, not an nsys SQLite export").arg(path);
    if (!info.isFile())
        return QStringLiteral("%1: not a regular file").arg(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("%1: cannot be read: %2").arg(path, file.errorString());
    if (info.size() == 0)
        return QStringLiteral("%1: the file is empty (0 bytes), not an nsys SQLite export").arg(path);
    const QByteArray header = file.read(100);
    static constexpr char kMagic[] = "SQLite format 3";
    if (header.size() < 16 || !header.startsWith(QByteArray(kMagic, sizeof(kMagic)))) {
        if (header.startsWith("NVF1"))
            return QStringLiteral("%1: is an NVLink recording (NVF1), not an nsys SQLite export").arg(path);
        if (header.contains("QDSTRM") || path.endsWith(QLatin1String(".nsys-rep")))
            return QStringLiteral("%1: is an nsys report, not its SQLite export; run `nsys export --type sqlite %1`")
                .arg(path);
        return QStringLiteral("%1: not an SQLite file (no SQLite header); expected `nsys export --type sqlite` output")
            .arg(path);
    }
    if (header.size() < 100)
        return QStringLiteral("%1: truncated SQLite file (%2 bytes, shorter than the SQLite header)")
            .arg(path)
            .arg(info.size());
    const auto* h = reinterpret_cast<const uchar*>(header.constData());
    quint32 pageSize = (quint32(h[16]) << 8) | quint32(h[17]);
    if (pageSize == 1)
        pageSize = 65536;
    const quint32 pageCount = bigEndian32(h + 28);
    // The in-header page count is valid when the change counter matches "version-valid-for" (SQLite file format
    // §1.3.8).
    const bool pageCountValid = pageCount > 0 && bigEndian32(h + 24) == bigEndian32(h + 92);
    if (pageCountValid && qint64(pageSize) * pageCount > info.size())
        return QStringLiteral("%1: truncated SQLite file (%2 bytes, the header says %3)")
            .arg(path)
            .arg(info.size())
            .arg(qint64(pageSize) * pageCount);
    return {};
}

namespace {
/// Names of the tables nsys writes and the workbench reads.
bool isNsysTableName(const QString& name)
{
    static const char* const kNames[] = { "StringIds", "ThreadNames", "PROCESSES", "ANALYSIS_DETAILS", "GPU_METRICS",
        "NVTX_EVENTS", "OSRT_API", "META_DATA_EXPORT", "EXPORT_META_DATA" };
    for (const char* n : kNames)
        if (name == QLatin1String(n))
            return true;
    return name.startsWith(QLatin1String("CUPTI_ACTIVITY_KIND_")) || name.startsWith(QLatin1String("TARGET_INFO_"))
        || name.startsWith(QLatin1String("ENUM_"));
}
} // namespace

QString checkIsNsysExport(const SqliteDb& db)
{
    // A view can run any query, including one that never ends (a recursive CTE): nsys never writes views, so one
    // in place of a table the workbench reads is refused rather than followed.
    for (const QString& v : db.views())
        if (isNsysTableName(v))
            return QStringLiteral("%1: %2 is a view, not a table; nsys exports hold only tables, so this file was "
                                  "altered and is not read")
                .arg(db.path(), v);
    const QStringList tables = db.tables();
    if (tables.isEmpty())
        return QStringLiteral("%1: an SQLite database with no tables, not an nsys export").arg(db.path());
    for (const QString& t : tables) {
        if (t == QLatin1String("StringIds") || t == QLatin1String("META_DATA_EXPORT")
            || t == QLatin1String("EXPORT_META_DATA") || t == QLatin1String("NVTX_EVENTS")
            || t.startsWith(QLatin1String("CUPTI_ACTIVITY_KIND_")) || t.startsWith(QLatin1String("TARGET_INFO_")))
            return {};
    }
    return QStringLiteral("%1: an SQLite database but not an Nsight Systems export (none of StringIds, "
                          "META_DATA_EXPORT, CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS, TARGET_INFO_*)")
        .arg(db.path());
}

} // namespace nsw
