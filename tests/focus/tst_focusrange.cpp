// SPDX-License-Identifier: GPL-3.0-or-later
// The focus range's membership at its boundaries (nsys's overlap predicate), clipping, the typed syntax, --nvtx
// resolution, and the pipelines on hand-worked profiles: every expected number is worked out here by hand.
#include "core/categories/categorytimeline.h"
#include "core/focus/focusresolve.h"
#include "core/nvtx/nvtxreports.h"
#include "core/nvtx/nvtxtree.h"
#include "core/profile/sessionclock.h"
#include "core/stats/reports.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {
FocusRange range(TimeNs start, TimeNs end)
{
    return FocusRange { start, end, u"test"_s };
}

/// Column @p header of the report row whose last column (the name) is @p name.
qint64 reportValue(const ReportTable& t, const QString& name, const QString& header)
{
    qsizetype column = -1;
    for (qsizetype c = 0; c < qsizetype(t.columns.size()); ++c)
        if (t.columns[std::size_t(c)].header == header)
            column = c;
    for (const auto& row : t.rows)
        if (std::get<QString>(row.back()) == name)
            return std::get<qint64>(row[std::size_t(column)]);
    return -1;
}
} // namespace

class TestFocusRange : public QObject
{
    Q_OBJECT

private slots:
    void membership_data();
    void membership();
    void inactiveKeepsEverything();
    void clip_data();
    void clip();
    void parseRange_data();
    void parseRange();
    void parseRangeErrors_data();
    void parseRangeErrors();
    void rangeIsOnTheExportsClock();
    void nvtxResolution_data();
    void nvtxResolution();
    void nvtxResolutionErrors_data();
    void nvtxResolutionErrors();
    void bothOptionsRefused();
    void kernelSummaryKeepsOverlappingKernels();
    void nvtxSumKeepsOverlappingRanges();
    void categoriesClipOccupancyOnly();
    void nvtxTreeKeepsOverlappingRanges();
};

void TestFocusRange::membership_data()
{
    QTest::addColumn<TimeNs>("start");
    QTest::addColumn<TimeNs>("end");
    QTest::addColumn<bool>("inside");
    // Focus [100, 200).
    QTest::newRow("inside") << TimeNs(120) << TimeNs(180) << true;
    QTest::newRow("starts exactly at the range end: out") << TimeNs(200) << TimeNs(250) << false;
    QTest::newRow("ends exactly at the range start: in") << TimeNs(50) << TimeNs(100) << true;
    QTest::newRow("ends one ns before the range start") << TimeNs(50) << TimeNs(99) << false;
    QTest::newRow("starts exactly at the range start") << TimeNs(100) << TimeNs(300) << true;
    QTest::newRow("starts one ns before the range end") << TimeNs(199) << TimeNs(500) << true;
    QTest::newRow("spans the range") << TimeNs(50) << TimeNs(250) << true;
    QTest::newRow("spans it, ending exactly at its end") << TimeNs(50) << TimeNs(200) << true;
    QTest::newRow("zero-length inside") << TimeNs(150) << TimeNs(150) << true;
    QTest::newRow("zero-length at the range start") << TimeNs(100) << TimeNs(100) << true;
    QTest::newRow("zero-length at the range end") << TimeNs(200) << TimeNs(200) << false;
    QTest::newRow("after") << TimeNs(201) << TimeNs(300) << false;
    QTest::newRow("before") << TimeNs(0) << TimeNs(10) << false;
}

void TestFocusRange::membership()
{
    QFETCH(TimeNs, start);
    QFETCH(TimeNs, end);
    QFETCH(bool, inside);
    QCOMPARE(range(100, 200).overlaps(start, end), inside);
}

void TestFocusRange::inactiveKeepsEverything()
{
    const FocusRange none;
    QVERIFY(!none.isActive());
    QVERIFY(none.overlaps(-5, 7));
    QVERIFY(none.overlaps(1'000'000'000'000, 1'000'000'000'000));
}

