// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/jobs/mainthreadcall.h"

#include <QCoreApplication>
#include <QTest>
#include <QThread>
#include <atomic>
#include <memory>
#include <thread>

using namespace nsw;

class TestMainThreadCall : public QObject
{
    Q_OBJECT

private slots:
    void aCallPostedFromAnotherThreadRunsOnTheMainThread()
    {
        QThread* ranOn = nullptr;
        std::thread poster([&ranOn] { postToMainThread([&ranOn] { ranOn = QThread::currentThread(); }); });
        poster.join();
        QCOMPARE(ranOn, nullptr); // only the event loop runs it
        QTRY_COMPARE(ranOn, QCoreApplication::instance()->thread());
    }

    /// A background thread (the profile cache's writer) may post after the last event loop has run: the call is
    /// then deleted with the application's queue, unrun, on the main thread. Under the tsan preset that deletion
    /// is checked against the call's construction on the posting thread (it failed CI once): the poster is
    /// detached and says it is done through a relaxed flag, so nothing but the hand-over orders the two.
    void cleanupTestCase()
    {
        auto captured = std::make_shared<int>(0);
        static std::atomic<bool> posted { false };
        std::thread([c = captured]() mutable {
            postToMainThread([c = std::move(c)] { *c = 1; });
            posted.store(true, std::memory_order_relaxed);
        }).detach();
        while (!posted.load(std::memory_order_relaxed))
            QThread::yieldCurrentThread();
        QCOMPARE(*captured, 0);
    }
};

QTEST_GUILESS_MAIN(TestMainThreadCall)
#include "tst_mainthreadcall.moc"
