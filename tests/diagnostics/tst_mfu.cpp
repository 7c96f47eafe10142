// SPDX-License-Identifier: GPL-3.0-or-later
// MFU, the GPU peak table and the transformer FLOP calculator, against hand-worked numbers.
//   Fixture: ProfilerStep#0..4 on one thread, 1 ms each but step 2 lasting 2 ms (starts 0, 1, 2, 4, 5 ms), a kernel
//   in each; an NVTX range "fwd" [0.1, 0.2] ms holding the launch of a kernel [0.3, 0.8] ms (GPU projection 0.5 ms).
//   1e12 FLOPs per iteration against a given peak of 1000 TFLOP/s on 1 GPU: 1 ms is 1000 TFLOP/s, 100 % MFU; the
//   2 ms step 50 %. Median iteration (lower middle of 1 1 2 1 1 ms): a 1 ms one, 100 %; all: 5e12 / 6 ms = 83.3 %.
//   "fwd" 2e11 FLOPs per instance over 0.5 ms: 400 TFLOP/s, 40 %; with 1e9 bytes: 200 FLOPs/byte.
//   Above the peak: 2e12 FLOPs per iteration are 200 % in the four 1 ms steps (100 % in the 2 ms one), all 1e13 over
//   6 ms 166.7 %; "fwd" with 3e12 FLOPs over 0.5 ms is 6000 TFLOP/s, 600 %.
#include "core/diagnostics/mfu.h"
#include "profilebuilder.h"

#include <QRegularExpression>
#include <QTest>
#include <algorithm>

using namespace nsw;

namespace {

constexpr TimeNs us = 1000, ms = 1000 * us;

ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    const TimeNs starts[] = { 0, 1 * ms, 2 * ms, 4 * ms, 5 * ms, 6 * ms };
    for (int n = 0; n < 5; ++n) {
        b.nvtxRange(t, starts[n], starts[n + 1], QStringLiteral("ProfilerStep#%1").arg(n));
        b.kernel(t, starts[n] + 10, starts[n] + 20, starts[n] + 900 * us, starts[n] + 950 * us, QStringLiteral("k"));
    }
    b.nvtxRange(t, 100 * us, 200 * us, QStringLiteral("fwd"));
    b.kernel(t, 150 * us, 160 * us, 300 * us, 800 * us, QStringLiteral("fwd_gemm"));
    return b.build();
}

MfuRequest request()
{
    MfuRequest r;
    r.profile = fixture();
    r.flopsPerIteration = 1e12;
    r.peakTflops = 1000;
    r.gpus = 1;
    return r;
}

} // namespace

class TestMfu : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void gpuTable_data();
    void gpuTable();
    void gpuTableRowsReachable();
    void transformer_data();
    void transformer();
    void perIteration();
    void perRangeAndRoofline();
    void rooflinePoints_data();
    void rooflinePoints();
    void abovePeakWarning_data();
    void abovePeakWarning();
    void refusals_data();
    void refusals();
};

void TestMfu::gpuTable_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("precision");
    QTest::addColumn<QString>("row");
    QTest::addColumn<double>("tflops");
    QTest::newRow("H100 SXM (80GB HBM3) bf16")
        << QStringLiteral("NVIDIA H100 80GB HBM3") << QStringLiteral("bf16") << QStringLiteral("H100 SXM") << 989.5;
    QTest::newRow("H100 SXM fp8") << QStringLiteral("NVIDIA H100 80GB HBM3") << QStringLiteral("fp8")
                                  << QStringLiteral("H100 SXM") << 1979.0;
    QTest::newRow("H100 PCIe") << QStringLiteral("NVIDIA H100 PCIe") << QStringLiteral("bf16")
                               << QStringLiteral("H100 PCIe") << 756.5;
    QTest::newRow("A100 SXM4 80GB tf32") << QStringLiteral("NVIDIA A100-SXM4-80GB") << QStringLiteral("tf32")
                                         << QStringLiteral("A100 80GB SXM") << 156.0;
    QTest::newRow("L40S is not L4") << QStringLiteral("NVIDIA L40S") << QStringLiteral("bf16") << QStringLiteral("L40S")
                                    << 362.05;
    QTest::newRow("L4") << QStringLiteral("NVIDIA L4") << QStringLiteral("fp16") << QStringLiteral("L4") << 121.0;
    QTest::newRow("T4 fp16") << QStringLiteral("Tesla T4") << QStringLiteral("fp16") << QStringLiteral("T4") << 65.0;
    QTest::newRow("T4 has no bf16") << QStringLiteral("Tesla T4") << QStringLiteral("bf16") << QStringLiteral("T4")
                                    << 0.0;
    QTest::newRow("unknown") << QStringLiteral("NVIDIA GeForce RTX 3080") << QStringLiteral("bf16") << QString() << 0.0;
}

