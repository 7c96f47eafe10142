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

namespace {
/// Why @p path must not be written: not a regular file, the profile's export, or refused by the caller.
QString refusalOf(const QString& path, const DiagnosticsResult& result, const OutputRefusal& refuse)
{
    const QFileInfo info(path);
    if (refuse)
        if (const QString why = refuse(path); !why.isEmpty())
            return why;
    if (info.exists() && !info.isFile())
        return QStringLiteral("%1: not a regular file; refusing to replace it").arg(path);
    if (info.exists() && result.profile
        && (info == QFileInfo(result.profile->meta.filePath) || info == QFileInfo(result.profile->meta.reportPath)))
        return QStringLiteral("%1: is the profile's own file; refusing to overwrite it").arg(path);
    return {};
}
} // namespace

Status writeReportFolder(const DiagnosticsResult& result, const QString& dir,
    const std::map<QString, QByteArray>& charts, const OutputRefusal& refuse)
{
    QStringList folders { dir, QDir(dir).filePath(QStringLiteral("tables")) };
    if (!charts.empty())
        folders << QDir(dir).filePath(QStringLiteral("charts"));
    for (const QString& folder : folders)
        if (const QFileInfo info(folder); info.exists() && !info.isDir())
            return Status::failure(ErrorKind::Usage,
                QStringLiteral("%1: not a directory; refusing to write the report into it").arg(folder));
    const std::vector<ReportFile> files = reportFiles(result, charts);
    for (const ReportFile& f : files)
        if (const QString why = refusalOf(QDir(dir).filePath(f.relativePath), result, refuse); !why.isEmpty())
            return Status::failure(ErrorKind::Usage, why);
    for (const QString& folder : folders)
        if (!QFileInfo(folder).exists() && !QDir().mkpath(folder))
            return Status::failure(ErrorKind::Input, QStringLiteral("%1: cannot create the directory").arg(folder));
    for (const ReportFile& f : files) {
        const QString path = QDir(dir).filePath(f.relativePath);
        QSaveFile out(path);
        if (!out.open(QIODevice::WriteOnly) || out.write(f.bytes) != f.bytes.size() || !out.commit())
            return Status::failure(ErrorKind::Input, QStringLiteral("%1: %2").arg(path, out.errorString()));
    }
    return success();
}

} // namespace nsw
