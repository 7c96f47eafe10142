// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/timeline/timelinebuild.h"
#include "profilebuilder.h"

#include <QRandomGenerator>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

using Interval = std::pair<TimeNs, TimeNs>;

/// "0-2 3-5 6-8" -> intervals.
std::vector<Interval> parseIntervals(const QString& text)
{
    std::vector<Interval> out;
    for (const QString& item : text.split(u' ', Qt::SkipEmptyParts)) {
        const QStringList bounds = item.split(u'-');
        out.emplace_back(bounds[0].toLongLong(), bounds[1].toLongLong());
    }
    return out;
}

/// Spans as "start-endxcount", e.g. "0-8x3 40-42x1".
QString printSpans(const std::vector<TimelineSpan>& spans)
{
    QStringList items;
    for (const TimelineSpan& s : spans)
        items << u"%1-%2x%3"_s.arg(s.start).arg(s.end).arg(s.count);
    return items.join(u' ');
}

TimelineIndexPtr build(const ProfilePtr& profile)
{
    Result<TimelineIndexPtr> result = buildTimelineIndex(profile);
    if (!result)
        qFatal("timeline build failed: %s", qPrintable(result.errorMessage()));
    return *result;
}

/// The row reached by labels from the top, e.g. {"python (100)", "main (100)", "OS runtime"}.
const TimelineRow* findRow(const TimelineIndex& index, const QStringList& path)
{
    int parent = -1;
    const TimelineRow* found = nullptr;
    for (const QString& label : path) {
        found = nullptr;
        for (std::size_t i = 0; i < index.rows().size(); ++i)
            if (index.rows()[i].parent == parent && index.rows()[i].label == label) {
                found = &index.rows()[i];
                parent = int(i);
                break;
            }
        if (!found)
            return nullptr;
    }
    return found;
}

/// A profile with one thread whose OS runtime calls are @p calls (a single lane when they do not overlap).
ProfilePtr osrtProfile(const std::vector<Interval>& calls)
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 100, u"main"_s);
    for (const auto& [s, e] : calls)
        b.osrtCall(t, s, e, u"poll"_s);
    return b.build();
}

const QStringList kOsrtRow { u"python (100)"_s, u"main (100)"_s, u"OS runtime"_s };

/// Events of a lane as intervals (position order).
std::vector<Interval> laneEvents(const TimelineIndex& index, std::uint32_t lane)
{
    std::vector<Interval> out;
    for (std::uint32_t k = 0; k < index.lanes()[lane].count; ++k)
        out.emplace_back(index.startAt(lane, k), index.endAt(lane, k));
    return out;
}

} // namespace

class TestTimelineIndex : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void spansMergeSubPixelEvents_data();
    void spansMergeSubPixelEvents();
    void spansAccountForEveryEvent_data();
    void spansAccountForEveryEvent();
    void hitTestAtBoundaries_data();
    void hitTestAtBoundaries();
    void nvtxNestingDepthIsTheLane();
    void startEndRangesArePackedWithoutOverlap();
    void unterminatedRangeEndsAtLastNvtxTimestamp();
    void gpuRowsStreamsAndBusyUnion();
    void busyUnionMergesLanesOfEveryStream();
    void threadRowsAndEmptyRowsHidden();
    void memoryOperationsShareTheStreamLane();
    void describesKernelForTooltip();
    void indexStaysWithinSixteenBytesPerEvent();
    void cancelledBuildReturnsCancelled();
};

