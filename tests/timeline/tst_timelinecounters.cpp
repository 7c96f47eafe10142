// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvlink/nvlinkattachment.h"
#include "core/timeline/timelinecounters.h"

#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace nsw;

namespace {

/// A series of interval values built by hand: interval i spans [times[i], times[i+1]).
std::shared_ptr<ThroughputSeries> handSeries(const std::vector<TimeNs>& times, const std::vector<float>& values)
{
    auto s = std::make_shared<ThroughputSeries>();
    s->unit = ThroughputUnit::PercentOfPeak;
    s->time = SampleTimes(times);
    s->percent = values;
    return s;
}

/// @p n intervals of pseudo-random widths (1..maxWidth ns) and values (0..100) from @p first, with one 1 ns
/// interval of 100 at interval @p spike (no spike when negative).
std::shared_ptr<ThroughputSeries> randomSeries(int n, TimeNs first, int maxWidth, int spike)
{
    std::vector<TimeNs> times { first };
    std::vector<float> values;
    quint32 state = 12345;
    auto next = [&]() {
        state = state * 1664525u + 1013904223u;
        return state >> 8;
    };
    for (int i = 0; i < n; ++i) {
        const bool isSpike = i == spike;
        times.push_back(times.back() + (isSpike ? 1 : 1 + TimeNs(next() % quint32(maxWidth))));
        values.push_back(isSpike ? 100.0f : spike >= 0 ? 0.0f : float(next() % 1001) / 10.0f);
    }
    return handSeries(times, values);
}

TimelineCounters countersOf(std::shared_ptr<ThroughputSeries> series, TimeNs shift)
{
    TimelineCounters c;
    CounterTrack t;
    t.label = QStringLiteral("SMs Active");
    t.unit = QStringLiteral("%");
    t.group = c.addGroup(QStringLiteral("GPU 0 metrics"));
    t.shift = shift;
    t.maxIndex = std::make_shared<const SeriesMaxIndex>(*series);
    t.series = std::move(series);
    c.addTrack(std::move(t));
    return c;
}

/// Column maxima by definition: every interval raises every column it overlaps (column c is
/// [start + c × npp, start + (c + 1) × npp); start and npp are whole ns here, so every bound is exact).
std::vector<CounterColumn> bruteForceColumns(
    const ThroughputSeries& s, TimeNs shift, TimeNs start, TimeNs npp, int width)
{
    std::vector<CounterColumn> out(static_cast<std::size_t>(width));
    for (std::size_t i = 0; i + 1 < s.time.size(); ++i) {
        const TimeNs a = s.time[i] + shift, b = s.time[i + 1] + shift;
        for (int c = 0; c < width; ++c) {
            const TimeNs c0 = start + c * npp, c1 = c0 + npp;
            if (a < c1 && b > c0) {
                out[std::size_t(c)].max = std::max(out[std::size_t(c)].max, s.value(i));
                out[std::size_t(c)].hasData = true;
            }
        }
    }
    return out;
}

} // namespace

