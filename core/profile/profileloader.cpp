// SPDX-License-Identifier: GPL-3.0-or-later
#include "profileloader.h"

#include "profile/correlationjoin.h"
#include "profile/exportcheck.h"
#include "profile/metadatareader.h"
#include "profile/stringresolver.h"
#include "profile/tablereaders.h"
#include "sqlite/sqlitedb.h"

#include <QElapsedTimer>
#include <QHash>
#include <QThread>
#include <algorithm>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace nsw {

namespace {

/// One table to scan on a worker thread, into its own output.
struct ScanTask
{
    ScanContext ctx;
    std::function<bool(const SqliteDb&, ScanContext&)> run;
};

/// What the scans produced, with local indices still to be remapped.
struct ScanOutputs
{
    KernelScan kernels;
    MemOpTable memcpys;
    MemOpTable memsets;
    GraphLaunchTable graphs;
    CudaApiTable api;
    NvtxScan nvtx;
    OsrtTable osrt;
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

void remapIndices(std::vector<std::int32_t>& column, const std::vector<std::int32_t>& remap)
{
    for (std::int32_t& v : column)
        if (v >= 0)
            v = remap[std::size_t(v)];
}

template <typename T> void append(std::vector<T>& to, const std::vector<T>& from)
{
    to.insert(to.end(), from.begin(), from.end());
}

void appendMemOps(MemOpTable& to, MemOpTable&& from)
{
    if (to.size() == 0) {
        to = std::move(from);
        return;
    }
    append(to.start, from.start);
    append(to.end, from.end);
    append(to.process, from.process);
    append(to.device, from.device);
    append(to.context, from.context);
    append(to.stream, from.stream);
    append(to.correlation, from.correlation);
    append(to.bytes, from.bytes);
    append(to.copyKind, from.copyKind);
}

void computeActivitySpan(Profile& p)
{
    TimeNs lo = std::numeric_limits<TimeNs>::max();
    TimeNs hi = std::numeric_limits<TimeNs>::min();
    auto cover = [&](const std::vector<TimeNs>& starts, const std::vector<TimeNs>& ends) {
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
    LoadRun(const QString& path, const LoadOptions& options, const ProgressCallback& progress, const CancelFlag* cancel)
        : m_path(path)
        , m_options(options)
        , m_progress(progress)
        , m_cancel(cancel ? cancel : &m_neverCancel)
    { }

    LoadResult run();

private:
    void report(const QString& stage, double fraction)
    {
        if (m_progress)
            m_progress({ stage, std::clamp(fraction, 0.0, 1.0) });
    }
    void time(const QString& stage, QElapsedTimer& timer, qint64 rows = -1)
    {
        m_result.timings.push_back({ stage, timer.restart(), rows });
    }
    void addTask(
        unsigned part, const char* table, const QString& stage, std::function<bool(const SqliteDb&, ScanContext&)> run);
    bool runScans();
    void assemble();
    LoadResult fail(const QString& error)
    {
        m_result.profile.reset();
        m_result.error = error;
        m_result.totalMilliseconds = m_total.elapsed();
        return std::move(m_result);
    }

    QString m_path;
    LoadOptions m_options;
    ProgressCallback m_progress;
    const CancelFlag* m_cancel;
    CancelFlag m_neverCancel { false };
    CancelFlag m_stop { false }; ///< set by the coordinating thread on cancel or on a failed scan
    QElapsedTimer m_total;
    LoadResult m_result;
    std::unique_ptr<SqliteDb> m_db;
    std::shared_ptr<Profile> m_profile;
    std::vector<std::unique_ptr<ScanTask>> m_tasks;
    ScanOutputs m_out;
};

void LoadRun::addTask(
    unsigned part, const char* table, const QString& stage, std::function<bool(const SqliteDb&, ScanContext&)> run)
{
    const QString name = QLatin1String(table);
    if (!(m_options.parts & part) || !m_db->hasTable(name))
        return;
    auto task = std::make_unique<ScanTask>();
    task->ctx.table = name;
    task->ctx.stage = stage;
    task->ctx.cancel = &m_stop;
    task->ctx.estimatedRows = m_db->estimatedRows(name);
    task->run = std::move(run);
    m_tasks.push_back(std::move(task));
}

bool LoadRun::runScans()
{
    // Largest tables first so that the slowest scan starts at once.
    std::stable_sort(m_tasks.begin(), m_tasks.end(),
        [](const auto& a, const auto& b) { return a->ctx.estimatedRows > b->ctx.estimatedRows; });
    const int cores = std::max(1, QThread::idealThreadCount());
    const int wanted = m_options.threads > 0 ? m_options.threads : cores;
    const int workers = std::max(1, std::min<int>(wanted, int(m_tasks.size())));

    std::atomic<std::size_t> next { 0 };
    std::atomic<int> running { workers };
    std::mutex mutex;
    std::condition_variable done;
    QString openError;
    CancelFlag failed { false };

    auto worker = [&]() {
        QString error;
        std::unique_ptr<SqliteDb> db = SqliteDb::open(m_path, &error);
        if (!db) {
            std::lock_guard lock(mutex);
            openError = error;
            failed = true;
            m_stop = true;
        }
        for (std::size_t i; db && !m_stop && (i = next.fetch_add(1)) < m_tasks.size();) {
            ScanTask& task = *m_tasks[i];
            QElapsedTimer timer;
            timer.start();
            if (!task.run(*db, task.ctx)) {
                failed = true;
                m_stop = true;
            }
            task.ctx.milliseconds = timer.elapsed();
        }
        db.reset();
        std::lock_guard lock(mutex);
        --running;
        done.notify_all();
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < workers; ++i)
        threads.emplace_back(worker);

    double estimated = 0;
    for (const auto& t : m_tasks)
        estimated += double(std::max<qint64>(t->ctx.estimatedRows, 1));
    {
        std::unique_lock lock(mutex);
        while (running > 0) {
            done.wait_for(lock, std::chrono::milliseconds(50));
            if (m_cancel->load() || failed)
                m_stop = true; // the other scans stop at their next check
            double read = 0;
            const ScanTask* busiest = nullptr;
            for (const auto& t : m_tasks) {
                const auto rows = double(t->ctx.rowsRead.load());
                read += std::min(rows, double(std::max<qint64>(t->ctx.estimatedRows, 1)));
                if (t->ctx.milliseconds == 0 && rows > 0
                    && (!busiest || t->ctx.estimatedRows > busiest->ctx.estimatedRows))
                    busiest = t.get();
            }
            lock.unlock();
            report(busiest ? busiest->ctx.stage : QStringLiteral("Reading tables"), 0.03 + 0.87 * read / estimated);
            lock.lock();
        }
    }
    for (std::thread& t : threads)
        t.join();
    if (!openError.isEmpty()) {
        m_result.error = openError;
        return false;
    }
    for (const auto& t : m_tasks) {
        if (!t->ctx.error.isEmpty()) {
            m_result.error = t->ctx.error;
            return false;
        }
    }
    if (m_cancel->load()) {
        m_result.cancelled = true;
        m_result.error = QStringLiteral("%1: loading cancelled").arg(m_path);
        return false;
    }
    for (const auto& t : m_tasks) {
        m_result.timings.push_back({ t->ctx.stage, t->ctx.milliseconds, t->ctx.rowsRead.load() });
        m_profile->meta.warnings.append(t->ctx.warnings);
    }
    return true;
}

void LoadRun::assemble()
{
    Profile& p = *m_profile;
    Registry registry(p);
    auto contextOf = [this](const char* table) -> ScanContext* {
        for (const auto& t : m_tasks)
            if (t->ctx.table == QLatin1String(table))
                return &t->ctx;
        return nullptr;
    };
    auto processRemap = [&](const char* table, GpuActivityColumns& rows) {
        if (ScanContext* ctx = contextOf(table))
            remapIndices(rows.process, registry.processRemap(ctx->processes));
    };
    processRemap("CUPTI_ACTIVITY_KIND_KERNEL", m_out.kernels.table);
    processRemap("CUPTI_ACTIVITY_KIND_MEMCPY", m_out.memcpys);
    processRemap("CUPTI_ACTIVITY_KIND_MEMSET", m_out.memsets);
    processRemap("CUPTI_ACTIVITY_KIND_GRAPH_TRACE", m_out.graphs);

    std::vector<std::int32_t> nvtxThreads;
    if (ScanContext* ctx = contextOf("CUPTI_ACTIVITY_KIND_RUNTIME"))
        remapIndices(m_out.api.thread, registry.threadRemap(ctx->threads));
    if (ScanContext* ctx = contextOf("OSRT_API"))
        remapIndices(m_out.osrt.thread, registry.threadRemap(ctx->threads));
    if (ScanContext* ctx = contextOf("NVTX_EVENTS")) {
        nvtxThreads = registry.threadRemap(ctx->threads);
        remapIndices(m_out.nvtx.table.thread, nvtxThreads);
        for (auto& [row, thread] : m_out.nvtx.table.endThread)
            thread = nvtxThreads[std::size_t(thread)];
    }
    const std::vector<RawThreadName> threadNames = readThreadNames(*m_db);
    for (const RawThreadName& n : threadNames)
        registry.thread(n.globalTid);

    // Strings: StringIds ids from every scan plus inline NVTX texts.
    std::int64_t maxId = -1;
    for (const auto& t : m_tasks)
        maxId = std::max(maxId, t->ctx.maxStringId);
    for (const RawThreadName& n : threadNames)
        maxId = std::max<std::int64_t>(maxId, n.nameId);
    for (const NvtxScan::Domain& d : m_out.nvtx.domains)
        maxId = std::max<std::int64_t>(maxId, d.nameValue);
    StringResolver strings(*m_db, p.strings, maxId);
    strings.needColumn(m_out.kernels.table.demangledName);
    strings.needColumn(m_out.kernels.table.shortName);
    strings.needColumn(m_out.kernels.table.mangledName);
    strings.needColumn(m_out.api.name);
    strings.needColumn(m_out.nvtx.table.name);
    strings.needColumn(m_out.osrt.name);
    for (const RawThreadName& n : threadNames)
        strings.need(n.nameId);
    for (const NvtxScan::Domain& d : m_out.nvtx.domains)
        strings.need(d.nameValue);
    for (const auto& [thread, name] : m_out.nvtx.threadNames)
        strings.need(name);
    QString error;
    if (!strings.resolve(&error)) {
        m_result.error = error;
        return;
    }
    std::vector<StringRef> inlineRefs;
    if (ScanContext* ctx = contextOf("NVTX_EVENTS"))
        inlineRefs = strings.internTexts(ctx->inlineTexts.texts());
    strings.remapColumn(m_out.kernels.table.demangledName);
    strings.remapColumn(m_out.kernels.table.shortName);
    strings.remapColumn(m_out.kernels.table.mangledName);
    strings.remapColumn(m_out.api.name);
    strings.remapColumn(m_out.osrt.name);
    strings.remapColumn(m_out.nvtx.table.name, inlineRefs);
    if (strings.missingIds() > 0)
        p.meta.warnings.append(
            QStringLiteral("%1 string ids are missing from StringIds (trimmed export?)").arg(strings.missingIds()));
    auto nameOf = [&](std::int32_t raw) -> QString {
        if (raw >= 0)
            return p.strings.at(strings.ref(raw));
        if (raw < kNoString)
            return p.strings.at(inlineRefs[std::size_t(InlineTexts::decode(raw))]);
        return {};
    };

    // Thread names: the highest-priority ThreadNames row, else an NVTX thread-name (39) row.
    std::vector<qint64> bestPriority(p.threads.size(), std::numeric_limits<qint64>::min());
    for (const RawThreadName& n : threadNames) {
        const ThreadIndex t = registry.thread(n.globalTid);
        bestPriority.resize(p.threads.size(), std::numeric_limits<qint64>::min());
        if (n.priority >= bestPriority[std::size_t(t)]) {
            bestPriority[std::size_t(t)] = n.priority;
            p.threads[std::size_t(t)].name = nameOf(n.nameId);
        }
    }
    for (const auto& [localThread, name] : m_out.nvtx.threadNames) {
        ThreadInfo& t = p.threads[std::size_t(nvtxThreads[std::size_t(localThread)])];
        if (t.name.isEmpty())
            t.name = nameOf(name);
    }
    for (const NvtxScan::Domain& d : m_out.nvtx.domains)
        p.nvtxDomains.push_back({ registry.process(d.globalPid), d.domainId, nameOf(d.nameValue) });

    p.kernels = std::move(m_out.kernels.table);
    p.launchShapes = std::move(m_out.kernels.shapes);
    appendMemOps(p.memops, std::move(m_out.memcpys));
    appendMemOps(p.memops, std::move(m_out.memsets));
    p.graphLaunches = std::move(m_out.graphs);
    p.cudaApi = std::move(m_out.api);
    p.nvtx = std::move(m_out.nvtx.table);
    p.osrt = std::move(m_out.osrt);
}

LoadResult LoadRun::run()
{
    m_total.start();
    QElapsedTimer stage;
    stage.start();
    report(QStringLiteral("Opening"), 0);
    if (const QString e = checkFileBeforeOpen(m_path); !e.isEmpty())
        return fail(e);
    QString error;
    m_db = SqliteDb::open(m_path, &error);
    if (!m_db)
        return fail(error);
    if (const QString e = checkIsNsysExport(*m_db); !e.isEmpty())
        return fail(e);
    m_profile = std::make_shared<Profile>();
    readMetadata(*m_db, *m_profile);
    time(QStringLiteral("Open and read metadata"), stage);

    addTask(LoadKernels, "CUPTI_ACTIVITY_KIND_KERNEL", QStringLiteral("Reading kernels"),
        [this](const SqliteDb& db, ScanContext& c) {
                return readKernels(db, c, m_out.kernels, m_options.kernelColumns);
            });
    addTask(LoadMemOps, "CUPTI_ACTIVITY_KIND_MEMCPY", QStringLiteral("Reading memory copies"),
        [this](const SqliteDb& db, ScanContext& c) { return readMemcpy(db, c, m_out.memcpys); });
    addTask(LoadMemOps, "CUPTI_ACTIVITY_KIND_MEMSET", QStringLiteral("Reading memsets"),
        [this](const SqliteDb& db, ScanContext& c) { return readMemset(db, c, m_out.memsets); });
    addTask(LoadGraphLaunches, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", QStringLiteral("Reading CUDA graph launches"),
        [this](const SqliteDb& db, ScanContext& c) { return readGraphTrace(db, c, m_out.graphs); });
    addTask(LoadCudaApi, "CUPTI_ACTIVITY_KIND_RUNTIME", QStringLiteral("Reading CUDA API calls"),
        [this](const SqliteDb& db, ScanContext& c) { return readCudaApi(db, c, m_out.api); });
    addTask(LoadNvtx, "NVTX_EVENTS", QStringLiteral("Reading NVTX events"),
        [this](const SqliteDb& db, ScanContext& c) { return readNvtx(db, c, m_out.nvtx); });
    addTask(LoadOsrt, "OSRT_API", QStringLiteral("Reading OS runtime calls"),
        [this](const SqliteDb& db, ScanContext& c) { return readOsrt(db, c, m_out.osrt); });

    if (!runScans())
        return fail(m_result.error);
    stage.restart();

    report(QStringLiteral("Resolving names"), 0.92);
    assemble();
    if (!m_result.error.isEmpty())
        return fail(m_result.error);
    time(QStringLiteral("Resolve names and threads"), stage);

    report(QStringLiteral("Joining GPU work to API calls"), 0.96);
    joinCorrelations(*m_profile);
    computeActivitySpan(*m_profile);
    time(QStringLiteral("Join correlation ids"), stage);

    if ((m_options.parts & LoadKernels) && m_profile->kernels.size() == 0) {
        m_profile->meta.warnings.append(m_db->hasTable(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"))
                ? QStringLiteral("the kernel table is empty: no CUDA kernels were traced")
                : QStringLiteral("no CUDA kernels: the export has no CUPTI_ACTIVITY_KIND_KERNEL table"));
    }
    m_db.reset();
    report(QStringLiteral("Done"), 1.0);
    m_result.profile = std::move(m_profile);
    m_result.totalMilliseconds = m_total.elapsed();
    return std::move(m_result);
}

} // namespace

LoadResult ProfileLoader::load(
    const QString& path, const LoadOptions& options, const ProgressCallback& progress, const CancelFlag* cancel)
{
    return LoadRun(path, options, progress, cancel).run();
}

} // namespace nsw