void TestFocusRange::clip_data()
{
    QTest::addColumn<TimeNs>("start");
    QTest::addColumn<TimeNs>("end");
    QTest::addColumn<TimeNs>("clippedStart");
    QTest::addColumn<TimeNs>("clippedEnd");
    QTest::newRow("inside") << TimeNs(120) << TimeNs(180) << TimeNs(120) << TimeNs(180);
    QTest::newRow("spanning") << TimeNs(50) << TimeNs(250) << TimeNs(100) << TimeNs(200);
    QTest::newRow("entering") << TimeNs(50) << TimeNs(130) << TimeNs(100) << TimeNs(130);
    QTest::newRow("leaving") << TimeNs(170) << TimeNs(260) << TimeNs(170) << TimeNs(200);
    QTest::newRow("outside: empty") << TimeNs(300) << TimeNs(400) << TimeNs(200) << TimeNs(200);
}

void TestFocusRange::clip()
{
    QFETCH(TimeNs, start);
    QFETCH(TimeNs, end);
    QFETCH(TimeNs, clippedStart);
    QFETCH(TimeNs, clippedEnd);
    const auto [s, e] = range(100, 200).clip(start, end);
    QCOMPARE(s, clippedStart);
    QCOMPARE(e, clippedEnd);
}

void TestFocusRange::parseRange_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<TimeNs>("start");
    QTest::addColumn<TimeNs>("end");
    QTest::addColumn<QString>("label");
    QTest::newRow("seconds") << u"1.2s:1.5s"_s << TimeNs(1'200'000'000) << TimeNs(1'500'000'000)
                             << u"1.2 s\u20131.5 s"_s;
    QTest::newRow("bare numbers are ns") << u"1500:2000"_s << TimeNs(1500) << TimeNs(2000) << u"1500 ns\u20132000 ns"_s;
    QTest::newRow("ms and spaces") << u" 3 ms : 4ms"_s << TimeNs(3'000'000) << TimeNs(4'000'000) << u"3 ms\u20134 ms"_s;
    QTest::newRow("us and µs") << u"5us:7µs"_s << TimeNs(5000) << TimeNs(7000) << u"5 µs\u20137 µs"_s;
    QTest::newRow("explicit ns") << u"10ns:20ns"_s << TimeNs(10) << TimeNs(20) << u"10 ns\u201320 ns"_s;
    QTest::newRow("open start") << u":300ms"_s << kNoTime << TimeNs(300'000'000) << u"start\u2013300 ms"_s;
    QTest::newRow("open end") << u"1s:"_s << TimeNs(1'000'000'000) << kNoTime << u"1 s\u2013end"_s;
    QTest::newRow("empty range") << u"2s:2s"_s << TimeNs(2'000'000'000) << TimeNs(2'000'000'000) << u"2 s\u20132 s"_s;
}

void TestFocusRange::parseRange()
{
    QFETCH(QString, text);
    QFETCH(TimeNs, start);
    QFETCH(TimeNs, end);
    QFETCH(QString, label);
    const Result<TypedRange> r = parseTypedRange(text);
    QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    QCOMPARE(r->start, start);
    QCOMPARE(r->end, end);
    QCOMPARE(r->label, label);
}

void TestFocusRange::parseRangeErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("says");
    QTest::newRow("no colon") << u"5"_s << u"expected one ':'"_s;
    QTest::newRow("two colons") << u"1:2:3"_s << u"expected one ':'"_s;
    QTest::newRow("end before start") << u"2s:1s"_s << u"END is before START"_s;
    QTest::newRow("fractional ns") << u"1.5:2"_s << u"'1.5' is not a time"_s;
    QTest::newRow("unknown unit") << u"1h:2h"_s << u"'1h' is not a time"_s;
    QTest::newRow("words") << u"start:end"_s << u"'start' is not a time"_s;
}

