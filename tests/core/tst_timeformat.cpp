// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/timeformat.h"

#include <QTest>

using namespace nsw;

class TestTimeFormat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void formatDuration_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("expected");
        // Three significant digits, worked out by hand; the unit edges round into the next unit.
        QTest::addRow("nanoseconds as integers") << qint64(999) << QStringLiteral("999 ns");
        QTest::addRow("one microsecond") << qint64(1000) << QStringLiteral("1.00 µs");
        QTest::addRow("9999 ns rounds to 10.0 us") << qint64(9999) << QStringLiteral("10.0 µs");
        QTest::addRow("9994 ns stays 9.99 us") << qint64(9994) << QStringLiteral("9.99 µs");
        QTest::addRow("99960 ns rounds to 100 us") << qint64(99960) << QStringLiteral("100 µs");
        QTest::addRow("99940 ns stays 99.9 us") << qint64(99940) << QStringLiteral("99.9 µs");
        QTest::addRow("999499 ns stays 999 us") << qint64(999499) << QStringLiteral("999 µs");
        QTest::addRow("999999 ns rounds to 1.00 ms") << qint64(999999) << QStringLiteral("1.00 ms");
        QTest::addRow("156 us median of flash_fwd") << qint64(156123) << QStringLiteral("156 µs");
        QTest::addRow("4.00 ms") << qint64(4004999) << QStringLiteral("4.00 ms");
        QTest::addRow("999999999 ns rounds to seconds") << qint64(999999999) << QStringLiteral("1.000 s");
        QTest::addRow("seconds with three decimals") << qint64(119443000000) << QStringLiteral("119.443 s");
        QTest::addRow("negative keeps its sign") << qint64(-9999) << QStringLiteral("-10.0 µs");
    }
    void formatDuration()
    {
        QFETCH(qint64, ns);
        QFETCH(QString, expected);
        QCOMPARE(nsw::formatDuration(ns), expected);
    }
};

QTEST_GUILESS_MAIN(TestTimeFormat)
#include "tst_timeformat.moc"
