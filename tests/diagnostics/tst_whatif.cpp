// SPDX-License-Identifier: GPL-3.0-or-later
// What-if bounds. Scenarios from hand-made analyses of a 300 ms window on GPU 0: sync gaps 10 ms, cpu_bound gaps
// 20 ms (30 ms of gaps), NCCL alone 17.2 ms against 200 ms of compute alone, 10.9 ms waiting for the peer:
//   no sync gaps 300 - 10 = 290 (3.3 %), no cpu_bound gaps 280 (6.7 %), no idle gaps 270 (10 %), NCCL fully
//   overlapped 300 - 17.2 = 282.8 (5.7 %), no NCCL skew 300 - 10.9 = 289.1 (3.6 %).
// GPU 1: NCCL alone 17 ms but only 5 ms of compute alone to hide behind: 300 - 5 = 295.
// The median iteration: ProfilerStep#0..2 of 1 ms, each with kernels [s, s + 0.2] and [s + 0.7, s + 0.9] ms and a
// cudaStreamSynchronize [s + 0.25, s + 0.65] ms between them: a 0.5 ms sync gap in iteration 1 (the median).
#include "core/diagnostics/whatif.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

namespace {

constexpr TimeNs us = 1000, ms = 1000 * us;

const WhatIfRow* row(const std::vector<WhatIfRow>& rows, int device, const QString& scenario)
{
    for (const WhatIfRow& r : rows)
        if (r.device == device && r.scenario == scenario)
            return &r;
    return nullptr;
}

} // namespace

class TestWhatIf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scenarios_data();
    void scenarios();
    void arithmeticIsShown();
    void lockstepGainsTheSmallestSaving_data();
    void lockstepGainsTheSmallestSaving();
    void medianIteration();
};

void TestWhatIf::scenarios_data()
{
    QTest::addColumn<int>("device");
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<qint64>("bound");
    QTest::newRow("no sync gaps") << 0 << QStringLiteral("no sync gaps") << qint64(290 * ms);
    QTest::newRow("no cpu_bound gaps") << 0 << QStringLiteral("no cpu_bound gaps") << qint64(280 * ms);
    QTest::newRow("no idle gaps") << 0 << QStringLiteral("no idle gaps at all") << qint64(270 * ms);
    QTest::newRow("NCCL overlapped: 17.2 ms alone")
        << 0 << QStringLiteral("NCCL fully overlapped with compute") << qint64(300 * ms - 17200 * us);
    QTest::newRow("NCCL overlapped: only 5 ms of compute to hide behind")
        << 1 << QStringLiteral("NCCL fully overlapped with compute") << qint64(295 * ms);
    QTest::newRow("no NCCL skew") << 0 << QStringLiteral("no NCCL skew") << qint64(300 * ms - 10900 * us);
}

void TestWhatIf::scenarios()
{
    QFETCH(int, device);
    QFETCH(QString, scenario);
    QFETCH(qint64, bound);
    IdleGapResult gaps;
    DeviceIdle d;
    d.device = 0;
    d.causeNs[int(GapCause::Sync)] = 10 * ms;
    d.causeNs[int(GapCause::CpuBound)] = 20 * ms;
    d.gapNs = 30 * ms;
    gaps.devices = { d };
    OverlapResult overlap;
    overlap.devices = { DeviceOverlap { 0, 300 * ms, 200 * ms, 17200 * us, 0, 0 },
        DeviceOverlap { 1, 300 * ms, 5 * ms, 17 * ms, 0, 0 } };
    NcclSkewResult skew;
    NcclSkewDevice s;
    s.device = 0;
    s.waitNs = 10900 * us;
    skew.devices = { s };
    const std::vector<WhatIfRow> rows = whatIfScenarios(QStringLiteral("window"), 300 * ms, gaps, overlap, skew);
    QCOMPARE(rows.size(), std::size_t(6)); // no row for causes without time
    const WhatIfRow* r = row(rows, device, scenario);
    QVERIFY(r);
    QCOMPARE(r->baseNs, 300 * ms);
    QCOMPARE(r->boundNs, TimeNs(bound));
    QCOMPARE(r->removableNs, 300 * ms - bound);
    QCOMPARE(r->savingPercent(), 100.0 * double(300 * ms - bound) / double(300 * ms));
}

void TestWhatIf::arithmeticIsShown()
{
    IdleGapResult gaps;
    DeviceIdle d;
    d.device = 0;
    d.causeNs[int(GapCause::Sync)] = 10 * ms;
    gaps.devices = { d };
    const std::vector<WhatIfRow> rows = whatIfScenarios(QStringLiteral("window"), 300 * ms, gaps, {}, {});
    QCOMPARE(rows.size(), std::size_t(1));
    QCOMPARE(rows.front().arithmetic, QStringLiteral("300 ms - 10.0 ms of sync gaps = 290 ms (at most 3.3 % shorter)"));
}

