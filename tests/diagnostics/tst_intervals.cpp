// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/intervals.h"

#include <QTest>

using namespace nsw;

Q_DECLARE_METATYPE(std::vector<nsw::TimeInterval>)

class TestIntervals : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void merging_data();
    void merging();
    void coveredWithin_data();
    void coveredWithin();
    void intersection();
};

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

QTEST_GUILESS_MAIN(TestIntervals)
#include "tst_intervals.moc"
