// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/sortruns.h"

#include <QTest>
#include <algorithm>
#include <utility>
#include <vector>

using namespace nsw;

using Item = std::pair<int, int>; // key, position in the input: stability shows in the second member
Q_DECLARE_METATYPE(std::vector<Item>)
Q_DECLARE_METATYPE(std::vector<int>)

namespace {

const auto byKey = [](const Item& a, const Item& b) { return a.first < b.first; };

std::vector<Item> numbered(const std::vector<int>& keys)
{
    std::vector<Item> v;
    for (std::size_t i = 0; i < keys.size(); ++i)
        v.emplace_back(keys[i], int(i));
    return v;
}

} // namespace

class TestSortRuns : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sorting_data();
    void sorting();
    void tooManyRuns();
    void partOfALargerVector();
    void aLongFirstRunNeedsAScratchOfTheRest_data();
    void aLongFirstRunNeedsAScratchOfTheRest();
};

void TestSortRuns::sorting_data()
{
    QTest::addColumn<std::vector<Item>>("input");
    QTest::addColumn<std::vector<Item>>("sorted"); // by hand; equal keys keep their input order
    QTest::newRow("already sorted") << numbered({ 1, 2, 2, 5 }) << numbered({ 1, 2, 2, 5 });
    QTest::newRow("two runs, equal keys across them") << numbered(
        { 2, 4, 6, 1, 4, 7 }) << std::vector<Item> { { 1, 3 }, { 2, 0 }, { 4, 1 }, { 4, 4 }, { 6, 2 }, { 7, 5 } };
    QTest::newRow("two runs, the right one shorter, equal keys across them")
        << numbered({ 1, 3, 3, 5, 8, 3, 9 })
        << std::vector<Item> { { 1, 0 }, { 3, 1 }, { 3, 2 }, { 3, 5 }, { 5, 3 }, { 8, 4 }, { 9, 6 } };
    QTest::newRow("two runs, the left one shorter, equal keys across them")
        << numbered({ 4, 9, 0, 4, 4, 5, 10 })
        << std::vector<Item> { { 0, 2 }, { 4, 0 }, { 4, 3 }, { 4, 4 }, { 5, 5 }, { 9, 1 }, { 10, 6 } };
    QTest::newRow("two runs, every right key before the left ones")
        << numbered({ 5, 6, 1, 2, 3 }) << std::vector<Item> { { 1, 2 }, { 2, 3 }, { 3, 4 }, { 5, 0 }, { 6, 1 } };
    QTest::newRow("three runs (an odd one left over in the first pass)") << numbered(
        { 5, 9, 1, 8, 0, 3 }) << std::vector<Item> { { 0, 4 }, { 1, 2 }, { 3, 5 }, { 5, 0 }, { 8, 3 }, { 9, 1 } };
    QTest::newRow("descending, every element its own run")
        << numbered({ 3, 2, 1 }) << std::vector<Item> { { 1, 2 }, { 2, 1 }, { 3, 0 } };
    QTest::newRow("empty") << std::vector<Item> {} << std::vector<Item> {};
}

void TestSortRuns::sorting()
{
    QFETCH(std::vector<Item>, input);
    QFETCH(std::vector<Item>, sorted);
    std::vector<Item> scratch;
    QVERIFY(sortByRuns(std::span(input), scratch, byKey));
    QCOMPARE(input, sorted);
}

void TestSortRuns::tooManyRuns()
{
    std::vector<Item> v = numbered({ 4, 3, 2, 1 }); // four runs
    std::vector<Item> scratch;
    QVERIFY(!sortByRuns(std::span(v), scratch, byKey, 3));
    QCOMPARE(v, numbered({ 4, 3, 2, 1 }));
    QVERIFY(sortByRuns(std::span(v), scratch, byKey, 4));
    QCOMPARE(v, (std::vector<Item> { { 1, 3 }, { 2, 2 }, { 3, 1 }, { 4, 0 } }));
}

void TestSortRuns::partOfALargerVector()
{
    // Only the span is sorted; the scratch may be larger than it from an earlier call.
    std::vector<Item> v = numbered({ 9, 3, 1, 2, 0, 9 });
    std::vector<Item> scratch(10);
    QVERIFY(sortByRuns(std::span(v).subspan(1, 4), scratch, byKey));
    QCOMPARE(v, (std::vector<Item> { { 9, 0 }, { 0, 4 }, { 1, 2 }, { 2, 3 }, { 3, 1 }, { 9, 5 } }));
}

void TestSortRuns::aLongFirstRunNeedsAScratchOfTheRest_data()
{
    // A device's many kernels then its few memory copies and memsets: the scratch holds the few, not the whole.
    QTest::addColumn<std::vector<int>>("tail");
    QTest::addColumn<int>("keyAt252"); // after 0, 1, 2, 4 ... 500
    QTest::newRow("one short run after it") << std::vector<int> { 1, 501, 1999 } << 501;
    QTest::newRow("two short runs after it") << std::vector<int> { 501, 1999, 1 } << 501;
    QTest::newRow("three short runs after it") << std::vector<int> { 1999, 501, 1 } << 501;
}

void TestSortRuns::aLongFirstRunNeedsAScratchOfTheRest()
{
    QFETCH(std::vector<int>, tail);
    QFETCH(int, keyAt252);
    std::vector<int> keys(1000);
    for (int i = 0; i < 1000; ++i)
        keys[std::size_t(i)] = 2 * i;
    keys.insert(keys.end(), tail.begin(), tail.end());
    std::vector<Item> v = numbered(keys), scratch;
    QVERIFY(sortByRuns(std::span(v), scratch, byKey));
    QVERIFY(scratch.capacity() <= tail.size());
    QVERIFY(std::is_sorted(v.begin(), v.end(), byKey));
    QCOMPARE(v.size(), keys.size());
    QCOMPARE(v[1].first, 1);
    QCOMPARE(v[252].first, keyAt252);
    QCOMPARE(v.back().first, 1999);
}

QTEST_GUILESS_MAIN(TestSortRuns)
#include "tst_sortruns.moc"