void TestMfu::gpuTable()
{
    QFETCH(QString, name);
    QFETCH(QString, precision);
    QFETCH(QString, row);
    QFETCH(double, tflops);
    const GpuPeak* peak = findGpuPeak(name);
    QCOMPARE(peak ? peak->gpu : QString(), row);
    if (peak) {
        QCOMPARE(peak->tflops[std::size_t(*precisionFromName(precision))], tflops);
        QVERIFY(!peak->source.isEmpty());
    }
}

void TestMfu::gpuTableRowsReachable()
{
    // resources/data/gpupeaks.json is searched in order: a row listed after a more general pattern that also matches
    // its GPU's name could never be found. Each row's own name must find that row, with a peak for some precision.
    const std::vector<GpuPeak>& table = gpuPeakTable();
    QCOMPARE(table.size(), std::size_t(15));
    for (const GpuPeak& g : table) {
        QVERIFY2(QRegularExpression(g.pattern).isValid(), qPrintable(g.pattern));
        QCOMPARE(findGpuPeak(g.gpu), &g);
        QVERIFY(*std::max_element(g.tflops.begin(), g.tflops.end()) > 0);
        QVERIFY(g.memoryTBs > 0);
    }
}

void TestMfu::transformer_data()
{
    QTest::addColumn<bool>("training");
    QTest::addColumn<int>("layers");
    QTest::addColumn<double>("flops");
    // N = 1e9, 1000 tokens; L = 2, H = 512, S = 128: L H S = 131072.
    QTest::newRow("training with attention: 1000 x (6e9 + 12 x 131072)") << true << 2 << 1000 * (6e9 + 12 * 131072.0);
    QTest::newRow("inference with attention: 1000 x (2e9 + 4 x 131072)") << false << 2 << 1000 * (2e9 + 4 * 131072.0);
    QTest::newRow("training without layers: 1000 x 6e9") << true << 0 << 6e12;
}

void TestMfu::transformer()
{
    QFETCH(bool, training);
    QFETCH(int, layers);
    QFETCH(double, flops);
    const Result<FlopEstimate> e = transformerFlops({ 1e9, 1000, layers, 512, 128, training });
    QVERIFY(e);
    QCOMPARE(e->flops, flops);
    QVERIFY(!e->formula.isEmpty());
    QVERIFY(e->assumptions.size() >= 3);
    QVERIFY(!transformerFlops({ 0, 1000 }).ok());
}

