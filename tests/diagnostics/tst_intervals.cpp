// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/intervals.h"

#include <QTest>
#include <algorithm>

using namespace nsw;

Q_DECLARE_METATYPE(std::vector<nsw::TimeInterval>)
Q_DECLARE_METATYPE(std::vector<std::vector<nsw::TimeInterval>>)
Q_DECLARE_METATYPE(std::vector<qint64>)
Q_DECLARE_METATYPE(std::vector<bool>)

class TestIntervals : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void merging_data();
    void merging();
    void coveredWithin_data();
    void coveredWithin();
    void intersection();
    void uniteOfSeveral_data();
    void uniteOfSeveral();
    void cursor_data();
    void cursor();
};

namespace {

/// [10k, 10k + 5) for k = 0..99 as @p runs ascending runs (run r holds k = r, r + runs, ...; @p runs <= 50, so that
/// every run but the last ends after the next one starts).
std::vector<TimeInterval> interleavedRuns(int runs)
{
    std::vector<TimeInterval> v;
    for (int r = 0; r < runs; ++r)
        for (int k = r; k < 100; k += runs)
            v.emplace_back(10 * k, 10 * k + 5);
    return v;
}

std::vector<TimeInterval> everyTenth()
{
    std::vector<TimeInterval> v;
    for (int k = 0; k < 100; ++k)
        v.emplace_back(10 * k, 10 * k + 5);
    return v;
}

} // namespace

void TestIntervals::merging_data()
{
    QTest::addColumn<std::vector<TimeInterval>>("input");
    QTest::addColumn<std::vector<TimeInterval>>("merged");
    QTest::addColumn<qint64>("length");
    QTest::newRow("unsorted, overlapping") << std::vector<TimeInterval> { { 5, 9 }, { 0, 3 }, { 2, 6 } }
                                           << std::vector<TimeInterval> { { 0, 9 } } << qint64(9);
    QTest::newRow("touching merge") << std::vector<TimeInterval> { { 0, 3 }, { 3, 4 } }
                                    << std::vector<TimeInterval> { { 0, 4 } } << qint64(4);
    QTest::newRow("empty and reversed dropped") << std::vector<TimeInterval> { { 4, 4 }, { 8, 2 }, { 10, 12 } }
                                                << std::vector<TimeInterval> { { 10, 12 } } << qint64(2);
    QTest::newRow("nested") << std::vector<TimeInterval> { { 0, 10 }, { 2, 3 }, { 20, 21 } }
                            << std::vector<TimeInterval> { { 0, 10 }, { 20, 21 } } << qint64(11);
    // Sorted by merging runs (up to 64) or by sorting (more): the same union either way.
    QTest::newRow("two ascending runs") << interleavedRuns(2) << everyTenth() << qint64(500);
    QTest::newRow("50 ascending runs") << interleavedRuns(50) << everyTenth() << qint64(500);
    std::vector<TimeInterval> descending = everyTenth();
    std::reverse(descending.begin(), descending.end());
    QTest::newRow("100 runs of one (descending)") << descending << everyTenth() << qint64(500);
}

void TestIntervals::merging()
{
    QFETCH(std::vector<TimeInterval>, input);
    QFETCH(std::vector<TimeInterval>, merged);
    QFETCH(qint64, length);
    const IntervalUnion u(input);
    QCOMPARE(u.intervals(), merged);
    QCOMPARE(u.length(), length);
}

void TestIntervals::coveredWithin_data()
{
    // Union [0, 10) [20, 30) [40, 50).
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<qint64>("covered");
    QTest::addColumn<bool>("overlaps");
    QTest::newRow("inside a hole") << qint64(12) << qint64(18) << qint64(0) << false;
    QTest::newRow("touching ends only") << qint64(10) << qint64(20) << qint64(0) << false;
    QTest::newRow("cuts two") << qint64(5) << qint64(25) << qint64(10) << true;
    QTest::newRow("spans all") << qint64(-5) << qint64(60) << qint64(30) << true;
    QTest::newRow("inside one") << qint64(42) << qint64(44) << qint64(2) << true;
    QTest::newRow("empty query") << qint64(5) << qint64(5) << qint64(0) << false;
}

void TestIntervals::coveredWithin()
{
    QFETCH(qint64, start);
    QFETCH(qint64, end);
    QFETCH(qint64, covered);
    QFETCH(bool, overlaps);
    const IntervalUnion u({ { 0, 10 }, { 20, 30 }, { 40, 50 } });
    QCOMPARE(u.coveredWithin(start, end), covered);
    QCOMPARE(u.overlaps(start, end), overlaps);
}

void TestIntervals::intersection()
{
    const IntervalUnion a({ { 0, 10 }, { 20, 30 } });
    const IntervalUnion b({ { 5, 25 }, { 28, 40 } });
    QCOMPARE(a.intersectionLength(b), TimeNs(5 + 5 + 2));
    QCOMPARE(b.intersectionLength(a), TimeNs(12));
    QCOMPARE(unite(a, b).length(), TimeNs(40));
}

