// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainthreadcall.h"

#include "core/jobs/handoff.h"

#include <QCoreApplication>
#include <QEvent>
#include <QObject>
#include <mutex>

namespace nsw {

namespace {

const QEvent::Type kCallEvent = QEvent::Type(QEvent::registerEventType());

class CallEvent final : public QEvent
{
public:
    explicit CallEvent(std::function<void()> call)
        : QEvent(kCallEvent)
        , m_call(std::move(call))
    { }
    /// An event still queued when the application ends is deleted by Qt, never delivered: the deleting thread
    /// acquires too, or the call's destruction looks like a race with its construction on the posting thread.
    ~CallEvent() override { handoffAcquire(this); }
    void run() { m_call(); }

private:
    std::function<void()> m_call;
};

class Dispatcher final : public QObject
{
public:
    bool event(QEvent* e) override
    {
        if (e->type() != kCallEvent)
            return QObject::event(e);
        handoffAcquire(e);
        static_cast<CallEvent*>(e)->run();
        return true;
    }
};

/// One receiver on the application's thread, created on first use from whichever thread and never destroyed (a
/// load thread may post after the application object is gone; postEvent then finds no application and drops it).
Dispatcher* dispatcher(QCoreApplication* app)
{
    static Dispatcher* instance = nullptr;
    static std::once_flag once;
    std::call_once(once, [app] {
        instance = new Dispatcher;
        instance->moveToThread(app->thread());
    });
    return instance;
}

} // namespace

void postToMainThread(std::function<void()> call)
{
    QCoreApplication* app = QCoreApplication::instance();
    if (!app)
        return;
    Dispatcher* receiver = dispatcher(app);
    auto* event = new CallEvent(std::move(call));
    handoffRelease(event);
    QCoreApplication::postEvent(receiver, event);
}

} // namespace nsw