void TestMfu::perIteration()
{
    const Result<MfuResult> r = computeMfu(request());
    QVERIFY2(r, qPrintable(r.errorMessage()));
    QCOMPARE(r->iterations.size(), std::size_t(5));
    QCOMPARE(r->iterations[0].tflops, 1000.0);
    QCOMPARE(r->iterations[0].mfuPercent, 100.0);
    QCOMPARE(r->iterations[2].duration, 2 * ms);
    QCOMPARE(r->iterations[2].mfuPercent, 50.0);
    QCOMPARE(r->medianMfuPercent, 100.0);
    QCOMPARE(r->overallMfuPercent, 100.0 * 5.0 / 6.0);
    QCOMPARE(r->peakGpu, QStringLiteral("given"));
    QVERIFY(r->assumptions.join(u'\n').contains(QStringLiteral("given (--peak-tflops)")));
    QVERIFY(r->assumptions.join(u'\n').contains(QStringLiteral("Iterations: NVTX marker")));
    // Two GPUs share the iteration: half the MFU.
    MfuRequest two = request();
    two.gpus = 2;
    QCOMPARE(computeMfu(two)->iterations[0].mfuPercent, 50.0);
    // The peak from the table, for a name given when the export has none.
    MfuRequest named = request();
    named.peakTflops = 0;
    named.gpuName = QStringLiteral("H100 SXM");
    const Result<MfuResult> table = computeMfu(named);
    QVERIFY2(table, qPrintable(table.errorMessage()));
    QCOMPARE(table->peakTflops, 989.5);
    QCOMPARE(table->iterations[0].mfuPercent, 100.0 * 1000.0 / 989.5);
}

void TestMfu::perRangeAndRoofline()
{
    MfuRequest req = request();
    req.flopsPerIteration = 0;
    req.peakBandwidthTBs = 2;
    req.ranges
        = { RangeFlops { QStringLiteral("fwd"), 2e11, 1e9 }, RangeFlops { QStringLiteral("re:Profiler.*"), 1e12, 0 } };
    const Result<MfuResult> r = computeMfu(req);
    QVERIFY2(r, qPrintable(r.errorMessage()));
    QVERIFY(r->iterations.empty());
    QCOMPARE(r->ranges.size(), std::size_t(2));
    const MfuRangeRow& fwd = r->ranges[0];
    QCOMPARE(fwd.instances, qint64(1));
    QCOMPARE(fwd.gpuSpanNs, 500 * us);
    QCOMPARE(fwd.tflops, 400.0);
    QCOMPARE(fwd.mfuPercent, 40.0);
    QCOMPARE(fwd.intensity, 200.0);
    QCOMPARE(fwd.roofTflops, 400.0); // min(1000, 200 FLOPs/byte x 2 TB/s)
    QCOMPARE(r->ranges[1].instances, qint64(5)); // ProfilerStep#0..4 by the regex
    // Per iteration with bytes: 1e12 / 5e9 = 200 FLOPs/byte, ridge 1000 / 2 = 500: memory-bound, roof 400.
    MfuRequest it = request();
    it.bytesPerIteration = 5e9;
    it.peakBandwidthTBs = 2;
    const Result<MfuResult> roof = computeMfu(it);
    QCOMPARE(roof->intensity, 200.0);
    QCOMPARE(roof->ridge, 500.0);
    QCOMPARE(roof->roofTflops, 400.0);
    QVERIFY(roof->assumptions.join(u'\n').contains(QStringLiteral("memory-bound")));
}

