// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/handoff.h"
#include "core/jobs/mainthreadcall.h"

#include <QPointer>
#include <functional>
#include <memory>

namespace nsw {

/// Runs @p work on the jobs' thread pool and hands its result to @p done on the GUI thread, unless @p context
/// was destroyed meanwhile. Results go through postToMainThread(), whose receiver outlives every context, so
/// no call ever targets a deleted object.
template <typename Result>
void runInBackground(QObject* context, std::function<Result()> work, std::function<void(Result)> done)
{
    QPointer<QObject> guard(context); // created on the GUI thread, only dereferenced there
    startInPool([guard, work = std::move(work), done = std::move(done)]() mutable {
        auto result = std::make_shared<Result>(work());
        postToMainThread([guard, done = std::move(done), result]() {
            if (guard)
                done(std::move(*result));
        });
    });
}

} // namespace nsw
