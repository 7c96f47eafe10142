// SPDX-License-Identifier: GPL-3.0-or-later
// The longest kernels and the launch percentiles on a hand-worked profile (ns):
//   pid 100: thread 101 launches at 0, 10, 30, 60 (intervals 10, 20, 30); thread 102 at 5, 15 (10).
//     kernels: k1 [100, 150] (50), k2 [200, 300] (100), k3 [400, 430] (30), k4 [500, 600] (100), k5 [700, 710] (10)
//     and k6 [800, 820] (20), from the six launches in order.
//   pid 200: thread 201 launches at 0 and 1000; kernel k7 [2000, 2200] (200) and k8 [3000, 3001] (1).
// Percentiles by linear interpolation at rank p/100 x (n - 1) of the sorted values (numpy's default):
//   pid 100 intervals 10 10 20 30: p50 rank 1.5 -> 15, p90 rank 2.7 -> 27, p99 rank 2.97 -> 29.7.
//   pid 100 durations 10 20 30 50 100 100: p50 rank 2.5 -> 40, p90 rank 4.5 -> 100, p99 -> 100.
//   all durations 1 10 20 30 50 100 100 200: p50 rank 3.5 -> 40, p90 rank 6.3 -> 130, p99 rank 6.93 -> 193.
//   all intervals 10 10 20 30 1000: p50 20, p90 rank 3.6 -> 30 + 0.6 x 970 = 612, p99 rank 3.96 -> 961.2.
// Longest: k7 (200), then k2 and k4 (100, the earlier first), k1 (50).
#include "core/diagnostics/kerneltiming.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

namespace {

ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ProcessIndex p = b.process(100);
    const ThreadIndex a = b.thread(p, 101), c = b.thread(p, 102);
    const ThreadIndex d = b.thread(b.process(200), 201);
    b.kernel(a, 0, 1, 100, 150, QStringLiteral("k1"));
    b.kernel(c, 5, 6, 200, 300, QStringLiteral("k2"));
    b.kernel(a, 10, 11, 400, 430, QStringLiteral("k3"));
    b.kernel(c, 15, 16, 500, 600, QStringLiteral("k4"));
    b.kernel(a, 30, 31, 700, 710, QStringLiteral("k5"));
    b.kernel(a, 60, 61, 800, 820, QStringLiteral("k6"));
    b.kernel(d, 0, 1, 2000, 2200, QStringLiteral("k7"), 1);
    b.kernel(d, 1000, 1001, 3000, 3001, QStringLiteral("k8"), 1);
    return b.build();
}

} // namespace

class TestKernelTiming : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void percentilesOfValues_data();
    void percentilesOfValues();
    void launchPercentiles_data();
    void launchPercentiles();
    void launchesAnyOrderAnyLength_data();
    void launchesAnyOrderAnyLength();
    void longest();
};

void TestKernelTiming::percentilesOfValues_data()
{
    QTest::addColumn<QList<qint64>>("values");
    QTest::addColumn<double>("p50");
    QTest::addColumn<double>("p90");
    QTest::addColumn<double>("p99");
    QTest::newRow("1..10: 5.5, 9.1, 9.91") << QList<qint64> { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 } << 5.5 << 9.1 << 9.91;
    QTest::newRow("one value") << QList<qint64> { 42 } << 42.0 << 42.0 << 42.0;
    QTest::newRow("two values: all three ranks between them") << QList<qint64> { 3, 1 } << 2.0 << 2.8 << 2.98;
    QTest::newRow("ties, unsorted: 1 5 5 5 9") << QList<qint64> { 5, 5, 1, 9, 5 } << 5.0 << 7.4 << 8.84;
    QTest::newRow("empty") << QList<qint64> {} << 0.0 << 0.0 << 0.0;
}

void TestKernelTiming::percentilesOfValues()
{
    QFETCH(QList<qint64>, values);
    const Percentiles p = percentilesOf(std::vector<TimeNs>(values.begin(), values.end()));
    QCOMPARE(p.count, qint64(values.size()));
    QTEST(p.p50, "p50");
    QTEST(p.p90, "p90");
    QTEST(p.p99, "p99");
}

void TestKernelTiming::launchPercentiles_data()
{
    QTest::addColumn<int>("pid");
    QTest::addColumn<QList<double>>("durations"); ///< p50, p90, p99
    QTest::addColumn<QList<double>>("intervals");
    QTest::newRow("all processes") << 0 << QList<double> { 40, 130, 193 } << QList<double> { 20, 612, 961.2 };
    QTest::newRow("pid 100: two threads pooled")
        << 100 << QList<double> { 40, 100, 100 } << QList<double> { 15, 27, 29.7 };
}

void TestKernelTiming::launchPercentiles()
{
    QFETCH(int, pid);
    QFETCH(QList<double>, durations);
    QFETCH(QList<double>, intervals);
    const KernelTiming t = computeKernelTiming(makeAnalysisContext(fixture()));
    QCOMPARE(t.percentiles.size(), std::size_t(3));
    QCOMPARE(t.percentiles.front().pid, 0);
    for (const LaunchPercentileRow& row : t.percentiles) {
        if (row.pid != pid)
            continue;
        const Percentiles& k = row.kernelDurations;
        const Percentiles& l = row.launchIntervals;
        QCOMPARE(k.p50, durations[0]);
        QCOMPARE(k.p90, durations[1]);
        QCOMPARE(k.p99, durations[2]);
        QCOMPARE(l.p50, intervals[0]);
        QCOMPARE(l.p90, intervals[1]);
        QCOMPARE(l.p99, intervals[2]);
        return;
    }
    QFAIL("pid missing");
}