void TestMfu::rooflinePoints_data()
{
    // Peak 1000 TFLOP/s and 2 TB/s per GPU: the ridge is at 1000 / 2 = 500 FLOPs/byte, the roof min(1000, 2 x I).
    QTest::addColumn<QString>("inputs");
    QTest::addColumn<int>("points");
    QTest::addColumn<double>("intensity"); ///< of the first point
    QTest::addColumn<double>("achieved"); ///< per GPU, first point, then the third (2 ms step) for iterations
    QTest::addColumn<double>("thirdAchieved");
    QTest::addColumn<double>("attainable");
    QTest::addColumn<bool>("memoryBound");
    QTest::addColumn<QString>("missing"); ///< in MfuRoofline::missing, or empty for none
    // 1e11 FLOPs and 1e9 bytes per iteration: 100 FLOPs/byte, roof 2 x 100 = 200; 1e11 in 1 ms is 100 TFLOP/s (50 %
    // of the roof), in the 2 ms step 50 (25 %).
    QTest::newRow("iterations, memory-bound: 100 FLOPs/byte under a 200 TFLOP/s roof")
        << QStringLiteral("flops=1e11 bytes=1e9 bandwidth=2 gpus=1") << 5 << 100.0 << 100.0 << 50.0 << 200.0 << true
        << QString();
    // 1e12 FLOPs and 1e9 bytes on 2 GPUs: 1000 FLOPs/byte past the ridge, roof 1000; 1e12 in 1 ms is 1000 TFLOP/s
    // for both GPUs, 500 per GPU (50 %); the 2 ms step 250.
    QTest::newRow("iterations on 2 GPUs, compute-bound: per GPU half the speed")
        << QStringLiteral("flops=1e12 bytes=1e9 bandwidth=2 gpus=2") << 5 << 1000.0 << 500.0 << 250.0 << 1000.0 << false
        << QString();
    // "fwd": 2e11 FLOPs over 1e9 bytes = 200 FLOPs/byte, roof 400; 2e11 in its 0.5 ms of GPU time is 400 TFLOP/s.
    QTest::newRow("a range with bytes, one without")
        << QStringLiteral("ranges bandwidth=2 gpus=1") << 1 << 200.0 << 400.0 << 0.0 << 400.0 << true
        << QStringLiteral("\"re:Profiler.*\": no bytes given");
    QTest::newRow("no bytes: no point, said") << QStringLiteral("flops=1e12 bandwidth=2 gpus=1") << 0 << 0.0 << 0.0
                                              << 0.0 << 0.0 << false << QStringLiteral("needs the bytes");
    QTest::newRow("no bandwidth: points, no roof") << QStringLiteral("flops=1e11 bytes=1e9 gpus=1") << 5 << 100.0
                                                   << 100.0 << 50.0 << 0.0 << false << QStringLiteral("No memory roof");
}

void TestMfu::rooflinePoints()
{
    QFETCH(QString, inputs);
    QFETCH(int, points);
    QFETCH(double, intensity);
    QFETCH(double, achieved);
    QFETCH(double, thirdAchieved);
    QFETCH(double, attainable);
    QFETCH(bool, memoryBound);
    QFETCH(QString, missing);
    MfuRequest req = request();
    req.flopsPerIteration = 0;
    for (const QString& input : inputs.split(u' ')) {
        const QString name = input.section(u'=', 0, 0);
        const double value = input.section(u'=', 1).toDouble();
        if (name == QLatin1String("flops"))
            req.flopsPerIteration = value;
        else if (name == QLatin1String("bytes"))
            req.bytesPerIteration = value;
        else if (name == QLatin1String("bandwidth"))
            req.peakBandwidthTBs = value;
        else if (name == QLatin1String("gpus"))
            req.gpus = int(value);
        else if (name == QLatin1String("ranges"))
            req.ranges = { RangeFlops { QStringLiteral("fwd"), 2e11, 1e9 },
                RangeFlops { QStringLiteral("re:Profiler.*"), 1e12, 0 } };
    }
    const Result<MfuResult> r = computeMfu(req);
    QVERIFY2(r, qPrintable(r.errorMessage()));
    const MfuRoofline& roof = r->roofline;
    QCOMPARE(roof.peakTflops, 1000.0);
    QCOMPARE(roof.ridge, req.peakBandwidthTBs > 0 ? 500.0 : 0.0);
    QCOMPARE(int(roof.points.size()), points);
    const QString notes = roof.missing.join(u'\n');
    QVERIFY2(missing.isEmpty() ? notes.isEmpty() : notes.contains(missing), qPrintable(notes));
    if (points == 0)
        return;
    const MfuRooflinePoint& first = roof.points[0];
    QCOMPARE(first.intensity, intensity);
    QCOMPARE(first.achievedTflops, achieved);
    QCOMPARE(first.attainableTflops, attainable);
    QCOMPARE(first.memoryBound, memoryBound);
    QCOMPARE(first.attainablePercent(), attainable > 0 ? 100.0 * achieved / attainable : 0.0);
    if (points > 2) {
        QVERIFY(first.iteration);
        QCOMPARE(roof.points[2].achievedTflops, thirdAchieved);
        QCOMPARE(roof.points[2].label, QStringLiteral("iteration 2 (ProfilerStep#2)"));
    }
}

