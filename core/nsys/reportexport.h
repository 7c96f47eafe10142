// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/nsys/nsystool.h"

#include <QString>
#include <functional>

namespace nsw {

enum class ReportKind
{
    NotAReport, ///< anything else (an SQLite export, an NVLink recording, garbage): opened as before
    Report, ///< .nsys-rep / .qdrep: exported with `nsys export --type sqlite`
    Stream, ///< .qdstrm, the raw capture nsys leaves when its importer is missing: imported, then exported
};

/// By the file's first bytes, else by its extension (so a truncated report is still treated as one).
ReportKind reportKindOf(const QString& path);

/// The Nsight Systems version that recorded @p reportPath ("2022.4.2.1"), from the metadata nsys writes near a report's
/// end; empty when none is found there.
QString reportRecorderVersion(const QString& reportPath);

/// Orders two Nsight Systems versions by year and release ("2023.1" after "2022.4.2.1"), the parts that decide
/// whether an nsys reads a report: negative, 0 or positive.
int compareNsysReleases(const QString& a, const QString& b);

/// Name filters of the files the workbench opens: SQLite exports and the reports it exports itself.
QStringList profileFileFilters();
/// True for a name the workbench opens as a profile (.sqlite, .nsys-rep, .qdrep, .qdstrm).
bool isProfileFileName(const QString& path);
/// The profiles in @p folder by name: every .sqlite, and every report that has no .sqlite of the same base name
/// beside it (nsys exports next to its report, and that export is the one to open).
QStringList profilesInFolder(const QString& folder);

struct ExportedReport
{
    QString sqlitePath; ///< the export in the cache
    bool reused = false; ///< found in the cache, nsys not run
    QString nsysDescription; ///< "nsys 2022.4.2.1 (/usr/bin/nsys)", empty when reused
};

/// The SQLite export of a report, from the cache (ExportCache) or made now with the nsys findNsys() picks: runs
/// QdstrmImporter first for a .qdstrm, reports nsys's progress, stops nsys when @p context is cancelled and after
/// nsysTimeoutSeconds(). A report recorded by a newer Nsight Systems than that nsys is refused before nsys runs,
/// naming both versions. Errors name the report and carry nsys's own message. Nothing is written next to the report.
Result<ExportedReport> exportReportToSqlite(const QString& reportPath, const JobContext& context);

/// Runs @p tool's QdstrmImporter on the raw capture @p stream, writing the report @p output (its progress as "Importing
/// the capture NN %", its output and command line to @p onOutput). Errors name the capture.
Status importCapture(const NsysTool& tool, const QString& stream, const QString& output, const JobContext& context,
    const std::function<void(const QString&)>& onOutput = {});

/// The SQLite file to read for @p path: @p path itself, or, for a report, its export (made now or from the cache).
/// For the commands that read SQLite directly (info, analyze, nvlink) rather than through ProfileLoader.
Result<QString> sqliteFileFor(const QString& path, const JobContext& context = JobContext());

} // namespace nsw