class TestTimelineCounters : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void columnMaximaMatchEveryInterval_data()
    {
        QTest::addColumn<int>("samples");
        QTest::addColumn<int>("maxWidth");
        QTest::addColumn<qint64>("shift");
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("nsPerPixel");
        QTest::addColumn<int>("width");
        // 20000 intervals of ~50 ns from t = 10 000: about 1 ms.
        QTest::newRow("many samples per pixel (reduced by buckets)") << 20000 << 100 << 0LL << 0LL << 1100LL << 1000;
        QTest::newRow("about one sample per pixel") << 20000 << 100 << 0LL << 200000LL << 50LL << 1000;
        QTest::newRow("few samples, each many pixels wide") << 20000 << 100 << 0LL << 300000LL << 3LL << 1000;
        QTest::newRow("view past both ends of the series") << 300 << 100 << 0LL << 0LL << 40LL << 800;
        QTest::newRow("shifted series (an NVLink recording's clock)")
            << 20000 << 100 << 7000000LL << 7000000LL << 900LL << 1000;
        QTest::newRow("odd width, no sample in view") << 20000 << 100 << 0LL << 5000000LL << 7LL << 333;
    }
    void columnMaximaMatchEveryInterval()
    {
        QFETCH(int, samples);
        QFETCH(int, maxWidth);
        QFETCH(qint64, shift);
        QFETCH(qint64, start);
        QFETCH(qint64, nsPerPixel);
        QFETCH(int, width);
        const auto series = randomSeries(samples, 10000, maxWidth, -1);
        const TimelineCounters c = countersOf(series, shift);
        const std::vector<CounterColumn> got = c.columns(0, double(start), double(nsPerPixel), width);
        const std::vector<CounterColumn> want = bruteForceColumns(*series, shift, start, nsPerPixel, width);
        QCOMPARE(got.size(), want.size());
        for (int x = 0; x < width; ++x) {
            QVERIFY2(got[std::size_t(x)].hasData == want[std::size_t(x)].hasData, qPrintable(QString::number(x)));
            QVERIFY2(got[std::size_t(x)].max == want[std::size_t(x)].max,
                qPrintable(QStringLiteral("column %1: %2, expected %3")
                               .arg(x)
                               .arg(got[std::size_t(x)].max)
                               .arg(want[std::size_t(x)].max)));
        }
    }

    void aOneNanosecondSpikeShowsAtEveryZoom_data()
    {
        QTest::addColumn<qint64>("nsPerPixel");
        QTest::newRow("1 ns per pixel") << 1LL;
        QTest::newRow("37 ns per pixel") << 37LL;
        QTest::newRow("1 µs per pixel") << 1000LL;
        QTest::newRow("the whole series in 200 px") << 5000LL;
    }
    void aOneNanosecondSpikeShowsAtEveryZoom()
    {
        QFETCH(qint64, nsPerPixel);
        // 100 000 zero intervals of 1..10 ns with one 1 ns interval of 100 in the middle.
        const auto series = randomSeries(100000, 0, 10, 50000);
        const TimeNs spikeAt = series->time[50000];
        const int width = 200;
        // The view puts the spike in column 120.
        const TimeNs start = spikeAt - 120 * nsPerPixel;
        const std::vector<CounterColumn> cols
            = countersOf(series, 0).columns(0, double(start), double(nsPerPixel), width);
        for (int x = 0; x < width; ++x)
            QCOMPARE(cols[std::size_t(x)].max, x == 120 ? 100.0 : 0.0);
    }

    void sampleAtFindsTheIntervalHoldingATime_data()
    {
        QTest::addColumn<qint64>("time");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<double>("value");
        // Samples at 100, 200, 350, 400 (series clock) of 5, 7, 9, shifted by 1000.
        QTest::newRow("before the first sample") << 1099LL << false << 0LL << 0LL << 0.0;
        QTest::newRow("at the first sample") << 1100LL << true << 1100LL << 1200LL << 5.0;
        QTest::newRow("at a boundary: the interval starting there") << 1200LL << true << 1200LL << 1350LL << 7.0;
        QTest::newRow("inside the second") << 1250LL << true << 1200LL << 1350LL << 7.0;
        QTest::newRow("last ns of the last") << 1399LL << true << 1350LL << 1400LL << 9.0;
        QTest::newRow("at the last sample: nothing after it") << 1400LL << false << 0LL << 0LL << 0.0;
    }
    void sampleAtFindsTheIntervalHoldingATime()
    {
        QFETCH(qint64, time);
        QFETCH(bool, valid);
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(double, value);
        const TimelineCounters c = countersOf(handSeries({ 100, 200, 350, 400 }, { 5, 7, 9 }), 1000);
        const CounterSample s = c.sampleAt(0, time);
        QCOMPARE(s.valid, valid);
        if (!valid)
            return;
        QCOMPARE(s.start, start);
        QCOMPARE(s.end, end);
        QCOMPARE(s.value, value);
    }

    void rowsGoBetweenTheGpusAndTheProcesses()
    {
        // GPU 0 (group, busy, stream), process (group, thread group, CUDA API): rows 0..5.
        std::vector<TimelineRow> events(6);
        events[0] = { QStringLiteral("GPU 0"), TrackKind::Group, -1, 0 };
        events[1] = { QStringLiteral("GPU busy"), TrackKind::GpuBusy, 0, 1 };
        events[2] = { QStringLiteral("Stream 7"), TrackKind::Stream, 0, 1 };
        events[3] = { QStringLiteral("python [42]"), TrackKind::Group, -1, 0 };
        events[4] = { QStringLiteral("thread 42"), TrackKind::Group, 3, 1 };
        events[5] = { QStringLiteral("CUDA API"), TrackKind::CudaApi, 4, 2 };
        TimelineCounters c = countersOf(handSeries({ 0, 10, 20 }, { 1, 2 }), 0);
        CounterTrack second = c.tracks().front();
        second.label = QStringLiteral("NVLink TX");
        second.unit = QStringLiteral("GB/s");
        second.group = c.addGroup(QStringLiteral("NVLink GPU 0 · a.nvf1"));
        c.addTrack(second);
        const TimelineRowTable t = withCounterRows(events, &c);
        QCOMPARE(t.rows.size(), std::size_t(10));
        for (std::size_t i = 0; i < events.size(); ++i)
            QCOMPARE(t.rows[i].label, events[i].label); // the event rows keep their numbers
        QCOMPARE(t.order, (std::vector<int> { 0, 1, 2, 6, 7, 8, 9, 3, 4, 5 }));
        QCOMPARE(t.rows[6].label, QStringLiteral("GPU 0 metrics"));
        QVERIFY(t.rows[6].isGroup());
        QCOMPARE(t.rows[7].label, QStringLiteral("SMs Active [%]"));
        QCOMPARE(t.rows[7].kind, TrackKind::Counter);
        QCOMPARE(t.rows[7].parent, 6);
        QCOMPARE(t.rows[7].counter, 0u);
        QCOMPARE(t.rows[8].label, QStringLiteral("NVLink GPU 0 · a.nvf1"));
        QCOMPARE(t.rows[9].label, QStringLiteral("NVLink TX [GB/s]"));
        QCOMPARE(t.rows[9].parent, 8);
        QCOMPARE(t.rows[9].counter, 1u);
        QCOMPARE(withCounterRows(events, nullptr).order, (std::vector<int> { 0, 1, 2, 3, 4, 5 }));
    }

    void nvlinkRecordingIsPlacedByItsClock()
    {
        // The session started at UTC 1 700 000 000.000 000 s; the recording's first poll is 5 ms later (NVML µs) and
        // the user shifts it by a further 200 ns. Between its two polls, 1 MB moved in 1 ms: 1 GB/s.
        Profile profile;
        profile.meta.sessionStartUtcNs = 1700000000LL * 1000000000LL;
        auto recording = std::make_shared<Nvf1Recording>();
        recording->path = QStringLiteral("/tmp/rank0.nvf1");
        recording->firstUs = recording->originUs = 1700000000LL * 1000000LL + 5000;
        ThroughputSeries tx;
        tx.direction = LinkDirection::Tx;
        tx.unit = ThroughputUnit::GBps;
        tx.originUs = recording->originUs;
        tx.time = SampleTimes(std::vector<TimeNs> { 0, 1000000 });
        tx.bytes = IntervalBytes { 1000000 };
        recording->totals.push_back(tx);
        auto nvlink = std::make_shared<NvlinkAttachment>();
        nvlink->recordings.push_back({ recording, 1 });
        nvlink->clockOffsetNs = 200;

        const TimelineCountersPtr c = buildTimelineCounters(profile, nullptr, nvlink);
        QVERIFY(c);
        QCOMPARE(c->groups().size(), std::size_t(1));
        QCOMPARE(c->groups()[0].label, QStringLiteral("NVLink GPU 1 · rank0.nvf1"));
        QCOMPARE(c->tracks()[0].label, QStringLiteral("NVLink TX"));
        QCOMPARE(c->tracks()[0].unit, QStringLiteral("GB/s"));
        QCOMPARE(c->tracks()[0].shift, TimeNs(5000200));
        QVERIFY(!c->sampleAt(0, 5000199).valid);
        const CounterSample s = c->sampleAt(0, 5000200);
        QVERIFY(s.valid);
        QCOMPARE(s.end, TimeNs(6000200));
        QCOMPARE(s.value, 1.0);
        QCOMPARE(c->tracks()[0].fullScale, 1.0); // not a percentage: scaled to its maximum
        QVERIFY(!buildTimelineCounters(profile, nullptr, std::make_shared<NvlinkAttachment>()));
    }

    void seriesWithoutIntervalsAddNoRow()
    {
        TimelineCounters c = countersOf(handSeries({ 100 }, {}), 0);
        QVERIFY(c.empty());
        c.addGroup(QStringLiteral("empty"));
        c.removeEmptyGroups();
        QVERIFY(c.groups().empty());
    }

    void valuesCarryTheirUnit_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QString>("text");
        QTest::newRow("whole percent") << 45.0 << QStringLiteral("%") << QStringLiteral("45 %");
        QTest::newRow("summed percent") << 12.5 << QStringLiteral("%") << QStringLiteral("12.5 %");
        QTest::newRow("small GB/s") << 3.14159 << QStringLiteral("GB/s") << QStringLiteral("3.14 GB/s");
        QTest::newRow("large") << 1410.4 << QStringLiteral("MHz") << QStringLiteral("1410 MHz");
        QTest::newRow("no unit") << 7.0 << QString() << QStringLiteral("7");
    }
    void valuesCarryTheirUnit()
    {
        QFETCH(double, value);
        QFETCH(QString, unit);
        QFETCH(QString, text);
        QCOMPARE(formatCounterValue(value, unit), text);
    }
};

QTEST_GUILESS_MAIN(TestTimelineCounters)
#include "tst_timelinecounters.moc"
