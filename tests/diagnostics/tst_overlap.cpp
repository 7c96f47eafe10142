// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/overlap.h"
#include "overlapfixture.h"

#include <QTest>

using namespace nsw;

class TestOverlap : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void perDevice_data();
    void perDevice();
    void sharedStreams();
    void queuedCompute();
    void focus();
};

void TestOverlap::perDevice_data()
{
    QTest::addColumn<int>("device");
    QTest::addColumn<qint64>("computeOnly");
    QTest::addColumn<qint64>("ncclOnly");
    QTest::addColumn<qint64>("overlapped");
    QTest::addColumn<qint64>("idle");
    QTest::addColumn<double>("overlapPct");
    QTest::newRow("device 0: 50 of 200 NCCL ns overlap compute")
        << 0 << qint64(150) << qint64(150) << qint64(50) << qint64(250) << 25.0;
    QTest::newRow("device 1: compute only") << 1 << qint64(600) << qint64(0) << qint64(0) << qint64(0) << 0.0;
}

void TestOverlap::perDevice()
{
    QFETCH(int, device);
    QFETCH(qint64, computeOnly);
    QFETCH(qint64, ncclOnly);
    QFETCH(qint64, overlapped);
    QFETCH(qint64, idle);
    QFETCH(double, overlapPct);
    const OverlapResult r = computeOverlap(makeAnalysisContext(test::overlapFixture()));
    QVERIFY(r.hasNccl);
    for (const DeviceOverlap& d : r.devices) {
        if (d.device != device)
            continue;
        QCOMPARE(d.spanNs, TimeNs(600));
        QCOMPARE(d.computeOnlyNs, computeOnly);
        QCOMPARE(d.ncclOnlyNs, ncclOnly);
        QCOMPARE(d.overlappedNs, overlapped);
        QCOMPARE(d.idleNs, idle);
        QCOMPARE(d.overlapPercent(), overlapPct);
        return;
    }
    QFAIL("device missing");
}

void TestOverlap::sharedStreams()
{
    const OverlapResult r = computeOverlap(makeAnalysisContext(test::overlapFixture()));
    QCOMPARE(r.sharedStreams.size(), std::size_t(1));
    const SharedStream& s = r.sharedStreams.front();
    QCOMPARE(s.device, 0);
    QCOMPARE(s.stream, std::int64_t(7));
    QCOMPARE(s.ncclKernels.count, qint64(1));
    QCOMPARE(s.computeKernels, qint64(2));
    QCOMPARE(s.ncclKernels.total, TimeNs(100));
}

void TestOverlap::queuedCompute()
{
    // Stream 7 of device 0 (launch call in brackets):
    //   NCCL N1 [100, 200] (0, 1); c1 [200, 240] (50, 51) and c2 [240, 300] (150, 151) launched before N1 ended:
    //   queued 40 + 60 = 100, bound min(100, 100) = 100; c3 [300, 320] (160, 161) is not counted (N1 covered).
    //   NCCL N2 [400, 500] (300, 301); c4 [500, 520] (510, 511) launched after N2 ended: nothing queued.
    //   NCCL N3 [600, 700] (550, 551); c5 [700, 730] (650, 651) queued: bound min(100, 30) = 30.
    // Overlappable 130 over 3 queued kernels. Stream 9 holds compute only: no shared stream.
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    const QString nccl = QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    b.kernel(t, 0, 1, 100, 200, nccl, 0, 7);
    b.kernel(t, 50, 51, 200, 240, QStringLiteral("c1"), 0, 7);
    b.kernel(t, 150, 151, 240, 300, QStringLiteral("c2"), 0, 7);
    b.kernel(t, 160, 161, 300, 320, QStringLiteral("c3"), 0, 7);
    b.kernel(t, 300, 301, 400, 500, nccl, 0, 7);
    b.kernel(t, 510, 511, 500, 520, QStringLiteral("c4"), 0, 7);
    b.kernel(t, 550, 551, 600, 700, nccl, 0, 7);
    b.kernel(t, 650, 651, 700, 730, QStringLiteral("c5"), 0, 7);
    b.kernel(t, 0, 1, 0, 800, QStringLiteral("other"), 0, 9);
    const OverlapResult r = computeOverlap(makeAnalysisContext(b.build()));
    QCOMPARE(r.sharedStreams.size(), std::size_t(1));
    QCOMPARE(r.sharedStreams.front().stream, std::int64_t(7));
    QCOMPARE(r.sharedStreams.front().queuedKernels, qint64(3));
    QCOMPARE(r.sharedStreams.front().overlappableNs, TimeNs(130));
    // The overlap fixture's N2 is the stream's last kernel: nothing queued behind it.
    QCOMPARE(
        computeOverlap(makeAnalysisContext(test::overlapFixture())).sharedStreams.front().overlappableNs, TimeNs(0));
}

void TestOverlap::focus()
{
    // [80, 320): A [0,100] clipped to [80,100], N1 [80,150], B [300,320]; N2 out. C = 40, N = 70, C ∩ N = 20.
    const OverlapResult r
        = computeOverlap(makeAnalysisContext(test::overlapFixture(), FocusRange { 80, 320, QStringLiteral("f") }));
    const DeviceOverlap& d = r.devices.front();
    QCOMPARE(d.device, 0);
    QCOMPARE(d.spanNs, TimeNs(240));
    QCOMPARE(d.overlappedNs, TimeNs(20));
    QCOMPARE(d.computeOnlyNs, TimeNs(20));
    QCOMPARE(d.ncclOnlyNs, TimeNs(50));
    QCOMPARE(d.idleNs, TimeNs(150));
    QVERIFY(r.sharedStreams.empty()); // N2 is outside: stream 7 holds only compute
}

QTEST_GUILESS_MAIN(TestOverlap)
#include "tst_overlap.moc"
