// SPDX-License-Identifier: GPL-3.0-or-later
#include "profileloader.h"

#include "core/jobs/jobguard.h"
#include "core/nsys/reportexport.h"
#include "core/profile/chunkplan.h"
#include "core/profile/correlationjoin.h"
#include "core/profile/exportcheck.h"
#include "core/profile/loadwarnings.h"
#include "core/profile/metadatareader.h"
#include "core/profile/samplereader.h"
#include "core/profile/stringresolver.h"
#include "core/profile/tablereaders.h"
#include "core/sqlite/sqlitedb.h"
#include "core/util/hugepages.h"
#include "core/util/numberformat.h"

#if defined(__SANITIZE_ADDRESS__)
#define NSW_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSW_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef NSW_ADDRESS_SANITIZER
#define NSW_ADDRESS_SANITIZER 0
#endif

#include <QElapsedTimer>
#include <QFileInfo>

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <QHash>
#include <QScopeGuard>
#include <QThread>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>

namespace nsw {

namespace {

enum class TableKind
{
    Kernels,
    Memcpy,
    Memset,
    Graphs,
    CudaApi,
    Nvtx,
    Osrt,
    Samples,
    Callchains
};

/// The kind of a load error from its message: the file is locked by a writer (scancontext.cpp, sqlitedb.cpp say "in
/// use by another process" or name a journal "left by a writer"), or SQLite ran out of memory ("out of memory",
/// sqlite3_errstr(SQLITE_NOMEM)); otherwise the file is unreadable or not what it should be.
ErrorKind loadErrorKind(const QString& message)
{
    if (message.contains(QLatin1String("in use by another process"))
        || message.contains(QLatin1String("left by a writer that did not finish")))
        return ErrorKind::Busy;
    if (message.contains(QLatin1String("out of memory")))
        return ErrorKind::OutOfMemory;
    return ErrorKind::Input;
}

/// One chunk of one table: its own connection-independent context (local maps) and its own output.
struct ScanTask
{
    TableKind kind;
    ScanContext ctx;
    KernelScan kernels;
    MemOpTable memops;
    GraphLaunchTable graphs;
    CudaApiTable api;
    NvtxScan nvtx;
    OsrtTable osrt;
    SampleScan samples;
    CallchainScan callchains;
};

/// Global process and thread tables, filled from PROCESSES first and then from whatever rows reference.
class Registry
{
public:
    explicit Registry(Profile& profile)
        : m_profile(profile)
    {
        for (std::size_t i = 0; i < profile.processes.size(); ++i)
            m_processIndex.insert(profile.processes[i].globalPid, ProcessIndex(i));
        for (std::size_t i = 0; i < profile.threads.size(); ++i)
            m_threadIndex.insert(profile.threads[i].globalTid, ThreadIndex(i));
    }

    ProcessIndex process(qint64 globalPid)
    {
        globalPid = globalPidOf(globalPid);
        const auto it = m_processIndex.constFind(globalPid);
        if (it != m_processIndex.constEnd())
            return it.value();
        ProcessInfo p;
        p.globalPid = globalPid;
        p.pid = pidOf(globalPid);
        p.hostKey = hostKeyOf(globalPid);
        m_profile.processes.push_back(p);
        const auto index = ProcessIndex(m_profile.processes.size() - 1);
        m_processIndex.insert(globalPid, index);
        return index;
    }

    ThreadIndex thread(qint64 globalTid)
    {
        const auto it = m_threadIndex.constFind(globalTid);
        if (it != m_threadIndex.constEnd())
            return it.value();
        ThreadInfo t;
        t.globalTid = globalTid;
        t.tid = tidOf(globalTid);
        t.process = process(globalPidOf(globalTid));
        m_profile.threads.push_back(t);
        const auto index = ThreadIndex(m_profile.threads.size() - 1);
        m_threadIndex.insert(globalTid, index);
        return index;
    }

    std::vector<std::int32_t> processRemap(const LocalKeyMap& local)
    {
        std::vector<std::int32_t> remap;
        for (const std::int64_t key : local.keys())
            remap.push_back(process(key));
        return remap;
    }

