// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnostics.h"

#include <QByteArray>
#include <QString>
#include <map>
#include <vector>

namespace nsw {

/// One file of a report folder: its path inside the folder ("report.md", "tables/kernels.csv") and its bytes.
struct ReportFile
{
    QString relativePath;
    QString text;
};

/// Everything `report --out DIR` and the window's Export → Report write: report.md, report.json, report.html (with
/// @p pngs embedded, by chart id) and tables/<id>.csv for every table.
std::vector<ReportFile> reportFiles(const DiagnosticsResult& result, const std::map<QString, QByteArray>& pngs = {});

/// Writes reportFiles() into @p dir (created with its tables/ folder when missing), each file atomically. A Status
/// error names the file that could not be written.
Status writeReportFolder(
    const DiagnosticsResult& result, const QString& dir, const std::map<QString, QByteArray>& pngs = {});

} // namespace nsw
