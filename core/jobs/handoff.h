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

/// Qt hands work to pool threads (QThreadPool) and results to the GUI thread (queued calls) through its own futex
/// locks, which ThreadSanitizer cannot see in Debian's uninstrumented Qt: every such hand-over looks like a race.
/// The sending side calls handoffRelease(key) just before the hand-over, the receiving side handoffAcquire(key)
/// first thing, with the same key (an object both sides hold). No-ops outside the tsan preset.
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

/// Captured last in a queued call's closure (so destroyed first): Qt may destroy a delivered call's closure on the
/// sending thread, after an uninstrumented reference count; acquiring @p key there orders that destruction after
/// the receiver's use, which ends with handoffRelease(key).
struct HandoffBack
{
    const void* key = nullptr;
    HandoffBack(const HandoffBack&) = default;
    explicit HandoffBack(const void* k)
        : key(k)
    { }
    ~HandoffBack() { handoffAcquire(key); }
};

/// Releases @p key when the receiving side is done with a hand-over (see HandoffBack).
struct HandoffDone
{
    const void* key;
    ~HandoffDone() { handoffRelease(key); }
};

/// Runs @p work on the global thread pool, announcing the hand-over to ThreadSanitizer. The work is wrapped in a
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
            m_work();
        }

    private:
        std::function<void()> m_work;
    };
    auto* task = new Task(std::move(work));
    handoffRelease(task);
    QThreadPool::globalInstance()->start(task);
}

} // namespace nsw
