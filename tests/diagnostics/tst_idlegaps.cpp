// SPDX-License-Identifier: GPL-3.0-or-later
// Idle gaps on a hand-worked profile. Times are in units of S = 10 µs so that the gaps fall into the histogram's
// millisecond buckets: device 0 (one stream, pid 100) and device 1 (two streams).
//
//   device 0, stream 7             launch call        GPU op          gap before it      cause
//   K1 gemm                        [0, 5]             [10, 100]
//   K2 gemm                        [20, 25]           [150, 200]      [100, 150]  0.5 ms launch latency (call at 20)
//   cudaStreamSynchronize          [210, 400]
//   K3 attn                        [400, 405]         [420, 500]      [200, 420]  2.2 ms sync (the call overlaps)
//   K4 gemm                        [900, 905]         [910, 1000]     [500, 910]  4.1 ms cpu bound (CUDA 5 of 410)
//   cudaEventQuery                 [1016, 1400]
//   K5 gemm                        [1010, 1015]       [1500, 1600]    [1000, 1500] 5 ms host wait (CUDA 389 of 500)
//   memcpy HtoD                    [1600, 1610]       [1700, 1800]    [1600, 1700] 1 ms memory transfer
//   cudaEventQuery                 [1790, 1800]       (ends the capture span)
//   device 1: stream 1 [0, 100], stream 2 [50, 300], stream 1 [400, 500]: device gap [300, 400], stream 1 gap
//   [100, 400], stream 2 none. Its launch calls are at [0, 1]; the gap's cause is sync (the same process).
// The window is the capture span [0, 1800]: device 0 is busy 510, idle 1290 (10 before K1 plus the gaps' 1280).
#include "core/diagnostics/idlegaps.h"
#include "profilebuilder.h"

#include <QTest>
#include <algorithm>
#include <vector>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 S = 10'000;
constexpr qint64 us = 1000;

ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ProcessIndex p = b.process(100, QStringLiteral("python"));
    const ThreadIndex t = b.thread(p, 101);
    b.kernel(t, 0, 5 * S, 10 * S, 100 * S, QStringLiteral("gemm"));
    b.kernel(t, 20 * S, 25 * S, 150 * S, 200 * S, QStringLiteral("gemm"));
    b.apiCall(t, 210 * S, 400 * S, QStringLiteral("cudaStreamSynchronize_v3020"));
    b.kernel(t, 400 * S, 405 * S, 420 * S, 500 * S, QStringLiteral("attn"));
    b.kernel(t, 900 * S, 905 * S, 910 * S, 1000 * S, QStringLiteral("gemm"));
    b.apiCall(t, 1016 * S, 1400 * S, QStringLiteral("cudaEventQuery_v3020"));
    b.kernel(t, 1010 * S, 1015 * S, 1500 * S, 1600 * S, QStringLiteral("gemm"));
    b.memOp(t, 1600 * S, 1610 * S, 1700 * S, 1800 * S, 1, 4096);
    b.apiCall(t, 1790 * S, 1800 * S, QStringLiteral("cudaEventQuery_v3020")); // the builder's span ignores memops
    b.kernel(t, 0, S, 0, 100 * S, QStringLiteral("d1a"), 1, 1);
    b.kernel(t, 0, S, 50 * S, 300 * S, QStringLiteral("d1b"), 1, 2);
    b.kernel(t, 0, S, 400 * S, 500 * S, QStringLiteral("d1c"), 1, 1);
    return b.build();
}

const IdleGap* gapAt(const std::vector<IdleGap>& gaps, int device, std::int64_t stream, TimeNs start)
{
    for (const IdleGap& g : gaps)
        if (g.device == device && g.stream == stream && g.start == start)
            return &g;
    return nullptr;
}

const DeviceIdle* deviceOf(const IdleGapResult& r, int device)
{
    for (const DeviceIdle& d : r.devices)
        if (d.device == device)
            return &d;
    return nullptr;
}

} // namespace

