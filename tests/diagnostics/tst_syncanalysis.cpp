// SPDX-License-Identifier: GPL-3.0-or-later
// Thread 101 (pid 100): cudaStreamSynchronize [0, 100], cudaDeviceSynchronize [200, 500], cudaMemcpy (blocking)
// [600, 700], cudaMemcpyAsync [800, 810] (not sync), cudaStreamWaitEvent [900, 905] (a wait, counted),
// cuCtxSynchronize [1000, 1100]: 5 sync-like calls, 605 ns of 1100 (its first to last call), API time 615.
// Thread 102 (pid 100): cudaEventSynchronize [0, 1000]: 1 call, the whole span.
// Thread 201 (pid 200): cudaLaunchKernel [0, 10] only: no sync, not listed.
#include "core/diagnostics/syncanalysis.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

namespace {

ProfilePtr fixture(bool withOther = true)
{
    test::ProfileBuilder b;
    const ProcessIndex p = b.process(100);
    const ThreadIndex t1 = b.thread(p, 101, QStringLiteral("main"));
    const ThreadIndex t2 = b.thread(p, 102);
    b.apiCall(t1, 0, 100, QStringLiteral("cudaStreamSynchronize_v3020"));
    b.apiCall(t1, 200, 500, QStringLiteral("cudaDeviceSynchronize_v3020"));
    b.apiCall(t1, 600, 700, QStringLiteral("cudaMemcpy_v3020"));
    b.apiCall(t1, 800, 810, QStringLiteral("cudaMemcpyAsync_v3020"));
    b.apiCall(t1, 900, 905, QStringLiteral("cudaStreamWaitEvent_v3020"));
    b.apiCall(t1, 1000, 1100, QStringLiteral("cuCtxSynchronize"));
    b.apiCall(t2, 0, 1000, QStringLiteral("cudaEventSynchronize_v3020"));
    if (withOther)
        b.apiCall(b.thread(b.process(200), 201), 0, 10, QStringLiteral("cudaLaunchKernel_v7000"));
    return b.build();
}

} // namespace

class TestSyncAnalysis : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void perThread_data();
    void perThread();
    void totalsAndApis();
    void focus();
};

void TestSyncAnalysis::perThread_data()
{
    QTest::addColumn<int>("tid");
    QTest::addColumn<qint64>("calls");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<qint64>("max");
    QTest::addColumn<qint64>("span");
    QTest::addColumn<qint64>("api");
    QTest::addColumn<double>("share");
    QTest::newRow("main thread: 5 calls, a wait included, async memcpy not")
        << 101 << qint64(5) << qint64(605) << qint64(300) << qint64(1100) << qint64(615) << 55.0;
    QTest::newRow("event sync thread: its whole span")
        << 102 << qint64(1) << qint64(1000) << qint64(1000) << qint64(1000) << qint64(1000) << 100.0;
}

void TestSyncAnalysis::perThread()
{
    QFETCH(int, tid);
    QFETCH(qint64, calls);
    QFETCH(qint64, total);
    QFETCH(qint64, max);
    QFETCH(qint64, span);
    QFETCH(qint64, api);
    QFETCH(double, share);
    const SyncResult r = computeSync(makeAnalysisContext(fixture()));
    QCOMPARE(r.threads.size(), std::size_t(2));
    for (const SyncThreadRow& t : r.threads) {
        if (t.tid != tid)
            continue;
        QCOMPARE(t.pid, 100);
        QCOMPARE(t.calls.count, calls);
        QCOMPARE(t.calls.total, total);
        QCOMPARE(t.calls.max, max);
        QCOMPARE(t.threadSpanNs, span);
        QCOMPARE(t.apiNs, api);
        QCOMPARE(t.sharePercent(), share);
        return;
    }
    QFAIL("thread missing");
}

void TestSyncAnalysis::totalsAndApis()
{
    const SyncResult r = computeSync(makeAnalysisContext(fixture()));
    QCOMPARE(r.calls.count, qint64(6));
    QCOMPARE(r.calls.total, TimeNs(1605));
    QCOMPARE(r.apiNs, TimeNs(1625));
    QCOMPARE(r.apis.size(), std::size_t(6)); // every sync-like name of pid 100
    QCOMPARE(r.apis.front().name, QStringLiteral("cudaEventSynchronize_v3020"));
    QCOMPARE(r.apis.front().calls.total, TimeNs(1000));
    QCOMPARE(r.apis[1].name, QStringLiteral("cudaDeviceSynchronize_v3020"));
}

void TestSyncAnalysis::focus()
{
    // [150, 650): the device sync [200, 500] and the memcpy [600, 700] on thread 101, the event sync on 102.
    const SyncResult r = computeSync(makeAnalysisContext(fixture(), FocusRange { 150, 650, QStringLiteral("f") }));
    QCOMPARE(r.calls.count, qint64(3));
    QCOMPARE(r.calls.total, TimeNs(300 + 100 + 1000));
}

QTEST_GUILESS_MAIN(TestSyncAnalysis)
#include "tst_syncanalysis.moc"
