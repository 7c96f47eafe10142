// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/ncclbreakdown.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

namespace {

/// pid 100, device 0: AllReduce 100 and 300 on stream 9, AllGather 200 on stream 9, SendRecv 400 on stream 11,
/// a compute kernel (not NCCL) 1000 on stream 7. NCCL total 1000.
ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    b.kernel(t, 0, 1, 0, 100, QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), 0, 9);
    b.kernel(t, 0, 1, 100, 400, QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), 0, 9);
    b.kernel(t, 0, 1, 400, 600, QStringLiteral("ncclKernel_AllGather_RING_LL_Sum_int8_t"), 0, 9);
    b.kernel(t, 0, 1, 0, 400, QStringLiteral("ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)"), 0, 11);
    b.kernel(t, 0, 1, 0, 1000, QStringLiteral("gemm"), 0, 7);
    return b.build();
}

} // namespace

class TestNcclBreakdown : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void collectiveOfName_data();
    void collectiveOfName();
    void perCollective_data();
    void perCollective();
    void perStream();
};

void TestNcclBreakdown::collectiveOfName_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("collective");
    QTest::newRow("AllReduce") << QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL")
                               << QStringLiteral("AllReduce");
    QTest::newRow("AllGather (old kernel name)")
        << QStringLiteral("ncclKernel_AllGather_RING_LL_Sum_int8_t") << QStringLiteral("AllGather");
    QTest::newRow("ReduceScatter, not Reduce")
        << QStringLiteral("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL") << QStringLiteral("ReduceScatter");
    QTest::newRow("Reduce") << QStringLiteral("ncclDevKernel_Reduce_Sum_f32_RING_LL") << QStringLiteral("Reduce");
    QTest::newRow("Broadcast") << QStringLiteral("ncclDevKernel_Broadcast_RING_LL") << QStringLiteral("Broadcast");
    QTest::newRow("SendRecv") << QStringLiteral("ncclDevKernel_SendRecv") << QStringLiteral("SendRecv");
    QTest::newRow("Send alone is SendRecv") << QStringLiteral("ncclKernel_Send") << QStringLiteral("SendRecv");
    QTest::newRow("AllToAll") << QStringLiteral("ncclDevKernel_AllToAll") << QStringLiteral("AllToAll");
    QTest::newRow("case ignored") << QStringLiteral("NCCL_ALL_REDUCE") << QStringLiteral("AllReduce");
    QTest::newRow("other") << QStringLiteral("ncclDevKernel_Generic") << QStringLiteral("other");
}

void TestNcclBreakdown::collectiveOfName()
{
    QFETCH(QString, name);
    QFETCH(QString, collective);
    QCOMPARE(collectiveName(collectiveOf(name)), collective);
}

void TestNcclBreakdown::perCollective_data()
{
    QTest::addColumn<QString>("collective");
    QTest::addColumn<qint64>("count");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<qint64>("min");
    QTest::addColumn<qint64>("max");
    QTest::addColumn<double>("share");
    QTest::newRow("AllReduce") << QStringLiteral("AllReduce") << qint64(2) << qint64(400) << qint64(100) << qint64(300)
                               << 40.0;
    QTest::newRow("SendRecv") << QStringLiteral("SendRecv") << qint64(1) << qint64(400) << qint64(400) << qint64(400)
                              << 40.0;
    QTest::newRow("AllGather") << QStringLiteral("AllGather") << qint64(1) << qint64(200) << qint64(200) << qint64(200)
                               << 20.0;
}

void TestNcclBreakdown::perCollective()
{
    QFETCH(QString, collective);
    QFETCH(qint64, count);
    QFETCH(qint64, total);
    QFETCH(qint64, min);
    QFETCH(qint64, max);
    QFETCH(double, share);
    const NcclBreakdown r = computeNcclBreakdown(makeAnalysisContext(fixture()));
    QCOMPARE(r.total.count, qint64(4));
    QCOMPARE(r.total.total, TimeNs(1000));
    QCOMPARE(r.collectives.size(), std::size_t(3));
    for (const NcclCollectiveRow& c : r.collectives) {
        if (collectiveName(c.collective) != collective)
            continue;
        QCOMPARE(c.stats.count, count);
        QCOMPARE(c.stats.total, total);
        QCOMPARE(c.stats.min, min);
        QCOMPARE(c.stats.max, max);
        QCOMPARE(c.stats.sharePercent, share);
        return;
    }
    QFAIL("collective missing");
}

void TestNcclBreakdown::perStream()
{
    const NcclBreakdown r = computeNcclBreakdown(makeAnalysisContext(fixture()));
    QCOMPARE(r.streams.size(), std::size_t(2));
    QCOMPARE(r.streams[0].stream, std::int64_t(9)); // 600 first
    QCOMPARE(r.streams[0].stats.count, qint64(3));
    QCOMPARE(r.streams[0].stats.total, TimeNs(600));
    QCOMPARE(r.streams[0].stats.average(), 200.0);
    QCOMPARE(r.streams[0].stats.sharePercent, 60.0);
    QCOMPARE(r.streams[1].stream, std::int64_t(11));
    QCOMPARE(r.streams[1].stats.total, TimeNs(400));
}

QTEST_GUILESS_MAIN(TestNcclBreakdown)
#include "tst_ncclbreakdown.moc"
