// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFileInfo>
#include <QString>

namespace nsw {

/// SQLite exports of .nsys-rep reports, kept so that a report opens at once the second time. One folder per report,
/// keyed by the report's canonical path, size and modification time (a changed report gets a new entry); the
/// least recently used entries (of this cache and the profile cache) are evicted when they grow past their limit.
/// Nothing is written next to reports.
class ExportCache
{
public:
    /// <cache root>/exports: NSYS_WORKBENCH_CACHE_DIR/exports, else <XDG cache>/nsys-workbench/exports
    /// (core/util/cachesettings.h).
    static QString folder();
    /// NSYS_WORKBENCH_CACHE_MAX_MB, else CoreSettings::cacheLimitBytes (Preferences), else 20 GiB.
    static qint64 limitBytes();

    /// Where the export of @p report is (or will be) kept: <folder>/<key>/<report's base name>.sqlite.
    static QString entryFor(const QFileInfo& report);
    /// The entry's export when it exists (and marks it as just used), else empty.
    static QString lookUp(const QFileInfo& report);
    /// Moves a finished export into @p report's entry (atomically, on the cache's file system). When another load
    /// stored it first, that copy is kept. Returns the entry's path, or empty with @p error set.
    static QString store(const QFileInfo& report, const QString& finishedExport, QString* error);
    /// Removes least recently used entries of this cache and of the profile cache (one limit for both,
    /// core/util/cachestore.h) until they hold at most @p maxBytes together, never @p keepEntry.
    static void evict(qint64 maxBytes, const QString& keepEntry);
};

} // namespace nsw
