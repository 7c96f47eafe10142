// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/numberformat.h"

#include <QRandomGenerator>
#include <QTest>
#include <cmath>
#include <cstdio>
#include <string>

using namespace nsw;

namespace {
/// Round half away from zero on glibc's exact decimal expansion of @p value, written out digit by digit.
double roundedByDecimalExpansion(double value, int digits)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.60f", std::fabs(value));
    std::string s(buf);
    const std::size_t keep = s.find('.') + std::size_t(digits) + 1;
    const bool up = s[keep] >= '5';
    s.resize(keep);
    for (std::size_t i = s.size(); up && i-- > 0;) {
        if (s[i] == '.')
            continue;
        if (s[i] != '9') {
            ++s[i];
            break;
        }
        s[i] = '0';
        if (i == 0)
            s.insert(s.begin(), '1');
    }
    return std::copysign(std::strtod(s.c_str(), nullptr), value);
}
} // namespace

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

    void sqliteRoundAgreesWithTheDecimalExpansion_data()
    {
        QTest::addColumn<int>("digits");
        QTest::addColumn<double>("magnitude");
        QTest::addRow("one decimal, durations in ns") << 1 << 1e9;
        QTest::addRow("one decimal, small values") << 1 << 10.0;
        QTest::addRow("two decimals") << 2 << 1e6;
        QTest::addRow("three decimals") << 3 << 1e5;
        QTest::addRow("one decimal, past the exact range") << 1 << 1e17;
        QTest::addRow("four decimals (decimal expansion path)") << 4 << 1e3;
    }
    void sqliteRoundAgreesWithTheDecimalExpansion()
    {
        QFETCH(int, digits);
        QFETCH(double, magnitude);
        QRandomGenerator random(20261126);
        const double scale = std::pow(10.0, digits);
        for (int i = 0; i < 20000; ++i) {
            // Random values, and the doubles at and around the ties (k + 0.5) / 10^digits, where rounding turns.
            const double x = random.generateDouble() * magnitude * (i % 2 ? 1 : -1);
            const double tie = (std::floor(std::fabs(x) * scale) + 0.5) / scale;
            for (const double v : { x, tie, std::nextafter(tie, 0.0), std::nextafter(tie, 1e300), -tie }) {
                const double expected = roundedByDecimalExpansion(v, digits);
                const double got = nsw::sqliteRound(v, digits);
                if (got != expected || std::signbit(got) != std::signbit(expected))
                    QFAIL(qPrintable(QStringLiteral("round(%1, %2): %3, expected %4")
                                         .arg(v, 0, 'g', 17)
                                         .arg(digits)
                                         .arg(got, 0, 'g', 17)
                                         .arg(expected, 0, 'g', 17)));
            }
        }
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

    void countOf_data()
    {
        QTest::addColumn<qint64>("count");
        QTest::addColumn<QString>("expected");
        QTest::addRow("none is plural") << qint64(0) << QStringLiteral("0 findings");
        QTest::addRow("one is singular") << qint64(1) << QStringLiteral("1 finding");
        QTest::addRow("two") << qint64(2) << QStringLiteral("2 findings");
        QTest::addRow("thousands grouped") << qint64(1250) << QStringLiteral("1,250 findings");
    }
    void countOf()
    {
        QFETCH(qint64, count);
        QFETCH(QString, expected);
        QCOMPARE(nsw::countOf(count, QStringLiteral("finding"), QStringLiteral("findings")), expected);
    }
};

QTEST_GUILESS_MAIN(TestNumberFormat)
#include "tst_numberformat.moc"
