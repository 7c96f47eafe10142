// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/categories/timemodes.h"

#include <QTest>

using namespace nsw;

namespace {
// Two devices, groups A (0) and B (1). Worked by hand below, per mode.
//   device 0: r0 A [0,10)  r1 B [5,15)  r2 A [12,20)  r3 B [30,40)  r4 A [32,35)
//   device 1: r5 A [8,18)  r6 B [18,25)  r7 B [20,22)
// Rows are given out of order on purpose.
IntervalColumns fixture()
{
    IntervalColumns c;
    const struct
    {
        TimeNs s, e;
        std::uint32_t d, g;
    } rows[] = { { 30, 40, 0, 1 }, { 8, 18, 1, 0 }, { 0, 10, 0, 0 }, { 20, 22, 1, 1 }, { 5, 15, 0, 1 },
        { 32, 35, 0, 0 }, { 18, 25, 1, 1 }, { 12, 20, 0, 0 } };
    for (const auto& r : rows) {
        c.start.push_back(r.s);
        c.end.push_back(r.e);
        c.device.push_back(r.d);
        c.group.push_back(r.g);
    }
    return c;
}
} // namespace

class TestTimeModes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modes_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QList<qint64>>("expected"); // d0A, d0B, d1A, d1B
        // Sum: d0 A 10+8+3, B 10+10; d1 A 10, B 7+2.
        QTest::newRow("sum") << int(TimeMode::Sum) << QList<qint64> { 21, 20, 10, 9 };
        // Busy: per group and device, the union: d0 A [0,10)+[12,20)+[32,35) = 21, B [5,15)+[30,40) = 20;
        // d1 A 10, B [18,25) = 7.
        QTest::newRow("busy") << int(TimeMode::Busy) << QList<qint64> { 21, 20, 10, 7 };
        // Exclusive: d0 by start: r0 10 (end 10), r1 15-10=5 (15), r2 20-15=5 (20), r3 10 (40), r4 0 -> A 15, B 15;
        // d1: r5 10 (18), r6 7 (25), r7 0 -> A 10, B 7. Per device the sum is the union (30 and 17).
        QTest::newRow("exclusive") << int(TimeMode::Exclusive) << QList<qint64> { 15, 15, 10, 7 };
        // g2g over both devices by start: r0 10 (10), r1 5 (15), r5 18-15=3 (18), r2 20-18=2 (20), r6 5 (25), r7 0,
        // r3 10 (40), r4 0 -> d0 A 12, B 15; d1 A 3, B 5; total 35 = union [0,25)+[30,40).
        QTest::newRow("g2g") << int(TimeMode::Global) << QList<qint64> { 12, 15, 3, 5 };
    }

    void modes()
    {
        QFETCH(int, mode);
        QFETCH(QList<qint64>, expected);
        const GroupTimes t = computeGroupTimes(fixture(), 2, 2, TimeMode(mode));
        QCOMPARE((QList<qint64> { t.at(0, 0), t.at(0, 1), t.at(1, 0), t.at(1, 1) }), expected);
        QCOMPARE(t.count, (std::vector<std::int64_t> { 3, 2, 1, 2 }));
        QCOMPARE(t.total(), expected[0] + expected[1] + expected[2] + expected[3]);
    }

    void tiesOnStart_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QList<qint64>>("expected"); // time of rows' groups 0, 1, 2
        // Rows: g0 on d1 [100,110), g1 on d0 [100,105), g2 on d0 [100,120).
        // Exclusive: d0 in row order on equal starts: g1 5 (105), g2 120-105=15; d1: g0 10.
        QTest::newRow("exclusive") << int(TimeMode::Exclusive) << QList<qint64> { 10, 5, 15 };
        // g2g: lower device first, then row order: g1 5, g2 15, g0 0.
        QTest::newRow("g2g") << int(TimeMode::Global) << QList<qint64> { 0, 5, 15 };
    }

    void tiesOnStart()
    {
        QFETCH(int, mode);
        QFETCH(QList<qint64>, expected);
        IntervalColumns c;
        c.start = { 100, 100, 100 };
        c.end = { 110, 105, 120 };
        c.device = { 1, 0, 0 };
        c.group = { 0, 1, 2 };
        const std::vector<TimeNs> t = computeGroupTimes(c, 2, 3, TimeMode(mode)).perGroup();
        QCOMPARE((QList<qint64> { t[0], t[1], t[2] }), expected);
    }

    void emptyAndInvertedRows()
    {
        IntervalColumns c;
        c.start = { 10, 50 };
        c.end = { 5, 60 }; // the first row ends before it starts: empty
        c.device = { 0, 0 };
        c.group = { 0, 0 };
        for (const TimeMode m : kAllTimeModes)
            QCOMPARE(computeGroupTimes(c, 1, 1, m).total(), TimeNs(10));
        QCOMPARE(computeGroupTimes(IntervalColumns {}, 3, 2, TimeMode::Global).total(), TimeNs(0));
    }

    void names()
    {
        for (const TimeMode m : kAllTimeModes)
            QCOMPARE(parseTimeMode(timeModeName(m)), std::optional<TimeMode>(m));
        QCOMPARE(timeModeName(TimeMode::Global), QStringLiteral("g2g"));
        QVERIFY(!parseTimeMode(QStringLiteral("wall")));
    }
};

QTEST_GUILESS_MAIN(TestTimeModes)
#include "tst_timemodes.moc"