class TestIdleGaps : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void deviceGaps_data();
    void deviceGaps();
    void deviceTotals();
    void histogram_data();
    void histogram();
    void streamGaps_data();
    void streamGaps();
    void listedMinimumAndLimit();
    void longestKeptAmongThousands_data();
    void longestKeptAmongThousands();
    void focusClipsTheWindow();
    void focusKeepsCallsThatReachIntoIt();
    void blockedCallsAndPageMigrations_data();
    void blockedCallsAndPageMigrations();
    void eachGapAgainstItsOwnProcessCalls_data();
    void eachGapAgainstItsOwnProcessCalls();
    void aProcessCallsFarApartInRows_data();
    void aProcessCallsFarApartInRows();
};

void TestIdleGaps::deviceGaps_data()
{
    QTest::addColumn<int>("device");
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<int>("cause");
    QTest::addColumn<qint64>("previousKernel");
    QTest::addColumn<qint64>("nextKernel");
    QTest::newRow("launch queued before the gap: launch latency")
        << 0 << 100 * S << 150 * S << int(GapCause::LaunchLatency) << qint64(0) << qint64(1);
    QTest::newRow("sync call overlaps: sync")
        << 0 << 200 * S << 420 * S << int(GapCause::Sync) << qint64(1) << qint64(2);
    QTest::newRow("no CUDA call but the late launch: cpu bound")
        << 0 << 500 * S << 910 * S << int(GapCause::CpuBound) << qint64(2) << qint64(3);
    QTest::newRow("CUDA calls cover most of it: host wait")
        << 0 << 1000 * S << 1500 * S << int(GapCause::HostWait) << qint64(3) << qint64(4);
    QTest::newRow("memcpy next: memory transfer")
        << 0 << 1600 * S << 1700 * S << int(GapCause::MemoryTransfer) << qint64(4) << qint64(-1);
    QTest::newRow("device 1: union of two streams; the process's sync call overlaps it")
        << 1 << 300 * S << 400 * S << int(GapCause::Sync) << qint64(6) << qint64(7);
}

void TestIdleGaps::deviceGaps()
{
    QFETCH(int, device);
    QFETCH(qint64, start);
    QFETCH(qint64, end);
    QFETCH(int, cause);
    QFETCH(qint64, previousKernel);
    QFETCH(qint64, nextKernel);
    const AnalysisContext c = makeAnalysisContext(fixture());
    const IdleGapResult r = computeIdleGaps(c, 0);
    QCOMPARE(r.deviceGaps.size(), std::size_t(6));
    const IdleGap* g = gapAt(r.deviceGaps, device, -1, start);
    QVERIFY(g);
    QCOMPARE(g->end, end);
    QCOMPARE(gapCauseName(g->cause), gapCauseName(GapCause(cause)));
    QCOMPARE(g->previousKernel, previousKernel);
    QCOMPARE(g->nextKernel, nextKernel);
    QCOMPARE(g->pid, 100);
}