void TestTimelineIndex::spansMergeSubPixelEvents_data()
{
    QTest::addColumn<QString>("events");
    QTest::addColumn<qint64>("t0");
    QTest::addColumn<qint64>("t1");
    QTest::addColumn<double>("nsPerPixel");
    QTest::addColumn<QString>("expected");

    QTest::newRow("wide events keep their own boxes")
        << u"0-100 100-200 300-400"_s << 0ll << 1000ll << 10.0 << u"0-100x1 100-200x1 300-400x1"_s;
    QTest::newRow("sub-pixel events of one column merge") << u"0-2 3-5 6-8"_s << 0ll << 1000ll << 10.0 << u"0-8x3"_s;
    QTest::newRow("a merged run goes on while the gaps are under a pixel")
        << u"0-2 8-12 15-17 40-42"_s << 0ll << 1000ll << 10.0 << u"0-17x3 40-42x1"_s;
    QTest::newRow("a wide event right after a narrow one stays alone")
        << u"0-2 5-100"_s << 0ll << 1000ll << 10.0 << u"0-2x1 5-100x1"_s;
    QTest::newRow("a gap of a whole column separates spans")
        << u"0-1 2-3 25-26 27-28"_s << 0ll << 1000ll << 10.0 << u"0-3x2 25-28x2"_s;
    QTest::newRow("a gap under a pixel merges across a column boundary")
        << u"4-6 12-13"_s << 5ll << 1000ll << 10.0 << u"4-13x2"_s;
    QTest::newRow("a gap of a whole pixel separates") << u"0-1 11-12"_s << 0ll << 1000ll << 10.0 << u"0-1x1 11-12x1"_s;
    QTest::newRow("a long run of narrow events is one span, whatever its length")
        << QStringList([] {
               QStringList events;
               for (int i = 0; i < 5000; ++i)
                   events << u"%1-%2"_s.arg(i * 3).arg(i * 3 + 2);
               return events;
           }())
               .join(u' ')
        << 0ll << 20000ll << 10.0 << u"0-14999x5000"_s;
    QTest::newRow("events overlapping the window edges are in, outside ones out")
        << u"0-10 20-30 40-50 60-70"_s << 25ll << 45ll << 1.0 << u"20-30x1 40-50x1"_s;
    QTest::newRow("an event ending exactly at t0 is in") << u"0-10 20-30"_s << 10ll << 15ll << 1.0 << u"0-10x1"_s;
    QTest::newRow("zero-length events merge into a mark") << u"5-5 5-5 6-6"_s << 0ll << 100ll << 10.0 << u"5-6x3"_s;
    QTest::newRow("zoomed below a nanosecond per pixel") << u"0-1 1-2"_s << 0ll << 2ll << 0.1 << u"0-1x1 1-2x1"_s;
    QTest::newRow("a million ns per pixel merges everything")
        << u"0-10 100-200 5000-6000 900000-900100"_s << 0ll << 10000000ll << 1e6 << u"0-900100x4"_s;
}

void TestTimelineIndex::spansMergeSubPixelEvents()
{
    QFETCH(QString, events);
    QFETCH(qint64, t0);
    QFETCH(qint64, t1);
    QFETCH(double, nsPerPixel);
    QFETCH(QString, expected);

    const TimelineIndexPtr index = build(osrtProfile(parseIntervals(events)));
    const TimelineRow* row = findRow(*index, kOsrtRow);
    QVERIFY(row);
    QCOMPARE(row->laneCount, 1u);
    std::vector<TimelineSpan> spans;
    index->spans(row->firstLane, t0, t1, nsPerPixel, spans);
    QCOMPARE(printSpans(spans), expected);
}

void TestTimelineIndex::spansAccountForEveryEvent_data()
{
    QTest::addColumn<qint64>("t0");
    QTest::addColumn<qint64>("t1");
    QTest::addColumn<int>("pixels");

    QTest::newRow("fit all at 1000 px") << 0ll << 100'000'000ll << 1000;
    QTest::newRow("fit all at 7 px") << 0ll << 100'000'000ll << 7;
    QTest::newRow("1 ms window at 1500 px") << 40'000'000ll << 41'000'000ll << 1500;
    QTest::newRow("10 us window at 1500 px") << 50'000'000ll << 50'010'000ll << 1500;
    QTest::newRow("window starting before the first event") << -5'000'000ll << 3'000'000ll << 800;
}

