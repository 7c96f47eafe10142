// SPDX-License-Identifier: GPL-3.0-or-later
// When the whole machine did not run, for the window benchmarks' stall figures.
#pragma once

#include <algorithm>
#include <atomic>
#include <ctime>
#include <future>
#include <mutex>
#include <pthread.h>
#include <sched.h>
#include <thread>
#include <utility>
#include <vector>

namespace nsw::bench {

inline long long monotonicNs()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// A thread at a real-time priority (SCHED_FIFO: no thread of any process at a normal priority keeps it off a core)
/// asks to wake every millisecond and notes each wake-up that comes more than 5 ms late as a pause of the machine, from
/// the wake-up it asked for to the one it got. On the 2-core VMs of this project such pauses of 60-80 ms came every
/// few seconds while a compiler ran, and no thread of any process ran through them: a GUI stall that contains one is
/// not all the window's doing. Without the right to a real-time priority (not root, no CAP_SYS_NICE) it watches
/// nothing and says so.
class MachinePauses
{
public:
    MachinePauses()
    {
        std::promise<bool> started;
        std::future<bool> elevated = started.get_future();
        m_thread = std::thread([this, &started] {
            const sched_param priority { 1 };
            const bool ok = pthread_setschedparam(pthread_self(), SCHED_FIFO, &priority) == 0;
            started.set_value(ok);
            if (ok)
                watch();
        });
        m_watching = elevated.get();
    }
    ~MachinePauses() { stop(); }
    MachinePauses(const MachinePauses&) = delete;
    MachinePauses& operator=(const MachinePauses&) = delete;

    bool watching() const { return m_watching; }
    /// Stops watching: the pauses are final from then on.
    void stop()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    /// Nanoseconds of machine pauses inside [from, to] (CLOCK_MONOTONIC, as monotonicNs()).
    long long within(long long from, long long to) const
    {
        const std::lock_guard lock(m_mutex);
        long long paused = 0;
        for (const auto& [start, end] : m_pauses)
            paused += std::max(0LL, std::min(end, to) - std::max(start, from));
        return paused;
    }
    long long longest() const
    {
        const std::lock_guard lock(m_mutex);
        long long longest = 0;
        for (const auto& [start, end] : m_pauses)
            longest = std::max(longest, end - start);
        return longest;
    }

private:
    void watch()
    {
        constexpr long long kPeriod = 1'000'000, kLate = 5'000'000;
        const timespec period { 0, kPeriod };
        long long last = monotonicNs();
        while (!m_stop) {
            nanosleep(&period, nullptr);
            const long long now = monotonicNs();
            if (now - last - kPeriod > kLate) {
                const std::lock_guard lock(m_mutex);
                m_pauses.emplace_back(last + kPeriod, now);
            }
            last = now;
        }
    }

    std::thread m_thread;
    std::atomic<bool> m_stop { false };
    bool m_watching = false;
    mutable std::mutex m_mutex;
    std::vector<std::pair<long long, long long>> m_pauses;
};

} // namespace nsw::bench
