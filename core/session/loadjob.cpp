// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadjob.h"

#include "core/jobs/mainthreadcall.h"

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
    std::thread([guard, path = m_path, shared = m_shared]() {
        const LoadJob::ProgressHook hook = currentHook();
        int lastPermille = -2;
        QString lastStage;
        auto onProgress = [&](const LoadProgress& p) {
            const int permille = int(p.fraction * 1000);
            if (permille != lastPermille || p.stage != lastStage) {
                lastPermille = permille;
                lastStage = p.stage;
                postToJob(guard, [permille, stage = p.stage](LoadJob* job) { Q_EMIT job->progress(permille, stage); });
            }
            if (hook)
                hook(path, p.stage, shared->cancel);
        };
        auto onFirstStage = [&](const std::shared_ptr<LoadedProfile>& first) {
            postToJob(guard, [first](LoadJob* job) {
                if (!job->isCancelRequested())
                    Q_EMIT job->firstStageReady(first);
            });
        };
        auto loaded = std::make_shared<LoadedProfile>(loadForWorkbench(path, onProgress, shared->cancel, onFirstStage));
        if (shared->cancel.isCancelled() && !loaded->result.cancelled) {
            loaded->profile.reset(); // cancelled after the last check: drop the profile here, not on the GUI thread
            loaded->result.cancelled = true;
        }
        postToJob(guard, [loaded](LoadJob* job) { job->deliver(loaded); });
        std::lock_guard lock(loadThreads().mutex);
        --loadThreads().running;
        loadThreads().ended.notify_all();
    }).detach();
}

void LoadJob::deliver(const std::shared_ptr<LoadedProfile>& loaded)
{
    m_ended = true;
    if (loaded->profile && !m_shared->cancel.isCancelled())
        Q_EMIT finished(loaded);
    else if (loaded->result.cancelled || m_shared->cancel.isCancelled())
        Q_EMIT cancelled();
    else
        Q_EMIT failed(loaded->result.error);
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
