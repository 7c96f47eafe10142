// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/temporalbreakdown.h"
#include "overlapfixture.h"

#include <QTest>

using namespace nsw;

class TestTemporalBreakdown : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void perDevice_data();
    void perDevice();
};

void TestTemporalBreakdown::perDevice_data()
{
    QTest::addColumn<int>("device");
    QTest::addColumn<qint64>("compute");
    QTest::addColumn<qint64>("communication");
    QTest::addColumn<qint64>("memory");
    QTest::addColumn<qint64>("idle");
    // Compute first (200), then NCCL not under compute ([100,150] + [500,600]), then memory under neither
    // ([150,300]), the rest idle.
    QTest::newRow("device 0") << 0 << qint64(200) << qint64(150) << qint64(150) << qint64(100);
    QTest::newRow("device 1: all compute") << 1 << qint64(600) << qint64(0) << qint64(0) << qint64(0);
}

void TestTemporalBreakdown::perDevice()
{
    QFETCH(int, device);
    QFETCH(qint64, compute);
    QFETCH(qint64, communication);
    QFETCH(qint64, memory);
    QFETCH(qint64, idle);
    const std::vector<DeviceTimeBreakdown> r = computeTemporalBreakdown(makeAnalysisContext(test::overlapFixture()));
    QCOMPARE(r.size(), std::size_t(2));
    for (const DeviceTimeBreakdown& d : r) {
        if (d.device != device)
            continue;
        QCOMPARE(d.spanNs, TimeNs(600));
        QCOMPARE(d.computeNs, compute);
        QCOMPARE(d.communicationNs, communication);
        QCOMPARE(d.memoryNs, memory);
        QCOMPARE(d.idleNs, idle);
        QCOMPARE(d.computeNs + d.communicationNs + d.memoryNs + d.idleNs, d.spanNs);
        return;
    }
    QFAIL("device missing");
}

QTEST_GUILESS_MAIN(TestTemporalBreakdown)
#include "tst_temporalbreakdown.moc"