void TestFocusRange::parseRangeErrors()
{
    QFETCH(QString, text);
    QFETCH(QString, says);
    const Result<TypedRange> r = parseTypedRange(text);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Usage);
    QVERIFY2(r.errorMessage().contains(says), qPrintable(r.errorMessage()));
    QVERIFY2(r.errorMessage().contains(text), qPrintable(r.errorMessage()));
}

void TestFocusRange::rangeIsOnTheExportsClock()
{
    // No metadata: the capture span is the span of the events, 1000..5000; typed times are the export's own
    // timestamps, not offsets from the capture's start (issue 33: they were, so "1100:3000" missed by 1000 ns).
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(1), 1);
    b.kernel(t, 1000, 1010, 1100, 2000, u"k"_s);
    b.kernel(t, 1020, 1030, 4000, 5000, u"k"_s);
    const ProfilePtr p = b.build();
    QCOMPARE(sessionClockOrigin(*p), TimeNs(0));
    const Result<ResolvedFocus> f = resolveFocus(*p, { u"1100:3us"_s, {} });
    QVERIFY2(f.ok(), qPrintable(f.errorMessage()));
    QCOMPARE(f->range.start, TimeNs(1100));
    QCOMPARE(f->range.end, TimeNs(3000));
    const Result<ResolvedFocus> open = resolveFocus(*p, { u"3us:"_s, {} });
    QCOMPARE(open->range.start, TimeNs(3000));
    QCOMPARE(open->range.end, TimeNs(5000)); // the capture's end
    const Result<ResolvedFocus> from = resolveFocus(*p, { u":1500"_s, {} });
    QCOMPARE(from->range.start, TimeNs(1000)); // the capture's start
    QCOMPARE(from->range.end, TimeNs(1500));
    QVERIFY(!resolveFocus(*p, {}).value().range.isActive());
}

namespace {
/// "step" three times on thread 1 (rows out of start order), once in the NCCL domain, once on another thread.
ProfilePtr nvtxProfile()
{
    test::ProfileBuilder b;
    const ProcessIndex proc = b.process(10, u"python"_s);
    const ThreadIndex t1 = b.thread(proc, 11);
    const ThreadIndex t2 = b.thread(proc, 12);
    const int nccl = b.nvtxDomain(proc, 5, u"NCCL"_s);
    b.nvtxRange(t1, 3000, 3500, u"step"_s);
    b.nvtxRange(t1, 1000, 1500, u"step"_s);
    b.nvtxRange(t2, 2000, 2600, u"step"_s, NvtxTable::kStartEnd);
    b.nvtxRange(t1, 500, 700, u"step"_s, NvtxTable::kPushPop, nccl);
    b.nvtxRange(t1, 4000, kNoTime, u"tail"_s);
    b.nvtxMark(t1, 4100, u"mark"_s);
    return b.build();
}
} // namespace

void TestFocusRange::nvtxResolution_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<TimeNs>("start");
    QTest::addColumn<TimeNs>("end");
    QTest::addColumn<QString>("label");
    QTest::addColumn<int>("tid");
    QTest::newRow("first by start") << u"step"_s << TimeNs(1000) << TimeNs(1500) << u"step (instance 1 of 3)"_s << 11;
    QTest::newRow("index 2: the start/end range on another thread")
        << u"step/2"_s << TimeNs(2000) << TimeNs(2600) << u"step (instance 2 of 3)"_s << 12;
    QTest::newRow("index 3") << u"step/3"_s << TimeNs(3000) << TimeNs(3500) << u"step (instance 3 of 3)"_s << 11;
    QTest::newRow("named domain") << u"step@NCCL"_s << TimeNs(500) << TimeNs(700) << u"step@NCCL (instance 1 of 1)"_s
                                  << 11;
    QTest::newRow("unterminated: ends at the last NVTX timestamp")
        << u"tail"_s << TimeNs(4000) << TimeNs(4100) << u"tail (instance 1 of 1)"_s << 11;
}

