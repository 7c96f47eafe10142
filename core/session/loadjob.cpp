// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadjob.h"

#include <QMetaObject>

namespace nsw {

LoadJob::LoadJob(const QString& path, QObject* parent)
    : QObject(parent)
    , m_path(path)
{
    qRegisterMetaType<std::shared_ptr<nsw::LoadedProfile>>();
}

LoadJob::~LoadJob()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

void LoadJob::start()
{
    if (m_thread.joinable())
        return;
    Q_EMIT progress(-1, tr("Opening %1").arg(m_path));
    m_thread = std::thread([this]() {
        int lastPermille = -2;
        auto onProgress = [this, &lastPermille](const LoadProgress& p) {
            const int permille = int(p.fraction * 1000);
            if (permille == lastPermille)
                return;
            lastPermille = permille;
            // Queued: the job lives in the GUI thread; the destructor joins this thread first, so `this` is alive.
            QMetaObject::invokeMethod(
                this, [this, permille, stage = p.stage]() { Q_EMIT progress(permille, stage); }, Qt::QueuedConnection);
        };
        auto loaded = std::make_shared<LoadedProfile>(loadForWorkbench(m_path, onProgress, &m_cancel));
        m_done = true;
        QMetaObject::invokeMethod(
            this,
            [this, loaded]() {
                if (loaded->profile)
                    Q_EMIT finished(loaded);
                else if (loaded->result.cancelled)
                    Q_EMIT cancelled();
                else
                    Q_EMIT failed(loaded->result.error);
            },
            Qt::QueuedConnection);
    });
}

void LoadJob::cancel()
{
    m_cancel = true;
}

} // namespace nsw
