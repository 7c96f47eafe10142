// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/jobs/background.h"
#include "core/jobs/cancel.h"
#include "core/jobs/jobcontext.h"
#include "core/jobs/jobguard.h"
#include "core/jobs/result.h"
#include "core/jobs/sidejob.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <atomic>
#include <optional>
#include <stdexcept>

using namespace nsw;

Q_DECLARE_METATYPE(nsw::ErrorKind)

namespace {
/// A job that spins until its token is cancelled, saying when it started and when it stopped.
struct SpinningJob
{
    QSemaphore started;
    std::atomic<bool> sawCancel { false };
    std::atomic<bool> finished { false };

    int operator()(const JobContext& context)
    {
        started.release();
        CancelPoll<64> stop(context.cancelToken());
        while (!stop())
            QThread::yieldCurrentThread();
        sawCancel = true;
        finished = true;
        return -1;
    }
};
} // namespace

class TestJobs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void childTokenFollowsItsParentOnly()
    {
        CancelToken parent;
        const CancelToken child = parent.child();
        const CancelToken sibling = parent.child();
        child.cancel();
        QVERIFY(child.isCancelled());
        QVERIFY(!parent.isCancelled());
        QVERIFY(!sibling.isCancelled());
        parent.cancel();
        QVERIFY(sibling.isCancelled());
    }

    void cancelPollReadsTheFlagOncePerStride()
    {
        CancelToken token;
        CancelPoll<4> stop(token);
        QVERIFY(!stop()); // 1
        token.cancel();
        QVERIFY(!stop()); // 2: not read yet
        QVERIFY(!stop()); // 3
        QVERIFY(stop()); // 4: read
        QVERIFY(stop()); // stays stopped
        QVERIFY(stop.stopped());
    }

    void sliceMapsProgressOntoTheCallersRange_data()
    {
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addColumn<double>("reported");
        QTest::addColumn<double>("expected");
        QTest::addRow("middle of a 20..60 step") << 0.2 << 0.6 << 0.5 << 0.4;
        QTest::addRow("end of the last half") << 0.5 << 1.0 << 1.0 << 1.0;
        QTest::addRow("above 1 is clamped") << 0.0 << 0.5 << 3.0 << 0.5;
        QTest::addRow("unknown stays unknown") << 0.2 << 0.6 << -1.0 << -1.0;
    }
    void sliceMapsProgressOntoTheCallersRange()
    {
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(double, reported);
        QFETCH(double, expected);
        Progress seen;
        const JobContext job(CancelToken(), [&](const Progress& p) { seen = p; });
        job.slice(from, to).report(QStringLiteral("kernels"), reported, QStringLiteral("1.2M/4.0M"));
        QCOMPARE(seen.fraction, expected);
        QCOMPARE(seen.stage, QStringLiteral("kernels"));
        QCOMPARE(seen.detail, QStringLiteral("1.2M/4.0M"));
    }

    void childContextStopsOnlyItsStep()
    {
        const JobContext job(CancelToken {});
        const JobContext step = job.withChildToken();
        step.cancelToken().cancel();
        QVERIFY(step.isCancelled());
        QVERIFY(!job.isCancelled());
    }

    void resultCarriesErrorAndWarnings()
    {
        Result<int> r = Result<int>::failure(ErrorKind::Input, QStringLiteral("x.sqlite: not an SQLite database"));
        r.addWarning(QStringLiteral("3 rows skipped"));
        QVERIFY(!r.ok());
        QVERIFY(!r.isCancelled());
        const Result<QString> converted = r.failureAs<QString>();
        QCOMPARE(converted.error().kind, ErrorKind::Input);
        QCOMPARE(converted.errorMessage(), QStringLiteral("x.sqlite: not an SQLite database"));
        QCOMPARE(converted.warnings(), QStringList { QStringLiteral("3 rows skipped") });
        QVERIFY(Result<int>::cancelled().isCancelled());
    }

    void supersededJobStopsMidwayAndIsNotDelivered()
    {
        QObject owner;
        JobSlot slot(&owner);
        SpinningJob first;
        bool firstDelivered = false;
        slot.run<int>(std::ref(first), [&](Result<int>) { firstDelivered = true; });
        QVERIFY(first.started.tryAcquire(1, 5000)); // running, not merely queued

        int second = 0;
        slot.run<int>([](const JobContext&) { return 42; }, [&](Result<int> v) { second = *v; });
        QTRY_VERIFY(first.finished);
        QVERIFY(first.sawCancel);
        QTRY_COMPARE(second, 42);
        QVERIFY(!slot.isBusy());
        QCoreApplication::processEvents();
        QVERIFY(!firstDelivered);
    }

    void destroyingTheSlotCancelsItsJob()
    {
        SpinningJob job;
        bool delivered = false;
        {
            QObject owner;
            JobSlot slot(&owner);
            slot.run<int>(std::ref(job), [&](Result<int>) { delivered = true; });
            QVERIFY(job.started.tryAcquire(1, 5000));
        }
        QTRY_VERIFY(job.finished);
        QCoreApplication::processEvents();
        QVERIFY(!delivered);
    }

    void progressArrivesOnTheOwnersThread()
    {
        QObject owner;
        JobSlot slot(&owner);
        QThread* seenOn = nullptr;
        QString stage;
        bool done = false;
        slot.run<int>(
            [](const JobContext& c) -> Result<int> {
                c.report(QStringLiteral("NVTX"), 0.45);
                return 1;
            },
            [&](Result<int>) { done = true; },
            [&](const Progress& p) {
                seenOn = QThread::currentThread();
                stage = p.stage;
            });
        QTRY_VERIFY(done);
        QTRY_COMPARE(stage, QStringLiteral("NVTX"));
        QCOMPARE(seenOn, owner.thread());
    }

    void exceptionInAJobIsItsError_data()
    {
        QTest::addColumn<bool>("outOfMemory");
        QTest::addColumn<ErrorKind>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("std::bad_alloc") << true << ErrorKind::OutOfMemory
                                        << QStringLiteral("not enough memory for this computation");
        QTest::newRow("another exception")
            << false << ErrorKind::Internal << QStringLiteral("this computation failed: internal error: a bug");
    }

    void exceptionInAJobIsItsError()
    {
        QFETCH(bool, outOfMemory);
        QFETCH(ErrorKind, kind);
        QFETCH(QString, message);
        QObject owner;
        JobSlot slot(&owner);
        std::optional<Result<int>> delivered;
        slot.run<int>(
            [outOfMemory](const JobContext&) -> Result<int> {
                if (outOfMemory)
                    throw std::bad_alloc();
                throw std::runtime_error("a bug");
            },
            [&](Result<int> r) { delivered = std::move(r); });
        QTRY_VERIFY(delivered.has_value());
        QVERIFY(!delivered->ok());
        QCOMPARE(delivered->error().kind, kind);
        QCOMPARE(delivered->errorMessage(), message);
        QVERIFY(!slot.isBusy());
    }

    void sideJobHandsItsExceptionToWait()
    {
        const CancelToken stop;
        SideJob side(stop);
        side.start([] { throw std::bad_alloc(); });
        const Result<int> r = catchingExceptions<int>(
            [&]() -> Result<int> {
                side.wait();
                return 1;
            },
            QStringLiteral("the side job"));
        QCOMPARE(r.error().kind, ErrorKind::OutOfMemory);
        side.wait(); // handed over once: nothing left to throw
    }

    void sideJobStoppedAndJoinedWhenLeftEarly()
    {
        SpinningJob job;
        const CancelToken caller;
        {
            const CancelToken stop = caller.child();
            SideJob side(stop);
            side.start([&] { job(JobContext(stop)); });
            QVERIFY(job.started.tryAcquire(1, 5000));
        } // an early return: the side job is stopped through its token and joined here
        QVERIFY(job.finished);
        QVERIFY(job.sawCancel);
        QVERIFY(!caller.isCancelled()); // its own token only, not the caller's
    }

    void sideJobWaitedForRunsToItsEnd()
    {
        std::atomic<int> steps { 0 };
        const CancelToken stop;
        SideJob side(stop);
        side.wait(); // nothing started: returns at once
        side.start([&] {
            for (int i = 0; i < 1000; ++i)
                ++steps;
        });
        side.wait();
        QCOMPARE(steps.load(), 1000);
        QVERIFY(!stop.isCancelled());
    }
};

QTEST_GUILESS_MAIN(TestJobs)
#include "tst_jobs.moc"