void TestTimelineIndex::spansAccountForEveryEvent()
{
    QFETCH(qint64, t0);
    QFETCH(qint64, t1);
    QFETCH(int, pixels);

    // 20000 calls of 1 ns to 200 µs, sometimes overlapping (so several lanes), over 100 ms.
    QRandomGenerator random(7);
    std::vector<Interval> calls;
    for (int i = 0; i < 20000; ++i) {
        const TimeNs start = random.bounded(100'000'000);
        calls.emplace_back(start, start + 1 + random.bounded(random.bounded(2) ? 200 : 200'000));
    }
    const TimelineIndexPtr index = build(osrtProfile(calls));
    const TimelineRow* row = findRow(*index, kOsrtRow);
    QVERIFY(row);
    QVERIFY(row->laneCount > 1);

    const double npp = double(t1 - t0) / pixels;
    std::size_t total = 0, inWindow = 0;
    std::vector<TimelineSpan> spans;
    for (std::uint32_t lane = row->firstLane; lane < row->firstLane + row->laneCount; ++lane) {
        const std::vector<Interval> events = laneEvents(*index, lane);
        total += events.size();
        // The lane never overlaps: each event ends where or before the next starts.
        for (std::size_t k = 1; k < events.size(); ++k)
            QVERIFY(events[k - 1].second <= events[k].first);
        const auto overlapping = std::count_if(
            events.begin(), events.end(), [&](const Interval& e) { return e.second >= t0 && e.first <= t1; });
        inWindow += std::size_t(overlapping);
        index->spans(lane, t0, t1, npp, spans);
        std::size_t counted = 0;
        for (std::size_t i = 0; i < spans.size(); ++i) {
            const TimelineSpan& s = spans[i];
            counted += s.count;
            QCOMPARE(s.start, events[s.first].first);
            QVERIFY(s.end >= events[s.first + s.count - 1].second);
            if (i > 0) {
                QCOMPARE(s.first, spans[i - 1].first + spans[i - 1].count); // none skipped between spans
                QVERIFY(spans[i - 1].end <= s.start);
            }
            if (s.count > 1)
                for (std::uint32_t k = s.first; k < s.first + s.count; ++k) {
                    QVERIFY2(double(events[k].second - events[k].first) < npp, "only sub-pixel events are merged");
                    if (k > s.first)
                        QVERIFY2(double(events[k].first - events[k - 1].second) < npp,
                            "a gap of a pixel or more breaks a span");
                }
            // A span of sub-pixel events goes on as long as it may: the event after it is a pixel long or a pixel away.
            const std::uint32_t next = s.first + s.count;
            if (double(events[s.first].second - events[s.first].first) < npp && i + 1 < spans.size())
                QVERIFY2(double(events[next].second - events[next].first) >= npp
                        || double(events[next].first - events[next - 1].second) >= npp,
                    "a span stops only at a break");
        }
        QCOMPARE(counted, std::size_t(overlapping));
        // Every second span starts at least a pixel after the one before: the work per lane is bounded by the
        // width, not by the events.
        QVERIFY(spans.size() <= std::size_t(2 * pixels + 6));
    }
    QCOMPARE(total, calls.size());
    QVERIFY(inWindow > 0);
}

void TestTimelineIndex::hitTestAtBoundaries_data()
{
    QTest::addColumn<qint64>("t");
    QTest::addColumn<qint64>("tolerance");
    QTest::addColumn<int>("expected");

    // Events: 0 = [10,20], 1 = [20,30], 2 = [40,50], 3 = [60,60].
    QTest::newRow("at a start") << 10ll << 0ll << 0;
    QTest::newRow("inside") << 19ll << 0ll << 0;
    QTest::newRow("shared boundary: the one starting there") << 20ll << 0ll << 1;
    QTest::newRow("at an end nothing starts at") << 30ll << 0ll << 1;
    QTest::newRow("in a gap without tolerance") << 35ll << 0ll << -1;
    QTest::newRow("in a gap, equally near both: the earlier") << 35ll << 5ll << 1;
    QTest::newRow("in a gap, nearer the next") << 37ll << 5ll << 2;
    QTest::newRow("on a zero-length event") << 60ll << 0ll << 3;
    QTest::newRow("before the first, out of tolerance") << 5ll << 4ll << -1;
    QTest::newRow("before the first, within tolerance") << 5ll << 5ll << 0;
    QTest::newRow("after the last") << 100ll << 100ll << 3;
    QTest::newRow("after the last, out of tolerance") << 100ll << 39ll << -1;
}

void TestTimelineIndex::hitTestAtBoundaries()
{
    QFETCH(qint64, t);
    QFETCH(qint64, tolerance);
    QFETCH(int, expected);

    const TimelineIndexPtr index = build(osrtProfile(parseIntervals(u"10-20 20-30 40-50 60-60"_s)));
    const TimelineRow* row = findRow(*index, kOsrtRow);
    QVERIFY(row);
    QCOMPARE(index->hitTest(row->firstLane, t, tolerance), qint64(expected));
}

void TestTimelineIndex::nvtxNestingDepthIsTheLane()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 100, u"main"_s);
    // Rows deliberately out of start order, and a child that starts with its parent.
    b.nvtxRange(t, 20, 30, u"C"_s);
    b.nvtxRange(t, 0, 100, u"A"_s);
    b.nvtxRange(t, 10, 50, u"B"_s);
    b.nvtxRange(t, 60, 90, u"D"_s);
    b.nvtxRange(t, 100, 120, u"E"_s);
    b.nvtxRange(t, 200, 250, u"G"_s);
    b.nvtxRange(t, 200, 300, u"F"_s);
    const TimelineIndexPtr index = build(b.build());
    const TimelineRow* row = findRow(*index, { u"python (100)"_s, u"main (100)"_s, u"NVTX"_s });
    QVERIFY(row);
    QCOMPARE(row->kind, TrackKind::NvtxPushPop);
    QCOMPARE(row->laneCount, 3u);
    QStringList lanes;
    for (std::uint32_t l = 0; l < 3; ++l) {
        QStringList names;
        for (std::uint32_t k = 0; k < index->lanes()[row->firstLane + l].count; ++k)
            names << eventName(index->profile(), index->eventAt(row->firstLane + l, k));
        lanes << names.join(u',');
    }
    QCOMPARE(lanes, QStringList({ u"A,E,F"_s, u"B,D,G"_s, u"C"_s }));
}

