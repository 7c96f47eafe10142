// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/workbenchload.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <thread>

namespace nsw {

/// Loads one file on its own thread and reports back through queued signals; several jobs may run at once.
/// Deleting the job cancels the load and waits for its thread.
class LoadJob : public QObject
{
    Q_OBJECT
public:
    explicit LoadJob(const QString& path, QObject* parent = nullptr);
    ~LoadJob() override;

    const QString& path() const { return m_path; }
    void start();
    void cancel();
    bool isRunning() const { return m_thread.joinable() && !m_done; }

Q_SIGNALS:
    /// @p permille is -1 until the first real progress value (show a busy indicator until then).
    void progress(int permille, const QString& stage);
    void finished(const std::shared_ptr<nsw::LoadedProfile>& loaded);
    void failed(const QString& error);
    void cancelled();

private:
    QString m_path;
    std::thread m_thread;
    std::atomic<bool> m_cancel { false };
    std::atomic<bool> m_done { false };
};

} // namespace nsw
