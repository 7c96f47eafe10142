// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportexport.h"

#include "core/nsys/exportcache.h"
#include "core/nsys/nsystool.h"
#include "core/nsys/processrun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace nsw {

namespace {
using Exported = Result<ExportedReport>;

QString describe(const NsysTool& tool)
{
    return tool.version.isEmpty() ? QStringLiteral("nsys (%1)").arg(tool.path)
                                  : QStringLiteral("nsys %1 (%2)").arg(tool.version, tool.path);
}

/// The lines of a tool's output that say something: progress bars and blank lines dropped, the last few kept.
QString messageOf(const QString& output)
{
    static const QRegularExpression progressBar(QStringLiteral("\\[[= ]*\\d{1,3}%[= ]*\\]"));
    QStringList lines;
    for (const QString& raw : output.split(QRegularExpression(QStringLiteral("[\r\n]")), Qt::SkipEmptyParts)) {
        const QString line = raw.trimmed();
        if (!line.isEmpty() && !progressBar.match(line).hasMatch())
            lines << line;
    }
    lines = lines.mid(std::max<qsizetype>(0, lines.size() - 4));
    return lines.isEmpty() ? QStringLiteral("no message") : lines.join(QLatin1Char(' '));
}

/// Runs one step (QdstrmImporter or nsys export); its "NN%" output becomes @p stage's progress.
Status runStep(const QString& reportPath, const QString& what, const ProcessRequest& request, const JobContext& context,
    const QString& stage, const std::function<void(const QString&)>& onOutput = {})
{
    context.report(stage, 0);
    const ProcessOutcome run = runProcess(request, context, [&](const QString& chunk) {
        if (onOutput)
            onOutput(chunk);
        const double fraction = lastPercentIn(chunk);
        if (fraction >= 0)
            context.report(stage, fraction, QStringLiteral("%1 %").arg(qRound(fraction * 100)));
    });
    if (run.cancelled)
        return Status::cancelled(QStringLiteral("%1: opening cancelled").arg(reportPath));
    if (run.succeeded())
        return success();
    if (!run.started)
        return Status::failure(ErrorKind::Tool, QStringLiteral("%1: %2").arg(reportPath, run.startError));
    return Status::failure(ErrorKind::Tool,
        QStringLiteral("%1: %2 failed (%3): %4")
            .arg(reportPath, what, run.endDescription(request.timeoutSeconds), messageOf(run.outputTail)));
}

QString checkReadable(const QFileInfo& report)
{
    if (!report.exists())
        return QStringLiteral("%1: no such file").arg(report.filePath());
    if (!report.isFile())
        return QStringLiteral("%1: not a regular file").arg(report.filePath());
    if (!report.isReadable())
        return QStringLiteral("%1: cannot be read").arg(report.filePath());
    if (report.size() == 0)
        return QStringLiteral("%1: the file is empty (0 bytes), not an nsys report").arg(report.filePath());
    return {};
}
} // namespace

QString reportRecorderVersion(const QString& reportPath)
{
    // nsys stores its version (with the build hash, "2022.4.2.1-df9881f") in the report's metadata, a few hundred
    // bytes before the end; the section table follows it.
    constexpr qint64 kTail = 1 << 20;
    QFile file(reportPath);
    if (!QFileInfo(reportPath).isFile() || !file.open(QIODevice::ReadOnly))
        return {};
    file.seek(std::max<qint64>(0, file.size() - kTail));
    const QString tail = QString::fromLatin1(file.read(kTail));
    static const QRegularExpression version(
        QStringLiteral("(20\\d\\d\\.\\d{1,2}\\.\\d{1,3}\\.\\d{1,6})-[0-9A-Za-z]{6,}"));
    QString last;
    for (auto it = version.globalMatch(tail); it.hasNext();)
        last = it.next().captured(1);
    return last;
}