// One process; launch i (in row order) is made by thread threads[i] at launches[i], and its kernel runs durations[i].
// The expected percentiles are worked by hand from the sorted intervals of each thread and the durations.
void TestKernelTiming::launchesAnyOrderAnyLength_data()
{
    QTest::addColumn<QList<qint64>>("launches");
    QTest::addColumn<QList<int>>("threads");
    QTest::addColumn<QList<qint64>>("durations");
    QTest::addColumn<QList<double>>("intervalPercentiles"); ///< p50, p90, p99
    QTest::addColumn<QList<double>>("durationPercentiles");
    constexpr qint64 s = 1'000'000'000; // past 4.29 s, a value no longer fits 4 bytes
    // Intervals 10, 20: p50 rank 0.5 -> 15, p90 rank 0.9 -> 19, p99 -> 19.9. Durations 10 20 30: 20, 28, 29.8.
    const QList<double> shortIntervals { 15, 19, 19.9 }, shortDurations { 20, 28, 29.8 };
    // Intervals 5 s, 10 s: 7.5 s, 9.5 s, 9.95 s. Durations 5 6 7 s: 6 s, 6.8 s, 6.98 s.
    const QList<double> longIntervals { 7.5 * s, 9.5 * s, 9.95 * s }, longDurations { 6.0 * s, 6.8 * s, 6.98 * s };
    QTest::newRow("one thread, in row order") << QList<qint64> { 0, 10, 30 } << QList<int> { 0, 0, 0 }
                                              << QList<qint64> { 30, 10, 20 } << shortIntervals << shortDurations;
    QTest::newRow("one thread, out of row order") << QList<qint64> { 30, 0, 10 } << QList<int> { 0, 0, 0 }
                                                  << QList<qint64> { 30, 10, 20 } << shortIntervals << shortDurations;
    // Durations 10 20 20 30: p50 rank 1.5 -> 20, p90 rank 2.7 -> 27, p99 rank 2.97 -> 29.7.
    QTest::newRow("two threads, the second out of row order: 10 | 20")
        << QList<qint64> { 0, 40, 10, 20 } << QList<int> { 0, 1, 0, 1 } << QList<qint64> { 30, 10, 20, 20 }
        << shortIntervals << QList<double> { 20, 27, 29.7 };
    QTest::newRow("seconds apart, in row order")
        << QList<qint64> { 0, 5 * s, 15 * s } << QList<int> { 0, 0, 0 } << QList<qint64> { 7 * s, 5 * s, 6 * s }
        << longIntervals << longDurations;
    QTest::newRow("seconds apart, out of row order")
        << QList<qint64> { 15 * s, 0, 5 * s } << QList<int> { 0, 0, 0 } << QList<qint64> { 7 * s, 5 * s, 6 * s }
        << longIntervals << longDurations;
}

void TestKernelTiming::launchesAnyOrderAnyLength()
{
    QFETCH(QList<qint64>, launches);
    QFETCH(QList<int>, threads);
    QFETCH(QList<qint64>, durations);
    QFETCH(QList<double>, intervalPercentiles);
    QFETCH(QList<double>, durationPercentiles);
    test::ProfileBuilder b;
    const ProcessIndex process = b.process(100);
    const ThreadIndex thread[2] = { b.thread(process, 101), b.thread(process, 102) };
    for (qsizetype i = 0; i < launches.size(); ++i) {
        const TimeNs start = 100 * 1'000'000'000LL + i * 20 * 1'000'000'000LL;
        b.kernel(thread[threads[i]], launches[i], launches[i] + 1, start, start + durations[i], QStringLiteral("k"));
    }
    const KernelTiming t = computeKernelTiming(makeAnalysisContext(b.build()));
    QCOMPARE(t.percentiles.size(), std::size_t(2)); // all processes, pid 100
    for (const LaunchPercentileRow& row : t.percentiles) {
        const Percentiles& l = row.launchIntervals;
        QCOMPARE(l.count, qint64(launches.size() - (threads.contains(1) ? 2 : 1)));
        QCOMPARE(l.p50, intervalPercentiles[0]);
        QCOMPARE(l.p90, intervalPercentiles[1]);
        QCOMPARE(l.p99, intervalPercentiles[2]);
    }
    const Percentiles& k = t.percentiles.back().kernelDurations;
    QCOMPARE(k.count, qint64(launches.size()));
    QCOMPARE(k.p50, durationPercentiles[0]);
    QCOMPARE(k.p90, durationPercentiles[1]);
    QCOMPARE(k.p99, durationPercentiles[2]);
}

void TestKernelTiming::longest()
{
    const KernelTiming t = computeKernelTiming(makeAnalysisContext(fixture()), 4);
    QStringList names;
    for (const LongestKernel& k : t.longest)
        names << k.name;
    QCOMPARE(names,
        (QStringList { QStringLiteral("k7"), QStringLiteral("k2"), QStringLiteral("k4"), QStringLiteral("k1") }));
    QCOMPARE(t.longest.front().pid, 200);
    QCOMPARE(t.longest.front().device, 1);
    QCOMPARE(t.longest.front().start, TimeNs(2000));
    QCOMPARE(t.longest.front().duration(), TimeNs(200));
    // Focused on [0, 1000): k7 and k8 are out.
    const KernelTiming focused
        = computeKernelTiming(makeAnalysisContext(fixture(), FocusRange { 0, 1000, QStringLiteral("f") }), 1);
    QCOMPARE(focused.longest.front().name, QStringLiteral("k2"));
}

QTEST_GUILESS_MAIN(TestKernelTiming)
#include "tst_kerneltiming.moc"