void TestTimelineIndex::startEndRangesArePackedWithoutOverlap()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 100, u"main"_s);
    b.nvtxRange(t, 0, 50, u"a"_s, NvtxTable::kStartEnd);
    b.nvtxRange(t, 25, 75, u"b"_s, NvtxTable::kStartEnd);
    b.nvtxRange(t, 60, 90, u"c"_s, NvtxTable::kStartEnd);
    b.nvtxMark(t, 70, u"mark"_s);
    const TimelineIndexPtr index = build(b.build());
    const TimelineRow* row = findRow(*index, { u"python (100)"_s, u"main (100)"_s, u"NVTX start/end"_s });
    QVERIFY(row);
    QCOMPARE(row->laneCount, 2u);
    QCOMPARE(laneEvents(*index, row->firstLane), std::vector<Interval>({ { 0, 50 }, { 60, 90 } }));
    QCOMPARE(laneEvents(*index, row->firstLane + 1), std::vector<Interval>({ { 25, 75 } }));
    const TimelineRow* marks = findRow(*index, { u"python (100)"_s, u"main (100)"_s, u"NVTX marks"_s });
    QVERIFY(marks);
    QCOMPARE(laneEvents(*index, marks->firstLane), std::vector<Interval>({ { 70, 70 } }));
    QVERIFY(!findRow(*index, { u"python (100)"_s, u"main (100)"_s, u"NVTX"_s }));
}

void TestTimelineIndex::unterminatedRangeEndsAtLastNvtxTimestamp()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 100, u"main"_s);
    b.nvtxRange(t, 10, kNoTime, u"never popped"_s);
    b.nvtxRange(t, 20, 500, u"inner"_s);
    const TimelineIndexPtr index = build(b.build());
    const TimelineRow* row = findRow(*index, { u"python (100)"_s, u"main (100)"_s, u"NVTX"_s });
    QVERIFY(row);
    QCOMPARE(laneEvents(*index, row->firstLane), std::vector<Interval>({ { 10, 500 } }));
    QCOMPARE(index->end(), 500);
}

