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
    QByteArray bytes;
};

/// Everything `report --out DIR` and the window's Export → Report write: report.md, report.json, report.html, and
/// tables/<id>.csv for every table; with @p charts (PNG bytes by chart id) also charts/<id>.png, embedded in the
/// HTML and linked from the Markdown.
std::vector<ReportFile> reportFiles(const DiagnosticsResult& result, const std::map<QString, QByteArray>& charts = {});

/// Writes reportFiles() into @p dir (created with its tables/ and charts/ folders when missing), each file
/// atomically. A Status error names the folder or file that could not be written.
Status writeReportFolder(
    const DiagnosticsResult& result, const QString& dir, const std::map<QString, QByteArray>& charts = {});

} // namespace nsw