    std::vector<std::int32_t> threadRemap(const LocalKeyMap& local)
    {
        std::vector<std::int32_t> remap;
        for (const std::int64_t key : local.keys())
            remap.push_back(thread(key));
        return remap;
    }

private:
    Profile& m_profile;
    QHash<qint64, ProcessIndex> m_processIndex;
    QHash<qint64, ThreadIndex> m_threadIndex;
};

template <typename C> void remapIndices(C& column, const std::vector<std::int32_t>& remap)
{
    for (auto& v : column)
        if (v >= 0)
            v = std::remove_reference_t<decltype(v)>(remap[std::size_t(v)]);
}
template <typename T> void remapIndices(IndexColumn<T>& column, const std::vector<std::int32_t>& remap)
{
    column.transform([&](T v) { return v >= 0 ? T(remap[std::size_t(v)]) : v; });
}

/// The @p member scan of each task.
template <typename Scan> std::vector<Scan*> scansOf(const std::vector<ScanTask*>& tasks, Scan ScanTask::*member)
{
    std::vector<Scan*> scans;
    for (ScanTask* t : tasks)
        scans.push_back(&(t->*member));
    return scans;
}

void needLocalNames(StringResolver& strings, const ScanContext& ctx)
{
    for (const std::int64_t raw : ctx.names.keys())
        strings.need(std::int32_t(raw));
}

/// Local name index (ScanContext::localName) -> string pool index.
std::vector<StringRef> localNameRefs(
    const StringResolver& strings, const ScanContext& ctx, const std::vector<StringRef>& inlineRefs)
{
    std::vector<StringRef> refs;
    refs.reserve(ctx.names.keys().size());
    for (const std::int64_t raw : ctx.names.keys())
        refs.push_back(strings.refOfRaw(std::int32_t(raw), inlineRefs));
    return refs;
}

/// Appends the chunks' column to @p dest in order, freeing each chunk's copy as soon as it is moved: the peak grows
/// by one column, not by one table. Without chunks @p dest is not touched (in the second stage of a staged load the
/// kernel columns are shared with the first stage's profile and must stay so).
template <typename Table, typename Member>
void concatColumn(Table& dest, const std::vector<Table*>& parts, Member member)
{
    if (parts.empty())
        return;
    std::size_t total = (dest.*member).size();
    for (Table* p : parts)
        total += (p->*member).size();
    // Time and index columns are encoded: an empty column takes the first chunk's storage as it is, later chunks are
    // appended value by value.
    if constexpr (requires { (dest.*member).append(dest.*member); }) {
        auto& out = dest.*member;
        for (Table* p : parts) {
            auto& in = p->*member;
            if (out.empty()) {
                out = std::move(in);
            } else {
                out.reserve(total);
                out.append(in);
            }
            in.release();
        }
    } else if (parts.size() == 1 && (dest.*member).empty()) {
        dest.*member = std::move(parts[0]->*member);
    } else {
        auto& out = dest.*member;
        reserveHugePages(out, total);
        for (Table* p : parts) {
            const auto& in = std::as_const(p->*member);
            out.append(in.begin(), in.end());
            (p->*member).release();
        }
    }
}

template <typename Table, typename... Members>
void concatColumns(Table& dest, const std::vector<Table*>& parts, Members... members)
{
    (concatColumn<Table>(dest, parts, members), ...);
}

template <typename Table> void concatActivity(Table& dest, const std::vector<Table*>& parts)
{
    concatColumns(dest, parts, &Table::start, &Table::end, &Table::process, &Table::device, &Table::context,
        &Table::stream, &Table::correlation);
}

void computeActivitySpan(Profile& p)
{
    TimeNs lo = std::numeric_limits<TimeNs>::max();
    TimeNs hi = std::numeric_limits<TimeNs>::min();
    auto cover = [&](const TimeColumn& starts, const TimeColumn& ends) {
        for (const TimeNs s : starts)
            lo = std::min(lo, s);
        for (const TimeNs e : ends)
            if (e != kNoTime)
                hi = std::max(hi, e);
    };
    cover(p.kernels.start, p.kernels.end);
    cover(p.memops.start, p.memops.end);
    cover(p.graphLaunches.start, p.graphLaunches.end);
    cover(p.cudaApi.start, p.cudaApi.end);
    cover(p.nvtx.start, p.nvtx.end);
    cover(p.nvtx.start, p.nvtx.start);
    if (lo <= hi) {
        p.activityStart = lo;
        p.activityEnd = hi;
    }
}

class LoadRun
{
public:
    LoadRun(const QString& path, const LoadOptions& options, const JobContext& job)
        : m_path(path)
        , m_options(options)
        , m_job(job)
        , m_cancel(job.cancelToken())
        , m_stop(m_cancel.child())
    { }

