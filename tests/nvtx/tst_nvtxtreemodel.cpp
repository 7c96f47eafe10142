// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/nvtxflatmodel.h"
#include "core/models/nvtxtreemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/util/csv.h"
#include "nvtxfixture.h"
#include "testutils.h"

#include <QAbstractItemModelTester>
#include <QBuffer>
#include <QSignalSpy>
#include <QTest>
#include <functional>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {
std::shared_ptr<const NvtxTree> mergedFixtureTree()
{
    return std::make_shared<const NvtxTree>(buildNvtxTree(test::nvtxFixture(), { NvtxGrouping::Merged, false }));
}
} // namespace

class TestNvtxTreeModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void modelTester();
    void printsTheTree();
    void sortsOnRawValues();
    void filterKeepsAncestors();
    void hasChildrenAgreesWithRows_data();
    void hasChildrenAgreesWithRows();
    void highlight();
    void flatModel();
};

void TestNvtxTreeModel::modelTester()
{
    NvtxTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    SortFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTree(mergedFixtureTree());
    model.setTree(std::make_shared<const NvtxTree>(buildNvtxTree(test::nvtxFixture())));
    proxy.sort(NvtxTreeModel::GpuColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.setFilter(u"gemm"_s, false), QString());
    model.setHighlighted({ 3, 4 });
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestNvtxTreeModel::printsTheTree()
{
    NvtxTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTree(mergedFixtureTree());
    // Values from nvtxfixture.h; % of the 1910 ns of kernel time in the profile.
    const QStringList expected = {
        u"step_1 | 2 | 2.00 µs | 1.05 µs | 1.05 µs | 7 | 55.0"_s,
        u"  forward | 1 | 400 ns | 400 ns | 400 ns | 4 | 20.9"_s,
        u"    layer_1 | 1 | 100 ns | 300 ns | 320 ns | 2 | 15.7"_s,
        u"      domain 7:x | 1 | 3 ns | 100 ns | 100 ns | 1 | 5.2"_s,
        u"        k_x | 1 |  | 100 ns |  | 1 | 5.2"_s,
        u"      gemm | 1 |  | 200 ns |  | 1 | 10.5"_s,
        u"    layer_2 | 1 | 140 ns | 50 ns | 50 ns | 1 | 2.6"_s,
        u"      gemm | 1 |  | 50 ns |  | 1 | 2.6"_s,
        u"    relu | 1 |  | 50 ns |  | 1 | 2.6"_s,
        u"  NCCL:ncclAllReduce | 1 | 100 ns | 300 ns | 300 ns | 1 | 15.7"_s,
        u"    nccl_allreduce | 1 |  | 300 ns |  | 1 | 15.7"_s,
        u"  optimizer | 1 |  | 50 ns |  | 1 | 2.6"_s,
        u"  gemm | 1 |  | 300 ns |  | 1 | 15.7"_s,
        u"step_2 | 1 | 1.00 µs | 210 ns | 210 ns | 2 | 11.0"_s,
        u"  forward | 1 | 400 ns | 200 ns | 200 ns | 1 | 10.5"_s,
        u"    layer_1 | 1 | 110 ns | 200 ns | 200 ns | 1 | 10.5"_s,
        u"      gemm | 1 |  | 200 ns |  | 1 | 10.5"_s,
        u"  optimizer | 1 |  | 10 ns |  | 1 | 0.5"_s,
        u"async_io  (1 ended on another thread) | 1 | 600 ns | 100 ns | 100 ns | 1 | 5.2"_s,
        u"  copy_kernel | 1 |  | 100 ns |  | 1 | 5.2"_s,
        u"tail  (1 unterminated) | 1 | 1.00 µs | 200 ns | 200 ns | 1 | 10.5"_s,
        u"  final | 1 |  | 200 ns |  | 1 | 10.5"_s,
        u"worker | 1 | 300 ns | 100 ns | 100 ns | 1 | 5.2"_s,
        u"  k_worker | 1 |  | 100 ns |  | 1 | 5.2"_s,
    };
    QCOMPARE(test::printModel(model), expected);
    QCOMPARE(model.headerData(NvtxTreeModel::GpuColumn, Qt::Horizontal, RawValueRole).toString(), u"GPU Total (ns)"_s);
}

void TestNvtxTreeModel::sortsOnRawValues()
{
    NvtxTreeModel model;
    model.setTree(mergedFixtureTree());
    SortFilterProxy proxy;
    proxy.setSourceModel(&model);
    proxy.sort(NvtxTreeModel::GpuColumn, Qt::DescendingOrder);
    // 1050, 210, 200 ns: as text "200 ns" > "1.05 µs", so this order holds only on raw values.
    QCOMPARE(proxy.index(0, 0).data().toString(), u"step_1"_s);
    QCOMPARE(proxy.index(1, 0).data().toString(), u"step_2"_s);
    QCOMPARE(proxy.index(2, 0).data(SortRole).toString(), u"tail"_s); // displayed with "(1 unterminated)"
    QCOMPARE(proxy.index(0, NvtxTreeModel::GpuColumn).data(SortRole).toLongLong(), 1050);
    proxy.sort(NvtxTreeModel::CpuColumn, Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, 0).data().toString(), u"worker"_s); // 300 ns
    QCOMPARE(proxy.index(4, 0).data().toString(), u"step_1"_s); // 2000 ns
}

