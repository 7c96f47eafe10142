// SPDX-License-Identifier: GPL-3.0-or-later
// NCCL skew between GPUs. Hand-worked fixture (ns unless said): pid 100 on GPU 0, pid 200 on GPU 1, AllReduce:
//   instance   GPU 0 kernel (launch end)      GPU 1 kernel (launch end)     waits              last (lag, queue)
//   1          [100, 300] (90)                [150, 305] (140)              GPU 0 50           GPU 1 (50, 10)
//   2          [1000, 1200] (900)             [1100, 1210] (950)            GPU 0 100          GPU 1 (50, 150)
//   3          [2000, 2100] (1990)            [1950, 2110] (1940)           GPU 1 50           GPU 0 (50, 10)
//   -                                         [3000, 3100]                  no partner: unmatched
//   -          [4 ms, 4.1 ms]                 [4.05 ms, 4.2 ms]             ends 100 µs apart (> 50 µs): unmatched
// A SendRecv runs on GPU 0 only: no collective across GPUs. GPU 1 holds the most AllReduce kernels (5), so it is the
// reference; 3 groups, 9 - 3 x 2 = 3 unmatched.
// GPU 0: 3 instances, 500 ns, wait 150, last once (lag 50, queue 10), longest wait 100 in [1000, 1200].
// GPU 1: 3 instances, 425 ns, wait 50, last twice (lag 100, queue 160).
// The real mfu exports: waits checked against plain SQL that pairs the i-th NCCL kernel of each GPU.
#include "core/diagnostics/diagnostics.h"
#include "core/diagnostics/ncclskew.h"
#include "core/profile/profileloader.h"
#include "oracleexports.h"
#include "profilebuilder.h"
#include "sqlitefixture.h"
#include "testutils.h"

#include <QTest>

using namespace nsw;

namespace {

constexpr TimeNs us = 1000, ms = 1000 * us;

ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ThreadIndex t0 = b.thread(b.process(100), 101);
    const ThreadIndex t1 = b.thread(b.process(200), 201);
    const QString ar = QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    b.kernel(t0, 80, 90, 100, 300, ar, 0);
    b.kernel(t1, 130, 140, 150, 305, ar, 1);
    b.kernel(t0, 890, 900, 1000, 1200, ar, 0);
    b.kernel(t1, 940, 950, 1100, 1210, ar, 1);
    b.kernel(t0, 1980, 1990, 2000, 2100, ar, 0);
    b.kernel(t1, 1930, 1940, 1950, 2110, ar, 1);
    b.kernel(t1, 2990, 2995, 3000, 3100, ar, 1);
    b.kernel(t0, 3990, 3995, 4 * ms, 4100 * us, ar, 0);
    b.kernel(t1, 3990, 3995, 4050 * us, 4200 * us, ar, 1);
    b.kernel(t0, 5 * ms, 5 * ms + 10, 5 * ms + 20, 6 * ms, QStringLiteral("ncclDevKernel_SendRecv"), 0);
    b.kernel(t0, 0, 10, 20, 50, QStringLiteral("gemm"), 0);
    return b.build();
}

const NcclSkewDevice* device(const std::vector<NcclSkewDevice>& devices, int key)
{
    for (const NcclSkewDevice& d : devices)
        if (d.device == key)
            return &d;
    return nullptr;
}

} // namespace

class TestNcclSkew : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void handWorked_data();
    void handWorked();
    void matchingAndUnmatched();
    void realExportsAgainstSql_data();
    void realExportsAgainstSql();
};

void TestNcclSkew::handWorked_data()
{
    QTest::addColumn<int>("gpu");
    QTest::addColumn<qint64>("instances");
    QTest::addColumn<qint64>("ncclNs");
    QTest::addColumn<qint64>("waitNs");
    QTest::addColumn<qint64>("last");
    QTest::addColumn<qint64>("lagNs");
    QTest::addColumn<qint64>("queueNs");
    QTest::newRow("GPU 0 arrives first twice")
        << 0 << qint64(3) << qint64(500) << qint64(150) << qint64(1) << qint64(50) << qint64(10);
    QTest::newRow("GPU 1 arrives last twice")
        << 1 << qint64(3) << qint64(425) << qint64(50) << qint64(2) << qint64(100) << qint64(160);
}

