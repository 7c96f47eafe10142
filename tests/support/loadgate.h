// SPDX-License-Identifier: GPL-3.0-or-later
// Loads held at a gate on their own thread (LoadJob's test hook), never slowed down by sleeps.
#pragma once

#include "core/jobs/cancel.h"
#include "core/session/loadjob.h"

#include <QStringList>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace nsw::test {

/// Holds loads on their load thread until opened. A held load also lets go when it is cancelled, unless the
/// gate ignores cancels (to prove that closing the window does not wait for the load thread).
class LoadGate
{
public:
    /// Every LoadJob's load passes this gate from now on (LoadJob's progress hook), until uninstall().
    void install()
    {
        LoadJob::setProgressHookForTesting([this](const QString& path, const QString& stage,
                                               const CancelToken& cancel) { hold(path, stage, cancel); });
    }
    void uninstall() { LoadJob::setProgressHookForTesting({}); }
    /// Opens the gate and waits until every load thread has ended (false after 20 s).
    bool openAndWaitForLoads()
    {
        open();
        return LoadJob::waitForDetachedLoads(20000);
    }
    /// Holds only the loads of @p paths (all loads when empty), from the first progress report whose stage starts
    /// with @p stage (any stage when empty).
    void close(const QStringList& paths = {}, bool ignoreCancel = false, const QString& stage = {})
    {
        std::lock_guard lock(m_mutex);
        m_open = false;
        m_paths = paths;
        m_ignoreCancel = ignoreCancel;
        m_stage = stage;
    }
    void open()
    {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }
    void hold(const QString& path, const QString& stage, const CancelToken& cancel)
    {
        std::unique_lock lock(m_mutex);
        if (!m_paths.isEmpty() && !m_paths.contains(path))
            return;
        if (!m_stage.isEmpty() && !stage.startsWith(m_stage))
            return;
        m_stage.clear(); // held from here on
        // The cancel token is not a condition variable: look at it every few milliseconds.
        while (!m_open && (m_ignoreCancel || !cancel.isCancelled()))
            m_changed.wait_for(lock, std::chrono::milliseconds(5));
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_open = true;
    bool m_ignoreCancel = false;
    QStringList m_paths;
    QString m_stage;
};

} // namespace nsw::test
