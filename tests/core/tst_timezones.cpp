// SPDX-License-Identifier: GPL-3.0-or-later
// The zone maps (core/profile/timezones.h): the rows a focus visits are exactly the rows nsys's overlap predicate
// accepts, written out by hand here, in row order, whatever the rows' order and the block boundaries; and rows in
// time order let a narrow focus skip most blocks.
#include "core/profile/timezones.h"

#include <QTest>
#include <cstdint>
#include <vector>

using namespace nsw;

namespace {

struct Rows
{
    std::vector<TimeNs> start;
    std::vector<TimeNs> end;
};
} // namespace

Q_DECLARE_METATYPE(Rows)
Q_DECLARE_METATYPE(std::vector<std::size_t>)

namespace {

/// nsys's range filter, written out apart from FocusRange::overlaps: starts in [a, b), ends in [a, b), or spans it.
bool overlapsByHand(TimeNs s, TimeNs e, TimeNs a, TimeNs b)
{
    return (a <= s && s < b) || (a <= e && e < b) || (s < a && e >= b);
}

std::vector<std::size_t> byHand(const Rows& rows, TimeNs a, TimeNs b)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < rows.start.size(); ++i)
        if (overlapsByHand(rows.start[i], rows.end[i], a, b))
            out.push_back(i);
    return out;
}

/// @p n rows of 10 ns each, one every 20 ns from 0.
Rows ordered(std::size_t n)
{
    Rows r;
    for (std::size_t i = 0; i < n; ++i) {
        r.start.push_back(TimeNs(i) * 20);
        r.end.push_back(TimeNs(i) * 20 + 10);
    }
    return r;
}

/// The ordered rows shuffled by a fixed multiplicative permutation (no two neighbours close in time).
Rows shuffled(std::size_t n)
{
    const Rows o = ordered(n);
    Rows r;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t j = (i * 7919) % n; // 7919 is prime and does not divide n below
        r.start.push_back(o.start[j]);
        r.end.push_back(o.end[j]);
    }
    return r;
}

} // namespace

class TestTimeZones : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void visitsTheOverlappingRows_data();
    void visitsTheOverlappingRows();
    void inactiveFocusVisitsEveryRow();
    void orderedRowsSkipBlocks();
};

void TestTimeZones::visitsTheOverlappingRows_data()
{
    QTest::addColumn<Rows>("rows");
    QTest::addColumn<TimeNs>("from");
    QTest::addColumn<TimeNs>("to");
    const std::size_t block = TimeZones::kBlock;
    QTest::newRow("no rows") << Rows {} << TimeNs(0) << TimeNs(100);
    QTest::newRow("one block, focus inside") << ordered(100) << TimeNs(205) << TimeNs(400);
    QTest::newRow("block minus one row") << ordered(block - 1) << TimeNs(5000) << TimeNs(6000);
    QTest::newRow("exactly one block") << ordered(block) << TimeNs(0) << TimeNs(20);
    QTest::newRow("block plus one row, focus on the last")
        << ordered(block + 1) << TimeNs(TimeNs(block) * 20) << TimeNs(TimeNs(block) * 20 + 1);
    QTest::newRow("focus across a block boundary")
        << ordered(3 * block) << TimeNs(TimeNs(block) * 20 - 30) << TimeNs(TimeNs(block) * 20 + 30);
    QTest::newRow("focus starts where an event ends (end in range)") << ordered(2000) << TimeNs(10) << TimeNs(15);
    QTest::newRow("focus ends where an event starts (excluded)") << ordered(2000) << TimeNs(12) << TimeNs(20);
    QTest::newRow("focus before every row") << ordered(2000) << TimeNs(-100) << TimeNs(-1);
    QTest::newRow("focus after every row") << ordered(2000) << TimeNs(1'000'000) << TimeNs(2'000'000);
    QTest::newRow("rows in no time order") << shuffled(5000) << TimeNs(30'000) << TimeNs(33'000);
    Rows spanning = ordered(3000);
    spanning.start[10] = -5;
    spanning.end[10] = 100'000; // one long event early in the table spans a focus far later
    QTest::newRow("an early row spanning a late focus") << spanning << TimeNs(50'000) << TimeNs(50'001);
    Rows zeroLength = ordered(2000);
    zeroLength.end[1500] = zeroLength.start[1500]; // a zero-length event on the focus start
    QTest::newRow("zero-length event at the focus start")
        << zeroLength << zeroLength.start[1500] << zeroLength.start[1500] + 5;
    Rows unterminated = ordered(2000);
    unterminated.end[1200] = kNoTime; // NVTX rows keep kNoTime as their end: only their start can be in the range
    QTest::newRow("kNoTime end, start in the focus")
        << unterminated << unterminated.start[1200] - 1 << unterminated.start[1200] + 1;
    Rows backwards = ordered(2000);
    backwards.end[700] = backwards.start[700] - 1000; // end before start: in when the start is
    QTest::newRow("end before start") << backwards << backwards.start[700] << backwards.start[700] + 1;
}

void TestTimeZones::visitsTheOverlappingRows()
{
    QFETCH(Rows, rows);
    QFETCH(TimeNs, from);
    QFETCH(TimeNs, to);
    const TimeColumn start(rows.start), end(rows.end);
    const TimeZones zones(start, end);
    std::vector<std::size_t> visited;
    zones.forEachOverlapping(
        FocusRange { from, to, QStringLiteral("f") }, start, end, [&](std::size_t i) { visited.push_back(i); });
    QCOMPARE(visited, byHand(rows, from, to));
}

void TestTimeZones::inactiveFocusVisitsEveryRow()
{
    const Rows rows = shuffled(1500);
    const TimeColumn start(rows.start), end(rows.end);
    const TimeZones zones(start, end);
    std::size_t next = 0;
    bool inOrder = true;
    zones.forEachOverlapping(FocusRange {}, start, end, [&](std::size_t i) { inOrder &= i == next++; });
    QVERIFY(inOrder);
    QCOMPARE(next, rows.start.size());
}

void TestTimeZones::orderedRowsSkipBlocks()
{
    // 100 blocks in time order; a focus on a tenth of the time reads at most that tenth's blocks plus the two it
    // straddles.
    const std::size_t n = 100 * TimeZones::kBlock;
    const Rows rows = ordered(n);
    const TimeZones zones(TimeColumn(rows.start), TimeColumn(rows.end));
    const TimeNs span = TimeNs(n) * 20;
    std::size_t candidates = 0;
    zones.forEachCandidate(span / 2, span / 2 + span / 10, [&](std::size_t) { ++candidates; });
    QVERIFY2(candidates <= 12 * TimeZones::kBlock, qPrintable(QString::number(candidates)));
    QVERIFY(candidates >= n / 10);
}

QTEST_GUILESS_MAIN(TestTimeZones)
#include "tst_timezones.moc"
