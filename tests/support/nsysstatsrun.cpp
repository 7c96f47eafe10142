// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsysstatsrun.h"

#include "core/profile/profileloader.h"
#include "core/reports/statsrun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <utility>

namespace nsw::test {

namespace {

/// [begin, end) of each field of an nsys CSV line, quotes included.
QList<std::pair<qsizetype, qsizetype>> fieldSpans(const QString& line)
{
    QList<std::pair<qsizetype, qsizetype>> spans;
    qsizetype i = 0;
    while (i <= line.size()) {
        qsizetype end = 0;
        if (i < line.size() && line[i] == QLatin1Char('"')) {
            const qsizetype close = line.indexOf(QLatin1String("\","), i + 1);
            end = close < 0 ? line.size() : close + 1;
        } else {
            const qsizetype comma = line.indexOf(QLatin1Char(','), i);
            end = comma < 0 ? line.size() : comma;
        }
        spans.append({ i, end });
        i = end + 1;
    }
    return spans;
}

} // namespace

QStringList parseNsysCsvLine(const QString& line)
{
    QStringList fields;
    for (const auto& [begin, end] : fieldSpans(line)) {
        const bool quoted = end - begin >= 2 && line[begin] == QLatin1Char('"') && line[end - 1] == QLatin1Char('"');
        fields << (quoted ? line.mid(begin + 1, end - begin - 2) : line.mid(begin, end - begin));
    }
    return fields;
}

QString withEmptyNulls(const QString& line)
{
    QString out;
    for (const auto& [begin, end] : fieldSpans(line)) {
        if (begin > 0)
            out += QLatin1Char(',');
        const QString field = line.mid(begin, end - begin);
        if (field != QLatin1String("None"))
            out += field;
    }
    return out;
}

QString copyForNsys(const QString& path, const QString& folder)
{
    const QString copy = QDir(folder).filePath(QFileInfo(path).fileName());
    QFile::remove(copy);
    if (!QFile::copy(path, copy))
        return {};
    QFile(copy).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return copy;
}

OurReports computeOurReports(const QString& path, const QStringList& reports)
{
    OurReports ours;
    const Result<StatsPlan> plan = planReports(reports);
    if (!plan) {
        ours.error = plan.errorMessage();
        return ours;
    }
    const LoadResult loaded = ProfileLoader::load(path, plan->load);
    if (!loaded.ok()) {
        ours.error = loaded.errorMessage();
        return ours;
    }
    Result<std::vector<ReportTable>> tables = computeReports(*plan, *loaded->profile);
    if (!tables) {
        ours.error = tables.errorMessage();
        return ours;
    }
    ours.tables = std::move(tables.value());
    ours.profile = loaded->profile;
    return ours;
}

NsysStatsRun runNsysStats(const QString& nsys, const QStringList& reports, const QString& file, const QString& workDir)
{
    NsysStatsRun run;
    QProcess p;
    p.setWorkingDirectory(workDir);
    p.start(nsys,
        { QStringLiteral("stats"), QStringLiteral("-f"), QStringLiteral("csv"), QStringLiteral("-r"),
            reports.join(QLatin1Char(',')), file });
    run.finished = p.waitForFinished(300000) && p.exitStatus() == QProcess::NormalExit;
    run.errors = QString::fromUtf8(p.readAllStandardError());
    for (const QString& line : QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("Processing ["))) {
            run.blocks.append(NsysBlock {});
            continue;
        }
        if (run.blocks.isEmpty() || line.isEmpty())
            continue;
        if (line.startsWith(QLatin1String("SKIPPED: ")))
            run.blocks.back().skipped = line.mid(9);
        else
            run.blocks.back().lines.append(line);
    }
    return run;
}

} // namespace nsw::test
