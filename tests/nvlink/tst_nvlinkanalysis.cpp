// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvlink/nvlinkattachment.h"
#include "core/nvlink/peakkernels.h"
#include "core/nvlink/plotreduction.h"
#include "core/nvlink/recordingplacement.h"
#include "core/nvlink/tracefolder.h"
#include "nvlinkscenario.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace nsw;
using namespace nsw::test;

namespace {

std::shared_ptr<Nvf1Recording> scenario()
{
    const QByteArray bytes = scenarioRecording();
    return parseNvf1Bytes(bytes.constData(), std::size_t(bytes.size()), QStringLiteral("s.bin"), 0).recording;
}

} // namespace

class TestNvlinkAnalysis : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void selection_data()
    {
        QTest::addColumn<int>("link");
        QTest::addColumn<int>("direction"); // -1 = both
        QTest::addColumn<bool>("aggregate");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("everything") << kAllLinks << -1 << false
                                    << qsl({ "link 0 TX", "link 0 RX", "link 1 TX", "link 1 RX" });
        QTest::newRow("link 1") << 1 << -1 << false << qsl({ "link 1 TX", "link 1 RX" });
        QTest::newRow("rx") << kAllLinks << int(LinkDirection::Rx) << false << qsl({ "link 0 RX", "link 1 RX" });
        QTest::newRow("link 0 tx") << 0 << int(LinkDirection::Tx) << false << qsl({ "link 0 TX" });
        QTest::newRow("summed") << kAllLinks << -1 << true << qsl({ "all links TX", "all links RX" });
        QTest::newRow("summed rx") << kAllLinks << int(LinkDirection::Rx) << true << qsl({ "all links RX" });
        QTest::newRow("missing link") << 7 << -1 << false << QStringList();
    }
    void selection()
    {
        QFETCH(int, link);
        QFETCH(int, direction);
        QFETCH(bool, aggregate);
        QFETCH(QStringList, expected);
        const auto rec = scenario();
        NvlinkFilter f;
        if (link != kAllLinks)
            f.links = { link };
        if (direction >= 0)
            f.direction = LinkDirection(direction);
        f.aggregateLinks = aggregate;
        QStringList labels;
        for (const ThroughputSeries* s : selectSeries(rec->links, rec->totals, f))
            labels << s->label();
        QCOMPARE(labels, expected);
    }

    void topIntervalsAndTies()
    {
        const auto rec = scenario();
        const auto all = selectSeries(rec->links, rec->totals, {});
        const std::vector<IntervalRef> top = topIntervals(all, 5);
        // 2.048 (link 1 TX #2), 1.024 (link 0 TX #2), 0.512 (link 0 RX #4), then 0.1024 twice: link 0 TX #0 and
        // ... 0.0512 (link 0 RX #1) < 0.1024; ties among the 0.01024 link 1 RX intervals are not reached.
        QCOMPARE(top.size(), std::size_t(5));
        QCOMPARE(top[0], (IntervalRef { 2, 2 }));
        QCOMPARE(top[1], (IntervalRef { 0, 2 }));
        QCOMPARE(top[2], (IntervalRef { 1, 4 }));
        QCOMPARE(top[3], (IntervalRef { 0, 0 }));
        QCOMPARE(top[4], (IntervalRef { 1, 1 }));
        // Ties keep series order then time order: the five equal link 1 RX intervals, in time order.
        NvlinkFilter rx;
        rx.links = { 1 };
        rx.direction = LinkDirection::Rx;
        const auto l1rx = selectSeries(rec->links, rec->totals, rx);
        const std::vector<IntervalRef> ties = topIntervals(l1rx, 3);
        QCOMPARE(ties, (std::vector<IntervalRef> { { 0, 0 }, { 0, 1 }, { 0, 2 } }));
        QVERIFY(topIntervals(all, 0).empty());
        QCOMPARE(topIntervals(all, 100).size(), std::size_t(20));
    }

    void zeroDurationIntervalsAreIgnored()
    {
        Nvf1Builder b;
        b.record({ 1, 138, 0, kScenarioT0, 0, 3, 0, 0 });
        b.record({ 2, 138, 0, kScenarioT0, 0, 3, 0, 0 }); // same NVML timestamp: a zero-length interval
        b.record({ 3, 138, 0, kScenarioT0 + 1000, 0, 3, 0, 10 });
        const auto rec
            = parseNvf1Bytes(b.bytes.constData(), std::size_t(b.bytes.size()), QStringLiteral("z.bin")).recording;
        QCOMPARE(rec->stats.zeroDurationIntervals, 1);
        const auto all = selectSeries(rec->links, rec->totals, {});
        QCOMPARE(topIntervals(all, 10), (std::vector<IntervalRef> { { 0, 1 } }));
        QCOMPARE(avgThroughput(all).intervals, 1);
    }

    void averageAndTotals()
    {
        const auto rec = scenario();
        const auto all = selectSeries(rec->links, rec->totals, {});
        const AvgThroughput a = avgThroughput(all);
        QCOMPARE(a.intervals, 20);
        QCOMPARE(a.activeIntervals, 10); // link0 TX 2, link0 RX 2, link1 TX 1, link1 RX 5
        QCOMPARE(a.totalDurationUs, 20000);
        // Σ GB/s × µs = Σ bytes × 1e-3 = 3700 KiB × 1024 × 1e-3 = 3788.8; / 20,000 µs.
        QCOMPARE(a.gbps, 3788.8 / 20000.0);
        const TotalCommunication t = totalCommunication(all);
        QCOMPARE(t.txBytes, qint64(3100 * 1024));
        QCOMPARE(t.rxBytes, qint64(600 * 1024));
        QCOMPARE(t.intervals, 20);
        NvlinkFilter summed;
        summed.aggregateLinks = true;
        const auto sums = selectSeries(rec->links, rec->totals, summed);
        QCOMPARE(totalCommunication(sums).txBytes, qint64(3100 * 1024));
        QCOMPARE(sums[0]->gbps(2), 3.072);
    }

    void alignment_data()
    {
        QTest::addColumn<qint64>("sessionStartUtcNs");
        QTest::addColumn<qint64>("offsetNs");
        QTest::addColumn<qint64>("wallUs");
        QTest::addColumn<qint64>("sessionNs");
        QTest::addColumn<bool>("fromExport");
        // anchor = floor(utcEpochNs / 1000): the sub-µs 123 ns are dropped, as the ccl-bench tool does.
        QTest::newRow("recording 10 ms after the session start")
            << kScenarioSessionStartUtcNs << qint64(0) << qint64(kScenarioT0) << qint64(10000000) << true;
        QTest::newRow("user offset +250 µs")
            << kScenarioSessionStartUtcNs << qint64(250000) << qint64(kScenarioT0) << qint64(10250000) << true;
        QTest::newRow("negative offset") << kScenarioSessionStartUtcNs << qint64(-10000000) << qint64(kScenarioT0)
                                         << qint64(0) << true;
        QTest::newRow("sample before the session")
            << kScenarioSessionStartUtcNs << qint64(0) << qint64(kScenarioT0 - 10500) << qint64(-500000) << true;
        QTest::newRow("no session start: recording start at 0")
            << qint64(kNoTime) << qint64(0) << qint64(kScenarioT0 + 3) << qint64(3000) << false;
        QTest::newRow("session start a year away: not trusted")
            << qint64(kScenarioSessionStartUtcNs - 365LL * 86400 * 1000000000) << qint64(0) << qint64(kScenarioT0)
            << qint64(0) << false;
        QTest::newRow("pre-1970 anchor floors") << qint64(-1500) << qint64(0) << qint64(-2) << qint64(0) << true;
    }
    void alignment()
    {
        QFETCH(qint64, sessionStartUtcNs);
        QFETCH(qint64, offsetNs);
        QFETCH(qint64, wallUs);
        QFETCH(qint64, sessionNs);
        QFETCH(bool, fromExport);
        const ClockAlignment a = alignClocks(sessionStartUtcNs, fromExport ? wallUs : kScenarioT0, offsetNs);
        QCOMPARE(a.fromExport, fromExport);
        QCOMPARE(qint64(a.sessionNs(wallUs)), sessionNs);
    }

    void alignmentOfSeries()
    {
        const auto rec = scenario();
        const ClockAlignment a = alignClocks(kScenarioSessionStartUtcNs, rec->firstUs, 0);
        QCOMPARE(a.anchorUs, kScenarioT0 - 10000);
        QCOMPARE(a.shiftOf(rec->links[0]), TimeNs(10000000));
        // The tool's kernel time: anchor + ns / 1000 in double precision (1.7e15 µs is exact to 0.25 µs).
        QCOMPARE(a.kernelWallUs(11500000), 1700000000001500.0);
        ThroughputSeries pct;
        pct.unit = ThroughputUnit::PercentOfPeak;
        QCOMPARE(a.shiftOf(pct), TimeNs(0)); // nsys GPU metrics are on the session clock already
        QCOMPARE(floorDiv(-1, 1000), qint64(-1));
        QCOMPARE(floorDiv(1999, 1000), qint64(1));
    }

    void peaksWithKernels()
    {
        const auto rec = scenario();
        const ProfilePtr profile = scenarioProfile();
        const auto all = selectSeries(rec->links, rec->totals, {});
        const ClockAlignment a = alignClocks(profile->meta.sessionStartUtcNs, rec->firstUs, 0);
        std::vector<NvlinkPeak> peaks = findPeaks(all, a, 3);
        QCOMPARE(peaks.size(), std::size_t(3));
        QCOMPARE(peaks[0].rank, 1);
        QCOMPARE(peaks[0].link, 1);
        QCOMPARE(peaks[0].direction, LinkDirection::Tx);
        QCOMPARE(peaks[0].start, TimeNs(12000000));
        QCOMPARE(peaks[0].end, TimeNs(13000000));
        QCOMPARE(peaks[0].value, 2.048);
        QCOMPARE(peaks[0].bytes, qint64(2048000));
        QCOMPARE(peaks[2].start, TimeNs(14000000));

        const KernelOverlapIndex index(kernelSpansFromProfile(profile, 0));
        QCOMPARE(index.spans().size(), std::size_t(6));
        attachKernels(peaks, index, false);
        const KernelOverlapIndex* current = &index;
        auto names = [&](const NvlinkPeak& p) {
            QStringList n;
            for (const PeakKernel& k : p.kernels)
                n << QStringLiteral("%1 %2 %3").arg(current->spans().nameOf(k.span)).arg(k.overlapNs).arg(k.overlapPct);
            return n;
        };
        // Equal overlaps keep start order (persistentKernel starts first).
        QCOMPARE(names(peaks[0]),
            (qsl({ "persistentKernel 1000000 100", "ncclDevKernel_AllReduce 1000000 100", "gemm_kernel 500000 50",
                "elementwise_kernel 100000 10" })));
        QCOMPARE(peaks[0].ncclKernels, 1);
        QCOMPARE(names(peaks[2]), (qsl({ "persistentKernel 1000000 100", "ncclKernel_SendRecv 500000 50" })));
        QCOMPARE(index.spans().row[peaks[0].kernels[1].span], 1u); // Profile::kernels row

        attachKernels(peaks, index, true);
        QCOMPARE(names(peaks[0]), qsl({ "ncclDevKernel_AllReduce 1000000 100" }));
        QCOMPARE(peaks[1].ncclKernels, 1);

        // Device 1 has only its own NCCL kernel.
        const KernelOverlapIndex other(kernelSpansFromProfile(profile, 1));
        attachKernels(peaks, other, false);
        current = &other;
        QCOMPARE(names(peaks[0]), qsl({ "ncclDevKernel_Other 1000000 100" }));

        // % of peak: an A100 link moves 25 GB/s per direction, the GPU 12 × 25.
        const LinkPeakTable table = LinkPeakTable::defaults();
        const LinkPeakEntry* a100 = table.match(nvlinkGpuModel(*profile, 0, nullptr));
        QVERIFY(a100);
        QCOMPARE(a100->links, 12);
        fillPeakUnits(peaks, a100);
        QCOMPARE(peaks[0].gbps, 2.048);
        QCOMPARE(peaks[0].percentOfPeak, 100.0 * 2.048 / 25.0);
        fillPeakUnits(peaks, nullptr);
        QVERIFY(std::isnan(peaks[0].percentOfPeak));
    }

    /// One link's TX and RX over the same interval are one peak when both rank above the next distinct interval.
    void peaksCountAnIntervalOnce_data()
    {
        QTest::addColumn<QList<qint64>>("txKib"); // per interval, 1 ms each
        QTest::addColumn<QList<qint64>>("rxKib");
        QTest::addColumn<int>("top");
        QTest::addColumn<QStringList>("expected"); // "start ms direction(s) KiB" per peak
        QTest::newRow("TX and RX of one interval, then the next") << QList<qint64> { 0, 900, 0,
            500 } << QList<qint64> { 0, 800, 0, 0 } << 2 << qsl({ "1 TX+RX 900", "3 TX 500" });
        QTest::newRow("RX first: the higher direction gives the values") << QList<qint64> { 0, 700, 0,
            500 } << QList<qint64> { 0, 800, 0, 0 } << 2 << qsl({ "1 TX+RX 800", "3 TX 500" });
        // The RX of interval 1 ranks below interval 2, the first interval beyond the top 2: not part of peak 1.
        QTest::newRow("the other direction below the next peak") << QList<qint64> { 0, 900, 300,
            500 } << QList<qint64> { 0, 100, 0, 0 } << 2 << qsl({ "1 TX 900", "3 TX 500" });
        // More peaks asked for than intervals carry traffic: an idle direction never joins a peak, nor makes one of
        // an interval already listed.
        QTest::newRow("idle directions") << QList<qint64> { 0, 900, 0, 0 } << QList<qint64> { 0, 0, 0, 0 } << 3
                                         << qsl({ "1 TX 900", "0 TX 0", "2 TX 0" });
        QTest::newRow("top 1") << QList<qint64> { 0, 900, 0, 500 } << QList<qint64> { 0, 800, 0, 0 } << 1
                               << qsl({ "1 TX+RX 900" });
        QTest::newRow("distinct intervals only") << QList<qint64> { 100, 200, 300, 400 } << QList<qint64> { 0, 0, 0, 0 }
                                                 << 3 << qsl({ "3 TX 400", "2 TX 300", "1 TX 200" });
    }
    void peaksCountAnIntervalOnce()
    {
        QFETCH(QList<qint64>, txKib);
        QFETCH(QList<qint64>, rxKib);
        QFETCH(int, top);
        QFETCH(QStringList, expected);
        ThroughputSeries tx, rx;
        tx.link = rx.link = 0;
        rx.direction = LinkDirection::Rx;
        std::vector<TimeNs> times;
        for (qsizetype i = 0; i <= txKib.size(); ++i)
            times.push_back(TimeNs(i) * 1000000);
        tx.time = rx.time = SampleTimes(times);
        for (qsizetype i = 0; i < txKib.size(); ++i) {
            tx.bytes.push_back(txKib[i] * 1024);
            rx.bytes.push_back(rxKib[i] * 1024);
        }
        const std::vector<NvlinkPeak> peaks = findPeaks({ &tx, &rx }, ClockAlignment {}, std::size_t(top));
        QStringList got;
        for (const NvlinkPeak& p : peaks)
            got << QStringLiteral("%1 %2 %3").arg(p.start / 1000000).arg(p.directionText()).arg(p.bytes / 1024);
        QCOMPARE(got, expected);
        for (std::size_t i = 0; i < peaks.size(); ++i)
            QCOMPARE(peaks[i].rank, int(i) + 1);
    }

    /// Capture 0..100 ms; the recording's span on the session timeline decides.
    void recordingPlacement_data()
    {
        QTest::addColumn<qint64>("startUs"); // recording span, session µs (anchor 0, no offset)
        QTest::addColumn<qint64>("endUs");
        QTest::addColumn<double>("share");
        QTest::addColumn<bool>("mismatched");
        QTest::addColumn<QString>("problem");
        QTest::newRow("inside") << qint64(10000) << qint64(15000) << 1.0 << false << QString();
        QTest::newRow("covers the capture, much longer")
            << qint64(-10000000) << qint64(10000000) << 1.0 << false << QString();
        QTest::newRow("another session") << qint64(1309077770000) << qint64(1309079190000) << 0.0 << true
                                         << qs("the recording does not overlap the capture: it starts at 1309077.770 s "
                                               "of the capture, which runs from 0.000 s to 0.100 s (100 ms long)");
        // 5 ms of a 100 ms recording over a 100 ms capture.
        QTest::newRow("5 % overlap") << qint64(95000) << qint64(195000) << 0.05 << true
                                     << qs("only 5.0 % of the recording overlaps the capture: it starts at 0.095 s of "
                                           "the capture, which runs from 0.000 s to 0.100 s (100 ms long)");
        QTest::newRow("10 % overlap is enough") << qint64(90000) << qint64(190000) << 0.1 << false << QString();
        QTest::newRow("one poll inside") << qint64(50000) << qint64(50000) << 1.0 << false << QString();
        QTest::newRow("one poll after") << qint64(150000) << qint64(150000) << 0.0 << true
                                        << qs("the recording does not overlap the capture: it starts at 0.150 s of the "
                                              "capture, which runs from 0.000 s to 0.100 s (100 ms long)");
    }
    void recordingPlacement()
    {
        QFETCH(qint64, startUs);
        QFETCH(qint64, endUs);
        QFETCH(double, share);
        QFETCH(bool, mismatched);
        QFETCH(QString, problem);
        const CaptureSpan capture { 0, 100000000, CaptureSpanSource::AnalysisDetails };
        ClockAlignment a;
        a.anchorUs = 0;
        a.fromExport = true;
        const RecordingPlacement p = placeRecording(a, startUs, endUs, capture);
        QCOMPARE(p.start, startUs * 1000);
        QCOMPARE(p.overlapShare, share);
        QCOMPARE(p.mismatched(), mismatched);
        QCOMPARE(p.problem(), problem);
        // The offset that aligns puts the first sample at the capture start, whatever the offset already set.
        QCOMPARE(p.alignOffsetNs, -startUs * 1000);
        a.offsetNs = 7000;
        const RecordingPlacement shifted = placeRecording(a, startUs, endUs, capture);
        QCOMPARE(shifted.start, startUs * 1000 + 7000);
        QCOMPARE(shifted.alignOffsetNs, -startUs * 1000);
        a.offsetNs = shifted.alignOffsetNs;
        QCOMPARE(placeRecording(a, startUs, endUs, capture).start, TimeNs(0));
        // Without a capture span nothing can be said.
        QVERIFY(!placeRecording(a, startUs, endUs, CaptureSpan {}).mismatched());
    }

    void overlapIndexMatchesAScan()
    {
        // Random kernels with durations from 1 ns to 10 s; the index must find exactly what a full scan finds.
        ProfileBuilder b;
        const ProcessIndex p = b.process(1);
        QRandomGenerator rng(42);
        for (int i = 0; i < 3000; ++i) {
            const TimeNs start = TimeNs(rng.bounded(1000000000));
            const int magnitude = int(rng.bounded(11));
            TimeNs duration = 1;
            for (int m = 0; m < magnitude; ++m)
                duration *= 10;
            duration = std::max<TimeNs>(0, TimeNs(rng.bounded(int(std::min<TimeNs>(duration, 2000000000)))));
            b.kernelWithoutApi(
                p, start, start + duration, QStringLiteral("k%1").arg(i % 7), 0, 7, std::uint32_t(i + 1));
        }
        const ProfilePtr profile = b.build();
        const KernelOverlapIndex index(kernelSpansFromProfile(profile, 0));
        const KernelSpans& s = index.spans();
        for (int q = 0; q < 200; ++q) {
            const TimeNs from = TimeNs(rng.bounded(1100000000)) - 50000000;
            const TimeNs to = from + TimeNs(rng.bounded(5000000)) + 1;
            std::vector<std::uint32_t> found;
            index.forEachOverlapping(from, to, [&](std::uint32_t k) { found.push_back(k); });
            std::sort(found.begin(), found.end());
            std::vector<std::uint32_t> expected;
            for (std::uint32_t k = 0; k < s.size(); ++k)
                if (s.start[k] < to && s.end[k] > from)
                    expected.push_back(k);
            QCOMPARE(found, expected);
        }
    }

    void ncclBusyBand()
    {
        const KernelOverlapIndex index(kernelSpansFromProfile(scenarioProfile(), 0));
        const auto busy = index.spans().ncclBusy();
        QCOMPARE(busy, (std::vector<std::pair<TimeNs, TimeNs>> { { 11500000, 13500000 }, { 14500000, 16000000 } }));
        // Ten 1 ms buckets over [10 ms, 20 ms).
        const std::vector<double> f = busyFraction(busy, 10000000, 20000000, 10);
        QCOMPARE(f, (std::vector<double> { 0, 0.5, 1, 0.5, 0.5, 1, 0, 0, 0, 0 }));
    }

    void plotReductionKeepsMaxima()
    {
        // 100,000 intervals of 1 µs, all 1 KiB except three spikes; reduced to 500 buckets the spikes must survive.
        ThroughputSeries s;
        s.unit = ThroughputUnit::GBps;
        std::vector<TimeNs> times;
        for (int i = 0; i <= 100000; ++i)
            times.push_back(TimeNs(i) * 1000);
        s.time = times;
        s.bytes.assign(100000, 1000);
        s.bytes.set(12345, 50000); // 50 GB/s
        s.bytes.set(67890, 30000);
        s.bytes.set(99999, 40000);
        const SeriesMaxIndex index(s);
        QCOMPARE(index.maxIn(0, 100000), 50.0);
        QCOMPARE(index.maxIn(12346, 67890), 1.0);
        QCOMPARE(index.maxIn(12346, 67891), 30.0);
        QCOMPARE(index.maxIn(5, 5), 0.0);
        for (std::size_t a = 12300; a < 12350; ++a)
            QCOMPARE(index.maxIn(a, a + 100), a <= 12345 ? 50.0 : 1.0);

        const TimeNs shift = 5000000; // the recording starts 5 ms into the session
        const PlotPoints all = reduceForPlot(s, index, shift, shift, shift + 100000000, 500);
        QCOMPARE(all.x.size(), std::size_t(501));
        QCOMPARE(all.yMax, 50.0);
        QCOMPARE(all.x.front(), 0.005);
        QCOMPARE(all.x.back(), 0.105);
        int spikes = 0;
        for (const double y : all.y)
            spikes += y > 1.0 ? 1 : 0;
        QVERIFY(spikes >= 3);
        // Percent of a 100 GB/s link.
        QCOMPARE(reduceForPlot(s, index, shift, shift, shift + 100000000, 500, 100.0 / 100.0).yMax, 50.0);
        // Zoomed in to 20 intervals: the intervals themselves, one step each plus the end.
        const PlotPoints zoom = reduceForPlot(s, index, shift, shift + 12340000, shift + 12360000, 800);
        QCOMPARE(zoom.x.size(), std::size_t(21));
        QCOMPARE(zoom.y[5], 50.0);
        QCOMPARE(zoom.x[5], 0.017345);
        QVERIFY(reduceForPlot(s, index, shift, 0, shift, 100).x.empty()); // before the recording
    }

    void gpuFromFileName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("gpu");
        QTest::newRow("ccl-bench default") << QStringLiteral("nvlink_trace.bin") << -1;
        QTest::newRow("gpu1") << QStringLiteral("nvlink_trace_gpu1.bin") << 1;
        QTest::newRow("GPU_3") << QStringLiteral("run-GPU_3.bin") << 3;
        QTest::newRow("rank2") << QStringLiteral("nvlink.rank2.bin") << 2;
        QTest::newRow("device-0") << QStringLiteral("device-0.bin") << 0;
        QTest::newRow("trailing number") << QStringLiteral("nvlink_trace_5.bin") << 5;
        QTest::newRow("a date is not a GPU") << QStringLiteral("nvlink_20251220.bin") << -1;
        QTest::newRow("path") << QStringLiteral("/tmp/gpu7/trace.bin") << -1;
    }
    void gpuFromFileName()
    {
        QFETCH(QString, name);
        QFETCH(int, gpu);
        QCOMPARE(suggestGpuFromFileName(name), gpu);
    }

    void traceFolders()
    {
        QTemporaryDir dir;
        auto touch = [&](const QString& name, const QByteArray& bytes) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        touch(QStringLiteral("vllm_profile.sqlite"), "x");
        touch(QStringLiteral("nvlink_gpu1.bin"), scenarioRecording());
        touch(QStringLiteral("nvlink_gpu0.bin"), scenarioRecording());
        touch(QStringLiteral("weights.bin"), QByteArray(100, 'w'));
        TraceFolder t = scanTraceFolder(dir.path());
        QCOMPARE(t.exports.size(), 1);
        QCOMPARE(defaultExport(t), dir.filePath(QStringLiteral("vllm_profile.sqlite")));
        QCOMPARE(t.recordings.size(), std::size_t(2));
        QCOMPARE(t.recordings[0].path, dir.filePath(QStringLiteral("nvlink_gpu0.bin"))); // by name, not fs order
        QCOMPARE(t.skipped.size(), 1);
        QVERIFY(t.skipped[0].contains(QLatin1String("weights.bin: not an NVF1")));
        std::vector<RecordingChoice> choices;
        QVERIFY(defaultRecordingChoices(t, choices));
        QCOMPARE(choices[1].gpu, 1);

        touch(QStringLiteral("nvlink_trace.bin"), scenarioRecording()); // says no GPU: ambiguous with the others
        t = scanTraceFolder(dir.path());
        QVERIFY(!defaultRecordingChoices(t, choices));
        touch(QStringLiteral("sglang_profile.sqlite"), "x");
        t = scanTraceFolder(dir.path());
        QCOMPARE(defaultExport(t), QString()); // two *_profile exports: ask
        QFile::remove(dir.filePath(QStringLiteral("sglang_profile.sqlite")));
        touch(QStringLiteral("other.sqlite"), "x");
        QCOMPARE(defaultExport(scanTraceFolder(dir.path())), dir.filePath(QStringLiteral("vllm_profile.sqlite")));

        TraceFolder lone;
        lone.recordings.push_back({ QStringLiteral("/x/nvlink_trace.bin"), -1 });
        QVERIFY(defaultRecordingChoices(lone, choices));
        QCOMPARE(choices[0].gpu, 0); // the ccl-bench scripts always record GPU 0
    }

    void linkPeakTable()
    {
        const LinkPeakTable d = LinkPeakTable::defaults();
        QCOMPARE(d.match(QStringLiteral("NVIDIA H100 80GB HBM3"))->gpuGbps(), 450.0);
        QCOMPARE(d.match(QStringLiteral("GH100"))->links, 18);
        QCOMPARE(d.match(QStringLiteral("NVIDIA A100-SXM4-40GB"))->gpuGbps(), 300.0);
        QCOMPARE(d.match(QStringLiteral("NVIDIA A800-SXM4-80GB"))->links, 8);
        QCOMPARE(d.match(QStringLiteral("Tesla V100-SXM2-16GB"))->gpuGbps(), 150.0);
        QVERIFY(!d.match(QStringLiteral("NVIDIA GeForce RTX 3080")));

        LinkPeakTable t;
        t.setEntries({ { QStringLiteral("RTX 3090"), 4, 14.0625 } });
        LinkPeakTable back;
        QString error;
        QVERIFY2(LinkPeakTable::fromJson(t.toJson(), back, &error), qPrintable(error));
        QCOMPARE(back, t);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/peaks.json"));
        QCOMPARE(t.save(path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(LinkPeakTable::fromJson(f.readAll(), back, &error));
        QCOMPARE(back.entries().at(0).gbpsPerLink, 14.0625);

        QVERIFY(!LinkPeakTable::fromJson("[]", back, &error));
        QVERIFY(!LinkPeakTable::fromJson(
            R"({"gpus":[{"pattern":"X","links":0,"gbps_per_link_per_direction":1}]})", back, &error));
        QVERIFY(error.contains(QLatin1String("positive")));
        QVERIFY(!LinkPeakTable::fromJson("{not json", back, &error));
    }
};

QTEST_GUILESS_MAIN(TestNvlinkAnalysis)
#include "tst_nvlinkanalysis.moc"