int compareNsysReleases(const QString& a, const QString& b)
{
    const QStringList x = a.split(QLatin1Char('.'));
    const QStringList y = b.split(QLatin1Char('.'));
    for (qsizetype i = 0; i < 2; ++i) {
        const int u = x.value(i).toInt();
        const int v = y.value(i).toInt();
        if (u != v)
            return u < v ? -1 : 1;
    }
    return 0;
}

ReportKind reportKindOf(const QString& path)
{
    QFile file(path);
    QByteArray head;
    if (QFileInfo(path).isFile() && file.open(QIODevice::ReadOnly))
        head = file.read(64);
    if (head.startsWith("NVIDIA Tegra Profiler Report"))
        return ReportKind::Report;
    if (head.contains("[END]NVIDIA Nsight Systems"))
        return ReportKind::Stream;
    if (head.startsWith("SQLite format 3"))
        return ReportKind::NotAReport;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("nsys-rep") || suffix == QLatin1String("qdrep"))
        return ReportKind::Report;
    if (suffix == QLatin1String("qdstrm"))
        return ReportKind::Stream;
    return ReportKind::NotAReport;
}

QStringList profileFileFilters()
{
    return { QStringLiteral("*.sqlite"), QStringLiteral("*.nsys-rep"), QStringLiteral("*.qdrep"),
        QStringLiteral("*.qdstrm") };
}

bool isProfileFileName(const QString& path)
{
    return QDir::match(profileFileFilters(), QFileInfo(path).fileName());
}

QStringList profilesInFolder(const QString& folder)
{
    const QDir dir(folder);
    QStringList profiles;
    const QFileInfoList files = dir.entryInfoList(profileFileFilters(), QDir::Files, QDir::Name);
    for (const QFileInfo& f : files) {
        const bool isExport = f.suffix().compare(QLatin1String("sqlite"), Qt::CaseInsensitive) == 0;
        if (!isExport && dir.exists(f.completeBaseName() + QStringLiteral(".sqlite")))
            continue;
        // A .qdstrm whose import finished sits beside its report.
        if (f.suffix() == QLatin1String("qdstrm") && dir.exists(f.completeBaseName() + QStringLiteral(".nsys-rep")))
            continue;
        profiles.append(f.absoluteFilePath());
    }
    return profiles;
}

Status importCapture(const NsysTool& tool, const QString& stream, const QString& output, const JobContext& context,
    const std::function<void(const QString&)>& onOutput)
{
    if (tool.importerPath.isEmpty())
        return Status::failure(ErrorKind::Tool,
            QStringLiteral("%1: is a raw nsys capture (.qdstrm); importing it needs QdstrmImporter, which is not next "
                           "to %2. Install Nsight Systems' host package")
                .arg(stream, describe(tool)));
    const ProcessRequest import { tool.importerPath,
        { QStringLiteral("-i"), stream, QStringLiteral("-o"), output, QStringLiteral("-f") },
        QFileInfo(output).absolutePath(), QProcessEnvironment::systemEnvironment(), nsysTimeoutSeconds() };
    if (onOutput)
        onOutput(QStringLiteral("$ %1 %2\n").arg(import.program, import.arguments.join(QLatin1Char(' '))));
    return runStep(
        stream, QStringLiteral("QdstrmImporter"), import, context, QStringLiteral("Importing the capture"), onOutput);
}

