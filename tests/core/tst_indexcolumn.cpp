// SPDX-License-Identifier: GPL-3.0-or-later
// IndexColumn: every value reads back exactly as a plain vector of the same pushes holds it, 2 bytes a row while the
// values are in [-1, 65534] and 4 from the first one that is not; compact() holds it in 1 byte a row while they are
// in [-1, 254].
#include "core/profile/indexcolumn.h"

#include <QTest>
#include <algorithm>

using namespace nsw;

Q_DECLARE_METATYPE(std::vector<std::int32_t>)
Q_DECLARE_METATYPE(std::vector<std::uint32_t>)

namespace {

std::vector<std::int32_t> counting(std::size_t n, std::int32_t from)
{
    std::vector<std::int32_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = from + std::int32_t(i % 70000);
    return v;
}

IndexColumn<std::int32_t> columnOf(const std::vector<std::int32_t>& values)
{
    IndexColumn<std::int32_t> c;
    for (const std::int32_t v : values)
        c.push_back(v);
    return c;
}

} // namespace

class TestIndexColumn : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsBackWhatWasPushed_data()
    {
        QTest::addColumn<std::vector<std::int32_t>>("values");
        QTest::addColumn<bool>("wide");
        QTest::newRow("empty") << std::vector<std::int32_t> {} << false;
        QTest::newRow("-1 and the largest narrow value") << std::vector<std::int32_t> { -1, 0, 65534, -1 } << false;
        QTest::newRow("65535 widens") << std::vector<std::int32_t> { 3, -1, 65535, 4 } << true;
        QTest::newRow("-2 widens") << std::vector<std::int32_t> { 3, -2, 7 } << true;
        QTest::newRow("the int32 extremes") << std::vector<std::int32_t> { 0, INT32_MAX, INT32_MIN, -1 } << true;
        QTest::newRow("a wide value after 70000 narrow ones") << [] {
            std::vector<std::int32_t> v = counting(70000, -1);
            for (std::int32_t& x : v)
                x = std::min(x, 65534);
            v.push_back(1 << 20);
            return v;
        }() << true;
    }

    void readsBackWhatWasPushed()
    {
        QFETCH(std::vector<std::int32_t>, values);
        QFETCH(bool, wide);
        const IndexColumn<std::int32_t> c = columnOf(values);
        QCOMPARE(c.size(), values.size());
        QCOMPARE(c.toVector(), values);
        QVERIFY(c == values);
        QCOMPARE(c.isWide(), wide);
        for (std::size_t i = 0; i < values.size(); ++i)
            QCOMPARE(c[i], values[i]);
        // Its encoding makes the same column again (a profile cache file holds it so).
        const std::optional<IndexColumn<std::int32_t>> again = IndexColumn<std::int32_t>::fromParts(c.parts());
        QVERIFY(again);
        QCOMPARE(again->toVector(), values);
        QCOMPARE(again->isWide(), wide);
    }

    void refusesValuesInTwoWidths_data()
    {
        QTest::addColumn<bool>("bytes");
        QTest::addColumn<bool>("narrow");
        QTest::addColumn<bool>("wide");
        QTest::newRow("narrow and wide") << false << true << true;
        QTest::newRow("1-byte and narrow") << true << true << false;
        QTest::newRow("1-byte and wide") << true << false << true;
        QTest::newRow("all three") << true << true << true;
    }

    void refusesValuesInTwoWidths()
    {
        QFETCH(bool, bytes);
        QFETCH(bool, narrow);
        QFETCH(bool, wide);
        IndexColumn<std::int32_t>::Parts parts;
        if (bytes)
            parts.bytes = Column<std::uint8_t> { 3 };
        if (narrow)
            parts.narrow = Column<std::uint16_t> { 1, 2 };
        if (wide)
            parts.wideValues = Column<std::int32_t> { 70000 };
        QVERIFY(!IndexColumn<std::int32_t>::fromParts(parts));
    }

    void compactsToTheFewestBytes_data()
    {
        QTest::addColumn<std::vector<std::int32_t>>("values");
        QTest::addColumn<unsigned>("width");
        QTest::newRow("empty") << std::vector<std::int32_t> {} << 1u;
        QTest::newRow("-1 and 254 fit a byte") << std::vector<std::int32_t> { -1, 0, 254, 7 } << 1u;
        QTest::newRow("255 needs two") << std::vector<std::int32_t> { -1, 0, 255, 7 } << 2u;
        QTest::newRow("a wide column of small values") << std::vector<std::int32_t> { 3, 1 << 20 } << 1u;
        QTest::newRow("65535 stays wide") << std::vector<std::int32_t> { 3, 65535 } << 4u;
        QTest::newRow("-2 stays wide") << std::vector<std::int32_t> { -2, 3 } << 4u;
    }

    void compactsToTheFewestBytes()
    {
        QFETCH(std::vector<std::int32_t>, values);
        QFETCH(unsigned, width);
        IndexColumn<std::int32_t> c = columnOf(values);
        // A wide value pushed then replaced (as a remap does): the column is wide until compacted.
        const bool replaceSecond = QByteArray(QTest::currentDataTag()) == "a wide column of small values";
        if (replaceSecond) {
            c.transform([](std::int32_t v) { return v == 1 << 20 ? 9 : v; });
            values[1] = 9;
        }
        c.compact();
        QCOMPARE(c.width(), width);
        QCOMPARE(c.toVector(), values);
        QCOMPARE(c.memoryBytes(), values.size() * width);
        const std::optional<IndexColumn<std::int32_t>> again = IndexColumn<std::int32_t>::fromParts(c.parts());
        QVERIFY(again);
        QCOMPARE(again->toVector(), values);
        QCOMPARE(again->width(), values.empty() ? 2u : width);
    }

    void oneByteColumnWidensWhenItMust_data()
    {
        QTest::addColumn<std::int32_t>("pushed");
        QTest::addColumn<unsigned>("width");
        QTest::newRow("254 stays 1 byte") << 254 << 1u;
        QTest::newRow("255 widens to 2") << 255 << 2u;
        QTest::newRow("70000 widens to 4") << 70000 << 4u;
        QTest::newRow("-3 widens to 4") << -3 << 4u;
    }

    void oneByteColumnWidensWhenItMust()
    {
        QFETCH(std::int32_t, pushed);
        QFETCH(unsigned, width);
        IndexColumn<std::int32_t> c = columnOf({ 4, -1, 200 });
        c.compact();
        QCOMPARE(c.width(), 1u);
        c.push_back(pushed);
        QCOMPARE(c.width(), width);
        QCOMPARE(c.toVector(), (std::vector<std::int32_t> { 4, -1, 200, pushed }));
        // transform and append from a 1-byte column
        IndexColumn<std::int32_t> t = columnOf({ 4, -1, 200 });
        t.compact();
        t.transform([pushed](std::int32_t v) { return v == 200 ? pushed : v; });
        QCOMPARE(t.toVector(), (std::vector<std::int32_t> { 4, -1, pushed }));
        QCOMPARE(t.width(), std::max(width, 2u));
        IndexColumn<std::int32_t> a = columnOf({ 1 });
        a.compact();
        a.append(columnOf({ pushed, 2 }));
        QCOMPARE(a.toVector(), (std::vector<std::int32_t> { 1, pushed, 2 }));
        IndexColumn<std::int32_t> b = columnOf({ pushed });
        IndexColumn<std::int32_t> small = columnOf({ 5, -1 });
        small.compact();
        b.append(small);
        QCOMPARE(b.toVector(), (std::vector<std::int32_t> { pushed, 5, -1 }));
    }

    void compactLeavesACopyAlone()
    {
        const IndexColumn<std::int32_t> original = columnOf({ 5, -1, 200 });
        IndexColumn<std::int32_t> copy = original;
        copy.compact();
        QCOMPARE(copy.width(), 1u);
        QCOMPARE(original.width(), 2u);
        QCOMPARE(original.toVector(), (std::vector<std::int32_t> { 5, -1, 200 }));
        QVERIFY(!copy.sharesStorageWith(original));
    }

    void transformWidensWhenNeeded_data()
    {
        QTest::addColumn<std::int32_t>("offset");
        QTest::addColumn<bool>("wide");
        QTest::newRow("stays narrow") << 100 << false;
        QTest::newRow("past 65534") << 65200 << true;
    }

    void transformWidensWhenNeeded()
    {
        QFETCH(std::int32_t, offset);
        QFETCH(bool, wide);
        const std::vector<std::int32_t> values { 5, -1, 0, 400, 9, -1 };
        IndexColumn<std::int32_t> c = columnOf(values);
        c.transform([offset](std::int32_t v) { return v >= 0 ? v + offset : v; });
        std::vector<std::int32_t> expected = values;
        for (std::int32_t& v : expected)
            if (v >= 0)
                v += offset;
        QCOMPARE(c.toVector(), expected);
        QCOMPARE(c.isWide(), wide);
    }

    void transformLeavesACopyAlone_data()
    {
        QTest::addColumn<std::int32_t>("offset");
        QTest::newRow("stays narrow") << 100;
        QTest::newRow("widened on the way") << 65200;
    }

    void transformLeavesACopyAlone()
    {
        QFETCH(std::int32_t, offset);
        const std::vector<std::int32_t> values { 5, -1, 0, 400, 9, -1 };
        const IndexColumn<std::int32_t> original = columnOf(values);
        IndexColumn<std::int32_t> copy = original;
        QVERIFY(copy.sharesStorageWith(original));
        copy.transform([offset](std::int32_t v) { return v + offset; });
        QCOMPARE(original.toVector(), values);
        QCOMPARE(copy[3], 400 + offset);
        QCOMPARE(copy[1], -1 + offset);
    }

    // Streams, contexts and launch shapes are unsigned: their largest value plays the part of -1.
    void unsignedValuesReadBack_data()
    {
        QTest::addColumn<std::vector<std::uint32_t>>("values");
        QTest::addColumn<bool>("wide");
        QTest::newRow("small streams") << std::vector<std::uint32_t> { 7, 13, 0, 65534 } << false;
        QTest::newRow("the largest value stays narrow") << std::vector<std::uint32_t> { 7, UINT32_MAX, 3 } << false;
        QTest::newRow("254 and the largest value") << std::vector<std::uint32_t> { 254, UINT32_MAX } << false;
        QTest::newRow("65535 widens") << std::vector<std::uint32_t> { 7, 65535 } << true;
        QTest::newRow("a context id past 2^31") << std::vector<std::uint32_t> { 1, 0x80000001u } << true;
    }

    void unsignedValuesReadBack()
    {
        QFETCH(std::vector<std::uint32_t>, values);
        QFETCH(bool, wide);
        IndexColumn<std::uint32_t> c;
        for (const std::uint32_t v : values)
            c.push_back(v);
        QCOMPARE(c.toVector(), values);
        QCOMPARE(c.isWide(), wide);
        QCOMPARE(c.memoryBytes() >= values.size() * (wide ? 4 : 2), true);
        c.compact();
        QCOMPARE(c.toVector(), values);
        const bool oneByte
            = std::all_of(values.begin(), values.end(), [](std::uint32_t v) { return v < 255 || v == UINT32_MAX; });
        const bool twoBytes
            = std::all_of(values.begin(), values.end(), [](std::uint32_t v) { return v < 65535 || v == UINT32_MAX; });
        QCOMPARE(c.width(), oneByte ? 1u : twoBytes ? 2u : 4u);
    }

    // String ids are read wide when the export's ids are large, then remapped to a small pool.
    void narrowsAgainWhenEveryValueFits_data()
    {
        QTest::addColumn<std::vector<std::int32_t>>("values");
        QTest::addColumn<std::int32_t>("subtract");
        QTest::addColumn<bool>("wide");
        QTest::newRow("every id remapped below 65535")
            << std::vector<std::int32_t> { 200000, -1, 264000 } << 199000 << false;
        QTest::newRow("one id still past 65534") << std::vector<std::int32_t> { 200000, 300000 } << 199000 << true;
    }

    void narrowsAgainWhenEveryValueFits()
    {
        QFETCH(std::vector<std::int32_t>, values);
        QFETCH(std::int32_t, subtract);
        QFETCH(bool, wide);
        IndexColumn<std::int32_t> c = columnOf(values);
        QVERIFY(c.isWide());
        c.transform([subtract](std::int32_t v) { return v >= 0 ? v - subtract : v; });
        c.compact();
        std::vector<std::int32_t> expected = values;
        for (std::int32_t& v : expected)
            if (v >= 0)
                v -= subtract;
        QCOMPARE(c.toVector(), expected);
        QCOMPARE(c.isWide(), wide);
        QCOMPARE(c.memoryBytes(), expected.size() * (wide ? 4 : 2)); // 1000 and 65000 need two bytes
    }

    void appendAndRelease()
    {
        IndexColumn<std::int32_t> c = columnOf({ 1, 2, 3 });
        c.append(columnOf({ 4, 100000 }));
        QCOMPARE(c.toVector(), (std::vector<std::int32_t> { 1, 2, 3, 4, 100000 }));
        QVERIFY(c.isWide());
        c.release();
        QVERIFY(c.empty());
        QVERIFY(!c.isWide());
    }

    void appendsNarrowToNarrowAndWideToWide()
    {
        IndexColumn<std::int32_t> narrow = columnOf({ 1, -1 });
        narrow.append(columnOf({ 65534, 0 }));
        QCOMPARE(narrow.toVector(), (std::vector<std::int32_t> { 1, -1, 65534, 0 }));
        QVERIFY(!narrow.isWide());
        IndexColumn<std::int32_t> wide = columnOf({ 70000, 2 });
        wide.append(columnOf({ 80000, -5 }));
        wide.append(columnOf({ 7 }));
        QCOMPARE(wide.toVector(), (std::vector<std::int32_t> { 70000, 2, 80000, -5, 7 }));
        QVERIFY(wide.isWide());
    }

    void twoBytesARowWhileNarrow()
    {
        IndexColumn<std::int32_t> c;
        c.reserve(100000);
        for (int i = 0; i < 100000; ++i)
            c.push_back(i % 300);
        QCOMPARE(c.memoryBytes(), std::size_t(200000));
    }
};

QTEST_GUILESS_MAIN(TestIndexColumn)
#include "tst_indexcolumn.moc"
