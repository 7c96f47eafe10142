// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/flatindex.h"

#include <QTest>
#include <cstdint>
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

template <typename Hash> std::vector<int> indicesOf(const std::vector<int>& keys, std::vector<int>* distinct)
{
    FlatIndex<int, Hash> index;
    std::vector<int> out;
    for (const int key : keys)
        out.push_back(index.index(key));
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
};

void TestFlatIndex::numbering_data()
{
    QTest::addColumn<std::vector<int>>("keys");
    QTest::addColumn<std::vector<int>>("indices"); // numbered by hand: in order of first appearance
    QTest::addColumn<std::vector<int>>("distinct");
    QTest::newRow("repeats, the same key twice in a row") << std::vector<int> { 5, 5, -3, 5, 0, -3, 0,
        0 } << std::vector<int> { 0, 0, 1, 0, 2, 1, 2, 2 } << std::vector<int> { 5, -3, 0 };
    QTest::newRow("first key 0, the value a fresh index holds")
        << std::vector<int> { 0, 1, 0 } << std::vector<int> { 0, 1, 0 } << std::vector<int> { 0, 1 };
    std::vector<int> distinct;
    for (int k = 0; k < 1000; ++k)
        distinct.push_back(k * 7919 - 3'000'000);
    QTest::newRow("1000 keys, twice") << manyKeys() << manyIndices() << distinct;
    QTest::newRow("no keys") << std::vector<int> {} << std::vector<int> {} << std::vector<int> {};
}

void TestFlatIndex::numbering()
{
    QFETCH(std::vector<int>, keys);
    QFETCH(std::vector<int>, indices);
    QFETCH(std::vector<int>, distinct);
    std::vector<int> seen;
    QCOMPARE(indicesOf<SpreadHash>(keys, &seen), indices);
    QCOMPARE(seen, distinct);
    QCOMPARE(indicesOf<CollidingHash>(keys, &seen), indices);
    QCOMPARE(seen, distinct);
}

QTEST_GUILESS_MAIN(TestFlatIndex)
#include "tst_flatindex.moc"
