// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#if defined(__SANITIZE_THREAD__)
#define NSW_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NSW_THREAD_SANITIZER 1
#endif
#endif

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

} // namespace nsw
