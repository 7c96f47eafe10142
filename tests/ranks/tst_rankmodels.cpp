// SPDX-License-Identifier: GPL-3.0-or-later
// The Ranks pane's models on a hand-made two-rank run: QAbstractItemModelTester, the text and raw values of their
// cells, and the CSV `ranks --format csv` writes from the matrix.
#include "core/models/collectiveskewmodel.h"
#include "core/models/modelroles.h"
#include "core/models/rankmatrixmodel.h"
#include "core/models/ranktablemodel.h"
#include "core/ranks/rankmerge.h"
#include "core/util/csv.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

/// Rank 0 and rank 1 in one export (one clock): two iterations each; AllReduce #0 arrives at 100 and 300 and ends at
/// 400; #1 at 1500 and 1200 and ends at 1600. Rank 1 has a third iteration.
std::shared_ptr<const RanksResult> twoRanks()
{
    RankFile f;
    f.exportPath = u"/runs/job.sqlite"_s;
    f.host = u"node-0"_s;
    f.names = { u"ncclDevKernel_AllReduce_Sum_f32"_s };
    RankSummary a, b;
    a.pid = 10;
    a.gpu = 0;
    a.gpuLabel = u"GPU 0"_s;
    a.iterations = { { 0, 1000, 300, 300, 100 }, { 1000, 2000, 200, 100, 0 } };
    a.collectives = { { 100, 400, 0, 0 }, { 1500, 1600, 0, 0 } };
    b.pid = 11;
    b.gpu = 1;
    b.gpuLabel = u"GPU 1"_s;
    b.iterations = { { 0, 1000, 250, 100, 0 }, { 1000, 2000, 150, 400, 0 }, { 2000, 4000, 0, 0, 0 } };
    b.collectives = { { 300, 400, 0, 0 }, { 1200, 1600, 0, 0 } };
    f.ranks = { a, b };
    Result<RanksResult> r = mergeRanks({ std::make_shared<const RankFile>(f) }, {}, {});
    return r.ok() ? std::make_shared<const RanksResult>(std::move(*r)) : nullptr;
}

} // namespace

class TestRankModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matrix();
    void rankTable();
    void collectives();
};

void TestRankModels::matrix()
{
    const auto r = twoRanks();
    QVERIFY(r);
    RankMatrixModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResult(r, RankMetric::Wait);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), 4); // rank + three iterations
    // Waits: rank 0 waits 200 at #0 (iteration 0), rank 1 waits 300 at #1 (iteration 1).
    QCOMPARE(model.index(0, 1).data(RawValueRole).toLongLong(), 200);
    QCOMPARE(model.index(1, 2).data(RawValueRole).toLongLong(), 300);
    QCOMPARE(model.index(1, 2).data().toString(), u"300 ns"_s);
    QVERIFY(!model.index(0, 3).data(RawValueRole).isValid()); // rank 0 has no third iteration
    QCOMPARE(modelCsv(model, RawValueRole), u"Rank,0 (ns),1 (ns),2 (ns)\n0,200,0,\n1,0,300,0\n"_s);
    model.setResult(r, RankMetric::Bubble);
    // Rank 0, iteration 0: idle 1000 - 300 - 300 - 100 = 300 of 1000.
    QCOMPARE(model.index(0, 1).data(RawValueRole).toDouble(), 30.0);
    QCOMPARE(model.index(0, 1).data().toString(), u"30.0 %"_s);
    QCOMPARE(model.headerData(1, Qt::Horizontal, RawValueRole).toString(), u"0 (%)"_s);
}

void TestRankModels::rankTable()
{
    const auto r = twoRanks();
    QVERIFY(r);
    RankTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResult(r);
    QCOMPARE(model.rowCount(), 2);
    auto text = [&](int row, int column) { return model.index(row, column).data().toString(); };
    QCOMPARE(text(0, RankTableModel::PidColumn), u"10"_s);
    QCOMPARE(text(1, RankTableModel::GpuColumn), u"GPU 1"_s);
    QCOMPARE(text(0, RankTableModel::FileColumn), u"job.sqlite"_s);
    QCOMPARE(text(0, RankTableModel::CollectivesColumn), u"2"_s);
    QCOMPARE(text(0, RankTableModel::LastArrivalsColumn), u"1"_s);
    QCOMPARE(text(0, RankTableModel::LastSharesColumn), u"50.0 %"_s);
    QCOMPARE(text(1, RankTableModel::WaitColumn), u"300 ns"_s);
    QCOMPARE(text(1, RankTableModel::WaitPerIterationColumn), u"100 ns"_s); // 300 over 3 iterations
    QCOMPARE(text(1, RankTableModel::MedianIterationColumn), u"1.00 µs"_s);
    QCOMPARE(model.index(1, RankTableModel::ClockOffsetColumn).data(Qt::ToolTipRole).toString(),
        u"reference clock (the export of rank 0)"_s);
}

void TestRankModels::collectives()
{
    const auto r = twoRanks();
    QVERIFY(r);
    CollectiveSkewModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResult(r);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, CollectiveSkewModel::KindColumn).data().toString(), u"AllReduce"_s);
    QCOMPARE(model.index(0, CollectiveSkewModel::StragglerColumn).data().toString(), u"rank 1"_s);
    QCOMPARE(model.index(0, CollectiveSkewModel::SkewColumn).data(RawValueRole).toLongLong(), 200);
    QCOMPARE(model.index(0, CollectiveSkewModel::TransferColumn).data(RawValueRole).toLongLong(), 100);
    QCOMPARE(model.index(1, CollectiveSkewModel::StragglerColumn).data().toString(), u"rank 0"_s);
    QCOMPARE(model.index(1, CollectiveSkewModel::SkewColumn).data().toString(), u"300 ns"_s);
    QCOMPARE(model.index(1, CollectiveSkewModel::IterationColumn).data().toString(), u"1"_s);
}

QTEST_GUILESS_MAIN(TestRankModels)
#include "tst_rankmodels.moc"