void TestIdleGaps::deviceTotals()
{
    const AnalysisContext c = makeAnalysisContext(fixture());
    QCOMPARE(c.windowStart, TimeNs(0));
    QCOMPARE(c.windowEnd, 1800 * S);
    const IdleGapResult r = computeIdleGaps(c, 0);
    const DeviceIdle* d = deviceOf(r, 0);
    QVERIFY(d);
    QCOMPARE(d->spanNs, 1800 * S);
    QCOMPARE(d->busyNs, 510 * S);
    QCOMPARE(d->idleNs, 1290 * S);
    QCOMPARE(d->gaps, qint64(5));
    QCOMPARE(d->gapNs, 1280 * S);
    QCOMPARE(d->causeNs[int(GapCause::LaunchLatency)], 50 * S);
    QCOMPARE(d->causeNs[int(GapCause::Sync)], 220 * S);
    QCOMPARE(d->causeNs[int(GapCause::CpuBound)], 410 * S);
    QCOMPARE(d->causeNs[int(GapCause::HostWait)], 500 * S);
    QCOMPARE(d->causeNs[int(GapCause::MemoryTransfer)], 100 * S);
    // Long gaps (default 5 ms = 500 S): only the 5 ms host wait.
    QCOMPARE(d->longGaps, qint64(1));
    QCOMPARE(d->longGapNs, 500 * S);
    QCOMPARE(d->longCauseNs[int(GapCause::HostWait)], 500 * S);
    const IdleGapResult longerResult = computeIdleGaps(c, 0, 2000, {}, 220 * S);
    const DeviceIdle* longer = deviceOf(longerResult, 0);
    QCOMPARE(longer->longGaps, qint64(3));
    QCOMPARE(longer->longGapNs, (220 + 410 + 500) * S);
    const DeviceIdle* d1 = deviceOf(r, 1);
    QVERIFY(d1);
    QCOMPARE(d1->busyNs, 400 * S);
    QCOMPARE(d1->gaps, qint64(1));
}

void TestIdleGaps::histogram_data()
{
    QTest::addColumn<QString>("bucket");
    QTest::addColumn<qint64>("count");
    QTest::addColumn<qint64>("total");
    QTest::newRow("<10 us") << QStringLiteral("<10 us") << qint64(0) << qint64(0);
    QTest::newRow("100 us-1 ms: 0.5 ms") << QStringLiteral("100 us-1 ms") << qint64(1) << 50 * S;
    QTest::newRow("1-5 ms: 1 ms (lower bound in), 2.2 ms, 4.1 ms")
        << QStringLiteral("1-5 ms") << qint64(3) << (100 + 220 + 410) * S;
    QTest::newRow("5-50 ms: exactly 5 ms") << QStringLiteral("5-50 ms") << qint64(1) << 500 * S;
    QTest::newRow(">50 ms") << QStringLiteral(">50 ms") << qint64(0) << qint64(0);
}

void TestIdleGaps::histogram()
{
    QFETCH(QString, bucket);
    QFETCH(qint64, count);
    QFETCH(qint64, total);
    const IdleGapResult r = computeIdleGaps(makeAnalysisContext(fixture()), 0);
    const DeviceIdle* d = deviceOf(r, 0);
    QVERIFY(d);
    for (const GapBucket& b : d->histogram) {
        if (b.label != bucket)
            continue;
        QCOMPARE(b.count, count);
        QCOMPARE(b.totalNs, total);
        return;
    }
    QFAIL("bucket not found");
}

void TestIdleGaps::streamGaps_data()
{
    QTest::addColumn<int>("device");
    QTest::addColumn<qint64>("stream");
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("end");
    QTest::newRow("device 0 stream 7, like the device") << 0 << qint64(7) << 500 * S << 910 * S;
    QTest::newRow("device 1 stream 1: hidden by stream 2 on the device") << 1 << qint64(1) << 100 * S << 400 * S;
}

void TestIdleGaps::streamGaps()
{
    QFETCH(int, device);
    QFETCH(qint64, stream);
    QFETCH(qint64, start);
    QFETCH(qint64, end);
    const IdleGapResult r = computeIdleGaps(makeAnalysisContext(fixture()), 0);
    QCOMPARE(r.streamGapCount, qint64(6));
    QCOMPARE(r.streamGapNs, (1280 + 300) * S);
    const IdleGap* g = gapAt(r.streamGaps, device, stream, start);
    QVERIFY(g);
    QCOMPARE(g->end, end);
}

void TestIdleGaps::listedMinimumAndLimit()
{
    const AnalysisContext c = makeAnalysisContext(fixture());
    const IdleGapResult r = computeIdleGaps(c, 220 * S);
    QCOMPARE(r.deviceGaps.size(), std::size_t(3)); // 2.2, 4.1 and 5 ms
    QCOMPARE(r.deviceGaps.front().duration(), 500 * S); // longest first
    QCOMPARE(deviceOf(r, 0)->gaps, qint64(5)); // totals count every gap
    QVERIFY(!r.truncated);
    const IdleGapResult two = computeIdleGaps(c, 0, 2);
    QCOMPARE(two.deviceGaps.size(), std::size_t(2));
    QVERIFY(two.truncated);
    QCOMPARE(two.deviceGaps[1].duration(), 410 * S);
}

