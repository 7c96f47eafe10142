// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportfiles.h"

#include "core/diagnostics/diagnosticsexport.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace nsw {

std::vector<ReportFile> reportFiles(const DiagnosticsResult& result, const std::map<QString, QByteArray>& charts)
{
    QString markdown = diagnosticsMarkdown(result);
    if (!charts.empty()) {
        markdown += QStringLiteral("## Charts\n\n");
        for (const auto& [id, png] : charts)
            markdown += QStringLiteral("![%1](charts/%1.png)\n\n").arg(id);
    }
    std::vector<ReportFile> files {
        { QStringLiteral("report.md"), markdown.toUtf8() },
        { QStringLiteral("report.json"), QByteArray::fromStdString(diagnosticsJson(result).dump(2)) + '\n' },
        { QStringLiteral("report.html"), diagnosticsHtml(result, charts).toUtf8() },
    };
    for (const DiagnosticsTable& t : diagnosticsTables(result))
        files.push_back({ QStringLiteral("tables/%1.csv").arg(t.id), diagnosticsTableCsv(t).toUtf8() });
    for (const auto& [id, png] : charts)
        files.push_back({ QStringLiteral("charts/%1.png").arg(id), png });
    return files;
}

Status writeReportFolder(
    const DiagnosticsResult& result, const QString& dir, const std::map<QString, QByteArray>& charts)
{
    QStringList folders { dir, QDir(dir).filePath(QStringLiteral("tables")) };
    if (!charts.empty())
        folders << QDir(dir).filePath(QStringLiteral("charts"));
    for (const QString& folder : folders) {
        const QFileInfo info(folder);
        if (info.exists() && !info.isDir())
            return Status::failure(ErrorKind::Usage,
                QStringLiteral("%1: not a directory; refusing to write the report into it").arg(folder));
        if (!info.exists() && !QDir().mkpath(folder))
            return Status::failure(ErrorKind::Input, QStringLiteral("%1: cannot create the directory").arg(folder));
    }
    for (const ReportFile& f : reportFiles(result, charts)) {
        const QString path = QDir(dir).filePath(f.relativePath);
        if (QFileInfo(path).exists() && !QFileInfo(path).isFile())
            return Status::failure(
                ErrorKind::Usage, QStringLiteral("%1: not a regular file; refusing to replace it").arg(path));
        QSaveFile out(path);
        if (!out.open(QIODevice::WriteOnly) || out.write(f.bytes) != f.bytes.size() || !out.commit())
            return Status::failure(ErrorKind::Input, QStringLiteral("%1: %2").arg(path, out.errorString()));
    }
    return success();
}

} // namespace nsw
