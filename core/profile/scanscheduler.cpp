// SPDX-License-Identifier: GPL-3.0-or-later
#include "scanscheduler.h"

#include "core/jobs/jobguard.h"
#include "core/profile/profileloader.h"
#include "core/profile/scannedtables.h"
#include "core/sqlite/sqlitedb.h"
#include "core/util/numberformat.h"

#include <QElapsedTimer>
#include <QScopeGuard>
#include <QThread>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace nsw {

namespace {

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

int workerCount(const LoadOptions& options, std::size_t tasks)
{
    const int cores = std::max(1, QThread::idealThreadCount());
    // NSW_LOAD_THREADS overrides the default for benchmarking and diagnosis.
    const int fromEnvironment = qEnvironmentVariableIntValue("NSW_LOAD_THREADS");
    const int wanted = options.threads > 0 ? options.threads : fromEnvironment > 0 ? fromEnvironment : cores;
    return std::max(1, std::min<int>(wanted, int(tasks)));
}

} // namespace

std::optional<Error> runScans(const QString& path, const std::vector<ScanTask*>& tasks, const LoadOptions& options,
    CancelToken& stop, const ScanProgress& report)
{
    // Largest chunks first so that the slowest one starts at once; @p tasks keeps table/rowid order for assembly.
    std::vector<ScanTask*> queue = tasks;
    std::stable_sort(queue.begin(), queue.end(),
        [](const ScanTask* a, const ScanTask* b) { return a->ctx.estimatedRows > b->ctx.estimatedRows; });
    const int workers = workerCount(options, queue.size());

    std::atomic<std::size_t> next { 0 };
    std::atomic<int> running { workers };
    std::mutex mutex;
    std::condition_variable done;
    QString openError;

    std::optional<Error> workerFailure; // an exception that escaped a worker (out of memory, a bug)
    auto scanAll = [&]() {
        QString error;
        std::unique_ptr<SqliteDb> db = SqliteDb::open(path, &error);
        if (db)
            db->setInterruptToken(&stop); // a long statement stops at once on cancel or on another scan's error
        if (!db) {
            std::lock_guard lock(mutex);
            openError = error;
            stop.cancel();
        }
        for (std::size_t i; db && !stop.isCancelled() && (i = next.fetch_add(1)) < queue.size();) {
            ScanTask& task = *queue[i];
            QElapsedTimer timer;
            timer.start();
            if (!scannedTable(task.kind).read(*db, task, options))
                stop.cancel();
            task.ctx.milliseconds = std::max<qint64>(timer.elapsed(), 1);
        }
    };
    // A worker is a thread entry: whatever it throws becomes the load's error, and it always says it ended.
    auto worker = [&]() {
        try {
            scanAll();
        } catch (...) {
            const Error e = errorOfException(std::current_exception(), QStringLiteral("loading %1").arg(path));
            std::lock_guard lock(mutex);
            if (!workerFailure)
                workerFailure = e;
            stop.cancel();
        }
        std::lock_guard lock(mutex);
        --running;
        done.notify_all();
    };
    // Said before the workers start: a read quicker than the first progress tick below still reports its stage.
    report(QStringLiteral("Reading tables"), 0.03);
    std::vector<std::thread> threads;
    // Stopped and joined on every way out of here, a throw on this thread included (a progress report that fails).
    const auto joinAll = qScopeGuard([&]() {
        if (std::any_of(threads.begin(), threads.end(), [](const std::thread& t) { return t.joinable(); }))
            stop.cancel();
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
            workerFailure = errorOfException(std::current_exception(), QStringLiteral("loading %1").arg(path));
        }
        stop.cancel();
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
    if (workerFailure)
        return workerFailure;
    if (!openError.isEmpty())
        return Error { loadErrorKind(openError), openError };
    for (const ScanTask* t : tasks)
        if (!t->ctx.error.isEmpty())
            return Error { loadErrorKind(t->ctx.error), t->ctx.error };
    return std::nullopt;
}

} // namespace nsw
