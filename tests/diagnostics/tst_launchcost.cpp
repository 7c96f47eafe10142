// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-worked launch costs, short kernel threshold 10 µs:
//   a #1: call [0, 4000], kernel [6000, 11000]: API 4000, queue 2000, kernel 5000 (short)
//   a #2: call [20000, 23000], kernel [22000, 52000]: API 3000, queue 0 (started before the call ended), 30000
//   b: no launching call, kernel [60000, 61000]: kernel 1000 (short), no API or queue time
// pid 100 launches a; b belongs to pid 200. Window: the capture span [0, 61000].
#include "core/diagnostics/launchcost.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

namespace {

ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    b.kernel(t, 0, 4000, 6000, 11000, QStringLiteral("a"));
    b.kernel(t, 20000, 23000, 22000, 52000, QStringLiteral("a"));
    b.kernelWithoutApi(b.process(200), 60000, 61000, QStringLiteral("b"));
    return b.build();
}

} // namespace

class TestLaunchCost : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void perKernel_data();
    void perKernel();
    void totals();
    void perProcess_data();
    void perProcess();
};

void TestLaunchCost::perKernel_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("kernels");
    QTest::addColumn<qint64>("launches");
    QTest::addColumn<qint64>("api");
    QTest::addColumn<qint64>("apiMax");
    QTest::addColumn<qint64>("queue");
    QTest::addColumn<qint64>("kernelNs");
    QTest::addColumn<qint64>("kernelMin");
    QTest::addColumn<qint64>("kernelMax");
    QTest::addColumn<qint64>("shortKernels");
    QTest::newRow("a: two launches, negative queue counts 0")
        << QStringLiteral("a") << qint64(2) << qint64(2) << qint64(7000) << qint64(4000) << qint64(2000)
        << qint64(35000) << qint64(5000) << qint64(30000) << qint64(1);
    QTest::newRow("b: no launching call") << QStringLiteral("b") << qint64(1) << qint64(0) << qint64(0) << qint64(0)
                                          << qint64(0) << qint64(1000) << qint64(1000) << qint64(1000) << qint64(1);
}

void TestLaunchCost::perKernel()
{
    QFETCH(QString, name);
    QFETCH(qint64, kernels);
    QFETCH(qint64, launches);
    QFETCH(qint64, api);
    QFETCH(qint64, apiMax);
    QFETCH(qint64, queue);
    QFETCH(qint64, kernelNs);
    QFETCH(qint64, kernelMin);
    QFETCH(qint64, kernelMax);
    QFETCH(qint64, shortKernels);
    const LaunchCostResult r = computeLaunchCost(makeAnalysisContext(fixture()), 10000);
    for (const LaunchCostRow& k : r.kernels) {
        if (k.name != name)
            continue;
        QCOMPARE(k.kernels.count, kernels);
        QCOMPARE(k.launchCalls.count, launches);
        QCOMPARE(k.launchCalls.total, api);
        QCOMPARE(k.launchCalls.max, apiMax);
        QCOMPARE(k.queue.total, queue);
        QCOMPARE(k.kernels.total, kernelNs);
        QCOMPARE(k.kernels.min, kernelMin);
        QCOMPARE(k.kernels.max, kernelMax);
        QCOMPARE(k.shortKernels, shortKernels);
        return;
    }
    QFAIL("kernel missing");
}

void TestLaunchCost::totals()
{
    const LaunchCostResult r = computeLaunchCost(makeAnalysisContext(fixture()), 10000);
    QCOMPARE(r.kernels.front().name, QStringLiteral("a")); // most kernel time first
    QCOMPARE(r.totalKernels, qint64(3));
    QCOMPARE(r.shortKernels, qint64(2));
    QCOMPARE(r.shortKernelApiNs, TimeNs(4000));
    QCOMPARE(r.totalKernelNs, TimeNs(36000));
    QCOMPARE(r.shortPercent(), 200.0 / 3.0);
    const LaunchCostResult strict = computeLaunchCost(makeAnalysisContext(fixture()), 1000);
    QCOMPARE(strict.shortKernels, qint64(0)); // 1000 is not shorter than 1000
}

void TestLaunchCost::perProcess_data()
{
    QTest::addColumn<int>("pid");
    QTest::addColumn<qint64>("launches");
    QTest::addColumn<qint64>("api");
    QTest::addColumn<double>("perSecond");
    QTest::newRow("pid 100") << 100 << qint64(2) << qint64(7000) << 2e9 / 61000.0;
    QTest::newRow("pid 200") << 200 << qint64(1) << qint64(0) << 1e9 / 61000.0;
}

void TestLaunchCost::perProcess()
{
    QFETCH(int, pid);
    QFETCH(qint64, launches);
    QFETCH(qint64, api);
    QFETCH(double, perSecond);
    const LaunchCostResult r = computeLaunchCost(makeAnalysisContext(fixture()), 10000);
    for (const LaunchRateRow& p : r.processes) {
        if (p.pid != pid)
            continue;
        QCOMPARE(p.launches, launches);
        QCOMPARE(p.apiNs, api);
        QCOMPARE(p.spanNs, TimeNs(61000));
        QCOMPARE(p.launchesPerSecond(), perSecond);
        return;
    }
    QFAIL("process missing");
}

QTEST_GUILESS_MAIN(TestLaunchCost)
#include "tst_launchcost.moc"
