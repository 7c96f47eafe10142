// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#if defined(__SANITIZE_THREAD__)
#define NSW_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NSW_THREAD_SANITIZER 1
#endif
#endif

#include <QRunnable>
#include <QThreadPool>
#include <functional>
#include <utility>

#ifdef NSW_THREAD_SANITIZER
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace nsw {

/// Qt hands work to pool threads (QThreadPool) and results to the GUI thread (posted events) through its own futex
/// locks, which ThreadSanitizer cannot see in Debian's uninstrumented Qt: every such hand-over looks like a race.
/// The sending side calls handoffRelease(key) once the object it hands over is complete, the receiving side
/// handoffAcquire(key) first thing, with the key Qt gives it (the runnable, the event): never a key read from memory
/// written after the release. No-ops outside the tsan preset. Used by startInPool() and postToMainThread().
inline void handoffRelease([[maybe_unused]] const void* key)
{
#ifdef NSW_THREAD_SANITIZER
    __tsan_release(const_cast<void*>(key));
#endif
}

inline void handoffAcquire([[maybe_unused]] const void* key)
{
#ifdef NSW_THREAD_SANITIZER
    __tsan_acquire(const_cast<void*>(key));
#endif
}

/// The pool every background job of the workbench runs on (see jobpool.cpp for why it is not Qt's global one).
QThreadPool* jobThreadPool();

/// Gives the calling pool thread a lower CPU weight than the GUI thread and the load (in the window only), once per
/// thread (jobpool.cpp has the ladder of weights).
void yieldTheCpuToTheGuiThread();

/// Gives the calling thread, a load's, and the threads it starts a lower CPU weight than the GUI thread and a higher
/// one than the analyses (in the window only).
void runTheLoadBelowTheGuiThread();

/// Lowers the calling thread to the least CPU weight (SCHED_IDLE, else nice 19), for work nobody waits for (writing the
/// profile cache): it then runs on what the load, the analyses and the GUI leave over.
void runThisThreadOnLeftoverCpu();

/// Runs @p work on jobThreadPool(), announcing the hand-over to ThreadSanitizer. The work is wrapped in a
/// runnable that is complete before the release and passed by pointer, so nothing is written after the release;
/// the pool thread acquires on the runnable's own address before it reads the work.
inline void startInPool(std::function<void()> work)
{
    class Task final : public QRunnable
    {
    public:
        explicit Task(std::function<void()> work)
            : m_work(std::move(work))
        { }
        void run() override
        {
            handoffAcquire(this);
            yieldTheCpuToTheGuiThread();
            m_work();
        }

    private:
        std::function<void()> m_work;
    };
    auto* task = new Task(std::move(work));
    handoffRelease(task);
    jobThreadPool()->start(task);
}

} // namespace nsw
