// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/durationstats.h"

#include <QTest>

using namespace nsw;

class TestDurationStats : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void summary_data()
    {
        QTest::addColumn<QList<qint64>>("values");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<double>("mean");
        QTest::addColumn<double>("median");
        QTest::addColumn<double>("stddev");
        QTest::addColumn<double>("p90");
        // Hand-worked: stddev is the sample standard deviation (n - 1).
        QTest::addRow("one value has stddev 0")
            << QList<qint64> { 500 } << qint64(500) << 500.0 << 500.0 << 0.0 << 500.0;
        QTest::addRow("two values: median is their mean") << QList<qint64> { 937199, 1023252 } << qint64(1960451)
                                                          << 980225.5 << 980225.5 << 60848.659841 << 1014646.7;
        QTest::addRow("odd count, unsorted input")
            << QList<qint64> { 9, 1, 5 } << qint64(15) << 5.0 << 5.0 << 4.0 << 8.2;
        QTest::addRow("four values") << QList<qint64> { 1, 2, 3, 10 } << qint64(16) << 4.0 << 2.5 << 4.0824829 << 7.9;
    }
    void summary()
    {
        QFETCH(QList<qint64>, values);
        std::vector<qint64> v(values.begin(), values.end());
        const DurationSummary s = summarize(v);
        QFETCH(qint64, total);
        QFETCH(double, mean);
        QFETCH(double, median);
        QFETCH(double, stddev);
        QFETCH(double, p90);
        QCOMPARE(s.count, qint64(values.size()));
        QCOMPARE(s.total, total);
        QCOMPARE(s.mean, mean);
        QCOMPARE(s.median, median);
        QVERIFY2(std::abs(s.stddev - stddev) < 1e-5, qPrintable(QString::number(s.stddev, 'f', 8)));
        QVERIFY2(std::abs(s.p90 - p90) < 1e-9, qPrintable(QString::number(s.p90, 'f', 8)));
        QCOMPARE(s.min, *std::min_element(v.begin(), v.end()));
        QCOMPARE(s.max, *std::max_element(v.begin(), v.end()));

        // The linear-time variant used by the reports gives the same numbers (percentiles aside).
        std::vector<qint64> again(values.begin(), values.end());
        const DurationSummary l = summarizeWithoutPercentiles(again);
        QCOMPARE(l.count, qint64(values.size()));
        QCOMPARE(l.total, total);
        QCOMPARE(l.mean, mean);
        QCOMPARE(l.median, median);
        QVERIFY(std::abs(l.stddev - stddev) < 1e-5);
        QCOMPARE(l.min, s.min);
        QCOMPARE(l.max, s.max);
    }
};

QTEST_GUILESS_MAIN(TestDurationStats)
#include "tst_durationstats.moc"
