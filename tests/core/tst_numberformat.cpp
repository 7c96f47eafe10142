// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/numberformat.h"

#include <QTest>

using namespace nsw;

class TestNumberFormat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sqliteRound_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("digits");
        QTest::addColumn<QString>("expected");
        // Expected texts worked out by hand from the exact binary values.
        QTest::addRow("exact tie rounds away from zero") << 2.25 << 1 << QStringLiteral("2.3");
        QTest::addRow("negative exact tie away from zero") << -2.25 << 1 << QStringLiteral("-2.3");
        QTest::addRow("0.15 is stored below the tie") << 0.15 << 1 << QStringLiteral("0.1");
        QTest::addRow("12.7*0.35 is 4.4449999...") << 12.7 * 0.35 << 2 << QStringLiteral("4.44");
        QTest::addRow("average of 4 values x.25") << 1393.25 << 1 << QStringLiteral("1393.3");
        QTest::addRow("x.75 rounds up") << 7.75 << 1 << QStringLiteral("7.8");
        QTest::addRow("carry through nines") << 9.96 << 1 << QStringLiteral("10.0");
        QTest::addRow("half at zero digits") << 2.5 << 0 << QStringLiteral("3.0");
        QTest::addRow("stddev of 937199 and 1023252") << 60848.659841 << 1 << QStringLiteral("60848.7");
        QTest::addRow("already one decimal") << 5315.5 << 1 << QStringLiteral("5315.5");
    }
    void sqliteRound()
    {
        QFETCH(double, value);
        QFETCH(int, digits);
        QFETCH(QString, expected);
        QCOMPARE(QString::number(nsw::sqliteRound(value, digits), 'f', std::max(digits, 1)), expected);
    }

    void pythonRepr_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("expected");
        // Python 3: repr(float(x)).
        QTest::addRow("integral") << 1000.0 << QStringLiteral("1000.0");
        QTest::addRow("zero") << 0.0 << QStringLiteral("0.0");
        QTest::addRow("one decimal") << 60848.7 << QStringLiteral("60848.7");
        QTest::addRow("large integral") << 1631355508.0 << QStringLiteral("1631355508.0");
        QTest::addRow("small") << 0.0001 << QStringLiteral("0.0001");
        QTest::addRow("smaller switches to exponent") << 0.00001 << QStringLiteral("1e-05");
        QTest::addRow("1e16 switches to exponent") << 1e16 << QStringLiteral("1e+16");
        QTest::addRow("just below 1e16") << 9999999999999998.0 << QStringLiteral("9999999999999998.0");
        QTest::addRow("negative") << -2.5 << QStringLiteral("-2.5");
        QTest::addRow("shortest round trip") << 0.1 + 0.2 << QStringLiteral("0.30000000000000004");
    }
    void pythonRepr()
    {
        QFETCH(double, value);
        QFETCH(QString, expected);
        QCOMPARE(pythonFloatRepr(value), expected);
    }

    void thousands_data()
    {
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QString>("expected");
        QTest::addRow("small") << qint64(999) << QStringLiteral("999");
        QTest::addRow("grouped") << qint64(1250775) << QStringLiteral("1,250,775");
        QTest::addRow("negative") << qint64(-1234) << QStringLiteral("-1,234");
    }
    void thousands()
    {
        QFETCH(qint64, value);
        QFETCH(QString, expected);
        QCOMPARE(withThousandsSeparators(value), expected);
    }

    void thousandsWithDecimals()
    {
        QCOMPARE(withThousandsSeparators(3481709.0, 1), QStringLiteral("3,481,709.0"));
        QCOMPARE(withThousandsSeparators(8.3886, 3), QStringLiteral("8.389"));
    }

    void compactCount_data()
    {
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QString>("expected");
        QTest::addRow("zero") << qint64(0) << QStringLiteral("0");
        QTest::addRow("below a thousand as is") << qint64(812) << QStringLiteral("812");
        QTest::addRow("thousands with one decimal") << qint64(45'349) << QStringLiteral("45.3k");
        QTest::addRow("hundreds of thousands, no decimal") << qint64(812'400) << QStringLiteral("812k");
        QTest::addRow("rounding up to the next unit") << qint64(999'960) << QStringLiteral("1.0M");
        QTest::addRow("millions") << qint64(1'234'567) << QStringLiteral("1.2M");
        QTest::addRow("4M kernels") << qint64(4'000'000) << QStringLiteral("4.0M");
        QTest::addRow("billions") << qint64(3'400'000'000) << QStringLiteral("3.4G");
        QTest::addRow("negative") << qint64(-1500) << QStringLiteral("-1.5k");
    }
    void compactCount()
    {
        QFETCH(qint64, value);
        QFETCH(QString, expected);
        QCOMPARE(nsw::compactCount(value), expected);
    }
};

QTEST_GUILESS_MAIN(TestNumberFormat)
#include "tst_numberformat.moc"
