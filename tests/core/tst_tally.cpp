// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/tally.h"

#include <QTest>

using namespace nsw;

class TestTally : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void addedOneByOne_data()
    {
        QTest::addColumn<QList<qint64>>("values");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("min");
        QTest::addColumn<qint64>("max");
        QTest::addColumn<double>("average");
        // Hand-worked.
        QTest::addRow("empty: all zero") << QList<qint64> {} << qint64(0) << qint64(0) << qint64(0) << 0.0;
        QTest::addRow("one value is its own min and max")
            << QList<qint64> { 700 } << qint64(700) << qint64(700) << qint64(700) << 700.0;
        QTest::addRow("unsorted: min is not the first")
            << QList<qint64> { 30, 10, 50, 20 } << qint64(110) << qint64(10) << qint64(50) << 27.5;
        QTest::addRow("zero is a value, not empty")
            << QList<qint64> { 5, 0, 3 } << qint64(8) << qint64(0) << qint64(5) << 8.0 / 3.0;
    }
    void addedOneByOne()
    {
        QFETCH(QList<qint64>, values);
        QFETCH(qint64, total);
        QFETCH(qint64, min);
        QFETCH(qint64, max);
        QFETCH(double, average);
        Tally t;
        for (const qint64 v : values)
            t.add(v);
        QCOMPARE(t.count, qint64(values.size()));
        QCOMPARE(t.total, total);
        QCOMPARE(t.min, min);
        QCOMPARE(t.max, max);
        QCOMPARE(t.average(), average);
    }

    void mergedEqualsAddedTogether_data()
    {
        QTest::addColumn<QList<qint64>>("first");
        QTest::addColumn<QList<qint64>>("second");
        QTest::addRow("both hold values") << QList<qint64> { 40, 60 } << QList<qint64> { 10, 90, 20 };
        QTest::addRow("into an empty one") << QList<qint64> {} << QList<qint64> { 8, 2 };
        QTest::addRow("an empty one changes nothing") << QList<qint64> { 8, 2 } << QList<qint64> {};
    }
    void mergedEqualsAddedTogether()
    {
        QFETCH(QList<qint64>, first);
        QFETCH(QList<qint64>, second);
        Tally a, b, all;
        for (const qint64 v : first) {
            a.add(v);
            all.add(v);
        }
        for (const qint64 v : second) {
            b.add(v);
            all.add(v);
        }
        a.add(b);
        QCOMPARE(a.count, all.count);
        QCOMPARE(a.total, all.total);
        QCOMPARE(a.min, all.min);
        QCOMPARE(a.max, all.max);
    }
};

QTEST_GUILESS_MAIN(TestTally)
#include "tst_tally.moc"