void TestIdleGaps::longestKeptAmongThousands_data()
{
    // The sweep cuts its lists back to the longest while it goes, once they pass 2048: the gaps kept must be the
    // longest of all, whenever the cut happened.
    QTest::addColumn<int>("maxListed");
    QTest::newRow("3 of 4999") << 3;
    QTest::newRow("2500 of 4999 (more than a cut keeps)") << 2500;
    QTest::newRow("4999 of 4999: none dropped") << 4999;
}

void TestIdleGaps::longestKeptAmongThousands()
{
    QFETCH(int, maxListed);
    // 5000 one-µs kernels on one stream; gap i (before kernel i, i = 1..4999) lasts (7919 i mod 5000) + 1 µs: every
    // length from 2 to 5000 µs once, the longest scattered through the capture.
    constexpr int kernels = 5000;
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 101);
    TimeNs at = 0;
    for (int i = 0; i < kernels; ++i) {
        if (i > 0)
            at += (TimeNs(i) * 7919 % kernels + 1) * us;
        b.kernel(t, at - 2, at - 1, at, at + us, u"k"_s);
        at += us;
    }
    const IdleGapResult r = computeIdleGaps(makeAnalysisContext(b.build()), 0, std::size_t(maxListed));
    QCOMPARE(deviceOf(r, 0)->gaps, qint64(kernels - 1));
    QCOMPARE(r.truncated, maxListed < kernels - 1);
    // The longest maxListed lengths are 5000 down to 5001 - maxListed µs, each once.
    TimeNs expectedTotal = 0;
    for (int length = 5000; length > 5000 - maxListed; --length)
        expectedTotal += length * us;
    for (const std::vector<IdleGap>* gaps : { &r.deviceGaps, &r.streamGaps }) {
        QCOMPARE(gaps->size(), std::size_t(maxListed));
        QCOMPARE(gaps->front().duration(), 5000 * us);
        QVERIFY(std::is_sorted(gaps->begin(), gaps->end(),
            [](const IdleGap& a, const IdleGap& b) { return a.duration() > b.duration(); }));
        TimeNs total = 0;
        for (const IdleGap& g : *gaps)
            total += g.duration();
        QCOMPARE(total, expectedTotal);
    }
}

void TestIdleGaps::focusClipsTheWindow()
{
    // [150, 600): K2 and K3 overlap it; K1 ends before it. One gap [200, 420]; busy 50 + 80.
    const AnalysisContext c = makeAnalysisContext(fixture(), FocusRange { 150 * S, 600 * S, QStringLiteral("f") });
    const IdleGapResult r = computeIdleGaps(c, 0);
    const DeviceIdle* d = deviceOf(r, 0);
    QVERIFY(d);
    QCOMPARE(d->spanNs, 450 * S);
    QCOMPARE(d->busyNs, 130 * S);
    QCOMPARE(d->idleNs, 320 * S);
    QCOMPARE(d->gaps, qint64(1));
    QCOMPARE(d->causeNs[int(GapCause::Sync)], 220 * S);
}

