// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"
#include "core/session/workbenchload.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace nsw {

class LoadJob;
class ProfileSession;
class Workbench;

/// The window's loads without the window: one LoadJob per file, each opening its profile as a session of the
/// workbench in the order the user asked for the files, whichever load ends first. A staged load opens its session
/// at the first stage and completes it at the end; when that load fails or is cancelled the half profile is closed
/// again, and closing such a session cancels the rest of its load. Failed loads leave the open sessions as they are.
class LoadCoordinator : public QObject
{
    Q_OBJECT
public:
    explicit LoadCoordinator(Workbench* workbench, QObject* parent = nullptr);
    /// Cancels every running load (cancelAll()).
    ~LoadCoordinator() override;

    /// Starts loading @p path through the profile cache of CacheSettings::fromEnvironment(), unless it is being
    /// loaded already (then nothing happens).
    void load(const QString& path);
    /// Cancels every running load and returns at once: the load threads wind down on their own.
    void cancelAll();
    /// The running loads, oldest first.
    const std::vector<LoadJob*>& jobs() const { return m_jobs; }

Q_SIGNALS:
    /// A load started; its job lives until loadEnded.
    void loadStarted(nsw::LoadJob* job);
    /// @p job is done, successfully or not, and about to be deleted.
    void jobEnded(nsw::LoadJob* job);
    /// A load opened @p session of @p path (at its first stage for a staged load; added to the workbench already).
    void sessionOpened(nsw::ProfileSession* session, const QString& path);
    /// The first stage of a staged load of @p path has been read and opens in the next turn of the event loop
    /// (firstStageOpened, or the load ends first): the window makes room for it now (leaves its start page, lays out
    /// its panes), and the panes take the profile then: two short stops of the event loop instead of one long one.
    void firstStageArriving(const QString& path);
    /// The first stage of a staged load of @p path is open; the rest is being read.
    void firstStageOpened(const QString& path);
    /// The whole profile of @p path is open.
    void loaded(const QString& path, const std::shared_ptr<nsw::LoadedProfile>& loaded);
    /// The load of @p path failed: @p error names the file and the problem.
    void failed(const QString& path, const QString& error, nsw::ErrorKind kind);
    void cancelled(const QString& path);
    /// Storing a loaded profile in the profile cache failed (the profile is open all the same).
    void cacheWriteFailed(const QString& message);

private:
    ProfileSession* openSession(LoadJob* job, const LoadedProfile& loaded);
    void onFirstStage(LoadJob* job, const std::shared_ptr<LoadedProfile>& firstStage);
    void openFirstStage(LoadJob* job, const std::shared_ptr<LoadedProfile>& firstStage);
    void onLoaded(LoadJob* job, const std::shared_ptr<LoadedProfile>& loaded);
    /// Removes the session a staged load opened at its first stage (the load failed or was cancelled).
    void closeStagedSession(LoadJob* job);
    void finishJob(LoadJob* job);

    Workbench* m_workbench;
    std::vector<LoadJob*> m_jobs;
    std::map<LoadJob*, quint64> m_openOrders; ///< each load's place in the open order
    std::map<LoadJob*, QPointer<ProfileSession>> m_stagedSessions; ///< opened at the first stage, not yet complete
    std::set<LoadJob*> m_arrivingFirstStages; ///< first stages to open in the next turn (firstStageArriving)
};

} // namespace nsw
