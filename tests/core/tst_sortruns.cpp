// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/sortruns.h"

#include <QTest>
#include <utility>
#include <vector>

using namespace nsw;

using Item = std::pair<int, int>; // key, position in the input: stability shows in the second member
Q_DECLARE_METATYPE(std::vector<Item>)

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
};

void TestSortRuns::sorting_data()
{
    QTest::addColumn<std::vector<Item>>("input");
    QTest::addColumn<std::vector<Item>>("sorted"); // by hand; equal keys keep their input order
    QTest::newRow("already sorted") << numbered({ 1, 2, 2, 5 }) << numbered({ 1, 2, 2, 5 });
    QTest::newRow("two runs, equal keys across them") << numbered(
        { 2, 4, 6, 1, 4, 7 }) << std::vector<Item> { { 1, 3 }, { 2, 0 }, { 4, 1 }, { 4, 4 }, { 6, 2 }, { 7, 5 } };
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

QTEST_GUILESS_MAIN(TestSortRuns)
#include "tst_sortruns.moc"
