// SPDX-License-Identifier: GPL-3.0-or-later
// The Samples pane's models on hand-made functions and tree rows: QAbstractItemModelTester, the text, raw and CSV
// values of each column, the labels of kernel-mode and unresolved frames, and the tree's parents.
#include "core/models/modelroles.h"
#include "core/models/samplemodels.h"
#include "core/models/sortfilterproxy.h"
#include "core/util/csv.h"
#include "profilebuilder.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

/// Functions 0 "main" (python3), 1 "do_syscall_64" (kernel mode, vmlinux), 2 "0x7f12" (unresolved, libc.so).
ProfilePtr profileWithFunctions()
{
    test::ProfileBuilder b;
    CpuFunctionTable& f = b.profile().cpuSamples.functions;
    const auto add = [&](const QString& symbol, const QString& module, std::uint8_t flags) {
        f.symbol.push_back(b.str(symbol));
        f.module.push_back(b.str(module));
        f.flags.push_back(flags);
    };
    add(u"main"_s, u"python3"_s, 0);
    add(u"do_syscall_64"_s, u"vmlinux"_s, CpuFunctionTable::kKernelMode);
    add(u"0x7f12"_s, u"libc.so"_s, CpuFunctionTable::kUnresolved);
    return b.build();
}

} // namespace

class TestSampleModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void flatCells_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QVariant>("raw");
        QTest::addColumn<QString>("csv");
        // 8 samples: main 1 self of 8 total, the syscall 4 of 4, the unresolved frame 2 of 2, no stack 1 of 1.
        QTest::addRow("function") << 0 << int(SampleFunctionColumn) << u"main"_s << QVariant(u"main"_s) << u"main"_s;
        QTest::addRow("module") << 0 << int(SampleModuleColumn) << u"python3"_s << QVariant(u"python3"_s)
                                << u"python3"_s;
        QTest::addRow("total samples") << 0 << int(SampleTotalColumn) << u"8"_s << QVariant(qint64(8)) << u"8"_s;
        QTest::addRow("self share, one decimal on screen, two in CSV")
            << 0 << int(SampleSelfPercentColumn) << u"12.5 %"_s << QVariant(12.5) << u"12.50"_s;
        QTest::addRow("kernel-mode frame is labelled") << 1 << int(SampleFunctionColumn) << u"do_syscall_64 [kernel]"_s
                                                       << QVariant(u"do_syscall_64"_s) << u"do_syscall_64"_s;
        QTest::addRow("unresolved frame is labelled")
            << 2 << int(SampleFunctionColumn) << u"0x7f12 [unresolved]"_s << QVariant(u"0x7f12"_s) << u"0x7f12"_s;
        QTest::addRow("samples without a stack") << 3 << int(SampleFunctionColumn) << u"[no call stack]"_s
                                                 << QVariant(u"[no call stack]"_s) << u"[no call stack]"_s;
        QTest::addRow("half of the samples")
            << 1 << int(SampleTotalPercentColumn) << u"50.0 %"_s << QVariant(50.0) << u"50.00"_s;
    }
    void flatCells()
    {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, text);
        QFETCH(QVariant, raw);
        QFETCH(QString, csv);
        SampleFlatModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setFunctions(profileWithFunctions(), { { 0, 1, 8 }, { 1, 4, 4 }, { 2, 2, 2 }, { -1, 1, 1 } }, 8);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(SampleColumnCount));
        const QModelIndex index = model.index(row, column);
        QCOMPARE(index.data().toString(), text);
        QCOMPARE(index.data(RawValueRole), raw);
        QCOMPARE(index.data(CsvTextRole).toString(), csv);
        QCOMPARE(model.functionAt(row)->function, row < 3 ? row : -1);
        QCOMPARE(model.headerData(column, Qt::Horizontal).toString(),
            (QStringList { u"Function"_s, u"Module"_s, u"Self"_s, u"Total"_s, u"Self %"_s, u"Total %"_s }[column]));
    }

    void treeFollowsParentRows()
    {
        // main (8) > do_syscall_64 (4), 0x7f12 (2); [no call stack] (1) at the top.
        const std::vector<SampleTreeRow> rows
            = { { 0, -1, 0, 0, 1, 8 }, { 1, 0, 1, 1, 4, 4 }, { 2, 0, 1, 2, 2, 2 }, { 3, -1, 0, -1, 1, 1 } };
        SampleTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(profileWithFunctions(), rows, 8);
        QCOMPARE(model.rowCount(), 2);
        const QModelIndex main = model.index(0, SampleFunctionColumn);
        QCOMPARE(main.data().toString(), u"main"_s);
        QCOMPARE(model.rowCount(main), 2);
        QCOMPARE(model.index(1, SampleFunctionColumn, main).data().toString(), u"0x7f12 [unresolved]"_s);
        QCOMPARE(model.index(0, SampleSelfColumn, main).data(RawValueRole).toLongLong(), 4);
        QCOMPARE(model.functionOf(model.index(0, 0, main)), 1);
        QCOMPARE(model.index(1, SampleTotalPercentColumn).data().toString(), u"12.5 %"_s);
        QCOMPARE(model.functionOf(model.index(1, 0)), -1);
        model.setRows(profileWithFunctions(), {}, 0);
        QCOMPARE(model.rowCount(), 0);
    }

    /// The panes' proxy keeps a model's own order for the column it declares presorted, and sorts every other column
    /// (and a model whose rows are not in that order) by value; expected orders worked by hand.
    void proxyOrder_data()
    {
        QTest::addColumn<bool>("tree");
        QTest::addColumn<bool>("inCountOrder"); ///< rows given as countFunctions()/the tree rows order them
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("order");
        QTest::addColumn<QStringList>("expected");
        // Flat, in count order: main 5/8, do_syscall_64 2/4, 0x7f12 2/2, [no call stack] 1/1.
        QTest::addRow("functions by self, descending: the model's order, ties kept")
            << false << true << int(SampleSelfColumn) << int(Qt::DescendingOrder)
            << QStringList { u"main"_s, u"do_syscall_64"_s, u"0x7f12"_s, u"[no call stack]"_s };
        QTest::addRow("functions by self, ascending: ties in the model's order")
            << false << true << int(SampleSelfColumn) << int(Qt::AscendingOrder)
            << QStringList { u"[no call stack]"_s, u"do_syscall_64"_s, u"0x7f12"_s, u"main"_s };
        QTest::addRow("functions by total, ascending")
            << false << true << int(SampleTotalColumn) << int(Qt::AscendingOrder)
            << QStringList { u"[no call stack]"_s, u"0x7f12"_s, u"do_syscall_64"_s, u"main"_s };
        // Flat, not in count order: [no call stack] 1/1, 0x7f12 2/2, main 5/8, do_syscall_64 2/4.
        QTest::addRow("functions out of count order, by self, descending")
            << false << false << int(SampleSelfColumn) << int(Qt::DescendingOrder)
            << QStringList { u"main"_s, u"0x7f12"_s, u"do_syscall_64"_s, u"[no call stack]"_s };
        // Tree, in total order: main 8 > (do_syscall_64 4, 0x7f12 4); [no call stack] 1.
        QTest::addRow("tree by total, descending: the rows' order")
            << true << true << int(SampleTotalColumn) << int(Qt::DescendingOrder)
            << QStringList { u"main"_s, u"do_syscall_64"_s, u"0x7f12"_s, u"[no call stack]"_s };
        QTest::addRow("tree by total, ascending")
            << true << true << int(SampleTotalColumn) << int(Qt::AscendingOrder)
            << QStringList { u"[no call stack]"_s, u"main"_s, u"do_syscall_64"_s, u"0x7f12"_s };
        // Tree, children not in total order: main > (0x7f12 1, do_syscall_64 4).
        QTest::addRow("tree out of total order, by total, descending")
            << true << false << int(SampleTotalColumn) << int(Qt::DescendingOrder)
            << QStringList { u"main"_s, u"do_syscall_64"_s, u"0x7f12"_s, u"[no call stack]"_s };
    }
    void proxyOrder()
    {
        QFETCH(bool, tree);
        QFETCH(bool, inCountOrder);
        QFETCH(int, column);
        QFETCH(int, order);
        QFETCH(QStringList, expected);
        SampleFlatModel flat;
        SampleTreeModel treeModel;
        if (tree)
            treeModel.setRows(profileWithFunctions(),
                inCountOrder ? std::vector<SampleTreeRow> { { 0, -1, 0, 0, 0, 8 }, { 1, 0, 1, 1, 4, 4 },
                    { 2, 0, 1, 2, 4, 4 }, { 3, -1, 0, -1, 1, 1 } }
                             : std::vector<SampleTreeRow> { { 0, -1, 0, 0, 0, 8 }, { 1, 0, 1, 2, 1, 1 },
                                 { 2, 0, 1, 1, 4, 4 }, { 3, -1, 0, -1, 1, 1 } },
                9);
        else
            flat.setFunctions(profileWithFunctions(),
                inCountOrder ? std::vector<FunctionCount> { { 0, 5, 8 }, { 1, 2, 4 }, { 2, 2, 2 }, { -1, 1, 1 } }
                             : std::vector<FunctionCount> { { -1, 1, 1 }, { 2, 2, 2 }, { 0, 5, 8 }, { 1, 2, 4 } },
                9);
        SortFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(tree ? static_cast<QAbstractItemModel*>(&treeModel) : &flat);
        proxy.sort(column, Qt::SortOrder(order));
        QStringList shown;
        const auto collect = [&](const QModelIndex& parent, const auto& self) -> void {
            for (int r = 0; r < proxy.rowCount(parent); ++r) {
                shown << proxy.index(r, SampleFunctionColumn, parent).data(SortRole).toString();
                self(proxy.index(r, 0, parent), self);
            }
        };
        collect({}, collect);
        QCOMPARE(shown, expected);
    }

    void proxyOrderAfterAReset()
    {
        // A model reset from the count order to another one: the proxy (and a view asking while the reset is under
        // way) must not keep the source order it had.
        SampleFlatModel flat;
        SortFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&flat);
        proxy.sort(SampleSelfColumn, Qt::DescendingOrder);
        flat.setFunctions(profileWithFunctions(), { { 0, 5, 8 }, { 1, 2, 4 }, { 2, 1, 2 } }, 8);
        QCOMPARE(proxy.index(0, SampleSelfColumn).data(SortRole).toLongLong(), 5);
        connect(&flat, &QAbstractItemModel::modelReset, &proxy, [&] { proxy.rowCount(); });
        flat.setFunctions(profileWithFunctions(), { { 2, 1, 2 }, { 1, 2, 4 }, { 0, 5, 8 } }, 8);
        QStringList shown;
        for (int r = 0; r < proxy.rowCount(); ++r)
            shown << proxy.index(r, SampleFunctionColumn).data(SortRole).toString();
        QCOMPARE(shown, (QStringList { u"main"_s, u"do_syscall_64"_s, u"0x7f12"_s }));
    }
};

QTEST_GUILESS_MAIN(TestSampleModels)
#include "tst_samplemodels.moc"
