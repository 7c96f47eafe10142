// SPDX-License-Identifier: GPL-3.0-or-later
#include "profileloader.h"

#include "core/jobs/jobguard.h"
#include "core/nsys/reportexport.h"
#include "core/profile/loadrun.h"
#include "core/util/heaptuning.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <algorithm>

namespace nsw {

// scancontext.cpp and sqlitedb.cpp say "in use by another process" or name a journal "left by a writer";
// sqlite3_errstr(SQLITE_NOMEM) is "out of memory".
ErrorKind loadErrorKind(const QString& message)
{
    if (message.contains(QLatin1String("in use by another process"))
        || message.contains(QLatin1String("left by a writer that did not finish")))
        return ErrorKind::Busy;
    if (message.contains(QLatin1String("out of memory")))
        return ErrorKind::OutOfMemory;
    return ErrorKind::Input;
}

namespace {

/// Runs @p run in stages when @p firstStage is set and the load has tables for both stages.
LoadResult runLoad(LoadRun& run, const LoadOptions& options, const FirstStageCallback& firstStage)
{
    const bool staged = firstStage && (options.parts & LoadFirstStage) && (options.parts & ~LoadFirstStage);
    return staged ? run.runStaged(firstStage) : run.run();
}

/// A .nsys-rep (or .qdrep/.qdstrm) is loaded through its SQLite export, made by nsys into the export cache: the
/// export takes the first half of the progress when nsys has to run, and the profile remembers the report.
LoadResult loadReport(
    const QString& path, const LoadOptions& options, const JobContext& job, const FirstStageCallback& firstStage)
{
    QElapsedTimer timer;
    timer.start();
    const Result<ExportedReport> exported = exportReportToSqlite(path, job.slice(0, 0.5));
    if (!exported)
        return exported.failureAs<LoadOutcome>();
    const qint64 exportMilliseconds = timer.elapsed();
    LoadRun run(exported->sqlitePath, options, exported->reused ? job : job.slice(0.5, 1));
    run.setReportPath(QFileInfo(path).absoluteFilePath());
    LoadResult result = runLoad(run, options, firstStage);
    if (!result)
        return result;
    result->timings.insert(result->timings.begin(),
        { exported->reused ? QStringLiteral("Export (cached)")
                           : QStringLiteral("Export with ") + exported->nsysDescription,
            exportMilliseconds, -1 });
    result->totalMilliseconds += exportMilliseconds;
    return result;
}

} // namespace

QString loadOutOfMemoryMessage(const QString& path)
{
    const double gb = std::max(0.1, double(QFileInfo(path).size()) * 0.4 / 1e9);
    return QStringLiteral("not enough memory to load %1: it needs about %2 GB").arg(path, QString::number(gb, 'f', 1));
}

LoadResult ProfileLoader::load(
    const QString& path, const LoadOptions& options, const JobContext& job, const FirstStageCallback& firstStage)
{
    returnLargeBlocksToTheSystem();
    LoadResult result = catchingExceptions<LoadOutcome>(
        [&]() {
            if (reportKindOf(path) != ReportKind::NotAReport)
                return loadReport(path, options, job, firstStage);
            LoadRun run(path, options, job);
            return runLoad(run, options, firstStage);
        },
        QStringLiteral("loading %1").arg(path));
    if (!result && result.error().kind == ErrorKind::OutOfMemory)
        return LoadResult(Error { ErrorKind::OutOfMemory, loadOutOfMemoryMessage(path) }, result.warnings());
    return result;
}

} // namespace nsw
