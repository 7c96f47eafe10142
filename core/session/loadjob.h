// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/workbenchload.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <memory>

namespace nsw {

/// Loads one file on its own thread and reports back through queued signals; several jobs may run at once.
/// Deleting the job cancels the load and returns at once: the thread is detached and owns all it uses, and its
/// result, arriving after the job is gone, is dropped. waitForDetachedLoads() lets the application wait for such
/// threads before it exits.
class LoadJob : public QObject
{
    Q_OBJECT
public:
    explicit LoadJob(const QString& path, QObject* parent = nullptr);
    ~LoadJob() override;

    const QString& path() const { return m_path; }
    /// Loads through the profile cache of @p settings (before start(); none by default). @p writeFailed is called
    /// on the writer's thread, maybe after the job is gone, when storing the profile failed.
    void setCache(const CacheSettings& settings, std::function<void(const QString&)> writeFailed = {});
    void start();
    void cancel();
    bool isCancelRequested() const;
    bool isRunning() const { return m_started && !m_ended; }
    /// Milliseconds since start().
    qint64 elapsedMilliseconds() const { return m_clock.isValid() ? m_clock.elapsed() : 0; }

    /// Waits until every load thread (also those of deleted jobs) has ended, at most @p timeoutMs; true if none
    /// is left.
    static bool waitForDetachedLoads(int timeoutMs);
    /// Test hook: called on the load thread after each progress report, with its stage text and the job's cancel
    /// flag. A test makes a load as slow as it needs by blocking here (e.g. in the second stage of a staged load), or
    /// fail as it needs by throwing. Empty (the default) in the application.
    using ProgressHook = std::function<void(const QString& path, const QString& stage, const CancelToken& cancel)>;
    static void setProgressHookForTesting(ProgressHook hook);

Q_SIGNALS:
    /// @p permille is -1 until the first real progress value (show a busy indicator until then).
    void progress(int permille, const QString& stage);
    /// The kernel tables are in memory (LoadedProfile::complete false); finished() follows with the whole profile.
    void firstStageReady(const std::shared_ptr<nsw::LoadedProfile>& firstStage);
    void finished(const std::shared_ptr<nsw::LoadedProfile>& loaded);
    /// The load failed: @p error names the file and the problem; OutOfMemory says how much it needs.
    void failed(const QString& error, nsw::ErrorKind kind);
    void cancelled();

private:
    struct Shared;
    void startThread(const QPointer<LoadJob>& guard);
    void deliver(const Result<LoadedProfile>& loaded);

    QString m_path;
    std::shared_ptr<Shared> m_shared;
    QElapsedTimer m_clock;
    bool m_started = false;
    bool m_ended = false;
};

} // namespace nsw
