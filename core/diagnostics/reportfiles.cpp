// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportfiles.h"

#include "core/diagnostics/diagnosticsexport.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace nsw {

std::vector<ReportFile> reportFiles(const DiagnosticsResult& result, const std::map<QString, QByteArray>& pngs)
{
    std::vector<ReportFile> files {
        { QStringLiteral("report.md"), diagnosticsMarkdown(result) },
        { QStringLiteral("report.json"), QString::fromStdString(diagnosticsJson(result).dump(2)) + QLatin1Char('\n') },
        { QStringLiteral("report.html"), diagnosticsHtml(result, pngs) },
    };
    for (const DiagnosticsTable& t : diagnosticsTables(result))
        files.push_back({ QStringLiteral("tables/%1.csv").arg(t.id), diagnosticsTableCsv(t) });
    return files;
}

Status writeReportFolder(const DiagnosticsResult& result, const QString& dir, const std::map<QString, QByteArray>& pngs)
{
    const QString tables = QDir(dir).filePath(QStringLiteral("tables"));
    for (const QString& folder : { dir, tables }) {
        const QFileInfo info(folder);
        if (info.exists() && !info.isDir())
            return Status::failure(ErrorKind::Usage,
                QStringLiteral("%1: not a directory; refusing to write the report into it").arg(folder));
        if (!info.exists() && !QDir().mkpath(folder))
            return Status::failure(ErrorKind::Input, QStringLiteral("%1: cannot create the directory").arg(folder));
    }
    for (const ReportFile& f : reportFiles(result, pngs)) {
        const QString path = QDir(dir).filePath(f.relativePath);
        if (QFileInfo(path).exists() && !QFileInfo(path).isFile())
            return Status::failure(
                ErrorKind::Usage, QStringLiteral("%1: not a regular file; refusing to replace it").arg(path));
        QSaveFile out(path);
        const QByteArray bytes = f.text.toUtf8();
        if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit())
            return Status::failure(ErrorKind::Input, QStringLiteral("%1: %2").arg(path, out.errorString()));
    }
    return success();
}

} // namespace nsw
