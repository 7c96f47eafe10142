// SPDX-License-Identifier: GPL-3.0-or-later
// Findings on a hand-worked profile (ms): pid 100, device 0, stream 7.
//   gemm [0.1, 2.1] launched at 0; cudaStreamSynchronize [2.2, 10]; gemm [10.1, 12.1] launched at 10;
//   NCCL AllReduce [12.2, 13.2] on the same stream, launched at 12.1; three 2 µs "tiny" kernels at 13.3, 13.4,
//   13.5 launched 0.1 ms before; a blocking cudaMemcpy [14, 15] (no GPU op).
// Window [0, 15]: GPU busy 5.006 ms, idle 66.6 % (critical); gemm 4 of 5.006 ms of kernel time (80 %); gap
// [2.1, 10.1] = 8 ms, sync; NCCL 1 ms (6.7 % of the window), 0 % overlapped, sharing stream 7; 3 of 6 kernels
// short; sync-like calls 7.8 + 1 ms of 8.86 ms API time. No NVTX, memory kinds and iterations not asked for.
#include "core/diagnostics/diagnostics.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

namespace {

constexpr TimeNs ms = 1'000'000, us = 1000;

ProfilePtr fixture(bool withNvtx = false)
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    b.kernel(t, 0, 10 * us, 100 * us, 2100 * us, QStringLiteral("gemm"));
    b.apiCall(t, 2200 * us, 10 * ms, QStringLiteral("cudaStreamSynchronize_v3020"));
    b.kernel(t, 10 * ms, 10 * ms + 10 * us, 10100 * us, 12100 * us, QStringLiteral("gemm"));
    b.kernel(t, 12100 * us, 12110 * us, 12200 * us, 13200 * us, QStringLiteral("ncclDevKernel_AllReduce_Sum_f32"));
    for (TimeNs start : { 13300 * us, 13400 * us, 13500 * us })
        b.kernel(t, start - 100 * us, start - 90 * us, start, start + 2 * us, QStringLiteral("tiny"));
    b.apiCall(t, 14 * ms, 15 * ms, QStringLiteral("cudaMemcpy_v3020"));
    if (withNvtx)
        b.nvtxRange(t, 0, 1 * ms, QStringLiteral("first")); // holds the first gemm's launch: 2 of 5.006 ms
    return b.build();
}

DiagnosticsResult diagnose(const ProfilePtr& profile, const QStringList& overrides, bool iterations = false)
{
    DiagnosticsRequest request;
    request.profile = profile;
    request.readMemoryKinds = false;
    request.detectIterations = iterations;
    for (const QString& o : overrides)
        if (!request.thresholds.parseAssignment(o))
            qFatal("bad override");
    Result<DiagnosticsResult> r = runDiagnostics(request);
    if (!r)
        qFatal("diagnostics failed");
    return std::move(*r);
}

QStringList ids(const DiagnosticsResult& r)
{
    QStringList out;
    for (const Finding& f : r.findings)
        out << f.id;
    return out;
}

QStringList skippedIds(const DiagnosticsResult& r)
{
    QStringList out;
    for (const SkippedCheck& s : r.skipped)
        out << s.check;
    out.sort();
    return out;
}

const Finding* find(const DiagnosticsResult& r, const QString& id)
{
    for (const Finding& f : r.findings)
        if (f.id == id)
            return &f;
    return nullptr;
}

} // namespace

class TestFindings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firedAndOrder_data();
    void firedAndOrder();
    void numbersAndEvidence();
    void missingDataNeverFires();
    void nvtxCoverage_data();
    void nvtxCoverage();
    void iterationOutliers();
};

void TestFindings::firedAndOrder_data()
{
    QTest::addColumn<QStringList>("overrides");
    QTest::addColumn<QStringList>("expected");
    const QStringList base { QStringLiteral("gpu_idle"), QStringLiteral("heavy_sync"), QStringLiteral("long_gaps"),
        QStringLiteral("nccl_not_overlapped"), QStringLiteral("nccl_shared_stream"), QStringLiteral("sync_memcpy"),
        QStringLiteral("dominant_kernel") };
    QTest::newRow("defaults: critical first, then warnings by time lost, info last") << QStringList {} << base;
    QStringList storm = base;
    storm.insert(6, QStringLiteral("launch_storm"));
    QTest::newRow("launch_storm_min_kernels=5 adds the storm (30 us lost)")
        << QStringList { QStringLiteral("launch_storm_min_kernels=5") } << storm;
    QStringList noDominant = base;
    noDominant.removeAll(QStringLiteral("dominant_kernel"));
    QTest::newRow("dominant_kernel_pct=90") << QStringList { QStringLiteral("dominant_kernel_pct=90") } << noDominant;
    QStringList noGaps = base;
    noGaps.removeAll(QStringLiteral("long_gaps"));
    QTest::newRow("long_gap_ms=9: the 8 ms gap is short") << QStringList { QStringLiteral("long_gap_ms=9") } << noGaps;
    QStringList overlapped = base;
    overlapped.removeAll(QStringLiteral("nccl_not_overlapped"));
    QTest::newRow("nccl_min_share_pct=10: NCCL is 6.7 %")
        << QStringList { QStringLiteral("nccl_min_share_pct=10") } << overlapped;
    QStringList calm = base;
    calm.removeAll(QStringLiteral("heavy_sync"));
    QTest::newRow("sync thresholds at 100 %")
        << QStringList { QStringLiteral("sync_api_share_pct=100"), QStringLiteral("sync_thread_share_pct=100") }
        << calm;
}