void TestIdleGaps::focusKeepsCallsThatReachIntoIt()
{
    // K1 [10, 100], K2 [300, 400] launched at [290, 295]; cudaEventQuery [50, 280] starts before the focus [90, 500).
    // The gap [100, 300] is host wait: calls cover 180 + 5 of its 200 (without the query it would be CPU-bound).
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100, QStringLiteral("python")), 101);
    b.kernel(t, 0, S, 10 * S, 100 * S, QStringLiteral("gemm"));
    b.apiCall(t, 50 * S, 280 * S, QStringLiteral("cudaEventQuery_v3020"));
    b.kernel(t, 290 * S, 295 * S, 300 * S, 400 * S, QStringLiteral("gemm"));
    const AnalysisContext c = makeAnalysisContext(b.build(), FocusRange { 90 * S, 500 * S, QStringLiteral("f") });
    const IdleGapResult r = computeIdleGaps(c, 0);
    const IdleGap* g = gapAt(r.deviceGaps, 0, -1, 100 * S);
    QVERIFY(g);
    QCOMPARE(g->end, 300 * S);
    QCOMPARE(g->cause, GapCause::HostWait);
}

void TestIdleGaps::blockedCallsAndPageMigrations_data()
{
    // Device 0, pid 100, in µs (launch or issuing call in brackets):
    //   K1 [0, 100]; memset [6000, 6000.768] issued by cudaMemsetAsync [200, 5900]: the host sat 5.7 ms in a call
    //   whose memset took 768 ns (at least half the gap, >= 100 µs, >= 10 x the memset): blocked call.
    //   K2 [6100, 6200] (6010, 6015): CUDA covers 5 of 99.2 µs, cpu bound.
    //   memset [6400, 6400.768] (6300, 6305): a short call, the memset ends the gap: memory transfer.
    //   UVM device-to-host migration [7000, 7010] (its row's call at 6500): page migration.
    //   K3 [8000, 8500] (7100, 8000): a 900 µs launch of a 500 µs kernel is no blocked call: host wait.
    QTest::addColumn<qint64>("start");
    QTest::addColumn<QString>("cause");
    QTest::newRow("5.7 ms cudaMemsetAsync, 768 ns memset: blocked call") << 100 * us << u"blocked_call"_s;
    QTest::newRow("late short launch: cpu bound") << 6000 * us + 768 << u"cpu_bound"_s;
    QTest::newRow("short call, memset next: memory transfer") << 6200 * us << u"memory_transfer"_s;
    QTest::newRow("UVM migration next: page migration") << 6400 * us + 768 << u"page_migration"_s;
    QTest::newRow("long launch of a long kernel: host wait") << 7010 * us << u"host_wait"_s;
}

void TestIdleGaps::blockedCallsAndPageMigrations()
{
    QFETCH(qint64, start);
    QFETCH(QString, cause);
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 101);
    b.kernel(t, 0, 1, 0, 100 * us, u"k1"_s);
    b.memOp(t, 200 * us, 5900 * us, 6000 * us, 6000 * us + 768, MemOpTable::kMemset, 4);
    b.kernel(t, 6010 * us, 6015 * us, 6100 * us, 6200 * us, u"k2"_s);
    b.memOp(t, 6300 * us, 6305 * us, 6400 * us, 6400 * us + 768, MemOpTable::kMemset, 4);
    b.memOp(t, 6500 * us, 6501 * us, 7000 * us, 7010 * us, 12, 4096);
    b.kernel(t, 7100 * us, 8000 * us, 8000 * us, 8500 * us, u"k3"_s);
    const IdleGapResult r = computeIdleGaps(makeAnalysisContext(b.build()), 0);
    const IdleGap* g = gapAt(r.deviceGaps, 0, -1, start);
    QVERIFY(g);
    QCOMPARE(gapCauseName(g->cause), cause);
    if (g->cause == GapCause::BlockedCall) {
        QCOMPARE(g->nextMemOp, std::int64_t(0));
        QVERIFY(g->nextCall >= 0);
        QCOMPARE(g->end, 6000 * us);
    }
}

