// SPDX-License-Identifier: GPL-3.0-or-later
// The Iterations pane's table on a hand-made iteration table: QAbstractItemModelTester, each column's text and raw
// value (start on the session clock), and a guessed table's marker column.
#include "core/models/iterationtablemodel.h"
#include "core/models/modelroles.h"
#include "profilebuilder.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

/// Two iterations on a clock whose origin is 1,000,000 ns: [1,250,000, 3,250,000) with 1.5 ms of GPU work, 1,234
/// kernels, "gemm" on top; then [3,250,000, 3,750,000), an outlier.
std::shared_ptr<IterationTable> handMadeTable()
{
    test::ProfileBuilder b;
    const StringRef step1 = b.str(u"ProfilerStep#1"_s), step2 = b.str(u"ProfilerStep#2"_s), gemm = b.str(u"gemm"_s);
    auto t = std::make_shared<IterationTable>();
    t->profile = b.build();
    t->marker = u"ProfilerStep#N"_s;
    t->clockOrigin = 1000000;
    Iteration first;
    first.index = 0;
    first.start = 1250000;
    first.end = 3250000;
    first.name = step1;
    first.gpuBusy = 1500000;
    first.kernels = 1234;
    first.topKernel = gemm;
    first.topCategory = u"GEMM"_s;
    Iteration second = first;
    second.index = 1;
    second.start = 3250000;
    second.end = 3750000;
    second.name = step2;
    second.gpuBusy = 500000;
    second.outlier = true;
    t->iterations = { first, second };
    return t;
}

} // namespace

class TestIterationTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cells_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QVariant>("raw");
        // Hand-worked from the table above.
        QTest::addRow("marker instance") << 0 << int(IterationTableModel::NameColumn) << u"ProfilerStep#1"_s
                                         << QVariant(u"ProfilerStep#1"_s);
        QTest::addRow("start on the session clock, 1.25 ms - 1 ms")
            << 0 << int(IterationTableModel::StartColumn) << u"0.000250 s"_s << QVariant(qint64(250000));
        QTest::addRow("duration") << 0 << int(IterationTableModel::DurationColumn) << u"2.00 ms"_s
                                  << QVariant(qint64(2000000));
        QTest::addRow("GPU busy") << 0 << int(IterationTableModel::BusyColumn) << u"1.50 ms"_s
                                  << QVariant(qint64(1500000));
        QTest::addRow("GPU idle is the rest")
            << 0 << int(IterationTableModel::IdleColumn) << u"500 µs"_s << QVariant(qint64(500000));
        QTest::addRow("kernels with separators")
            << 0 << int(IterationTableModel::KernelsColumn) << u"1,234"_s << QVariant(qint64(1234));
        QTest::addRow("top kernel") << 0 << int(IterationTableModel::TopKernelColumn) << u"gemm"_s
                                    << QVariant(u"gemm"_s);
        QTest::addRow("not an outlier") << 0 << int(IterationTableModel::OutlierColumn) << QString()
                                        << QVariant(QString());
        QTest::addRow("an outlier") << 1 << int(IterationTableModel::OutlierColumn) << u"outlier"_s
                                    << QVariant(u"outlier"_s);
        QTest::addRow("no GPU idle") << 1 << int(IterationTableModel::IdleColumn) << u"0 ns"_s << QVariant(qint64(0));
    }
    void cells()
    {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, text);
        QFETCH(QVariant, raw);
        IterationTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(handMadeTable());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(IterationTableModel::ColumnCount));
        QCOMPARE(model.index(row, column).data().toString(), text);
        QCOMPARE(model.index(row, column).data(RawValueRole), raw);
        QCOMPARE(model.index(row, column).data(IdentityRole).toInt(), row);
    }

    void guessedIterationsSayGuess()
    {
        const std::shared_ptr<IterationTable> table = handMadeTable();
        table->source = IterationTable::Source::IdleGapGuess;
        table->detection = u"guessed from GPU idle gaps"_s;
        IterationTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(table);
        QCOMPARE(model.index(0, IterationTableModel::NameColumn).data().toString(), u"guess"_s);
        QCOMPARE(model.index(0, IterationTableModel::NameColumn).data(Qt::ToolTipRole).toString(),
            u"guessed from GPU idle gaps"_s);
        QCOMPARE(model.headerData(IterationTableModel::StartColumn, Qt::Horizontal, RawValueRole).toString(),
            u"Start (ns)"_s);
        model.setTable(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestIterationTableModel)
#include "tst_iterationtablemodel.moc"
