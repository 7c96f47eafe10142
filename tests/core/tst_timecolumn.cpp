// SPDX-License-Identifier: GPL-3.0-or-later
// TimeColumn: every time reads back exactly as a plain vector of the same pushes holds it, whatever the block edges,
// spans and extremes; copies share storage; about 4 bytes a row.
#include "core/profile/timecolumn.h"

#include <QTest>
#include <algorithm>
#include <random>

using namespace nsw;

Q_DECLARE_METATYPE(std::vector<TimeNs>)

namespace {

constexpr TimeNs kSecond = 1'000'000'000;
constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max();

std::vector<TimeNs> ordered(std::size_t n, TimeNs from, TimeNs step)
{
    std::vector<TimeNs> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = from + TimeNs(i) * step;
    return v;
}

std::vector<TimeNs> randomTimes(std::size_t n, TimeNs from, TimeNs span, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<TimeNs> pick(from, from + span);
    std::vector<TimeNs> v(n);
    for (TimeNs& t : v)
        t = pick(rng);
    return v;
}

TimeColumn columnOf(const std::vector<TimeNs>& values)
{
    TimeColumn c;
    for (const TimeNs v : values)
        c.push_back(v);
    return c;
}

} // namespace

class TestTimeColumn : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsBackWhatWasPushed_data()
    {
        QTest::addColumn<std::vector<TimeNs>>("values");
        const std::size_t block = TimeColumn::kBlockRows;
        QTest::newRow("empty") << std::vector<TimeNs> {};
        QTest::newRow("one row") << std::vector<TimeNs> { 42 };
        QTest::newRow("a block less one") << ordered(block - 1, 1000, 7);
        QTest::newRow("exactly one block") << ordered(block, 1000, 7);
        QTest::newRow("a block and one") << ordered(block + 1, 1000, 7);
        QTest::newRow("three blocks in time order") << ordered(3000, -5 * kSecond, 3331);
        QTest::newRow("negative times") << ordered(2 * block, -100 * kSecond, 1000);
        QTest::newRow("shuffled times over 10 s") << randomTimes(5000, 0, 10 * kSecond, 1);
        QTest::newRow("shuffled times over 3 s") << randomTimes(5000, 7 * kSecond, 3 * kSecond, 2);
        // Offsets hold spans up to 2^32 - 2 ns; one nanosecond more and the block keeps its times whole.
        std::vector<TimeNs> widest = ordered(block, 0, 1);
        widest.back() = TimeNs(0xFFFFFFFEu);
        QTest::newRow("a block spanning 2^32 - 2 ns") << widest;
        widest.back() = TimeNs(0xFFFFFFFFu);
        QTest::newRow("a block spanning 2^32 - 1 ns") << widest;
        std::vector<TimeNs> extremes = ordered(block + 10, 0, 1);
        extremes[3] = kMax;
        extremes[4] = kNoTime + 1;
        extremes[block + 2] = kMax;
        extremes[block + 3] = kNoTime + 1;
        QTest::newRow("times at both ends of int64") << extremes;
        std::vector<TimeNs> marks = ordered(2 * block + 5, 10 * kSecond, 999);
        for (std::size_t i = 0; i < marks.size(); i += 3)
            marks[i] = kNoTime;
        QTest::newRow("kNoTime among times") << marks;
        QTest::newRow("only kNoTime") << std::vector<TimeNs>(block + 3, kNoTime);
        std::vector<TimeNs> mixed = ordered(4 * block, 0, 100);
        std::fill(mixed.begin() + block, mixed.begin() + 2 * block, 0);
        mixed[block + 17] = 9 * kSecond;
        QTest::newRow("one wide block between narrow ones") << mixed;
    }

    void readsBackWhatWasPushed()
    {
        QFETCH(std::vector<TimeNs>, values);
        const TimeColumn c = columnOf(values);
        QCOMPARE(c.size(), values.size());
        QCOMPARE(c.empty(), values.empty());
        for (std::size_t i = 0; i < values.size(); ++i)
            if (c[i] != values[i])
                QFAIL(qPrintable(QStringLiteral("row %1: %2, expected %3").arg(i).arg(c[i]).arg(values[i])));
        QCOMPARE(c.toVector(), values);
        QVERIFY(c == values);
        QCOMPARE(TimeColumn(values).toVector(), values);
        QCOMPARE(std::size_t(std::distance(c.begin(), c.end())), values.size());
        // Its encoding makes the same column again (a profile cache file holds it so).
        const std::optional<TimeColumn> again = TimeColumn::fromParts(c.parts());
        QVERIFY(again);
        QCOMPARE(again->toVector(), values);
    }

    void refusesPartsThatAreNoEncoding_data()
    {
        QTest::addColumn<int>("damage");
        QTest::newRow("a row missing from a sealed block") << 0;
        QTest::newRow("a block base without its rows") << 1;
        QTest::newRow("a whole block's offset past its times") << 2;
        QTest::newRow("a full open block") << 3;
    }
    void refusesPartsThatAreNoEncoding()
    {
        QFETCH(int, damage);
        std::vector<TimeNs> values = ordered(3 * TimeColumn::kBlockRows + 5, 0, 100);
        values[TimeColumn::kBlockRows] = 9 * kSecond; // the second block is kept whole
        TimeColumn::Parts parts = columnOf(values).parts();
        QVERIFY(TimeColumn::fromParts(parts));
        switch (damage) {
        case 0:
            parts.offsets.resize(parts.offsets.size() - 1);
            break;
        case 1:
            parts.bases.push_back(0);
            break;
        case 2:
            parts.offsets[TimeColumn::kBlockRows + 3] = std::uint32_t(parts.whole.size());
            break;
        case 3:
            parts.open.resize(TimeColumn::kBlockRows, 0);
            break;
        }
        QVERIFY(!TimeColumn::fromParts(parts));
    }

    void searchesAsAVectorDoes()
    {
        const std::vector<TimeNs> values = ordered(5000, -kSecond, 1777);
        const TimeColumn c = columnOf(values);
        for (const TimeNs probe : { -2 * kSecond, -kSecond, values[1023], values[1024] + 1, values.back(), kMax }) {
            const auto expected = std::lower_bound(values.begin(), values.end(), probe) - values.begin();
            QCOMPARE(std::lower_bound(c.begin(), c.end(), probe) - c.begin(), expected);
        }
    }

    void appendConcatenates_data()
    {
        QTest::addColumn<std::vector<TimeNs>>("first");
        QTest::addColumn<std::vector<TimeNs>>("second");
        QTest::newRow("onto an empty column") << std::vector<TimeNs> {} << ordered(1500, 5, 3);
        QTest::newRow("blocks that do not line up") << ordered(1500, 5, 3) << randomTimes(2100, 0, 20 * kSecond, 3);
        QTest::newRow("an empty column") << ordered(700, 5, 3) << std::vector<TimeNs> {};
    }

    void appendConcatenates()
    {
        QFETCH(std::vector<TimeNs>, first);
        QFETCH(std::vector<TimeNs>, second);
        TimeColumn c = columnOf(first);
        c.append(columnOf(second));
        std::vector<TimeNs> expected = first;
        expected.insert(expected.end(), second.begin(), second.end());
        QCOMPARE(c.toVector(), expected);

        TimeColumn self = columnOf(first);
        self.append(self);
        std::vector<TimeNs> twice = first;
        twice.insert(twice.end(), first.begin(), first.end());
        QCOMPARE(self.toVector(), twice);
    }

    void copiesShareUntilWritten()
    {
        TimeColumn a = columnOf(ordered(2000, 0, 10));
        const TimeColumn b = a;
        QVERIFY(b.sharesStorageWith(a));
        a.push_back(7);
        QVERIFY(!b.sharesStorageWith(a));
        QCOMPARE(b.size(), std::size_t(2000));
        QCOMPARE(a.size(), std::size_t(2001));
        QCOMPARE(a.back(), TimeNs(7));
        QCOMPARE(b.back(), TimeNs(19990));
        TimeColumn c = b;
        c.release();
        QVERIFY(c.empty());
        QCOMPARE(b.size(), std::size_t(2000));
    }

    void aboutFourBytesARow()
    {
        // A million events over 100 s, 2 s apart per block at most: every block fits 32-bit offsets.
        const std::size_t n = 1'000'000;
        TimeColumn c;
        c.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            c.push_back(TimeNs(i) * 100'000 + TimeNs(i % 7) * 13);
        const double perRow = double(c.memoryBytes()) / double(n);
        QVERIFY2(perRow < 4.1, qPrintable(QString::number(perRow)));
    }
};

QTEST_GUILESS_MAIN(TestTimeColumn)
#include "tst_timecolumn.moc"