void TestFocusRange::nvtxResolution()
{
    QFETCH(QString, text);
    QFETCH(TimeNs, start);
    QFETCH(TimeNs, end);
    QFETCH(QString, label);
    QFETCH(int, tid);
    const ProfilePtr p = nvtxProfile();
    const Result<ResolvedFocus> f = resolveFocus(*p, { {}, text });
    QVERIFY2(f.ok(), qPrintable(f.errorMessage()));
    QCOMPARE(f->range.start, start);
    QCOMPARE(f->range.end, end);
    QCOMPARE(f->range.label, label);
    QVERIFY(f->nvtxGlobalTid.has_value());
    QCOMPARE(tidOf(*f->nvtxGlobalTid), tid);
}

void TestFocusRange::nvtxResolutionErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("says");
    QTest::newRow("unknown range") << u"nope"_s << int(ErrorKind::NoData) << u"NVTX range 'nope' could not be found"_s;
    QTest::newRow("index beyond the instances")
        << u"step/4"_s << int(ErrorKind::NoData) << u"NVTX range 'step' has 3 instances, not 4"_s;
    QTest::newRow("a named domain's range needs its domain")
        << u"step@Other"_s << int(ErrorKind::NoData) << u"'step@Other' could not be found"_s;
    QTest::newRow("index 0") << u"step/0"_s << int(ErrorKind::Usage) << u"1-based"_s;
    QTest::newRow("no name") << u"/2"_s << int(ErrorKind::Usage) << u"no range name"_s;
    QTest::newRow("a mark is not a range") << u"mark"_s << int(ErrorKind::NoData) << u"could not be found"_s;
}

void TestFocusRange::nvtxResolutionErrors()
{
    QFETCH(QString, text);
    QFETCH(int, kind);
    QFETCH(QString, says);
    const Result<ResolvedFocus> f = resolveFocus(*nvtxProfile(), { {}, text });
    QVERIFY(!f.ok());
    QCOMPARE(int(f.error().kind), kind);
    QVERIFY2(f.errorMessage().contains(says), qPrintable(f.errorMessage()));
}

void TestFocusRange::bothOptionsRefused()
{
    const Result<ResolvedFocus> f = resolveFocus(*nvtxProfile(), { u"1:2"_s, u"step"_s });
    QVERIFY(!f.ok());
    QCOMPARE(f.error().kind, ErrorKind::Usage);
}

void TestFocusRange::kernelSummaryKeepsOverlappingKernels()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(1), 1);
    b.kernel(t, 0, 1, 50, 100, u"a"_s); // ends at the range start: in (50 ns)
    b.kernel(t, 0, 1, 200, 250, u"a"_s); // starts at the range end: out
    b.kernel(t, 0, 1, 150, 150, u"a"_s); // zero-length inside: in (0 ns)
    b.kernel(t, 0, 1, 20, 400, u"b"_s); // spans: in, not clipped (380 ns)
    b.kernel(t, 0, 1, 10, 40, u"b"_s); // before: out
    const ProfilePtr p = b.build();
    const ReportTable r = cudaGpuKernSum(*p, KernelNameMode::Demangled, range(100, 200));
    QCOMPARE(r.rows.size(), std::size_t(2));
    QCOMPARE(reportValue(r, u"a"_s, u"Instances"_s), 2);
    QCOMPARE(reportValue(r, u"a"_s, u"Total Time (ns)"_s), 50);
    QCOMPARE(reportValue(r, u"a"_s, u"Min (ns)"_s), 0);
    QCOMPARE(reportValue(r, u"b"_s, u"Instances"_s), 1);
    QCOMPARE(reportValue(r, u"b"_s, u"Total Time (ns)"_s), 380);
}