void TestIdleGaps::eachGapAgainstItsOwnProcessCalls_data()
{
    QTest::addColumn<int>("device");
    QTest::addColumn<int>("pid");
    QTest::addColumn<QString>("cause");
    // The same gap [100, 300] on three devices; only process 200 syncs through it. Devices are swept in order, so
    // process 200's calls are set aside while device 1 (process 300) is swept and made again for device 2.
    QTest::newRow("device 0, process 200: its sync call") << 0 << 200 << gapCauseName(GapCause::Sync);
    QTest::newRow("device 1, process 300: the other process's sync does not count")
        << 1 << 300 << gapCauseName(GapCause::LaunchLatency);
    QTest::newRow("device 2, process 200 again: its sync call") << 2 << 200 << gapCauseName(GapCause::Sync);
}

void TestIdleGaps::eachGapAgainstItsOwnProcessCalls()
{
    QFETCH(int, device);
    QFETCH(int, pid);
    QFETCH(QString, cause);
    test::ProfileBuilder b;
    const ThreadIndex a = b.thread(b.process(200), 201);
    const ThreadIndex other = b.thread(b.process(300), 301);
    b.apiCall(a, 100 * S, 300 * S, u"cudaStreamSynchronize_v3020"_s);
    b.kernel(a, 0, S, 0, 100 * S, u"a0"_s, 0);
    b.kernel(a, 5 * S, 6 * S, 300 * S, 400 * S, u"a1"_s, 0);
    b.kernel(other, 0, S, 0, 100 * S, u"b0"_s, 1);
    b.kernel(other, 5 * S, 6 * S, 300 * S, 400 * S, u"b1"_s, 1);
    b.kernel(a, 2 * S, 3 * S, 0, 100 * S, u"a2"_s, 2);
    b.kernel(a, 7 * S, 8 * S, 300 * S, 400 * S, u"a3"_s, 2);
    const IdleGapResult r = computeIdleGaps(makeAnalysisContext(b.build()), 0);
    QCOMPARE(r.deviceGaps.size(), std::size_t(3));
    const IdleGap* g = gapAt(r.deviceGaps, device, -1, 100 * S);
    QVERIFY(g);
    QCOMPARE(g->end, 300 * S);
    QCOMPARE(g->pid, pid);
    QCOMPARE(gapCauseName(g->cause), cause);
}

void TestIdleGaps::aProcessCallsFarApartInRows_data()
{
    // A process's calls are kept as the steps between its rows, 7 bits a byte: steps of 1, 2 and 3 bytes.
    QTest::addColumn<int>("othersBetween");
    QTest::newRow("no call of another process between") << 0;
    QTest::newRow("300 calls of another process between (2-byte step)") << 300;
    QTest::newRow("20000 calls of another process between (3-byte step)") << 20000;
}

void TestIdleGaps::aProcessCallsFarApartInRows()
{
    QFETCH(int, othersBetween);
    // Process 200: K0 [0, 100] launched at row 0, then (after the other process's calls) K1 [700, 800] launched at
    // [350, 351] and cudaStreamSynchronize [400, 600]. The gap [100, 700] is sync only when the sync call, rows
    // after K0's launch, is read back at its own row.
    test::ProfileBuilder b;
    const ThreadIndex a = b.thread(b.process(200), 201);
    const ThreadIndex other = b.thread(b.process(300), 301);
    b.kernel(a, 0, S, 0, 100 * S, u"k0"_s);
    for (int i = 0; i < othersBetween; ++i)
        b.apiCall(other, S + i * 10, S + i * 10 + 5, u"cudaGetDevice_v3020"_s);
    b.kernel(a, 350 * S, 351 * S, 700 * S, 800 * S, u"k1"_s);
    b.apiCall(a, 400 * S, 600 * S, u"cudaStreamSynchronize_v3020"_s);
    const IdleGapResult r = computeIdleGaps(makeAnalysisContext(b.build()), 0);
    const IdleGap* g = gapAt(r.deviceGaps, 0, -1, 100 * S);
    QVERIFY(g);
    QCOMPARE(g->end, 700 * S);
    QCOMPARE(gapCauseName(g->cause), gapCauseName(GapCause::Sync));
}

QTEST_GUILESS_MAIN(TestIdleGaps)
#include "tst_idlegaps.moc"