Exported exportReportToSqlite(const QString& reportPath, const JobContext& context)
{
    const QFileInfo report(reportPath);
    if (const QString problem = checkReadable(report); !problem.isEmpty())
        return Exported::failure(ErrorKind::Input, problem);
    if (const QString cached = ExportCache::lookUp(report); !cached.isEmpty())
        return ExportedReport { cached, true, {} };

    Result<NsysTool> tool = findNsys();
    if (!tool)
        return Exported::failure(ErrorKind::Tool,
            QStringLiteral("%1: is an nsys report; opening it needs nsys to export it to SQLite, but %2")
                .arg(reportPath, tool.errorMessage()));
    const QString nsys = describe(*tool);
    const QString recordedBy
        = reportKindOf(reportPath) == ReportKind::Report ? reportRecorderVersion(reportPath) : QString();
    if (!recordedBy.isEmpty() && !tool->version.isEmpty() && compareNsysReleases(recordedBy, tool->version) > 0)
        return Exported::failure(ErrorKind::Tool,
            QStringLiteral("%1: was recorded by Nsight Systems %2, which %3 is too old to read. Install Nsight Systems "
                           "%4 or newer and choose its nsys in Preferences (or NSYS_WORKBENCH_NSYS)")
                .arg(reportPath, recordedBy, nsys, recordedBy.section(QLatin1Char('.'), 0, 1)));

    // A work folder inside the cache: the export is renamed into its entry on the same file system, and whatever
    // else nsys writes stays out of the user's folders.
    QDir().mkpath(ExportCache::folder());
    QTemporaryDir work(ExportCache::folder() + QStringLiteral("/tmp-XXXXXX"));
    if (!work.isValid())
        return Exported::failure(ErrorKind::Input,
            QStringLiteral("%1: cannot create a work folder in the export cache %2: %3")
                .arg(reportPath, ExportCache::folder(), work.errorString()));
    const int timeout = nsysTimeoutSeconds();

    QString source = report.absoluteFilePath();
    const bool stream = reportKindOf(reportPath) == ReportKind::Stream;
    if (stream) {
        const QString imported = work.filePath(report.completeBaseName() + QStringLiteral(".nsys-rep"));
        if (Status s = importCapture(*tool, source, imported, context.slice(0, 0.5)); !s)
            return s.failureAs<ExportedReport>();
        source = imported;
    }

    const QString output = work.filePath(report.completeBaseName() + QStringLiteral(".sqlite"));
    ProcessRequest exportRequest { tool->path,
        { QStringLiteral("export"), QStringLiteral("--type"), QStringLiteral("sqlite"),
            QStringLiteral("--force-overwrite"), QStringLiteral("true"), QStringLiteral("--output"), output, source },
        work.path(), QProcessEnvironment::systemEnvironment(), timeout };
    const JobContext step = stream ? context.slice(0.5, 1) : context;
    if (Status s = runStep(
            reportPath, nsys + QStringLiteral(" export"), exportRequest, step, QStringLiteral("Exporting with nsys"));
        !s) {
        Exported failed = s.failureAs<ExportedReport>();
        if (!s.isCancelled()) {
            QString message = s.errorMessage();
            if (!message.endsWith(QLatin1Char('.')))
                message += QLatin1Char('.');
            message += recordedBy.isEmpty()
                ? QStringLiteral(" The report is damaged, or was recorded by an Nsight Systems newer than this nsys "
                                 "(then install that version and set it in Preferences or NSYS_WORKBENCH_NSYS)")
                : QStringLiteral(" The report (recorded by Nsight Systems %1) is damaged").arg(recordedBy);
            failed = Exported::failure(ErrorKind::Tool, message);
        }
        return failed;
    }
    if (QFileInfo(output).size() == 0)
        return Exported::failure(ErrorKind::Tool,
            QStringLiteral("%1: %2 export reported success but wrote no SQLite file").arg(reportPath, nsys));
    QString error;
    const QString stored = ExportCache::store(report, output, &error);
    if (stored.isEmpty())
        return Exported::failure(ErrorKind::Input, QStringLiteral("%1: %2").arg(reportPath, error));
    ExportCache::evict(ExportCache::limitBytes(), stored);
    return ExportedReport { stored, false, nsys };
}

Result<QString> sqliteFileFor(const QString& path, const JobContext& context)
{
    if (reportKindOf(path) == ReportKind::NotAReport)
        return path;
    const Exported exported = exportReportToSqlite(path, context);
    if (!exported)
        return exported.failureAs<QString>();
    return exported->sqlitePath;
}

} // namespace nsw