void TestMfu::abovePeakWarning_data()
{
    QTest::addColumn<double>("flops"); ///< per iteration, 0: none
    QTest::addColumn<int>("gpus");
    QTest::addColumn<double>("fwdFlops"); ///< per instance of "fwd", 0: no ranges
    QTest::addColumn<QStringList>("said"); ///< fragments of the warning; empty: no warning
    QTest::newRow("1e12 FLOPs: 100 % at most, possible") << 1e12 << 1 << 2e11 << QStringList {};
    QTest::newRow("2e12 FLOPs on 2 GPUs: 100 % at most") << 2e12 << 2 << 0.0 << QStringList {};
    QTest::newRow("2e12 FLOPs: 4 of 5 iterations at 200 %, all 166.7 %")
        << 2e12 << 1 << 0.0
        << QStringList { QStringLiteral("MFU above 100 %: 4 of 5 iterations (the highest iteration 0 (ProfilerStep#0) "
                                        "at 200.0 %); all iterations together at 166.7 %."),
               QStringLiteral("more GPUs than the 1 counted: --gpus"), QStringLiteral("higher peak than bf16"),
               QStringLiteral("1000 TFLOP/s per GPU, given") };
    QTest::newRow("fwd 3e12 FLOPs over 0.5 ms: 600 %")
        << 0.0 << 1 << 3e12
        << QStringList { QStringLiteral("MFU above 100 %: the NVTX range fwd at 600.0 %."),
               QStringLiteral("a range's FLOPs are those of one instance on one GPU") };
}

void TestMfu::abovePeakWarning()
{
    QFETCH(double, flops);
    QFETCH(int, gpus);
    QFETCH(double, fwdFlops);
    QFETCH(QStringList, said);
    MfuRequest req = request();
    req.flopsPerIteration = flops;
    req.gpus = gpus;
    if (fwdFlops > 0)
        req.ranges = { RangeFlops { QStringLiteral("fwd"), fwdFlops, 0 } };
    const Result<MfuResult> r = computeMfu(req);
    QVERIFY2(r, qPrintable(r.errorMessage()));
    QCOMPARE(r->warnings.size(), said.isEmpty() ? 0 : 1);
    for (const QString& s : said)
        QVERIFY2(r->warnings.front().contains(s), qPrintable(r->warnings.front()));
}

void TestMfu::refusals_data()
{
    QTest::addColumn<int>("variant");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("no FLOPs") << 0 << int(ErrorKind::Usage) << QStringLiteral("no FLOPs");
    QTest::newRow("no GPU name, no peak") << 1 << int(ErrorKind::Usage) << QStringLiteral("does not name its GPU");
    QTest::newRow("no bf16 on a T4") << 2 << int(ErrorKind::Usage) << QStringLiteral("no bf16 peak for T4");
    QTest::newRow("no iterations") << 3 << int(ErrorKind::NoData) << QStringLiteral("--marker");
}

void TestMfu::refusals()
{
    QFETCH(int, variant);
    QFETCH(int, kind);
    QFETCH(QString, message);
    MfuRequest r = request();
    if (variant == 0)
        r.flopsPerIteration = 0;
    if (variant == 1 || variant == 2)
        r.peakTflops = 0;
    if (variant == 2)
        r.gpuName = QStringLiteral("Tesla T4");
    if (variant == 3)
        r.iterationMarker = QStringLiteral("no_such_marker");
    const Result<MfuResult> result = computeMfu(r);
    QVERIFY(!result);
    QCOMPARE(int(result.error().kind), kind);
    QVERIFY2(result.errorMessage().contains(message), qPrintable(result.errorMessage()));
}

QTEST_GUILESS_MAIN(TestMfu)
#include "tst_mfu.moc"
