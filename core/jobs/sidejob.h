// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"

#include <functional>
#include <thread>

namespace nsw {

/// Work on a thread of its own beside the caller's (a second core for an independent half of a request). Give it a
/// child of the caller's token that the work polls: the side job is stopped through it and joined at the latest on
/// destruction, so that no return path (an error, a cancel) leaves the thread running on freed state.
class SideJob
{
public:
    explicit SideJob(CancelToken stop)
        : m_stop(std::move(stop))
    { }
    ~SideJob()
    {
        if (m_thread.joinable()) {
            m_stop.cancel();
            m_thread.join();
        }
    }
    SideJob(const SideJob&) = delete;
    SideJob& operator=(const SideJob&) = delete;

    void start(std::function<void()> work) { m_thread = std::thread(std::move(work)); }
    /// Waits until the work has ended (at once when it never started).
    void wait()
    {
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    CancelToken m_stop;
    std::thread m_thread;
};

} // namespace nsw