void TestNcclSkew::handWorked()
{
    QFETCH(int, gpu);
    QFETCH(qint64, instances);
    QFETCH(qint64, ncclNs);
    QFETCH(qint64, waitNs);
    QFETCH(qint64, last);
    QFETCH(qint64, lagNs);
    QFETCH(qint64, queueNs);
    const NcclSkewResult r = computeNcclSkew(makeAnalysisContext(fixture()));
    const NcclSkewDevice* d = device(r.devices, gpu);
    QVERIFY(d);
    QCOMPARE(d->instances, instances);
    QCOMPARE(qint64(d->ncclNs), ncclNs);
    QCOMPARE(qint64(d->waitNs), waitNs);
    QCOMPARE(d->arrivedLast, last);
    QCOMPARE(d->lateLaunchesKnown, d->arrivedLast);
    QCOMPARE(qint64(d->launchLagNs), lagNs);
    QCOMPARE(qint64(d->queueNs), queueNs);
}

void TestNcclSkew::matchingAndUnmatched()
{
    const NcclSkewResult r = computeNcclSkew(makeAnalysisContext(fixture()));
    QCOMPARE(r.collectives.size(), std::size_t(1)); // the SendRecv runs on one GPU only
    const NcclSkewCollective& c = r.collectives.front();
    QCOMPARE(c.collective, Collective::AllReduce);
    QCOMPARE(c.groups, qint64(3));
    QCOMPARE(c.unmatched, qint64(3));
    QCOMPARE(c.maxWaitNs(), TimeNs(150));
    const NcclSkewDevice* d = device(r.devices, 0);
    QCOMPARE(d->longestWaitNs, TimeNs(100));
    QCOMPARE(d->longestWaitStart, TimeNs(1000));
    QCOMPARE(d->longestWaitEnd, TimeNs(1200));
    // Focused on [900, 2200): instances 2 and 3 only.
    const NcclSkewResult focused
        = computeNcclSkew(makeAnalysisContext(fixture(), FocusRange { 900, 2200, QStringLiteral("f") }));
    QCOMPARE(device(focused.devices, 0)->waitNs, TimeNs(100));
    QCOMPARE(device(focused.devices, 1)->waitNs, TimeNs(50));
}

void TestNcclSkew::realExportsAgainstSql_data()
{
    QTest::addColumn<QString>("path");
    bool any = false;
    for (const QString& path : test::sharedTraces())
        if (path.contains(QLatin1String("mfu_"))) {
            QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
            any = true;
        }
    if (!any)
        QTest::newRow("no mfu export") << QString();
}

void TestNcclSkew::realExportsAgainstSql()
{
    QFETCH(QString, path);
    if (path.isEmpty())
        NSW_SKIP_WITHOUT_SHARED_TRACES("the NCCL skew of the real 2 x H100 exports is checked against SQL");
    LoadOptions options = diagnosticsLoadOptions();
    const LoadResult loaded = ProfileLoader::load(path, options);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
    const NcclSkewResult r = computeNcclSkew(makeAnalysisContext(loaded->profile));

    // Independent: the i-th NCCL kernel of device 0 with the i-th of device 1; the one that starts first waits
    // until the other starts (at most its own duration).
    const QList<QStringList> rows = test::queryRows(path,
        QStringLiteral("WITH k AS (SELECT k.deviceId d, k.start s, k.end e, ROW_NUMBER() OVER (PARTITION BY k.deviceId "
                       "ORDER BY k.start) i FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds n ON n.id = "
                       "k.demangledName WHERE n.value LIKE '%nccl%'), p AS (SELECT a.s sa, a.e ea, b.s sb, b.e eb FROM "
                       "k a JOIN k b ON a.i = b.i AND a.d = 0 AND b.d = 1) SELECT COUNT(*), SUM(CASE WHEN sb > sa THEN "
                       "MIN(sb - sa, ea - sa) ELSE 0 END), SUM(CASE WHEN sa > sb THEN MIN(sa - sb, eb - sb) ELSE 0 "
                       "END), SUM(ea - sa), SUM(eb - sb) FROM p"));
    QCOMPARE(rows.size(), 1);
    const QStringList& sql = rows.front();
    QCOMPARE(r.collectives.size(), std::size_t(1));
    QCOMPARE(r.collectives.front().unmatched, qint64(0));
    QCOMPARE(QString::number(r.collectives.front().groups), sql[0]);
    QCOMPARE(QString::number(device(r.devices, 0)->waitNs), sql[1]);
    QCOMPARE(QString::number(device(r.devices, 1)->waitNs), sql[2]);
    QCOMPARE(QString::number(device(r.devices, 0)->ncclNs), sql[3]);
    QCOMPARE(QString::number(device(r.devices, 1)->ncclNs), sql[4]);
}

QTEST_GUILESS_MAIN(TestNcclSkew)
#include "tst_ncclskew.moc"
