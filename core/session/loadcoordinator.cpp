// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadcoordinator.h"

#include "core/jobs/mainthreadcall.h"
#include "core/session/loadjob.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTimer>
#include <algorithm>

namespace nsw {

LoadCoordinator::LoadCoordinator(Workbench* workbench, QObject* parent)
    : QObject(parent)
    , m_workbench(workbench)
{
    connect(m_workbench, &Workbench::sessionAboutToBeRemoved, this, [this](ProfileSession* session) {
        for (const auto& [job, staged] : m_stagedSessions)
            if (staged == session)
                job->cancel(); // closed before its load ended: the rest of it is not wanted
    });
}

LoadCoordinator::~LoadCoordinator()
{
    cancelAll();
}

void LoadCoordinator::cancelAll()
{
    // A job's destructor cancels its load and returns at once (the thread winds down on its own).
    const std::vector<LoadJob*> jobs = std::move(m_jobs);
    m_jobs.clear();
    m_openOrders.clear();
    m_stagedSessions.clear();
    for (LoadJob* job : jobs) {
        Q_EMIT jobEnded(job);
        delete job;
    }
}

void LoadCoordinator::load(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (LoadJob* job : m_jobs)
        if (job->path() == absolute)
            return; // already loading
    auto* job = new LoadJob(absolute, this);
    job->setCache(CacheSettings::fromEnvironment(), [self = QPointer<LoadCoordinator>(this)](const QString& failure) {
        postToMainThread([self, failure]() {
            if (self)
                Q_EMIT self->cacheWriteFailed(failure);
        });
    });
    m_jobs.push_back(job);
    m_openOrders[job] = m_workbench->reserveOpenOrder();
    Q_EMIT loadStarted(job);
    connect(job, &LoadJob::finished, this,
        [this, job](const std::shared_ptr<LoadedProfile>& loaded) { onLoaded(job, loaded); });
    connect(job, &LoadJob::failed, this, [this, job](const QString& error, ErrorKind kind) {
        const QString path = job->path();
        closeStagedSession(job); // half a profile is not shown as if it were whole
        finishJob(job);
        Q_EMIT failed(path, error, kind);
    });
    connect(job, &LoadJob::firstStageReady, this,
        [this, job](const std::shared_ptr<LoadedProfile>& first) { onFirstStage(job, first); });
    connect(job, &LoadJob::cancelled, this, [this, job]() {
        const QString path = job->path();
        closeStagedSession(job);
        finishJob(job);
        Q_EMIT cancelled(path);
    });
    job->start();
}

ProfileSession* LoadCoordinator::openSession(LoadJob* job, const LoadedProfile& loaded)
{
    const QString path = job->path();
    auto* session = new ProfileSession(loaded);
    session->setOpenOrder(m_openOrders[job]);
    // Two profiles from different folders may share a file name: tell them apart.
    for (ProfileSession* other : m_workbench->sessions())
        if (other->displayName() == session->displayName())
            session->setDisplayName(QFileInfo(path).dir().dirName() + QLatin1Char('/') + session->displayName());
    m_workbench->addSession(session);
    Q_EMIT sessionOpened(session, path);
    return session;
}

void LoadCoordinator::onFirstStage(LoadJob* job, const std::shared_ptr<LoadedProfile>& firstStage)
{
    m_arrivingFirstStages.insert(job);
    Q_EMIT firstStageArriving(job->path());
    // A timer, not a posted call: Qt sends every posted event of a pass without dispatching its timers and input in
    // between, and the two halves would be one stop of the event loop again.
    QTimer::singleShot(1, Qt::PreciseTimer, this, [this, guard = QPointer<LoadJob>(job), firstStage]() {
        if (guard)
            openFirstStage(guard, firstStage);
    });
}

void LoadCoordinator::openFirstStage(LoadJob* job, const std::shared_ptr<LoadedProfile>& firstStage)
{
    if (m_arrivingFirstStages.erase(job) == 0)
        return; // the load ended in between: onLoaded() opened the whole profile, or it failed or was cancelled
    ProfileSession* session = openSession(job, *firstStage);
    m_stagedSessions[job] = session;
    // Four updates a second are plenty for the panes' waiting notes (the load row shows every step).
    auto shown = std::make_shared<QElapsedTimer>();
    connect(job, &LoadJob::progress, session, [session, shown](int permille, const QString& stage) {
        if (shown->isValid() && shown->elapsed() < 250)
            return;
        shown->start();
        session->setPendingStage(permille < 0 ? stage : tr("%1 (%2 %)").arg(stage).arg(permille / 10));
    });
    Q_EMIT firstStageOpened(job->path());
}

void LoadCoordinator::onLoaded(LoadJob* job, const std::shared_ptr<LoadedProfile>& loaded)
{
    const QString path = job->path();
    const auto staged = m_stagedSessions.find(job);
    if (staged != m_stagedSessions.end() && staged->second)
        staged->second->completeLoad(*loaded);
    else if (staged == m_stagedSessions.end())
        openSession(job, *loaded);
    finishJob(job);
    Q_EMIT this->loaded(path, loaded);
}

void LoadCoordinator::closeStagedSession(LoadJob* job)
{
    const auto staged = m_stagedSessions.find(job);
    if (staged == m_stagedSessions.end())
        return;
    const QPointer<ProfileSession> session = staged->second;
    m_stagedSessions.erase(staged);
    if (session)
        m_workbench->removeSession(session);
}

void LoadCoordinator::finishJob(LoadJob* job)
{
    m_stagedSessions.erase(job);
    m_arrivingFirstStages.erase(job);
    m_jobs.erase(std::remove(m_jobs.begin(), m_jobs.end(), job), m_jobs.end());
    m_openOrders.erase(job);
    Q_EMIT jobEnded(job);
    job->deleteLater();
}

} // namespace nsw
