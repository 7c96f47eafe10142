// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"
#include "core/stats/reporttable.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <vector>

namespace nsw::test {

/// One report of an `nsys stats -f csv` run: its SKIPPED message, or its CSV lines as printed (none when the report
/// printed nothing: nsys 2022.4 prints no header for an empty result).
struct NsysBlock
{
    QString skipped;
    QStringList lines;
};

struct NsysStatsRun
{
    bool finished = false; ///< nsys ran and exited normally
    QList<NsysBlock> blocks; ///< one per report asked for, in order (one per "Processing [...]" line)
    QString errors; ///< its stderr
};

/// Runs `nsys stats -f csv -r REPORTS FILE` with @p workDir as the working directory (nsys writes nothing there).
NsysStatsRun runNsysStats(const QString& nsys, const QStringList& reports, const QString& file, const QString& workDir);

/// Copies @p path into @p folder (writable by the owner only: nsys and the workbench read the same bytes there);
/// returns the copy, or an empty string.
QString copyForNsys(const QString& path, const QString& folder);

/// The workbench's reports (today's names, ":args" included) on @p path, as `stats` computes them; @p error says why
/// there are none. The profile is kept: trace reports make their rows from it.
struct OurReports
{
    ProfilePtr profile;
    std::vector<ReportTable> tables;
    QString error;
};
OurReports computeOurReports(const QString& path, const QStringList& reports);

/// The fields of one line of nsys's CSV: a field is in quotes when it holds a comma; nothing is escaped.
QStringList parseNsysCsvLine(const QString& line);

/// @p line with every unquoted field that reads `None` (nsys 2022.4's print of NULL) made empty, the rest byte for
/// byte as printed.
QString withEmptyNulls(const QString& line);

} // namespace nsw::test