void TestTimelineIndex::gpuRowsStreamsAndBusyUnion()
{
    test::ProfileBuilder b;
    b.gpu(0, u"NVIDIA H100 80GB HBM3"_s);
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 100, u"main"_s);
    b.kernel(t, 0, 1, 0, 10, u"a"_s, 0, 7);
    b.kernel(t, 1, 2, 5, 25, u"b"_s, 0, 8);
    b.kernel(t, 2, 3, 20, 30, u"c"_s, 0, 7);
    b.kernel(t, 3, 4, 40, 50, u"d"_s, 0, 8);
    b.kernel(t, 4, 5, 50, 55, u"e"_s, 0, 7);
    b.kernel(t, 5, 6, 100, 110, u"f"_s, 1, 7);
    const TimelineIndexPtr index = build(b.build());

    QStringList labels;
    for (const TimelineRow& r : index->rows())
        labels << QString(r.level * 2, u' ') + r.label + u" [%1]"_s.arg(r.events);
    QCOMPARE(labels,
        QStringList({ u"GPU 0 (NVIDIA H100 80GB HBM3) [5]"_s, u"  GPU busy [2]"_s, u"  Stream 7 [3]"_s,
            u"  Stream 8 [2]"_s, u"GPU 1 (NVIDIA H100 80GB HBM3) [1]"_s, u"  GPU busy [1]"_s, u"  Stream 7 [1]"_s,
            u"python (100) [6]"_s, u"  main (100) [6]"_s, u"    CUDA API [6]"_s }));
    const TimelineRow* busy = findRow(*index, { u"GPU 0 (NVIDIA H100 80GB HBM3)"_s, u"GPU busy"_s });
    QVERIFY(busy);
    QCOMPARE(laneEvents(*index, busy->firstLane), std::vector<Interval>({ { 0, 30 }, { 40, 55 } }));
    QVERIFY(!index->eventAt(busy->firstLane, 0).valid());
    QCOMPARE(index->eventCount(), 12u);
    QCOMPARE(index->start(), 0);
    QCOMPARE(index->end(), 110);
}

void TestTimelineIndex::busyUnionMergesLanesOfEveryStream()
{
    // Stream 7 has overlapping kernels (two lanes), stream 9 a copy that bridges two of them, and two operations start
    // at the same time on different streams: the union is worked out by hand.
    test::ProfileBuilder b;
    b.gpu(0, u"NVIDIA H100 80GB HBM3"_s);
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 100, u"main"_s);
    b.kernel(t, 0, 1, 0, 10, u"a"_s, 0, 7);
    b.kernel(t, 1, 2, 5, 12, u"b"_s, 0, 7);
    b.kernel(t, 2, 3, 30, 40, u"c"_s, 0, 7);
    b.kernel(t, 3, 4, 60, 65, u"d"_s, 0, 7);
    b.kernel(t, 4, 5, 11, 20, u"e"_s, 0, 8);
    b.kernel(t, 5, 6, 45, 50, u"f"_s, 0, 8);
    b.kernel(t, 6, 7, 60, 70, u"g"_s, 0, 8);
    b.memOp(t, 7, 8, 38, 46, 1, 4096, 0, 9);
    const TimelineIndexPtr index = build(b.build());

    const TimelineRow* stream7 = findRow(*index, { u"GPU 0 (NVIDIA H100 80GB HBM3)"_s, u"Stream 7"_s });
    QVERIFY(stream7);
    QCOMPARE(stream7->laneCount, 2u);
    const TimelineRow* busy = findRow(*index, { u"GPU 0 (NVIDIA H100 80GB HBM3)"_s, u"GPU busy"_s });
    QVERIFY(busy);
    QCOMPARE(laneEvents(*index, busy->firstLane), std::vector<Interval>({ { 0, 20 }, { 30, 50 }, { 60, 70 } }));
}