void TestWhatIf::lockstepGainsTheSmallestSaving_data()
{
    // GPUs 0 and 1 share collectives (both in the skew analysis) in a 300 ms window. GPU 0: sync gaps 10 ms,
    // cpu_bound 20 ms (30 ms of gaps), waits 10.9 ms for its peer; GPU 1: sync gaps 4 ms (its only gaps), waits 2 ms.
    // Together they end when the slower is done: 300 - min(GPU 0, GPU 1).
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<qint64>("removable");
    QTest::newRow("no sync gaps: min(10, 4) = 4 ms") << QStringLiteral("no sync gaps") << qint64(4 * ms);
    QTest::newRow("no cpu_bound gaps: GPU 1 has none, 0") << QStringLiteral("no cpu_bound gaps") << qint64(0);
    QTest::newRow("no idle gaps: min(30, 4) = 4 ms") << QStringLiteral("no idle gaps at all") << qint64(4 * ms);
    QTest::newRow("no NCCL skew: min(10.9, 2) = 2 ms") << QStringLiteral("no NCCL skew") << qint64(2 * ms);
}

void TestWhatIf::lockstepGainsTheSmallestSaving()
{
    QFETCH(QString, scenario);
    QFETCH(qint64, removable);
    IdleGapResult gaps;
    DeviceIdle gpu0, gpu1;
    gpu0.device = 0;
    gpu0.causeNs[int(GapCause::Sync)] = 10 * ms;
    gpu0.causeNs[int(GapCause::CpuBound)] = 20 * ms;
    gpu0.gapNs = 30 * ms;
    gpu1.device = 1;
    gpu1.causeNs[int(GapCause::Sync)] = 4 * ms;
    gpu1.gapNs = 4 * ms;
    gaps.devices = { gpu0, gpu1 };
    NcclSkewResult skew;
    NcclSkewDevice s0, s1;
    s0.device = 0;
    s0.waitNs = 10900 * us;
    s1.device = 1;
    s1.waitNs = 2 * ms;
    skew.devices = { s0, s1 };
    const DiagnosticsDevice devices[]
        = { { 0, QStringLiteral("GPU 0 (H100)") }, { 1, QStringLiteral("GPU 1 (H100)") } };
    const std::vector<WhatIfRow> rows = whatIfScenarios(QStringLiteral("window"), 300 * ms, gaps, {}, skew, devices);
    QCOMPARE(rows.size(), std::size_t(7 + 4)); // 4 + 3 per GPU, a row together per scenario
    const WhatIfRow* together = row(rows, -1, scenario);
    QVERIFY(together);
    QCOMPARE(together->lockstep, (std::vector<int> { 0, 1 }));
    QCOMPARE(together->removableNs, TimeNs(removable));
    QCOMPARE(together->boundNs, 300 * ms - removable);
    QVERIFY2(
        together->arithmetic.contains(QStringLiteral("the least of GPU 0 (H100) ")), qPrintable(together->arithmetic));
    // Each GPU's own row stays as it was.
    QVERIFY(row(rows, 0, scenario));
}

void TestWhatIf::medianIteration()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    for (int n = 0; n < 3; ++n) {
        const TimeNs s = n * ms;
        b.nvtxRange(t, s, s + ms, QStringLiteral("ProfilerStep#%1").arg(n));
        b.kernel(t, s, s + 10, s, s + 200 * us, QStringLiteral("gemm"));
        b.apiCall(t, s + 250 * us, s + 650 * us, QStringLiteral("cudaStreamSynchronize_v3020"));
        b.kernel(t, s + 660 * us, s + 670 * us, s + 700 * us, s + 900 * us, QStringLiteral("gemm"));
    }
    const ProfilePtr profile = b.build();
    const Result<IterationTable> iterations = computeIterations({ profile, {}, nullptr });
    QVERIFY(iterations);
    const AnalysisContext c = makeAnalysisContext(profile);
    const IdleGapResult gaps = computeIdleGaps(c);
    const std::vector<WhatIfRow> rows = computeWhatIf(c, gaps, computeOverlap(c), computeNcclSkew(c), &*iterations);
    const WhatIfRow* inIteration = nullptr;
    for (const WhatIfRow& r : rows)
        if (r.scope.startsWith(QStringLiteral("median iteration")) && r.scenario == QStringLiteral("no sync gaps"))
            inIteration = &r;
    QVERIFY(inIteration);
    QCOMPARE(inIteration->scope, QStringLiteral("median iteration: iteration 1 (ProfilerStep#1)"));
    QCOMPARE(inIteration->baseNs, 1 * ms);
    QCOMPARE(inIteration->removableNs, 500 * us);
}

QTEST_GUILESS_MAIN(TestWhatIf)
#include "tst_whatif.moc"
