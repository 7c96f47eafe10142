// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadrun.h"

#include "core/profile/chunkassembly.h"
#include "core/profile/chunkplan.h"
#include "core/profile/correlationjoin.h"
#include "core/profile/exportcheck.h"
#include "core/profile/loadwarnings.h"
#include "core/profile/profileloader.h"
#include "core/profile/scannedtables.h"
#include "core/profile/scanscheduler.h"
#include "core/profile/stringresolver.h"
#include "core/sqlite/sqlitedb.h"
#include "core/util/heaptuning.h"

#include <map>

namespace nsw {

LoadRun::LoadRun(const QString& path, const LoadOptions& options, const JobContext& job)
    : m_path(path)
    , m_options(options)
    , m_job(job)
    , m_cancel(job.cancelToken())
    , m_stop(m_cancel.child())
{ }

LoadRun::~LoadRun() = default;

bool LoadRun::addTable(unsigned part, TableKind kind, const char* table, const QString& stage)
{
    const QString name = QLatin1String(table);
    if (!(m_options.parts & part) || !m_db->hasTable(name))
        return true;
    Result<std::vector<RowRange>> chunks = planChunks(*m_db, name, m_options.chunkRows, m_cancel);
    if (!chunks)
        return failWith(chunks.errorMessage());
    for (const RowRange& range : *chunks) {
        auto task = std::make_unique<ScanTask>();
        task->kind = kind;
        task->ctx.table = name;
        task->ctx.stage = stage;
        task->ctx.cancel = m_stop;
        task->ctx.lowerRowId = range.lower;
        task->ctx.upperRowId = range.upper;
        task->ctx.estimatedRows = range.estimatedRows;
        m_tasks.push_back(std::move(task));
    }
    return true;
}

bool LoadRun::scanTables()
{
    std::vector<ScanTask*> tasks;
    for (const auto& t : m_tasks)
        tasks.push_back(t.get());
    const std::optional<Error> error = runScans(
        m_path, tasks, m_options, m_stop, [this](const QString& stage, double fraction) { report(stage, fraction); });
    if (m_cancel.isCancelled())
        return false;
    if (error) {
        m_failure = *error;
        return false;
    }
    recordTimings();
    return true;
}

void LoadRun::recordTimings()
{
    // One line per table: rows summed over its chunks, time = the chunks' summed work (CPU time of the scan).
    std::vector<StageTiming> perTable;
    std::map<QString, std::pair<qint64, qint64>> damage; // table -> (rows skipped, ids unknown)
    for (const auto& t : m_tasks) {
        if (perTable.empty() || perTable.back().stage != t->ctx.stage)
            perTable.push_back({ t->ctx.stage, 0, 0 });
        perTable.back().milliseconds += t->ctx.milliseconds.load();
        perTable.back().rows += t->ctx.rowsRead.load();
        for (const QString& w : t->ctx.warnings)
            addWarning(w);
        damage[t->ctx.table].first += t->ctx.badTimeRows;
        damage[t->ctx.table].second += t->ctx.badIds;
    }
    for (const auto& [table, counts] : damage) {
        if (counts.first > 0)
            addWarning(skippedRowsWarning(table, counts.first));
        if (counts.second > 0)
            addWarning(unknownIdsWarning(table, counts.second));
    }
    m_outcome.timings.insert(m_outcome.timings.end(), perTable.begin(), perTable.end());
}

Result<std::vector<RawThreadName>> LoadRun::threadNames()
{
    return m_readThreadNames ? readThreadNames(*m_db)
                             : Result<std::vector<RawThreadName>>(std::vector<RawThreadName> {});
}

void LoadRun::assemble()
{
    const ChunkTasks tasks = chunkTasksOf(m_tasks);
    ProcessThreadRegistry registry(*m_profile);
    const std::vector<std::vector<std::int32_t>> nvtxThreads = remapProcessesAndThreads(tasks, registry);
    Result<std::vector<RawThreadName>> readNames = threadNames();
    if (!readNames) {
        failWith(readNames.errorMessage());
        return;
    }
    for (const QString& w : readNames.warnings())
        addWarning(w);
    const std::vector<RawThreadName>& names = *readNames;
    for (const RawThreadName& n : names)
        registry.thread(n.globalTid);

    StringResolver strings(*m_db, m_profile->strings, maxStringId(tasks, names));
    needChunkStrings(strings, tasks, names);
    QString error;
    if (stopped() || !strings.resolve(&error)) {
        failWith(error);
        return;
    }
    const std::vector<std::vector<StringRef>> nvtxInline = remapChunkStrings(strings, tasks);
    if (strings.missingIds() > 0)
        addWarning(missingStringsWarning(strings.missingIds()));
    nameThreads(*m_profile, names, registry, strings);
    mergeNvtxDomains(*m_profile, tasks, nvtxThreads, nvtxInline, registry, strings);
    if (stopped())
        return;
    mergeLaunchShapes(*m_profile, tasks);
    if (stopped())
        return;
    stitchChunks(*m_profile, tasks);
    for (const QString& w : stitchCpuSamples(*m_profile, tasks, strings, m_cancel))
        addWarning(w);
    m_tasks.clear();
}

bool LoadRun::addTables()
{
    for (const ScannedTable& t : scannedTables())
        if (!addTable(t.part, t.kind, t.table, QLatin1String(t.stage)))
            return false;
    return true;
}

bool LoadRun::open()
{
    if (const QString e = checkFileBeforeOpen(m_path); !e.isEmpty())
        return failWith(e);
    QString error;
    m_db = SqliteDb::open(m_path, &error);
    if (!m_db)
        return failWith(error);
    m_db->setInterruptToken(&m_cancel);
    m_outcome.sqliteAccess = QStringLiteral("%1; opened %2").arg(m_db->accessDescription(), m_db->openMode());
    if (const QString e = checkIsNsysExport(*m_db); !e.isEmpty())
        return failWith(e);
    m_profile = std::make_shared<Profile>();
    const Status metadata = readMetadata(*m_db, *m_profile);
    if (!metadata)
        return failWith(metadata.errorMessage());
    m_profile->meta.reportPath = m_reportPath;
    return true;
}

void LoadRun::noteMissingKernels()
{
    if (!(m_options.parts & LoadKernels) || m_profile->kernels.size() > 0)
        return;
    // A note on the profile, not damage: each command says in its own words that it found no kernels.
    const QString note = m_db->hasTable(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"))
        ? QStringLiteral("the kernel table is empty: no CUDA kernels were traced")
        : QStringLiteral("no CUDA kernels: the export has no CUPTI_ACTIVITY_KIND_KERNEL table");
    if (!m_profile->meta.warnings.contains(note))
        m_profile->meta.warnings.append(note);
}

void LoadRun::finish()
{
    noteMissingKernels();
    m_db.reset();
    trimHeap(); // chunk outputs and lookup tables were freed
    report(QStringLiteral("Done"), 1.0);
}

bool LoadRun::readTables(QElapsedTimer& stage)
{
    if (!scanTables())
        return false;
    stage.restart();
    report(QStringLiteral("Resolving names"), 0.92);
    assemble();
    if (stopped() || failed())
        return false;
    time(QStringLiteral("Resolve names and threads"), stage);
    return true;
}

bool LoadRun::openAndPlan(QElapsedTimer& stage)
{
    m_total.start();
    stage.start();
    report(QStringLiteral("Opening"), 0);
    return open() && addTables();
}

LoadResult LoadRun::run()
{
    QElapsedTimer stage;
    if (!openAndPlan(stage))
        return failure();
    time(QStringLiteral("Open and read metadata"), stage);

    if (!readTables(stage))
        return failure();

    return joinAndFinish(stage);
}

LoadResult LoadRun::joinAndFinish(QElapsedTimer& stage)
{
    report(QStringLiteral("Joining GPU work to API calls"), 0.96);
    joinCorrelations(*m_profile, m_cancel);
    if (stopped())
        return cancelled();
    computeActivitySpan(*m_profile);
    time(QStringLiteral("Join correlation ids"), stage);
    m_progressBase = 0;
    m_progressSpan = 1;
    finish();
    return loaded();
}

double LoadRun::setAsideSecondStage()
{
    double firstRows = 0, allRows = 0;
    std::vector<std::unique_ptr<ScanTask>> first;
    for (auto& t : m_tasks) {
        const bool isFirst = (scannedTable(t->kind).part & LoadFirstStage) != 0;
        const double rows = double(std::max<qint64>(t->ctx.estimatedRows, 1));
        allRows += rows;
        firstRows += isFirst ? rows : 0;
        (isFirst ? first : m_secondStageTasks).push_back(std::move(t));
    }
    m_tasks = std::move(first);
    return allRows > 0 ? firstRows / allRows : 1;
}

LoadResult LoadRun::runStaged(const FirstStageCallback& firstStage)
{
    QElapsedTimer stage;
    if (!openAndPlan(stage))
        return failure();
    const double firstShare = std::clamp(setAsideSecondStage(), 0.05, 0.95);
    time(QStringLiteral("Open and read metadata"), stage);

    m_progressSpan = firstShare;
    m_readThreadNames = false;
    if (!readTables(stage))
        return failure();
    computeActivitySpan(*m_profile);
    noteMissingKernels();
    firstStage(ProfilePtr(m_profile), LoadResult(m_outcome, m_warnings));
    if (stopped())
        return cancelled();

    // The first stage's profile is never written to again: the whole profile starts as its copy, which shares every
    // kernel and memory column (Column) and adds the second stage's tables.
    m_profile = std::make_shared<Profile>(std::as_const(*m_profile));
    m_tasks = std::move(m_secondStageTasks);
    m_progressBase = firstShare;
    m_progressSpan = 1 - firstShare;
    m_readThreadNames = true;
    if (!readTables(stage))
        return failure();
    return joinAndFinish(stage);
}

} // namespace nsw
