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
    QCOMPARE(s.ncclKernels, qint64(1));
    QCOMPARE(s.computeKernels, qint64(2));
    QCOMPARE(s.ncclNs, TimeNs(100));
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