void TestFindings::firedAndOrder()
{
    QFETCH(QStringList, overrides);
    QFETCH(QStringList, expected);
    QCOMPARE(ids(diagnose(fixture(), overrides)), expected);
}

void TestFindings::numbersAndEvidence()
{
    const DiagnosticsResult r = diagnose(fixture(), {});
    const Finding* idle = find(r, QStringLiteral("gpu_idle"));
    QVERIFY(idle);
    QCOMPARE(idle->severity, Severity::Critical);
    QCOMPARE(idle->timeLostNs, 15 * ms - 5006 * us);
    QCOMPARE(idle->evidence.start, 2100 * us); // the longest gap
    QCOMPARE(idle->evidence.end, 10100 * us);
    QVERIFY(idle->thresholds.contains(QStringLiteral("gpu_idle_pct=10")));
    const DiagnosticsResult lenient = diagnose(fixture(), { QStringLiteral("gpu_idle_critical_pct=90") });
    QCOMPARE(find(lenient, QStringLiteral("gpu_idle"))->severity, Severity::Warning);

    const Finding* gaps = find(r, QStringLiteral("long_gaps"));
    QVERIFY(gaps);
    QCOMPARE(gaps->timeLostNs, 8 * ms);
    QVERIFY2(gaps->title.contains(QStringLiteral("mostly sync")), qPrintable(gaps->title));
    QCOMPARE(gaps->evidence.kernelNames, QStringList { QStringLiteral("gemm") });

    const Finding* dominant = find(r, QStringLiteral("dominant_kernel"));
    QVERIFY(dominant);
    QCOMPARE(dominant->evidence.kernelNames, QStringList { QStringLiteral("gemm") });
    QCOMPARE(dominant->metrics.front().value, 100.0 * 4000.0 / 5006.0);

    const Finding* sync = find(r, QStringLiteral("heavy_sync"));
    QVERIFY(sync);
    QCOMPARE(sync->timeLostNs, 7800 * us + 1 * ms);
    QCOMPARE(sync->evidence.apiNames.front(), QStringLiteral("cudaStreamSynchronize_v3020"));

    const Finding* nccl = find(r, QStringLiteral("nccl_not_overlapped"));
    QVERIFY(nccl);
    QCOMPARE(nccl->timeLostNs, 1 * ms);
    QCOMPARE(nccl->evidence.kernelNames, QStringList { QStringLiteral("ncclDevKernel_AllReduce_Sum_f32") });
    QCOMPARE(find(r, QStringLiteral("nccl_shared_stream"))->evidence.kernelNames, nccl->evidence.kernelNames);
}

void TestFindings::missingDataNeverFires()
{
    test::ProfileBuilder b;
    b.osrtCall(b.thread(b.process(1), 2), 0, 100, QStringLiteral("poll"));
    const DiagnosticsResult r = diagnose(b.build(), {});
    QVERIFY(r.findings.empty());
    const QStringList expected { QStringLiteral("dominant_kernel"), QStringLiteral("gpu_idle"),
        QStringLiteral("heavy_sync"), QStringLiteral("iteration_outliers"), QStringLiteral("launch_storm"),
        QStringLiteral("long_gaps"), QStringLiteral("nccl_not_overlapped"), QStringLiteral("nccl_shared_stream"),
        QStringLiteral("nvtx_coverage"), QStringLiteral("pageable_memcpy"), QStringLiteral("sync_memcpy") };
    QCOMPARE(skippedIds(r), expected);
    for (const SkippedCheck& s : r.skipped)
        QVERIFY2(!s.reason.isEmpty(), qPrintable(s.check));
}

void TestFindings::nvtxCoverage_data()
{
    QTest::addColumn<QStringList>("overrides");
    QTest::addColumn<bool>("fires");
    QTest::newRow("40 % < 70 %") << QStringList {} << true;
    QTest::newRow("40 % >= 30 %") << QStringList { QStringLiteral("nvtx_coverage_pct=30") } << false;
}

void TestFindings::nvtxCoverage()
{
    QFETCH(QStringList, overrides);
    QFETCH(bool, fires);
    const DiagnosticsResult r = diagnose(fixture(true), overrides);
    QVERIFY(r.nvtxCoverage);
    QCOMPARE(r.nvtxCoverage->attributedNs, 2 * ms);
    QCOMPARE(r.nvtxCoverage->totalNs, 5006 * us);
    QCOMPARE(find(r, QStringLiteral("nvtx_coverage")) != nullptr, fires);
    QVERIFY(!skippedIds(r).contains(QStringLiteral("nvtx_coverage")));
}

void TestFindings::iterationOutliers()
{
    // Eight ProfilerStep#N of 100 us with a kernel each, step 5 lasting 1000 us: MAD 0, so only step 5 is out.
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    TimeNs at = 0;
    for (int n = 0; n < 8; ++n) {
        const TimeNs length = n == 5 ? 1000 * us : 100 * us;
        b.nvtxRange(t, at, at + length, QStringLiteral("ProfilerStep#%1").arg(n));
        b.kernel(t, at, at + us, at + 2 * us, at + 50 * us, QStringLiteral("gemm"));
        at += length;
    }
    const DiagnosticsResult r = diagnose(b.build(), {}, true);
    QVERIFY(r.iterations);
    const Finding* f = find(r, QStringLiteral("iteration_outliers"));
    QVERIFY(f);
    QCOMPARE(f->evidence.start, 500 * us);
    QCOMPARE(f->evidence.end, 1500 * us);
    QCOMPARE(f->evidence.nvtxRange, QStringLiteral("ProfilerStep#5"));
    QCOMPARE(f->timeLostNs, 900 * us);
}

QTEST_GUILESS_MAIN(TestFindings)
#include "tst_findings.moc"