    /// The .nsys-rep the file was exported from (kept in the profile's metadata).
    void setReportPath(const QString& reportPath) { m_reportPath = reportPath; }
    LoadResult run();
    /// The same load in two stages: kernels, memory operations and graph launches first, handed to @p firstStage;
    /// then CUDA API calls, NVTX and OS runtime into a profile that shares the first stage's columns.
    LoadResult runStaged(const FirstStageCallback& firstStage);

private:
    /// @p fraction of the current stage, mapped onto the whole load.
    void report(const QString& stage, double fraction)
    {
        m_job.report(stage, std::clamp(m_progressBase + m_progressSpan * fraction, 0.0, 1.0));
    }
    /// Scans the planned tables and joins their chunks into the profile.
    bool readTables(QElapsedTimer& stage);
    /// Links GPU rows to their launching calls, then hands the profile over.
    LoadResult joinAndFinish(QElapsedTimer& stage);
    /// Moves the tables of the second stage out of m_tasks; returns the first stage's share of the rows.
    double setAsideSecondStage();
    void time(const QString& stage, QElapsedTimer& timer, qint64 rows = -1)
    {
        m_outcome.timings.push_back({ stage, timer.restart(), rows });
    }
    bool addTable(unsigned part, TableKind kind, const char* table, const QString& stage);
    bool addTables();
    bool stopped() const { return m_cancel.isCancelled(); }
    /// Damage the load tolerated: in LoadResult::warnings (printed by the CLI) and in the profile's notes.
    void addWarning(const QString& warning)
    {
        if (!m_warnings.contains(warning))
            m_warnings.append(warning);
        if (!m_profile->meta.warnings.contains(warning))
            m_profile->meta.warnings.append(warning);
    }
    bool runScans();
    void recordTimings();
    std::vector<ScanTask*> tasksOf(TableKind kind) const;
    /// The chunks of every table, by kind, in rowid order.
    struct ChunkTasks
    {
        std::vector<ScanTask*> kernels, memcpys, memsets, graphs, api, nvtx, osrt, samples, callchains;
    };
    ChunkTasks chunkTasks() const;
    /// Joins the chunks into the profile: ids, strings and names, NVTX domains, launch shapes, then the columns.
    void assemble();
    /// Returns, per NVTX chunk, its local thread indices → the profile's.
    std::vector<std::vector<std::int32_t>> remapProcessesAndThreads(const ChunkTasks& tasks, Registry& registry);
    std::int64_t maxStringId(const ChunkTasks& tasks, const std::vector<RawThreadName>& threadNames) const;
    bool resolveStrings(const ChunkTasks& tasks, const std::vector<RawThreadName>& threadNames, StringResolver& strings,
        std::vector<std::vector<StringRef>>& nvtxInline);
    /// A raw name: a StringIds id, or an inline text of the chunk with @p inlineRefs.
    QString nameOf(const StringResolver& strings, std::int32_t raw, const std::vector<StringRef>& inlineRefs) const;
    void nameThreads(const std::vector<RawThreadName>& threadNames, Registry& registry, const StringResolver& strings);
    void mergeNvtxDomains(const ChunkTasks& tasks, const std::vector<std::vector<std::int32_t>>& nvtxThreads,
        const std::vector<std::vector<StringRef>>& nvtxInline, Registry& registry, const StringResolver& strings);
    void mergeLaunchShapes(const ChunkTasks& tasks);
    void stitchChunks(const ChunkTasks& tasks);
    bool open();
    void noteMissingKernels();
    void finish();
    bool failWith(const QString& error)
    {
        m_failure = { loadErrorKind(error), error };
        return false;
    }
    bool failed() const { return !m_failure.message.isEmpty(); }
    LoadResult cancelled() const
    {
        return LoadResult(
            Error { ErrorKind::Cancelled, QStringLiteral("%1: loading cancelled").arg(m_path) }, m_warnings);
    }
    /// The failure recorded (failWith(), a scan's error or exception), or the cancel.
    LoadResult failure() const { return stopped() || !failed() ? cancelled() : LoadResult(m_failure, m_warnings); }
    LoadResult loaded()
    {
        m_outcome.profile = std::move(m_profile);
        m_outcome.totalMilliseconds = m_total.elapsed();
        return LoadResult(std::move(m_outcome), m_warnings);
    }

