// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnostics.h"

#include <QByteArray>
#include <QString>
#include <functional>
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

/// Why a path must not be written (e.g. it is one of the command's inputs), or empty.
using OutputRefusal = std::function<QString(const QString& path)>;

/// Writes reportFiles() into @p dir (created with its tables/ and charts/ folders when missing), each file
/// atomically: what `report --out DIR` and the Findings pane's Export → Report both call. Every path is checked
/// before anything is written: one that exists and is not a regular file, the profile's own export, or one
/// @p refuse refuses (Usage error), so a refusal leaves the folder as it was. A Status error names the folder or
/// file that could not be written (Input).
Status writeReportFolder(const DiagnosticsResult& result, const QString& dir,
    const std::map<QString, QByteArray>& charts = {}, const OutputRefusal& refuse = {});

} // namespace nsw
