// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"

#include <exception>
#include <functional>
#include <thread>
#include <utility>

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

    /// The thread's entry keeps what @p work throws; wait() throws it again on the caller's thread, where the job's
    /// own guard turns it into its error (an exception must not end the program from a thread of its own).
    void start(std::function<void()> work)
    {
        m_thread = std::thread([this, work = std::move(work)]() {
            try {
                work();
            } catch (...) {
                m_exception = std::current_exception();
            }
        });
    }
    /// Waits until the work has ended (at once when it never started); throws what the work threw.
    void wait()
    {
        if (m_thread.joinable())
            m_thread.join();
        if (m_exception)
            std::rethrow_exception(std::exchange(m_exception, nullptr));
    }

private:
    CancelToken m_stop;
    std::thread m_thread;
    std::exception_ptr m_exception; ///< written by the thread before it ends, read after the join
};

} // namespace nsw
