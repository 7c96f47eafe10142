// SPDX-License-Identifier: GPL-3.0-or-later
// Host-to-device bytes over time on a hand-worked profile, window [0, 1000] ns (calls at 0 and 1000): 50 bins of
// at least 20 ns -> bins of 20 ns.
//   HtoD memcpy at 10 (100 B), UVM HtoD migration at 15 (50 B), DtoH at 30 (not counted), HtoA at 45 (10 B),
//   first kernel at 500, HtoD at 600 (200 B), memset at 610 (not counted).
// Bins: [0, 20) 2 copies 150 B (50 B migration), [40, 60) 1 copy 10 B, [600, 620) 1 copy 200 B.
// Initial load (before 500): 3 copies 160 B; steady state: 1 copy 200 B over 500 ns = 0.4 GB/s.
#include "core/diagnostics/h2dtimeline.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

namespace {

ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    b.apiCall(t, 0, 1, QStringLiteral("cudaGetDevice"));
    b.memOp(t, 0, 1, 10, 20, 1, 100);
    b.memOp(t, 0, 1, 15, 18, 11, 50);
    b.memOp(t, 0, 1, 30, 35, 2, 999);
    b.memOp(t, 0, 1, 45, 46, 3, 10);
    b.kernel(t, 400, 401, 500, 550, QStringLiteral("k"));
    b.memOp(t, 590, 591, 600, 700, 1, 200);
    b.memOp(t, 600, 601, 610, 620, MemOpTable::kMemset, 4096);
    b.apiCall(t, 999, 1000, QStringLiteral("cudaGetDevice"));
    return b.build();
}

} // namespace

class TestH2dTimeline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bins();
    void initialAndSteady();
    void roundBinWidths_data();
    void roundBinWidths();
};

void TestH2dTimeline::bins()
{
    const H2dTimeline h = computeH2dTimeline(makeAnalysisContext(fixture()));
    QCOMPARE(h.binNs, TimeNs(20));
    QCOMPARE(h.bins.size(), std::size_t(50));
    QCOMPARE(h.bins[0].copies.count, qint64(2));
    QCOMPARE(h.bins[0].copies.total, qint64(150));
    QCOMPARE(h.bins[0].migrationBytes, qint64(50));
    QCOMPARE(h.bins[1].copies.count, qint64(0));
    QCOMPARE(h.bins[2].copies.total, qint64(10));
    QCOMPARE(h.bins[30].start, TimeNs(600));
    QCOMPARE(h.bins[30].copies.total, qint64(200));
    qint64 copies = 0;
    for (const H2dBin& b : h.bins)
        copies += b.copies.count;
    QCOMPARE(copies, qint64(4));
}

void TestH2dTimeline::initialAndSteady()
{
    const H2dTimeline h = computeH2dTimeline(makeAnalysisContext(fixture()));
    QCOMPARE(h.firstKernel, TimeNs(500));
    QCOMPARE(h.initial.count, qint64(3));
    QCOMPARE(h.initial.total, qint64(160));
    QCOMPARE(h.steady.count, qint64(1));
    QCOMPARE(h.steady.total, qint64(200));
    QCOMPARE(h.steadyNs, TimeNs(500));
    QCOMPARE(h.steadyGbPerSecond(), 0.4);
}

void TestH2dTimeline::roundBinWidths_data()
{
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<int>("maxBins");
    QTest::addColumn<qint64>("width");
    QTest::addColumn<int>("bins");
    QTest::newRow("1000 ns in 50: 20") << qint64(0) << qint64(1000) << 50 << qint64(20) << 50;
    QTest::newRow("1000 ns in 3: 334 -> 500, two bins") << qint64(0) << qint64(1000) << 3 << qint64(500) << 2;
    QTest::newRow("900 ns in 4: 225 -> 500, the second bin cut to 400 ns")
        << qint64(100) << qint64(1000) << 4 << qint64(500) << 2;
    QTest::newRow("900 ns in 100: 9 -> 10") << qint64(100) << qint64(1000) << 100 << qint64(10) << 90;
}

void TestH2dTimeline::roundBinWidths()
{
    QFETCH(qint64, start);
    QFETCH(qint64, end);
    QFETCH(int, maxBins);
    QFETCH(qint64, width);
    QFETCH(int, bins);
    const H2dTimeline h
        = computeH2dTimeline(makeAnalysisContext(fixture(), FocusRange { start, end, QStringLiteral("f") }), maxBins);
    QCOMPARE(h.binNs, width);
    QCOMPARE(int(h.bins.size()), bins);
    QCOMPARE(h.bins.back().end, end);
}

QTEST_GUILESS_MAIN(TestH2dTimeline)
#include "tst_h2dtimeline.moc"
