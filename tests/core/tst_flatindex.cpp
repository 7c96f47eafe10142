// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/flatindex.h"

#include <QTest>
#include <cstdint>
#include <set>
#include <vector>

using namespace nsw;

Q_DECLARE_METATYPE(std::vector<int>)

namespace {

struct SpreadHash
{
    std::size_t operator()(int key) const noexcept
    {
        return std::size_t((std::uint64_t(std::uint32_t(key)) * 0x9E3779B97F4A7C15ull) >> 20);
    }
};

/// Every key in one slot: each lookup probes past the others.
struct CollidingHash
{
    std::size_t operator()(int) const noexcept { return 7; }
};

/// The indices of @p keys, with room reserved for @p reserved keys before the key at @p reserveAt (none: -1).
template <typename Hash>
std::vector<int> indicesOf(const std::vector<int>& keys, std::vector<int>* distinct, int reserveAt, int reserved)
{
    FlatIndex<int, Hash> index;
    std::vector<int> out;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (int(i) == reserveAt)
            index.reserve(std::size_t(reserved));
        out.push_back(index.index(keys[i]));
    }
    *distinct = index.keys();
    return out;
}

std::vector<int> manyKeys()
{
    std::vector<int> keys;
    for (int round = 0; round < 2; ++round) // 1000 distinct keys (the table grows several times), then again
        for (int k = 0; k < 1000; ++k)
            keys.push_back(k * 7919 - 3'000'000);
    return keys;
}

std::vector<int> manyIndices()
{
    std::vector<int> indices;
    for (int round = 0; round < 2; ++round)
        for (int k = 0; k < 1000; ++k)
            indices.push_back(k);
    return indices;
}

} // namespace

class TestFlatIndex : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void numbering_data();
    void numbering();
    void integerHashSpreadsPackedPairs_data();
    void integerHashSpreadsPackedPairs();
};

void TestFlatIndex::numbering_data()
{
    QTest::addColumn<std::vector<int>>("keys");
    QTest::addColumn<std::vector<int>>("indices"); // numbered by hand: in order of first appearance
    QTest::addColumn<std::vector<int>>("distinct");
    QTest::addColumn<int>("reserveAt"); ///< FlatIndex::reserve() before this key (-1: never)
    QTest::addColumn<int>("reserved");
    QTest::newRow("repeats, the same key twice in a row")
        << std::vector<int> { 5, 5, -3, 5, 0, -3, 0, 0 } << std::vector<int> { 0, 0, 1, 0, 2, 1, 2, 2 }
        << std::vector<int> { 5, -3, 0 } << -1 << 0;
    QTest::newRow("first key 0, the value a fresh index holds")
        << std::vector<int> { 0, 1, 0 } << std::vector<int> { 0, 1, 0 } << std::vector<int> { 0, 1 } << -1 << 0;
    std::vector<int> distinct;
    for (int k = 0; k < 1000; ++k)
        distinct.push_back(k * 7919 - 3'000'000);
    QTest::newRow("1000 keys, twice") << manyKeys() << manyIndices() << distinct << -1 << 0;
    QTest::newRow("1000 keys, twice, room for 5000 first") << manyKeys() << manyIndices() << distinct << 0 << 5000;
    QTest::newRow("1000 keys, twice, room for 10 first: it grows")
        << manyKeys() << manyIndices() << distinct << 0 << 10;
    QTest::newRow("1000 keys, twice, room for 3000 after 500: the 500 rehashed")
        << manyKeys() << manyIndices() << distinct << 500 << 3000;
    QTest::newRow("no keys") << std::vector<int> {} << std::vector<int> {} << std::vector<int> {} << -1 << 0;
}

void TestFlatIndex::numbering()
{
    QFETCH(std::vector<int>, keys);
    QFETCH(std::vector<int>, indices);
    QFETCH(std::vector<int>, distinct);
    QFETCH(int, reserveAt);
    QFETCH(int, reserved);
    std::vector<int> seen;
    QCOMPARE(indicesOf<SpreadHash>(keys, &seen, reserveAt, reserved), indices);
    QCOMPARE(seen, distinct);
    QCOMPARE(indicesOf<CollidingHash>(keys, &seen, reserveAt, reserved), indices);
    QCOMPARE(seen, distinct);
}

void TestFlatIndex::integerHashSpreadsPackedPairs_data()
{
    // 65,536 keys into the 65,536 slots of a table of 32,768 keys (FlatIndex keeps it at most half full).
    QTest::addColumn<int>("shift"); // where the varying number sits in the key
    QTest::addColumn<std::int64_t>("fixed"); // the rest of the key
    QTest::newRow("ids 0, 1, 2...") << 0 << std::int64_t(0);
    QTest::newRow("(parent node, one function): nested frames of one function") << 32 << std::int64_t(7);
    QTest::newRow("(symbol, one module): a million symbols of one module") << 32 << std::int64_t(123456);
    QTest::newRow("multiples of 2^20") << 20 << std::int64_t(0);
}

void TestFlatIndex::integerHashSpreadsPackedPairs()
{
    QFETCH(int, shift);
    QFETCH(std::int64_t, fixed);
    const std::size_t tableSize = 65536;
    std::set<std::size_t> used;
    for (std::int64_t n = 0; n < std::int64_t(tableSize); ++n)
        used.insert(IntegerHash {}((n << shift) | fixed) & (tableSize - 1));
    // Uniform hashing fills 1 - 1/e of them (63 %); a hash that ignored the varying bits would fill a handful.
    QVERIFY2(used.size() > tableSize / 2, qPrintable(QString::number(used.size())));
}

QTEST_GUILESS_MAIN(TestFlatIndex)
#include "tst_flatindex.moc"