void TestIntervals::uniteOfSeveral_data()
{
    // Each input's intervals (sorted and disjoint, as a union holds them) and the union of all, worked by hand.
    QTest::addColumn<std::vector<std::vector<TimeInterval>>>("inputs");
    QTest::addColumn<std::vector<TimeInterval>>("expected");
    QTest::newRow("four GPUs, overlapping across inputs") << std::vector<std::vector<TimeInterval>> {
        { { 0, 10 }, { 50, 60 } }, { { 5, 20 }, { 70, 80 } }, { { 19, 30 } }, { { 55, 75 }, { 90, 95 } }
    } << std::vector<TimeInterval> { { 0, 30 }, { 50, 80 }, { 90, 95 } };
    QTest::newRow("touching intervals of different inputs merge")
        << std::vector<std::vector<TimeInterval>> { { { 0, 10 }, { 30, 40 } }, { { 10, 20 } }, { { 20, 30 } } }
        << std::vector<TimeInterval> { { 0, 40 } };
    QTest::newRow("one input holds another")
        << std::vector<std::vector<TimeInterval>> { { { 0, 100 } }, { { 10, 20 }, { 30, 40 }, { 99, 120 } } }
        << std::vector<TimeInterval> { { 0, 120 } };
    QTest::newRow("an empty input, disjoint others") << std::vector<std::vector<TimeInterval>> { {}, { { 40, 50 } },
        { { 0, 5 }, { 60, 61 } } } << std::vector<TimeInterval> { { 0, 5 }, { 40, 50 }, { 60, 61 } };
    QTest::newRow("no inputs") << std::vector<std::vector<TimeInterval>> {} << std::vector<TimeInterval> {};
}

void TestIntervals::uniteOfSeveral()
{
    QFETCH(std::vector<std::vector<TimeInterval>>, inputs);
    QFETCH(std::vector<TimeInterval>, expected);
    std::vector<IntervalUnion> unions;
    for (const std::vector<TimeInterval>& input : inputs)
        unions.emplace_back(input);
    std::vector<const IntervalUnion*> pointers;
    for (const IntervalUnion& u : unions)
        pointers.push_back(&u);
    const IntervalUnion all = unite(pointers);
    QCOMPARE(all.intervals(), expected);
    TimeNs length = 0;
    for (const TimeInterval& i : expected)
        length += i.second - i.first;
    QCOMPARE(all.length(), length);
}

void TestIntervals::cursor_data()
{
    // Queries [start, end) in this order on [10k, 10k + 5), k = 0..99; each answered as counted by hand.
    QTest::addColumn<std::vector<TimeInterval>>("queries");
    QTest::addColumn<std::vector<qint64>>("covered");
    QTest::addColumn<std::vector<bool>>("overlaps");
    QTest::newRow("ascending, far apart")
        << std::vector<TimeInterval> { { 3, 12 }, { 5, 10 }, { 402, 431 }, { 995, 2000 } }
        << std::vector<qint64> { 2 + 2, 0, 3 + 5 + 5 + 1, 0 } << std::vector<bool> { true, false, true, false };
    QTest::newRow("an earlier query after a later one")
        << std::vector<TimeInterval> { { 900, 905 }, { 0, 1000 }, { 17, 21 } } << std::vector<qint64> { 5, 500, 1 }
        << std::vector<bool> { true, true, true };
    QTest::newRow("touching an interval's end or start only") << std::vector<TimeInterval> { { 5, 10 }, { 15, 20 },
        { 25, 30 } } << std::vector<qint64> { 0, 0, 0 } << std::vector<bool> { false, false, false };
    // The union keeps a running sum per 64 intervals: spans of 64 and 65 intervals, and spans that start and end
    // inside blocks.
    QTest::newRow("long spans across blocks of intervals")
        << std::vector<TimeInterval> { { 0, 640 }, { 0, 645 }, { 3, 997 }, { 642, 1000 }, { 635, 1000 } }
        << std::vector<qint64> { 64 * 5, 65 * 5, 2 + 99 * 5, 3 + 35 * 5, 36 * 5 }
        << std::vector<bool> { true, true, true, true, true };
    QTest::newRow("before the first, empty query, past the last") << std::vector<TimeInterval> { { -50, -1 }, { 7, 7 },
        { 5000, 6000 } } << std::vector<qint64> { 0, 0, 0 } << std::vector<bool> { false, false, false };
}

void TestIntervals::cursor()
{
    QFETCH(std::vector<TimeInterval>, queries);
    QFETCH(std::vector<qint64>, covered);
    QFETCH(std::vector<bool>, overlaps);
    const IntervalUnion u(everyTenth());
    IntervalCursor coverage(&u), overlap(&u);
    for (std::size_t i = 0; i < queries.size(); ++i) {
        const auto [start, end] = queries[i];
        QCOMPARE(coverage.coveredWithin(start, end), covered[i]);
        QCOMPARE(overlap.overlaps(start, end), bool(overlaps[i]));
    }
    IntervalCursor none;
    QCOMPARE(none.coveredWithin(0, 100), TimeNs(0));
    QVERIFY(!none.overlaps(0, 100));
}

QTEST_GUILESS_MAIN(TestIntervals)
#include "tst_intervals.moc"
