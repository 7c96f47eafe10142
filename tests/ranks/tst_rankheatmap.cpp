// SPDX-License-Identifier: GPL-3.0-or-later
// The Ranks pane's heat map on hand-made results: one cell per rank × iteration with the hand-worked values, blank
// cells for missing iterations, 1,024 ranks binned to the pixels with the worst of each bin shown and clicked.
#include "widgets/ranks/rankheatmap.h"

#include <QSignalSpy>
#include <QTest>
#include <cmath>

using namespace nsw;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(nsw::RankMetric)

namespace {

constexpr TimeNs kMs = 1'000'000;

/// @p ranks ranks of @p iterations iterations of 10 ms (2 ms idle), rank @p slow's iteration @p slowIteration 50 ms
/// (all of it compute); rank 2 of a run with more than 2 ranks lacks its last iteration.
std::shared_ptr<const RanksResult> run(int ranks, int iterations, int slow, int slowIteration)
{
    auto result = std::make_shared<RanksResult>();
    for (int r = 0; r < ranks; ++r) {
        RankRow row;
        row.rank = r;
        const int count = (r == 2 && ranks > 2) ? iterations - 1 : iterations;
        for (int i = 0; i < count; ++i) {
            RankIterationCell cell;
            cell.iteration = i;
            cell.start = TimeNs(i) * 100 * kMs;
            const bool isSlow = r == slow && i == slowIteration;
            cell.end = cell.start + (isSlow ? 50 : 10) * kMs;
            cell.computeNs = isSlow ? 50 * kMs : 8 * kMs;
            cell.idleNs = isSlow ? 0 : 2 * kMs;
            row.iterations.push_back(cell);
        }
        result->ranks.push_back(std::move(row));
    }
    return result;
}

/// The widget point at the centre of a cell.
QPoint centreOf(const RankHeatmap& map, int row, int iteration)
{
    return QPointF(map.xAxis->coordToPixel(iteration), map.yAxis->coordToPixel(row)).toPoint();
}

} // namespace

class TestRankHeatmap : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oneCellPerRankAndIteration_data();
    void oneCellPerRankAndIteration();
    void thousandRanksShowTheWorstPerPixel();
    void emptySaysWhatToDo_data();
    void emptySaysWhatToDo();
};

void TestRankHeatmap::oneCellPerRankAndIteration_data()
{
    QTest::addColumn<RankMetric>("metric");
    QTest::addColumn<double>("usual"); // an ordinary cell
    QTest::addColumn<double>("slow"); // rank 1, iteration 2
    QTest::addColumn<QString>("scaleLabel");
    QTest::newRow("iteration time in ms") << RankMetric::Time << 10.0 << 50.0 << u"iteration time (ms)"_s;
    QTest::newRow("idle in ms") << RankMetric::Idle << 2.0 << 0.0 << u"idle (ms)"_s;
    QTest::newRow("bubble share in %: 2 of 10 ms") << RankMetric::Bubble << 20.0 << 0.0 << u"bubble share (%)"_s;
}

void TestRankHeatmap::oneCellPerRankAndIteration()
{
    QFETCH(RankMetric, metric);
    QFETCH(double, usual);
    QFETCH(double, slow);
    QFETCH(QString, scaleLabel);
    RankHeatmap map;
    map.resize(800, 400);
    map.show();
    QVERIFY(QTest::qWaitForWindowExposed(&map));
    map.setResult(run(4, 3, 1, 2), metric);
    QCOMPARE(map.shownRows(), 4);
    QCOMPARE(map.shownColumns(), 3);
    QCPColorMapData* data = map.colorMap()->data(); // QCPColorMapData::cell() is not const
    QCOMPARE(data->keySize(), 3);
    QCOMPARE(data->valueSize(), 4);
    QCOMPARE(data->cell(0, 0), usual);
    QCOMPARE(data->cell(2, 1), slow);
    QVERIFY2(std::isnan(data->cell(2, 2)), "rank 2 has no iteration 2: a blank cell");
    QCOMPARE(map.colorMap()->colorScale()->axis()->label(), scaleLabel);
    QVERIFY(map.colorMap()->colorScale()->visible());
    // Rank 0 on top: its row is above rank 3's.
    QVERIFY(map.yAxis->coordToPixel(0) < map.yAxis->coordToPixel(3));
    QSignalSpy clicked(&map, &RankHeatmap::cellClicked);
    QTest::mouseClick(&map, Qt::LeftButton, {}, centreOf(map, 1, 2));
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked.first().at(0).toInt(), 1);
    QCOMPARE(clicked.first().at(1).toInt(), 2);
    // A blank cell is no cell.
    QCOMPARE(map.cellAt(centreOf(map, 2, 2)), std::make_pair(-1, -1));
}

void TestRankHeatmap::thousandRanksShowTheWorstPerPixel()
{
    RankHeatmap map;
    map.resize(900, 420);
    map.show();
    QVERIFY(QTest::qWaitForWindowExposed(&map));
    map.setResult(run(1024, 20, 700, 13), RankMetric::Time);
    const int pixels = map.axisRect()->height();
    QVERIFY2(pixels < 1024, "the test needs fewer pixels than ranks");
    QCOMPARE(map.shownRows(), pixels);
    QCOMPARE(map.shownColumns(), 20);
    // The bin holding rank 700 shows its 50 ms, not an average; every other cell of that column shows 10 ms.
    QCPColorMapData* data = map.colorMap()->data(); // QCPColorMapData::cell() is not const
    const int bin = 700 * pixels / 1024;
    QCOMPARE(data->cell(13, bin), 50.0);
    int slowCells = 0;
    for (int b = 0; b < pixels; ++b)
        for (int i = 0; i < 20; ++i)
            slowCells += data->cell(i, b) == 50.0 ? 1 : 0;
    QCOMPARE(slowCells, 1);
    // A click on that pixel row picks rank 700, the worst of the ranks it shows.
    QSignalSpy clicked(&map, &RankHeatmap::cellClicked);
    QTest::mouseClick(&map, Qt::LeftButton, {}, centreOf(map, 700, 13));
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked.first().at(0).toInt(), 700);
    QCOMPARE(clicked.first().at(1).toInt(), 13);
    // A taller heat map shows more rows, still one per pixel at most.
    map.resize(900, 1300);
    map.replot();
    QCOMPARE(map.shownRows(), std::min(1024, map.axisRect()->height()));
}

void TestRankHeatmap::emptySaysWhatToDo_data()
{
    QTest::addColumn<int>("ranks");
    QTest::addColumn<QString>("says");
    QTest::newRow("no ranks: open some") << 0 << u"Open rank exports"_s;
    // Two ranks of one run without an iteration marker (the mfu export's two GPUs): it said "open rank exports".
    QTest::newRow("ranks without iterations: name a marker") << 2 << u"No iterations in these ranks"_s;
}

void TestRankHeatmap::emptySaysWhatToDo()
{
    QFETCH(int, ranks);
    QFETCH(QString, says);
    RankHeatmap map;
    map.resize(600, 300);
    if (ranks > 0)
        map.setResult(run(ranks, 0, -1, -1), RankMetric::Time);
    map.show();
    QVERIFY(QTest::qWaitForWindowExposed(&map));
    QVERIFY(!map.colorMap()->visible());
    QVERIFY(!map.colorMap()->colorScale()->visible());
    bool sentence = false;
    for (int i = 0; i < map.itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(map.item(i)))
            sentence = sentence || (text->visible() && text->text().startsWith(says));
    QVERIFY(sentence);
}

QTEST_MAIN(TestRankHeatmap)
#include "tst_rankheatmap.moc"