void TestFocusRange::nvtxSumKeepsOverlappingRanges()
{
    // Focus [1400, 2100): step@1000-1500 and the start/end step@2000-2600 overlap; step@3000 does not.
    const ReportTable r = nvtxSum(*nvtxProfile(), range(1400, 2100));
    qint64 instances = 0, total = 0;
    for (const auto& row : r.rows) {
        instances += std::get<qint64>(row[2]);
        total += std::get<qint64>(row[1]);
    }
    QCOMPARE(instances, 2);
    QCOMPARE(total, 500 + 600);
}

void TestFocusRange::categoriesClipOccupancyOnly()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(1), 1);
    b.kernel(t, 0, 1, 0, 100, u"a"_s); // overlaps [50, 200): 100 whole, 50 clipped
    b.kernel(t, 0, 1, 150, 300, u"b"_s); // 150 whole, 50 clipped
    b.kernel(t, 0, 1, 160, 190, u"b"_s); // 30 whole, inside b's first: busy adds nothing
    b.kernel(t, 0, 1, 200, 210, u"c"_s); // starts at the end: out
    b.kernel(t, 0, 1, 10, 40, u"d"_s); // before: out
    const auto whole = CategoryTimeline::build(b.build());
    const auto focused = whole->focused(range(50, 200));
    QCOMPARE(focused->names().size(), whole->names().size());
    const auto timeOf = [&](TimeMode mode, const QString& name) -> TimeNs {
        for (std::size_t n = 0; n < focused->names().size(); ++n)
            if (focused->names()[n].demangled == name)
                return focused->nameTimes(mode).perGroup()[n];
        return -1;
    };
    QCOMPARE(timeOf(TimeMode::Sum, u"a"_s), TimeNs(100));
    QCOMPARE(timeOf(TimeMode::Sum, u"b"_s), TimeNs(180));
    QCOMPARE(timeOf(TimeMode::Sum, u"c"_s), TimeNs(0));
    QCOMPARE(timeOf(TimeMode::Busy, u"a"_s), TimeNs(50));
    QCOMPARE(timeOf(TimeMode::Busy, u"b"_s), TimeNs(50));
    QCOMPARE(timeOf(TimeMode::Global, u"a"_s) + timeOf(TimeMode::Global, u"b"_s), TimeNs(100));
    QCOMPARE(timeOf(TimeMode::Exclusive, u"b"_s), TimeNs(50));
    QCOMPARE(timeOf(TimeMode::Busy, u"d"_s), TimeNs(0));
    QCOMPARE(focused->rowCount(), std::size_t(3));
    QCOMPARE(focused->nameTimes(TimeMode::Sum).count[0] + focused->nameTimes(TimeMode::Sum).count[1], 3);
}

void TestFocusRange::nvtxTreeKeepsOverlappingRanges()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(1), 1);
    b.nvtxRange(t, 0, 100, u"warmup"_s);
    b.nvtxRange(t, 100, 300, u"step"_s);
    b.kernel(t, 10, 20, 30, 60, u"k"_s); // launched in warmup
    b.kernel(t, 110, 120, 130, 400, u"k"_s); // launched in step, runs past the focus: projected as usual
    const ProfilePtr p = b.build();
    const NvtxTree tree = buildNvtxTree(p, {}, {}, range(150, 250));
    QCOMPARE(tree.ranges, qint64(1));
    std::int32_t step = -1;
    for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
        QVERIFY(tree.nodes[n].kind != NvtxNode::Kind::Range || tree.label(std::int32_t(n)) != u"warmup"_s);
        if (tree.nodes[n].kind == NvtxNode::Kind::Range && tree.label(std::int32_t(n)) == u"step"_s)
            step = std::int32_t(n);
    }
    QVERIFY(step > 0);
    QCOMPARE(tree.nodes[std::size_t(step)].gpuTime, TimeNs(270));
    QCOMPARE(tree.coverage.totalKernels, qint64(1)); // the warmup kernel does not overlap the focus
}

QTEST_GUILESS_MAIN(TestFocusRange)
#include "tst_focusrange.moc"
