// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/mergeruns.h"

#include <QTest>
#include <vector>

using namespace nsw;

Q_DECLARE_METATYPE(std::vector<int>)
Q_DECLARE_METATYPE(std::vector<PositionRun>)
Q_DECLARE_METATYPE(std::vector<std::size_t>)

class TestMergeRuns : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void merging_data()
    {
        QTest::addColumn<std::vector<int>>("keys"); // by position
        QTest::addColumn<std::vector<PositionRun>>("runs");
        QTest::addColumn<std::vector<std::size_t>>("expected"); // positions, worked out by hand

        QTest::newRow("no runs") << std::vector<int> {} << std::vector<PositionRun> {} << std::vector<std::size_t> {};
        QTest::newRow("one run") << std::vector<int> { 1, 2, 3 } << std::vector<PositionRun> { { 0, 3 } }
                                 << std::vector<std::size_t> { 0, 1, 2 };
        QTest::newRow("two interleaved runs")
            << std::vector<int> { 1, 4, 6, 2, 3, 7 } << std::vector<PositionRun> { { 0, 3 }, { 3, 6 } }
            << std::vector<std::size_t> { 0, 3, 4, 1, 2, 5 };
        QTest::newRow("equal keys: the earlier run first, each run in its order") << std::vector<int> { 5, 5, 5,
            5 } << std::vector<PositionRun> { { 2, 4 }, { 0, 2 } } << std::vector<std::size_t> { 2, 3, 0, 1 };
        QTest::newRow("empty runs among others")
            << std::vector<int> { 9, 1 } << std::vector<PositionRun> { { 0, 0 }, { 1, 2 }, { 2, 2 }, { 0, 1 } }
            << std::vector<std::size_t> { 1, 0 };
        QTest::newRow("positions not covered by a run are not visited") << std::vector<int> { 3, 0,
            1 } << std::vector<PositionRun> { { 1, 3 } } << std::vector<std::size_t> { 1, 2 };
    }

    void merging()
    {
        QFETCH(std::vector<int>, keys);
        QFETCH(std::vector<PositionRun>, runs);
        QFETCH(std::vector<std::size_t>, expected);
        std::vector<std::size_t> visited;
        std::vector<int> visitedKeys;
        forEachMerged(
            std::span<const PositionRun>(runs), [&](std::size_t p) { return keys[p]; },
            [&](std::size_t p, int key) {
                visited.push_back(p);
                visitedKeys.push_back(key);
            });
        QCOMPARE(visited, expected);
        for (std::size_t i = 0; i < visited.size(); ++i)
            QCOMPARE(visitedKeys[i], keys[visited[i]]);
    }
};

QTEST_GUILESS_MAIN(TestMergeRuns)
#include "tst_mergeruns.moc"
