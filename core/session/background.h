// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/handoff.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>
#include <functional>
#include <memory>

namespace nsw {

/// Runs @p work on the global thread pool and hands its result to @p done on the GUI thread, unless @p context
/// was destroyed meanwhile. Results go through the application object, which outlives every context, so no
/// queued call ever targets a deleted object.
template <typename Result>
void runInBackground(QObject* context, std::function<Result()> work, std::function<void(Result)> done)
{
    QPointer<QObject> guard(context); // created on the GUI thread, only dereferenced there
    startInPool([guard, work = std::move(work), done = std::move(done)]() mutable {
        auto result = std::make_shared<Result>(work());
        const void* key = result.get();
        handoffRelease(key);
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [guard, done = std::move(done), result = std::move(result), back = HandoffBack(key)]() {
                handoffAcquire(result.get());
                const HandoffDone finished { back.key };
                if (guard)
                    done(std::move(*result));
            },
            Qt::QueuedConnection);
    });
}

} // namespace nsw
