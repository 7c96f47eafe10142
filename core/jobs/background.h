// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/handoff.h"
#include "core/jobs/jobcontext.h"
#include "core/jobs/jobguard.h"
#include "core/jobs/mainthreadcall.h"

#include <QElapsedTimer>
#include <QPointer>
#include <functional>
#include <memory>
#include <mutex>

namespace nsw {

/// Runs one owner's background work (a pane, a controller), "latest request wins": starting a job cancels the one
/// before it, whose result is then never delivered; destroying the slot cancels its job. Work runs on the jobs'
/// thread pool with a JobContext; results and progress arrive on the owner's (GUI) thread through postToMainThread(),
/// whose receiver outlives every owner, so no call ever targets a deleted object.
class JobSlot
{
public:
    explicit JobSlot(QObject* owner)
        : m_owner(owner)
        , m_state(std::make_shared<State>())
    { }
    ~JobSlot() { cancel(); }
    JobSlot(const JobSlot&) = delete;
    JobSlot& operator=(const JobSlot&) = delete;

    /// Starts @p work; @p done gets its result unless a later run() or cancel() superseded it. An exception that
    /// escapes @p work is its result's error (errorOfException(): out of memory, internal error), never the end of
    /// the program. @p onProgress, when given, sees the job's progress on the owner's thread, at most every 50 ms.
    template <typename T>
    void run(std::function<Result<T>(const JobContext&)> work, std::function<void(Result<T>)> done,
        std::function<void(const Progress&)> onProgress = {})
    {
        using R = Result<T>;
        m_token.cancel();
        m_token = CancelToken();
        const quint64 generation = ++m_state->generation;
        m_state->busy = true;
        QPointer<QObject> guard(m_owner);
        std::shared_ptr<State> state = m_state;
        ProgressFn progress;
        if (onProgress) {
            auto throttle = std::make_shared<Throttle>();
            progress = [guard, state, generation, onProgress, throttle](const Progress& p) {
                if (!throttle->due())
                    return;
                postToMainThread([guard, state, generation, onProgress, p]() {
                    if (guard && state->generation == generation)
                        onProgress(p);
                });
            };
        }
        const JobContext context(m_token, std::move(progress));
        startInPool([guard, state, generation, context, work = std::move(work), done = std::move(done)]() mutable {
            if (context.isCancelled())
                return;
            auto result = std::make_shared<R>(
                catchingExceptions<T>([&]() { return work(context); }, QStringLiteral("this computation")));
            postToMainThread([guard, state, generation, context, done = std::move(done), result]() {
                // generation is only touched on the owner's thread: this check and run() cannot race.
                if (!guard || state->generation != generation || context.isCancelled())
                    return;
                state->busy = false;
                done(std::move(*result));
            });
        });
    }

    /// Cancels the running job (if any); its result is dropped.
    void cancel()
    {
        m_token.cancel();
        ++m_state->generation;
        m_state->busy = false;
    }

    /// True from run() until its result is delivered or the job is cancelled.
    bool isBusy() const { return m_state->busy; }

private:
    struct State
    {
        quint64 generation = 0; ///< owner's thread only
        bool busy = false; ///< owner's thread only
    };
    /// At most one progress update per 50 ms (plus the first), so a hot loop cannot flood the event queue.
    class Throttle
    {
    public:
        bool due()
        {
            std::lock_guard lock(m_mutex);
            if (m_timer.isValid() && m_timer.elapsed() < 50)
                return false;
            m_timer.start();
            return true;
        }

    private:
        std::mutex m_mutex;
        QElapsedTimer m_timer;
    };

    QObject* m_owner;
    std::shared_ptr<State> m_state;
    CancelToken m_token;
};

} // namespace nsw
