// SPDX-License-Identifier: GPL-3.0-or-later
// Duration histograms: bins against hand-worked edges and an independent count, percentiles against hand-worked
// values, modes on sets whose groups are known by construction.
#include "core/stats/durationhistogram.h"

#include <QTest>
#include <cmath>

using namespace nsw;

Q_DECLARE_METATYPE(std::vector<qint64>)

namespace {

/// "lower-upper:count" per bin, to compare with hand-worked lists in one go.
QStringList binsText(const DurationHistogram& h)
{
    QStringList out;
    for (const HistogramBin& b : h.bins)
        out << QStringLiteral("%1-%2:%3").arg(b.lower).arg(b.upper).arg(b.count);
    return out;
}

HistogramOptions perDecade(int bins)
{
    HistogramOptions o;
    o.binsPerDecade = bins;
    return o;
}

/// Standard normal quantile by bisection on erfc (for smooth, deterministic log-normal sets).
double normalQuantile(double p)
{
    double lo = -10, hi = 10;
    for (int i = 0; i < 100; ++i) {
        const double mid = (lo + hi) / 2;
        (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

/// n durations at the quantiles of a log-normal distribution with median @p median and log-spread @p sigma.
std::vector<qint64> logNormalSet(int n, double median, double sigma)
{
    std::vector<qint64> v;
    for (int i = 0; i < n; ++i)
        v.push_back(qint64(std::llround(median * std::exp(sigma * normalQuantile((i + 0.5) / n)))));
    return v;
}

/// @p count durations from @p first, @p step apart.
std::vector<qint64> evenlySpaced(int count, qint64 first, qint64 step)
{
    std::vector<qint64> v;
    for (int i = 0; i < count; ++i)
        v.push_back(first + step * i);
    return v;
}

std::vector<qint64> joined(std::vector<qint64> a, const std::vector<qint64>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace

class TestDurationHistogram : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void binsOfHandWorkedSets_data()
    {
        QTest::addColumn<int>("binsPerDecade");
        QTest::addColumn<std::vector<qint64>>("durations");
        QTest::addColumn<QStringList>("bins");
        QTest::newRow("decades, values on the edges")
            << 1 << std::vector<qint64> { 10, 99, 100, 999, 1000 }
            << QStringList { QStringLiteral("10-99:2"), QStringLiteral("100-999:2"), QStringLiteral("1000-9999:1") };
        QTest::newRow("empty bin between two") << 1 << std::vector<qint64> { 5, 5000 }
                                               << QStringList { QStringLiteral("1-9:1"), QStringLiteral("10-99:0"),
                                                      QStringLiteral("100-999:0"), QStringLiteral("1000-9999:1") };
        QTest::newRow("zero durations get their own bin")
            << 1 << std::vector<qint64> { 0, 0, 5, 50 }
            << QStringList { QStringLiteral("0-0:2"), QStringLiteral("1-9:1"), QStringLiteral("10-99:1") };
        QTest::newRow("only zero durations")
            << 1 << std::vector<qint64> { 0, 0, 0 } << QStringList { QStringLiteral("0-0:3") };
        QTest::newRow("one execution") << 20 << std::vector<qint64> { 1234 }
                                       << QStringList { QStringLiteral("1123-1258:1") };
        QTest::newRow("all equal") << 20 << std::vector<qint64>(100, 500)
                                   << QStringList { QStringLiteral("447-501:100") };
        // 10 per decade: edges 10, 13 (12.6 up), 16 (15.8), 20 (19.95), 26 (25.1), 32 (31.6).
        QTest::newRow("ten per decade, both sides of each edge")
            << 10 << std::vector<qint64> { 10, 12, 13, 15, 16, 19, 20, 25, 26 }
            << QStringList { QStringLiteral("10-12:2"), QStringLiteral("13-15:2"), QStringLiteral("16-19:2"),
                   QStringLiteral("20-25:2"), QStringLiteral("26-31:1") };
        // 20 per decade around 1 µs: 892 (891.3 up), 1000, 1123 (1122.0 up), 1259 (1258.9 up).
        QTest::newRow("twenty per decade, decade edge exact")
            << 20 << std::vector<qint64> { 999, 1000, 1122, 1123 }
            << QStringList { QStringLiteral("892-999:1"), QStringLiteral("1000-1122:2"),
                   QStringLiteral("1123-1258:1") };
        // Below 10 ns the rounded edges repeat (1, 2, 2, 2, 3, 4, 4, 6…): no empty-width bins.
        QTest::newRow("ten per decade below 10 ns")
            << 10 << std::vector<qint64> { 1, 2, 3, 4, 5, 6, 9 }
            << QStringList { QStringLiteral("1-1:1"), QStringLiteral("2-2:1"), QStringLiteral("3-3:1"),
                   QStringLiteral("4-5:2"), QStringLiteral("6-6:1"), QStringLiteral("7-7:0"), QStringLiteral("8-9:1") };
        QTest::newRow("unsorted input") << 1 << std::vector<qint64> { 500, 7, 70, 5 }
                                        << QStringList { QStringLiteral("1-9:2"), QStringLiteral("10-99:1"),
                                               QStringLiteral("100-999:1") };
    }
    void binsOfHandWorkedSets()
    {
        QFETCH(int, binsPerDecade);
        QFETCH(std::vector<qint64>, durations);
        QFETCH(QStringList, bins);
        const DurationHistogram h = durationHistogram(durations, perDecade(binsPerDecade));
        QCOMPARE(binsText(h), bins);
        QCOMPARE(h.count, qint64(durations.size()));
    }

    void emptySetHasNoBins()
    {
        const DurationHistogram h = durationHistogram({});
        QVERIFY(h.bins.empty());
        QVERIFY(h.modes.empty());
        QCOMPARE(h.count, qint64(0));
    }

    /// Every bin holds exactly the durations between its edges, counted here by brute force; the bins meet.
    void binsAgainstAnIndependentCount_data()
    {
        QTest::addColumn<std::vector<qint64>>("durations");
        QTest::newRow("log-normal around 100 µs") << logNormalSet(3000, 1e5, 0.8);
        QTest::newRow("two clusters and zeros")
            << joined(joined(evenlySpaced(500, 140000, 37), evenlySpaced(300, 7000000, 2311)), { 0, 0, 0 });
        QTest::newRow("nanoseconds to seconds") << evenlySpaced(1000, 1, 1000003);
    }
    void binsAgainstAnIndependentCount()
    {
        QFETCH(std::vector<qint64>, durations);
        const DurationHistogram h = durationHistogram(durations);
        QVERIFY(!h.bins.empty());
        qint64 total = 0;
        for (std::size_t i = 0; i < h.bins.size(); ++i) {
            const HistogramBin& b = h.bins[i];
            qint64 expected = 0;
            for (const qint64 d : durations)
                expected += d >= b.lower && d <= b.upper ? 1 : 0;
            QCOMPARE(b.count, expected);
            total += b.count;
            if (i > 0 && h.bins[i - 1].upper > 0)
                QCOMPARE(b.lower, h.bins[i - 1].upper + 1);
        }
        QCOMPARE(total, qint64(durations.size()));
        QVERIFY(h.bins.front().count > 0);
        QVERIFY(h.bins.back().count > 0);
    }

    void percentiles_data()
    {
        QTest::addColumn<std::vector<qint64>>("durations");
        QTest::addColumn<double>("p50");
        QTest::addColumn<double>("p90");
        QTest::addColumn<double>("p99");
        // Ranks (n - 1) × p: 1..10 → 4.5, 8.1, 8.91.
        QTest::newRow("1 to 10") << std::vector<qint64> { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 } << 5.5 << 9.1 << 9.91;
        // 0, 0, 5, 50 → ranks 1.5, 2.7, 2.97: 2.5, 5 + 0.7 × 45, 5 + 0.97 × 45.
        QTest::newRow("with zeros") << std::vector<qint64> { 0, 0, 5, 50 } << 2.5 << 36.5 << 48.65;
        QTest::newRow("one execution") << std::vector<qint64> { 1234 } << 1234.0 << 1234.0 << 1234.0;
        QTest::newRow("odd count") << std::vector<qint64> { 100, 300, 200 } << 200.0 << 280.0 << 298.0;
    }
    void percentiles()
    {
        QFETCH(std::vector<qint64>, durations);
        QFETCH(double, p50);
        QFETCH(double, p90);
        QFETCH(double, p99);
        const DurationHistogram h = durationHistogram(durations);
        QCOMPARE(h.median, p50);
        QVERIFY(qAbs(h.p90 - p90) < 1e-9);
        QVERIFY(qAbs(h.p99 - p99) < 1e-9);
    }

    void modes_data()
    {
        QTest::addColumn<std::vector<qint64>>("durations");
        QTest::addColumn<QList<double>>("medians"); ///< one per mode
        QTest::addColumn<QList<qint64>>("counts");
        // 60 around 150 µs (140 000 + 400 i: median 140 000 + 400 × 29.5) and 40 around 7.4 ms (7 000 000 + 20 000 j:
        // median 7 000 000 + 20 000 × 19.5): flash_fwd_kernel's two groups.
        QTest::newRow("two clusters") << joined(evenlySpaced(60, 140000, 400), evenlySpaced(40, 7000000, 20000))
                                      << QList<double> { 151800, 7390000 } << QList<qint64> { 60, 40 };
        QTest::newRow("three clusters") << joined(
            joined(evenlySpaced(30, 1000, 10), evenlySpaced(30, 100000, 1000)), evenlySpaced(31, 10000000, 10000))
                                        << QList<double> { 1145, 114500, 10150000 } << QList<qint64> { 30, 30, 31 };
        QTest::newRow("log-normal is unimodal")
            << logNormalSet(2000, 1e5, 0.5) << QList<double> { 1e5 } << QList<qint64> { 2000 };
        QTest::newRow("wide log-normal is unimodal")
            << logNormalSet(5000, 2e4, 1.5) << QList<double> { 2e4 } << QList<qint64> { 5000 };
        // Uniform in log over two decades: a flat histogram whose small bumps are no modes.
        std::vector<qint64> flat;
        for (int i = 0; i < 2000; ++i)
            flat.push_back(qint64(std::llround(1e4 * std::pow(100.0, (i + 0.5) / 2000))));
        QTest::newRow("flat over two decades") << flat << QList<double> { 1e5 } << QList<qint64> { 2000 };
        // 3 slow warm-up executions among 200 (1.5 %): no group of their own; the median stays the 200's middle.
        QTest::newRow("warm-up outliers") << joined(evenlySpaced(200, 100000, 100), { 10000000, 10000000, 10000000 })
                                          << QList<double> { 110100 } << QList<qint64> { 203 };
        QTest::newRow("too few executions") << joined(evenlySpaced(5, 100, 1), evenlySpaced(5, 100000, 1))
                                            << QList<double> { 50052 } << QList<qint64> { 10 };
        QTest::newRow("all equal") << std::vector<qint64>(50, 777) << QList<double> { 777 } << QList<qint64> { 50 };
    }
    void modes()
    {
        QFETCH(std::vector<qint64>, durations);
        QFETCH(QList<double>, medians);
        QFETCH(QList<qint64>, counts);
        std::sort(durations.begin(), durations.end());
        const DurationHistogram h = durationHistogramSorted(durations.data(), durations.size());
        QCOMPARE(int(h.modes.size()), int(medians.size()));
        QCOMPARE(h.isMultimodal(), medians.size() > 1);
        for (int m = 0; m < medians.size(); ++m) {
            QCOMPARE(h.modes[std::size_t(m)].count, counts[m]);
            // Log-normal quantile sets are rounded to whole ns: their median is within 1 ns of the nominal one.
            QVERIFY2(qAbs(h.modes[std::size_t(m)].median - medians[m]) <= 1.0,
                qPrintable(QStringLiteral("mode %1: median %2").arg(m).arg(h.modes[std::size_t(m)].median)));
        }
        const std::vector<DurationMode> summary = durationModesSorted(durations.data(), durations.size());
        QCOMPARE(summary.size(), h.modes.size());
        for (std::size_t m = 0; m < summary.size(); ++m)
            QCOMPARE(summary[m].median, h.modes[m].median);
    }

    void binOfFindsTheBin()
    {
        const DurationHistogram h = durationHistogram({ 0, 5, 5000 }, perDecade(1));
        QCOMPARE(h.binOf(0), 0);
        QCOMPARE(h.binOf(9), 1);
        QCOMPARE(h.binOf(10), 2);
        QCOMPARE(h.binOf(9999), 4);
        QCOMPARE(h.binOf(10000), -1);
    }
};

QTEST_GUILESS_MAIN(TestDurationHistogram)
#include "tst_durationhistogram.moc"
