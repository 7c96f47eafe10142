// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadjob.h"

#include "core/jobs/handoff.h"
#include "core/jobs/jobguard.h"
#include "core/jobs/mainthreadcall.h"
#include "core/profile/profileloader.h"

#include <QPointer>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace nsw {

namespace {
/// Load threads still running, including detached ones of deleted jobs.
struct LoadThreads
{
    std::mutex mutex;
    std::condition_variable ended;
    int running = 0;
    LoadJob::ProgressHook hook;
};

LoadThreads& loadThreads()
{
    static LoadThreads* threads = new LoadThreads; // never destroyed: detached threads may outlive static teardown
    return *threads;
}

LoadJob::ProgressHook currentHook()
{
    std::lock_guard lock(loadThreads().mutex);
    return loadThreads().hook;
}

/// Runs @p call on the GUI thread unless @p guard is gone by then. Goes through a receiver that outlives every job,
/// so no posted call targets a deleted job.
template <typename F> void postToJob(const QPointer<LoadJob>& guard, F call)
{
    postToMainThread([guard, call = std::move(call)]() {
        if (guard)
            call(guard.data());
    });
}
} // namespace

/// What the load thread shares with the job: it outlives the job when the job is deleted mid-load.
struct LoadJob::Shared
{
    CancelToken cancel;
    CacheSettings cache;
    std::function<void(const QString&)> cacheWriteFailed;
};

LoadJob::LoadJob(const QString& path, QObject* parent)
    : QObject(parent)
    , m_path(path)
    , m_shared(std::make_shared<Shared>())
{
    qRegisterMetaType<std::shared_ptr<nsw::LoadedProfile>>();
}

LoadJob::~LoadJob()
{
    // No join: closing the window must not wait for a load. The cancelled thread ends on its own.
    m_shared->cancel.cancel();
}

void LoadJob::setCache(const CacheSettings& settings, std::function<void(const QString&)> writeFailed)
{
    m_shared->cache = settings;
    m_shared->cacheWriteFailed = std::move(writeFailed);
}

void LoadJob::start()
{
    if (m_started)
        return;
    m_started = true;
    m_clock.start();
    Q_EMIT progress(-1, tr("Opening"));
    {
        std::lock_guard lock(loadThreads().mutex);
        ++loadThreads().running;
    }
    const QPointer<LoadJob> guard(this);
    try {
        startThread(guard);
    } catch (...) { // no thread (no address space for its stack): the load's error, delivered like any other
        {
            std::lock_guard lock(loadThreads().mutex);
            --loadThreads().running;
        }
        const Error error = errorOfException(std::current_exception(), QStringLiteral("loading %1").arg(m_path));
        postToJob(guard, [error](LoadJob* job) { job->deliver(Result<LoadedProfile>(error)); });
    }
}

void LoadJob::startThread(const QPointer<LoadJob>& guard)
{
    std::thread([guard, path = m_path, shared = m_shared]() {
        runTheLoadBelowTheGuiThread();
        const LoadJob::ProgressHook hook = currentHook();
        int lastPermille = -2;
        QString lastStage;
        const JobContext job(shared->cancel, [&](const Progress& p) {
            const int permille = p.fraction < 0 ? -1 : int(p.fraction * 1000);
            const QString stage = p.detail.isEmpty() ? p.stage : p.stage + QLatin1Char(' ') + p.detail;
            if (permille != lastPermille || stage != lastStage) {
                lastPermille = permille;
                lastStage = stage;
                postToJob(guard, [permille, stage](LoadJob* job) { Q_EMIT job->progress(permille, stage); });
            }
            if (hook)
                hook(path, stage, shared->cancel);
        });
        auto onFirstStage = [&](const std::shared_ptr<LoadedProfile>& first) {
            postToJob(guard, [first](LoadJob* job) {
                if (!job->isCancelRequested())
                    Q_EMIT job->firstStageReady(first);
            });
        };
        auto onWriteFailed = [report = shared->cacheWriteFailed](const Status& failed) {
            if (report)
                report(failed.errorMessage());
        };
        // The thread's entry: whatever the load throws (a test hook included) is its error, never the program's end.
        auto loaded = std::make_shared<Result<LoadedProfile>>(catchingExceptions<LoadedProfile>(
            [&]() { return loadForWorkbench(path, job, onFirstStage, shared->cache, onWriteFailed); },
            QStringLiteral("loading %1").arg(path)));
        if (!*loaded && loaded->error().kind == ErrorKind::OutOfMemory)
            *loaded = Result<LoadedProfile>::failure(ErrorKind::OutOfMemory, loadOutOfMemoryMessage(path));
        if (shared->cancel.isCancelled() && loaded->ok()) // cancelled after the last check: drop it here, not on the
            *loaded = Result<LoadedProfile>::cancelled(); // GUI thread
        postToJob(guard, [loaded](LoadJob* job) { job->deliver(*loaded); });
        std::lock_guard lock(loadThreads().mutex);
        --loadThreads().running;
        loadThreads().ended.notify_all();
    }).detach();
}

void LoadJob::deliver(const Result<LoadedProfile>& loaded)
{
    m_ended = true;
    if (loaded && !m_shared->cancel.isCancelled())
        Q_EMIT finished(std::make_shared<LoadedProfile>(*loaded));
    else if (loaded.isCancelled() || m_shared->cancel.isCancelled())
        Q_EMIT cancelled();
    else
        Q_EMIT failed(loaded.errorMessage(), loaded.error().kind);
}

void LoadJob::cancel()
{
    m_shared->cancel.cancel();
}

bool LoadJob::isCancelRequested() const
{
    return m_shared->cancel.isCancelled();
}

bool LoadJob::waitForDetachedLoads(int timeoutMs)
{
    std::unique_lock lock(loadThreads().mutex);
    return loadThreads().ended.wait_for(
        lock, std::chrono::milliseconds(timeoutMs), []() { return loadThreads().running == 0; });
}

void LoadJob::setProgressHookForTesting(ProgressHook hook)
{
    std::lock_guard lock(loadThreads().mutex);
    loadThreads().hook = std::move(hook);
}

} // namespace nsw