    QString m_path;
    QString m_reportPath;
    LoadOptions m_options;
    JobContext m_job;
    CancelToken m_cancel;
    CancelToken m_stop; ///< cancelled with m_cancel, or alone by a failed scan: stops the other scans
    QElapsedTimer m_total;
    LoadOutcome m_outcome; ///< the timings and access so far; the profile once whole
    Warnings m_warnings;
    Error m_failure; ///< empty message: none
    std::unique_ptr<SqliteDb> m_db;
    std::shared_ptr<Profile> m_profile;
    std::vector<std::unique_ptr<ScanTask>> m_tasks; ///< in table order, chunks in rowid order
    std::vector<std::unique_ptr<ScanTask>> m_secondStageTasks; ///< of a staged load, while the first stage runs
    bool m_readThreadNames = true; ///< false in a staged load's first stage: no table of it references threads
    double m_progressBase = 0;
    double m_progressSpan = 1;
};

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

std::vector<ScanTask*> LoadRun::tasksOf(TableKind kind) const
{
    std::vector<ScanTask*> tasks;
    for (const auto& t : m_tasks)
        if (t->kind == kind)
            tasks.push_back(t.get());
    return tasks;
}

bool runTask(const SqliteDb& db, ScanTask& t, const LoadOptions& options)
{
    switch (t.kind) {
    case TableKind::Kernels:
        return readKernels(db, t.ctx, t.kernels, options.kernelColumns);
    case TableKind::Memcpy:
        return readMemcpy(db, t.ctx, t.memops);
    case TableKind::Memset:
        return readMemset(db, t.ctx, t.memops);
    case TableKind::Graphs:
        return readGraphTrace(db, t.ctx, t.graphs);
    case TableKind::CudaApi:
        return readCudaApi(db, t.ctx, t.api);
    case TableKind::Nvtx:
        return readNvtx(db, t.ctx, t.nvtx);
    case TableKind::Osrt:
        return readOsrt(db, t.ctx, t.osrt);
    case TableKind::Samples:
        return readSamples(db, t.ctx, t.samples);
    case TableKind::Callchains:
        return readCallchains(db, t.ctx, t.callchains);
    }
    return false;
}

/// "Reading kernels 1.2M/4.0M": rows read so far over the rows expected, summed over the stage's chunks.
QString stageWithRows(const std::vector<ScanTask*>& tasks, const QString& stage)
{
    qint64 read = 0, expected = 0;
    for (const ScanTask* t : tasks) {
        if (t->ctx.stage != stage)
            continue;
        read += t->ctx.rowsRead.load();
        expected += std::max<qint64>(t->ctx.estimatedRows, 0);
    }
    return stage + QLatin1Char(' ') + compactCount(std::min(read, expected)) + QLatin1Char('/')
        + compactCount(expected);
}

bool LoadRun::runScans()
{
    // Largest chunks first so that the slowest one starts at once; m_tasks keeps table/rowid order for assembly.
    std::vector<ScanTask*> queue;
    for (const auto& t : m_tasks)
        queue.push_back(t.get());
    std::stable_sort(queue.begin(), queue.end(),
        [](const ScanTask* a, const ScanTask* b) { return a->ctx.estimatedRows > b->ctx.estimatedRows; });
    const int cores = std::max(1, QThread::idealThreadCount());
    // NSW_LOAD_THREADS overrides the default for benchmarking and diagnosis.
    const int fromEnvironment = qEnvironmentVariableIntValue("NSW_LOAD_THREADS");
    const int wanted = m_options.threads > 0 ? m_options.threads : fromEnvironment > 0 ? fromEnvironment : cores;
    const int workers = std::max(1, std::min<int>(wanted, int(queue.size())));

    std::atomic<std::size_t> next { 0 };
    std::atomic<int> running { workers };
    std::mutex mutex;
    std::condition_variable done;
    QString openError;

    std::optional<Error> workerFailure; // an exception that escaped a worker (out of memory, a bug)
    auto scanAll = [&]() {
        QString error;
        std::unique_ptr<SqliteDb> db = SqliteDb::open(m_path, &error);
        if (db)
            db->setInterruptToken(&m_stop); // a long statement stops at once on cancel or on another scan's error
        if (!db) {
            std::lock_guard lock(mutex);
            openError = error;
            m_stop.cancel();
        }
        for (std::size_t i; db && !m_stop.isCancelled() && (i = next.fetch_add(1)) < queue.size();) {
            ScanTask& task = *queue[i];
            QElapsedTimer timer;
            timer.start();
            if (!runTask(*db, task, m_options))
                m_stop.cancel();
            task.ctx.milliseconds = std::max<qint64>(timer.elapsed(), 1);
        }
    };
    // A worker is a thread entry: whatever it throws becomes the load's error, and it always says it ended.
    auto worker = [&]() {
        try {
            scanAll();
        } catch (...) {
            const Error e = errorOfException(std::current_exception(), QStringLiteral("loading %1").arg(m_path));
            std::lock_guard lock(mutex);
            if (!workerFailure)
                workerFailure = e;
            m_stop.cancel();
        }
        std::lock_guard lock(mutex);
        --running;
        done.notify_all();
    };
    std::vector<std::thread> threads;
    // Stopped and joined on every way out of here, a throw on this thread included (a progress report that fails).
    const auto joinAll = qScopeGuard([&]() {
        if (std::any_of(threads.begin(), threads.end(), [](const std::thread& t) { return t.joinable(); }))
            m_stop.cancel();
        for (std::thread& t : threads)
            if (t.joinable())
                t.join();
    });
    try {
        for (int i = 0; i < workers; ++i)
            threads.emplace_back(worker);
    } catch (...) { // a thread that cannot start (no address space for its stack): the others stop, then the error
        {
            std::lock_guard lock(mutex);
            running -= workers - int(threads.size());
            workerFailure = errorOfException(std::current_exception(), QStringLiteral("loading %1").arg(m_path));
        }
        m_stop.cancel();
    }

    double estimated = 0;
    for (const ScanTask* t : queue)
        estimated += double(std::max<qint64>(t->ctx.estimatedRows, 1));
    double reported = 0;
    {
        std::unique_lock lock(mutex);
        while (running > 0) {
            done.wait_for(lock, std::chrono::milliseconds(50));
            double read = 0;
            const ScanTask* busiest = nullptr;
            for (const ScanTask* t : queue) {
                const auto rows = double(t->ctx.rowsRead.load());
                read += std::min(rows, double(std::max<qint64>(t->ctx.estimatedRows, 1)));
                if (t->ctx.milliseconds.load() == 0 && rows > 0
                    && (!busiest || t->ctx.estimatedRows > busiest->ctx.estimatedRows))
                    busiest = t;
            }
            lock.unlock();
            reported = std::max(reported, 0.03 + 0.87 * read / estimated);
            report(busiest ? stageWithRows(queue, busiest->ctx.stage) : QStringLiteral("Reading tables"), reported);
            lock.lock();
        }
    }
    for (std::thread& t : threads)
        t.join();
    if (m_cancel.isCancelled())
        return false;
    if (workerFailure) {
        m_failure = *workerFailure;
        return false;
    }
    if (!openError.isEmpty())
        return failWith(openError);
    for (const auto& t : m_tasks)
        if (!t->ctx.error.isEmpty())
            return failWith(t->ctx.error);
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

LoadRun::ChunkTasks LoadRun::chunkTasks() const
{
    return { tasksOf(TableKind::Kernels), tasksOf(TableKind::Memcpy), tasksOf(TableKind::Memset),
        tasksOf(TableKind::Graphs), tasksOf(TableKind::CudaApi), tasksOf(TableKind::Nvtx), tasksOf(TableKind::Osrt),
        tasksOf(TableKind::Samples), tasksOf(TableKind::Callchains) };
}

std::vector<std::vector<std::int32_t>> LoadRun::remapProcessesAndThreads(const ChunkTasks& tasks, Registry& registry)
{
    // Local process and thread indices of each chunk -> the profile's.
    for (ScanTask* t : tasks.kernels)
        remapIndices(t->kernels.table.process, registry.processRemap(t->ctx.processes));
    for (ScanTask* t : tasks.memcpys)
        remapIndices(t->memops.process, registry.processRemap(t->ctx.processes));
    for (ScanTask* t : tasks.memsets)
        remapIndices(t->memops.process, registry.processRemap(t->ctx.processes));
    for (ScanTask* t : tasks.graphs)
        remapIndices(t->graphs.process, registry.processRemap(t->ctx.processes));
    for (ScanTask* t : tasks.api)
        remapIndices(t->api.thread, registry.threadRemap(t->ctx.threads));
    for (ScanTask* t : tasks.osrt)
        remapIndices(t->osrt.thread, registry.threadRemap(t->ctx.threads));
    for (ScanTask* t : tasks.samples)
        remapIndices(t->samples.thread, registry.threadRemap(t->ctx.threads));
    std::vector<std::vector<std::int32_t>> nvtxThreads;
    for (ScanTask* t : tasks.nvtx) {
        nvtxThreads.push_back(registry.threadRemap(t->ctx.threads));
        remapIndices(t->nvtx.table.thread, nvtxThreads.back());
        for (auto& [row, thread] : t->nvtx.table.endThread)
            thread = nvtxThreads.back()[std::size_t(thread)];
    }
    return nvtxThreads;
}

std::int64_t LoadRun::maxStringId(const ChunkTasks& tasks, const std::vector<RawThreadName>& threadNames) const
{
    std::int64_t maxId = -1;
    for (const auto& t : m_tasks)
        maxId = std::max(maxId, t->ctx.maxStringId);
    for (const RawThreadName& n : threadNames)
        maxId = std::max<std::int64_t>(maxId, n.nameId);
    for (const ScanTask* t : tasks.nvtx)
        for (const NvtxScan::Domain& d : t->nvtx.domains)
            maxId = std::max<std::int64_t>(maxId, d.nameValue);
    return maxId;
}

bool LoadRun::resolveStrings(const ChunkTasks& tasks, const std::vector<RawThreadName>& threadNames,
    StringResolver& strings, std::vector<std::vector<StringRef>>& nvtxInline)
{
    // StringIds ids from every chunk, inline NVTX texts per chunk.
    for (ScanTask* t : tasks.kernels) {
        strings.needColumn(t->kernels.table.demangledName);
        strings.needColumn(t->kernels.table.shortName);
        strings.needColumn(t->kernels.table.mangledName);
    }
    for (ScanTask* t : tasks.api)
        needLocalNames(strings, t->ctx);
    for (ScanTask* t : tasks.osrt)
        needLocalNames(strings, t->ctx);
    for (ScanTask* t : tasks.nvtx) {
        needLocalNames(strings, t->ctx);
        for (const NvtxScan::Domain& d : t->nvtx.domains)
            strings.need(d.nameValue);
        for (const auto& [thread, name] : t->nvtx.threadNames)
            strings.need(name);
    }
    for (const RawThreadName& n : threadNames)
        strings.need(n.nameId);
    needCallchainStrings(strings, scansOf(tasks.callchains, &ScanTask::callchains));
    QString error;
    if (stopped() || !strings.resolve(&error))
        return failWith(error);
    for (ScanTask* t : tasks.kernels) {
        strings.remapColumn(t->kernels.table.demangledName);
        strings.remapColumn(t->kernels.table.shortName);
        strings.remapColumn(t->kernels.table.mangledName);
    }
    for (ScanTask* t : tasks.api)
        remapIndices(t->api.name, localNameRefs(strings, t->ctx, {}));
    for (ScanTask* t : tasks.osrt)
        remapIndices(t->osrt.name, localNameRefs(strings, t->ctx, {}));
    for (ScanTask* t : tasks.nvtx) {
        nvtxInline.push_back(strings.internTexts(t->ctx.inlineTexts.texts()));
        remapIndices(t->nvtx.table.name, localNameRefs(strings, t->ctx, nvtxInline.back()));
    }
    if (strings.missingIds() > 0)
        addWarning(missingStringsWarning(strings.missingIds()));
    return true;
}

QString LoadRun::nameOf(const StringResolver& strings, std::int32_t raw, const std::vector<StringRef>& inlineRefs) const
{
    if (raw >= 0)
        return m_profile->strings.at(strings.ref(raw));
    const auto index = std::size_t(InlineTexts::decode(raw));
    if (raw < kNoString && index < inlineRefs.size())
        return m_profile->strings.at(inlineRefs[index]);
    return {};
}

void LoadRun::nameThreads(
    const std::vector<RawThreadName>& threadNames, Registry& registry, const StringResolver& strings)
{
    // The highest-priority ThreadNames row (NVTX thread-name rows fill the rest, in mergeNvtxDomains).
    Profile& p = *m_profile;
    std::vector<qint64> bestPriority(p.threads.size(), std::numeric_limits<qint64>::min());
    for (const RawThreadName& n : threadNames) {
        const ThreadIndex t = registry.thread(n.globalTid);
        bestPriority.resize(p.threads.size(), std::numeric_limits<qint64>::min());
        if (n.priority >= bestPriority[std::size_t(t)]) {
            bestPriority[std::size_t(t)] = n.priority;
            p.threads[std::size_t(t)].name = nameOf(strings, n.nameId, {});
            p.threads[std::size_t(t)].namePriority = n.priority;
        }
    }
}

void LoadRun::mergeNvtxDomains(const ChunkTasks& tasks, const std::vector<std::vector<std::int32_t>>& nvtxThreads,
    const std::vector<std::vector<StringRef>>& nvtxInline, Registry& registry, const StringResolver& strings)
{
    // Domains merged over chunks by (process, domain id), a name from whichever chunk holds the create row; threads
    // without a ThreadNames row take their NVTX thread-name (39) row.
    Profile& p = *m_profile;
    std::map<std::pair<ProcessIndex, qint64>, std::int32_t> domainIndex;
    for (std::size_t c = 0; c < tasks.nvtx.size(); ++c) {
        NvtxScan& scan = tasks.nvtx[c]->nvtx;
        for (const auto& [localThread, name] : scan.threadNames) {
            ThreadInfo& t = p.threads[std::size_t(nvtxThreads[c][std::size_t(localThread)])];
            if (t.name.isEmpty())
                t.name = nameOf(strings, name, nvtxInline[c]);
        }
        std::vector<std::int32_t> domainRemap;
        for (const NvtxScan::Domain& d : scan.domains) {
            const auto key = std::make_pair(registry.process(d.globalPid), d.domainId);
            const auto [it, inserted] = domainIndex.try_emplace(key, std::int32_t(p.nvtxDomains.size()));
            if (inserted)
                p.nvtxDomains.push_back({ key.first, d.domainId, QString() });
            if (d.nameValue != kNoString && p.nvtxDomains[std::size_t(it->second)].name.isEmpty())
                p.nvtxDomains[std::size_t(it->second)].name = nameOf(strings, d.nameValue, nvtxInline[c]);
            domainRemap.push_back(it->second);
        }
        remapIndices(scan.table.domain, domainRemap);
    }
}

void LoadRun::mergeLaunchShapes(const ChunkTasks& tasks)
{
    std::vector<LaunchShape>& shapes = m_profile->launchShapes;
    for (ScanTask* t : tasks.kernels) {
        std::vector<std::uint32_t> remap;
        for (const LaunchShape& s : t->kernels.shapes) {
            const auto it = std::find(shapes.begin(), shapes.end(), s);
            remap.push_back(std::uint32_t(it - shapes.begin()));
            if (it == shapes.end())
                shapes.push_back(s);
        }
        for (std::uint32_t& s : t->kernels.table.shape)
            s = remap[s];
    }
}

void LoadRun::stitchChunks(const ChunkTasks& tasks)
{
    // In rowid order.
    Profile& p = *m_profile;
    {
        std::vector<KernelTable*> parts;
        for (ScanTask* t : tasks.kernels)
            parts.push_back(&t->kernels.table);
        concatActivity(p.kernels, parts);
        concatColumns(p.kernels, parts, &KernelTable::demangledName, &KernelTable::shortName, &KernelTable::mangledName,
            &KernelTable::shape);
    }
    for (const std::vector<ScanTask*>* memops : { &tasks.memcpys, &tasks.memsets }) {
        std::vector<MemOpTable*> parts;
        for (ScanTask* t : *memops)
            parts.push_back(&t->memops);
        concatActivity(p.memops, parts);
        concatColumns(
            p.memops, parts, &MemOpTable::bytes, &MemOpTable::copyKind, &MemOpTable::srcKind, &MemOpTable::dstKind);
    }
    {
        std::vector<GraphLaunchTable*> parts;
        for (ScanTask* t : tasks.graphs)
            parts.push_back(&t->graphs);
        concatActivity(p.graphLaunches, parts);
        concatColumns(p.graphLaunches, parts, &GraphLaunchTable::graphId, &GraphLaunchTable::graphExecId);
    }
    {
        std::vector<CudaApiTable*> parts;
        for (ScanTask* t : tasks.api)
            parts.push_back(&t->api);
        concatColumns(p.cudaApi, parts, &CudaApiTable::start, &CudaApiTable::end, &CudaApiTable::thread,
            &CudaApiTable::correlation, &CudaApiTable::name, &CudaApiTable::eventClass, &CudaApiTable::returnValue);
    }
    {
        std::vector<NvtxTable*> parts;
        std::uint32_t offset = 0;
        for (ScanTask* t : tasks.nvtx) {
            NvtxTable& part = t->nvtx.table;
            for (auto& [row, thread] : part.endThread)
                p.nvtx.endThread.push_back(NvtxEndThread { row + offset, thread });
            offset += std::uint32_t(part.size());
            p.nvtx.maxTimestamp = std::max(p.nvtx.maxTimestamp, part.maxTimestamp);
            parts.push_back(&part);
        }
        concatColumns(p.nvtx, parts, &NvtxTable::start, &NvtxTable::end, &NvtxTable::thread, &NvtxTable::name,
            &NvtxTable::domain, &NvtxTable::eventType);
    }
    {
        std::vector<OsrtTable*> parts;
        for (ScanTask* t : tasks.osrt)
            parts.push_back(&t->osrt);
        concatColumns(p.osrt, parts, &OsrtTable::eventClass, &OsrtTable::start, &OsrtTable::end, &OsrtTable::thread,
            &OsrtTable::name);
    }
}

void LoadRun::assemble()
{
    const ChunkTasks tasks = chunkTasks();
    Registry registry(*m_profile);
    const std::vector<std::vector<std::int32_t>> nvtxThreads = remapProcessesAndThreads(tasks, registry);
    Result<std::vector<RawThreadName>> readNames = m_readThreadNames
        ? readThreadNames(*m_db)
        : Result<std::vector<RawThreadName>>(std::vector<RawThreadName> {});
    if (!readNames) {
        failWith(readNames.errorMessage());
        return;
    }
    for (const QString& w : readNames.warnings())
        addWarning(w);
    const std::vector<RawThreadName>& threadNames = *readNames;
    for (const RawThreadName& n : threadNames)
        registry.thread(n.globalTid);

    StringResolver strings(*m_db, m_profile->strings, maxStringId(tasks, threadNames));
    std::vector<std::vector<StringRef>> nvtxInline;
    if (!resolveStrings(tasks, threadNames, strings, nvtxInline))
        return;
    nameThreads(threadNames, registry, strings);
    mergeNvtxDomains(tasks, nvtxThreads, nvtxInline, registry, strings);
    if (stopped())
        return;
    mergeLaunchShapes(tasks);
    if (stopped())
        return;
    stitchChunks(tasks);
    for (const QString& w : assembleCpuSamples(m_profile->cpuSamples, scansOf(tasks.samples, &ScanTask::samples),
             scansOf(tasks.callchains, &ScanTask::callchains), strings, m_cancel))
        addWarning(w);
    m_tasks.clear();
}

bool LoadRun::addTables()
{
    return addTable(LoadKernels, TableKind::Kernels, "CUPTI_ACTIVITY_KIND_KERNEL", QStringLiteral("Reading kernels"))
        && addTable(
            LoadMemOps, TableKind::Memcpy, "CUPTI_ACTIVITY_KIND_MEMCPY", QStringLiteral("Reading memory copies"))
        && addTable(LoadMemOps, TableKind::Memset, "CUPTI_ACTIVITY_KIND_MEMSET", QStringLiteral("Reading memsets"))
        && addTable(LoadGraphLaunches, TableKind::Graphs, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
            QStringLiteral("Reading CUDA graph launches"))
        && addTable(
            LoadCudaApi, TableKind::CudaApi, "CUPTI_ACTIVITY_KIND_RUNTIME", QStringLiteral("Reading CUDA API calls"))
        && addTable(LoadNvtx, TableKind::Nvtx, "NVTX_EVENTS", QStringLiteral("Reading NVTX events"))
        && addTable(LoadOsrt, TableKind::Osrt, "OSRT_API", QStringLiteral("Reading OS runtime calls"))
        && addTable(LoadCpuSamples, TableKind::Samples, "COMPOSITE_EVENTS", QStringLiteral("Reading CPU samples"))
        && addTable(
            LoadCpuSamples, TableKind::Callchains, "SAMPLING_CALLCHAINS", QStringLiteral("Reading CPU call stacks"));
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
#if defined(__GLIBC__) && !NSW_ADDRESS_SANITIZER
    // Chunk outputs and lookup tables were freed; hand the heap's free pages back before analyses allocate more.
    // (Not under AddressSanitizer: its allocator replaces glibc's, whose arenas malloc_trim would walk.)
    malloc_trim(0);
#endif
    report(QStringLiteral("Done"), 1.0);
}

bool LoadRun::readTables(QElapsedTimer& stage)
{
    if (!runScans())
        return false;
    stage.restart();
    report(QStringLiteral("Resolving names"), 0.92);
    assemble();
    if (stopped() || failed())
        return false;
    time(QStringLiteral("Resolve names and threads"), stage);
    return true;
}

LoadResult LoadRun::run()
{
    m_total.start();
    QElapsedTimer stage;
    stage.start();
    report(QStringLiteral("Opening"), 0);
    if (!open() || !addTables())
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
        const bool isFirst = t->kind == TableKind::Kernels || t->kind == TableKind::Memcpy
            || t->kind == TableKind::Memset || t->kind == TableKind::Graphs;
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
    m_total.start();
    QElapsedTimer stage;
    stage.start();
    report(QStringLiteral("Opening"), 0);
    if (!open() || !addTables())
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

} // namespace

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

namespace {
/// Columns of millions of rows come from mmap and go back to the system as soon as they are freed. glibc otherwise
/// raises its mmap threshold after the first large free and serves later columns from the heap, where freed chunk
/// outputs stay resident: a staged load of a 2.4 GB export peaked at 1.9 GB instead of 1.2 GB.
void returnLargeBlocksToTheSystem()
{
#if defined(__GLIBC__) && !NSW_ADDRESS_SANITIZER
    static std::once_flag once;
    std::call_once(once, []() { mallopt(M_MMAP_THRESHOLD, 1 << 20); });
#endif
}
} // namespace

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