void TestNvtxTreeModel::filterKeepsAncestors()
{
    NvtxTreeModel model;
    model.setTree(mergedFixtureTree());
    SortFilterProxy proxy;
    proxy.setSourceModel(&model);
    proxy.setFilterKeyColumn(NvtxTreeModel::RangeColumn);
    QCOMPARE(proxy.setFilter(u"^k_"_s, true), QString());
    QCOMPARE(test::printModel(proxy),
        (QStringList { u"step_1 | 2 | 2.00 µs | 1.05 µs | 1.05 µs | 7 | 55.0"_s,
            u"  forward | 1 | 400 ns | 400 ns | 400 ns | 4 | 20.9"_s,
            u"    layer_1 | 1 | 100 ns | 300 ns | 320 ns | 2 | 15.7"_s,
            u"      domain 7:x | 1 | 3 ns | 100 ns | 100 ns | 1 | 5.2"_s, u"        k_x | 1 |  | 100 ns |  | 1 | 5.2"_s,
            u"worker | 1 | 300 ns | 100 ns | 100 ns | 1 | 5.2"_s, u"  k_worker | 1 |  | 100 ns |  | 1 | 5.2"_s }));
    QVERIFY(!proxy.setFilter(u"(unclosed"_s, true).isEmpty());
}

void TestNvtxTreeModel::hasChildrenAgreesWithRows_data()
{
    QTest::addColumn<QString>("filter");
    // The merged fixture tree (nvtxfixture.h): step_1 > forward > layer_1 > domain 7:x > k_x, worker > k_worker.
    // Without a filter the proxy answers from the source; with one, a shown range whose children are all filtered
    // out has none.
    QTest::addRow("no filter") << QString();
    QTest::addRow("a range whose children are all filtered out") << u"^forward$"_s;
}

void TestNvtxTreeModel::hasChildrenAgreesWithRows()
{
    QFETCH(QString, filter);
    NvtxTreeModel model;
    model.setTree(mergedFixtureTree());
    SortFilterProxy proxy;
    proxy.setSourceModel(&model);
    proxy.setFilterKeyColumn(NvtxTreeModel::RangeColumn);
    QCOMPARE(proxy.setFilter(filter, true), QString());
    int nodes = 0;
    std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
        QCOMPARE(proxy.hasChildren(parent), proxy.rowCount(parent) > 0);
        for (int r = 0; r < proxy.rowCount(parent); ++r, ++nodes)
            walk(proxy.index(r, 0, parent));
    };
    walk({});
    QVERIFY(nodes > 0);
    const QModelIndex step = proxy.index(0, 0);
    const QModelIndex forward = proxy.match(step, Qt::DisplayRole, u"forward"_s, 1, Qt::MatchRecursive).value(0);
    QVERIFY(forward.isValid());
    QVERIFY(model.hasChildren(proxy.mapToSource(forward)));
    QCOMPARE(proxy.hasChildren(forward), filter.isEmpty());
}

void TestNvtxTreeModel::highlight()
{
    NvtxTreeModel model;
    model.setTree(mergedFixtureTree());
    const std::shared_ptr<const NvtxTree> tree = model.tree();
    const std::vector<std::int32_t> nodes = nvtxNodesContainingKernel(*tree, 0); // K1: k_x, x, layer_1, ...
    QCOMPARE(nodes.size(), std::size_t(5));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setHighlighted(nodes);
    QCOMPARE(changed.count(), 5);
    for (const std::int32_t n : nodes)
        QVERIFY(model.indexOfNode(n).data(NvtxTreeModel::HighlightRole).toBool());
    const QModelIndex step2 = model.index(1, 0);
    QCOMPARE(step2.data().toString(), u"step_2"_s);
    QVERIFY(!step2.data(NvtxTreeModel::HighlightRole).toBool());
    changed.clear();
    model.setHighlighted({});
    QCOMPARE(changed.count(), 5); // the old marks are cleared
    QVERIFY(!model.indexOfNode(nodes[0]).data(NvtxTreeModel::HighlightRole).toBool());
    QCOMPARE(model.indexOfNode(nodes[0]).data(KernelNameRole).toString(), u"k_x"_s);
}

void TestNvtxTreeModel::flatModel()
{
    NvtxFlatModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTree(mergedFixtureTree());
    QCOMPARE(model.rowCount(), 24);
    // Parents before children, siblings by GPU time, then CPU time: in step_1, NCCL (300, CPU 100) before the gemm
    // leaf (300, CPU 0).
    QStringList firstRows;
    for (int r = 0; r < 7; ++r)
        firstRows.append(model.index(r, NvtxFlatModel::DepthColumn).data().toString() + u" "_s
            + model.index(r, NvtxFlatModel::PathColumn).data().toString());
    QCOMPARE(firstRows,
        (QStringList { u"1 step_1"_s, u"2 step_1 > forward"_s, u"3 step_1 > forward > layer_1"_s,
            u"4 step_1 > forward > layer_1 > gemm"_s, u"4 step_1 > forward > layer_1 > domain 7:x"_s,
            u"5 step_1 > forward > layer_1 > domain 7:x > k_x"_s, u"3 step_1 > forward > layer_2"_s }));
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(writeModelCsv(model, buffer, RawValueRole));
    const QList<QByteArray> lines = buffer.data().split('\n');
    QCOMPARE(lines[0],
        QByteArray("depth,path,kind,range,instances,cpu_total_ns,gpu_total_ns,projected_span_ns,kernels,mem_ops,"
                   "gpu_pct"));
    QVERIFY(lines[1].startsWith("1,step_1,range,step_1,2,2000,1050,1050,7,1,54.97"));
    QVERIFY(lines[4].startsWith("4,step_1 > forward > layer_1 > gemm,kernel,gemm,1,0,200,0,1,0,10.47"));
}

QTEST_GUILESS_MAIN(TestNvtxTreeModel)
#include "tst_nvtxtreemodel.moc"