void TestTimelineIndex::threadRowsAndEmptyRowsHidden()
{
    test::ProfileBuilder b;
    const ProcessIndex p = b.process(200, u"worker"_s);
    const ThreadIndex helper = b.thread(p, 205, u"helper"_s);
    const ThreadIndex main = b.thread(p, 200, u"main"_s);
    b.thread(p, 210, u"idle"_s);
    const ThreadIndex other = b.thread(b.process(100, u"python"_s), 100);
    b.apiCall(helper, 0, 10, u"cudaMalloc"_s);
    b.osrtCall(main, 5, 15, u"read"_s);
    b.nvtxRange(main, 0, 20, u"step"_s);
    b.osrtCall(other, 0, 1, u"poll"_s);
    const TimelineIndexPtr index = build(b.build());
    QStringList labels;
    for (const TimelineRow& r : index->rows())
        labels << QString(r.level * 2, u' ') + r.label;
    QCOMPARE(labels,
        QStringList({ u"python (100)"_s, u"  tid 100"_s, u"    OS runtime"_s, u"worker (200)"_s, u"  main (200)"_s,
            u"    NVTX"_s, u"    OS runtime"_s, u"  helper (205)"_s, u"    CUDA API"_s }));
}

void TestTimelineIndex::memoryOperationsShareTheStreamLane()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 100, u"main"_s);
    b.kernel(t, 0, 1, 10, 20, u"k"_s, 0, 7);
    b.memOp(t, 1, 2, 0, 10, 1, 4096, 0, 7);
    b.memOp(t, 2, 3, 20, 30, MemOpTable::kMemset, 512, 0, 7);
    const TimelineIndexPtr index = build(b.build());
    const TimelineRow* stream = findRow(*index, { u"GPU 0"_s, u"Stream 7"_s });
    QVERIFY(stream);
    QCOMPARE(stream->laneCount, 1u);
    QStringList names;
    for (std::uint32_t k = 0; k < 3; ++k)
        names << eventName(index->profile(), index->eventAt(stream->firstLane, k));
    QCOMPARE(names, QStringList({ u"[CUDA memcpy Host-to-Device]"_s, u"k"_s, u"[CUDA memset]"_s }));
    QCOMPARE(index->eventAt(stream->firstLane, 2), (EventRef { EventTable::MemOp, 1 }));
}

void TestTimelineIndex::describesKernelForTooltip()
{
    test::ProfileBuilder b;
    b.gpu(0, u"NVIDIA H100 80GB HBM3"_s);
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 100, u"main"_s);
    b.kernel(t, 0, 1, 1500, 4000, u"gemm_kernel"_s, 0, 7);
    const ProfilePtr profile = b.build();
    const EventDescription d = describeEvent(*profile, { EventTable::Kernel, 0 });
    QCOMPARE(d.kind, u"Kernel"_s);
    QCOMPARE(d.name, u"gemm_kernel"_s);
    QCOMPARE(d.start, 1500);
    QCOMPARE(d.duration, 2500);
    QCOMPARE(d.where, u"GPU 0 (NVIDIA H100 80GB HBM3) · stream 7 · python (100)"_s);
    QCOMPARE(d.details.value(0), u"grid 1×1×1  block 128×1×1"_s);
}

void TestTimelineIndex::indexStaysWithinSixteenBytesPerEvent()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 100, u"main"_s);
    for (int i = 0; i < 20000; ++i) {
        b.kernel(t, i * 100, i * 100 + 5, i * 100 + 10, i * 100 + 60, u"k"_s, i % 2, 7 + i % 4);
        b.nvtxRange(t, i * 100, i * 100 + 90, u"r"_s);
        b.osrtCall(t, i * 100 + 5, i * 100 + 8, u"poll"_s);
    }
    const TimelineIndexPtr index = build(b.build());
    QCOMPARE(index->eventCount(), 80000u);
    const double perEvent = double(index->memoryBytes()) / double(index->eventCount());
    QVERIFY2(perEvent <= 16, qPrintable(QString::number(perEvent)));
}

void TestTimelineIndex::cancelledBuildReturnsCancelled()
{
    const ProfilePtr profile = osrtProfile(parseIntervals(u"0-1 2-3"_s));
    CancelToken token;
    token.cancel();
    const Result<TimelineIndexPtr> result = buildTimelineIndex(profile, JobContext(token));
    QVERIFY(result.isCancelled());
}

QTEST_GUILESS_MAIN(TestTimelineIndex)
#include "tst_timelineindex.moc"
