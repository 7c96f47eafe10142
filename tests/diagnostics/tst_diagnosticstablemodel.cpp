// SPDX-License-Identifier: GPL-3.0-or-later
// The Findings pane's models (one diagnostics table, the findings) on hand-made input: QAbstractItemModelTester, and
// the text, raw value and alignment of each kind of cell.
#include "core/models/diagnosticstablemodel.h"
#include "core/models/modelroles.h"
#include "core/util/csv.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

/// One row of each kind of cell, and a second row shorter than the columns (its missing cells are empty).
std::shared_ptr<const DiagnosticsTable> handMadeTable()
{
    auto t = std::make_shared<DiagnosticsTable>();
    t->id = u"example"_s;
    t->title = u"Example"_s;
    t->columns = { u"kernel_name"_s, u"count"_s, u"total_ns"_s, u"start_ns"_s, u"idle_pct"_s, u"ratio"_s };
    t->rows.push_back({ DiagnosticsCell(u"gemm"_s), DiagnosticsCell(qint64(1234567)), DiagnosticsCell(qint64(2500000)),
        DiagnosticsCell(qint64(1500000000)), DiagnosticsCell(12.34), DiagnosticsCell(1234.5) });
    t->rows.push_back({ DiagnosticsCell(u"copy"_s), DiagnosticsCell() });
    return t;
}

} // namespace

class TestDiagnosticsTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tableCells_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QVariant>("raw");
        QTest::addColumn<bool>("rightAligned");
        // Hand-worked from the cells above and the column names' suffixes.
        QTest::addRow("text as it is") << 0 << 0 << u"gemm"_s << QVariant(u"gemm"_s) << false;
        QTest::addRow("count with thousands separators")
            << 0 << 1 << u"1,234,567"_s << QVariant(qint64(1234567)) << true;
        QTest::addRow("_ns column is a duration") << 0 << 2 << u"2.50 ms"_s << QVariant(qint64(2500000)) << true;
        QTest::addRow("start_ns is a time in seconds, to the ns")
            << 0 << 3 << u"1.500000000 s"_s << QVariant(qint64(1500000000)) << true;
        QTest::newRow("_pct column with one decimal and %") << 0 << 4 << u"12.3 %"_s << QVariant(12.34) << true;
        QTest::addRow("a real of 100 or more with one decimal") << 0 << 5 << u"1,234.5"_s << QVariant(1234.5) << true;
        QTest::addRow("an empty cell") << 1 << 1 << QString() << QVariant() << true;
        QTest::addRow("a cell past the row's end") << 1 << 4 << QString() << QVariant() << false;
    }
    void tableCells()
    {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, text);
        QFETCH(QVariant, raw);
        QFETCH(bool, rightAligned);
        DiagnosticsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(handMadeTable());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 6);
        const QModelIndex index = model.index(row, column);
        QCOMPARE(index.data().toString(), text);
        QCOMPARE(index.data(RawValueRole), raw);
        QCOMPARE(index.data(SortRole), raw);
        QCOMPARE(index.data(Qt::TextAlignmentRole).isValid(), rightAligned);
    }

    void tableHeaders()
    {
        DiagnosticsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.columnCount(), 0); // no table yet
        model.setTable(handMadeTable());
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), u"Total"_s);
        QCOMPARE(model.headerData(4, Qt::Horizontal).toString(), u"Idle %"_s);
        QCOMPARE(model.headerData(2, Qt::Horizontal, CsvTextRole).toString(), u"total_ns"_s);
        model.setTable(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void findings()
    {
        Finding idle;
        idle.title = u"GPU 0 idle 40.0 % of the window"_s;
        idle.detail = u"the numbers"_s;
        idle.severity = Severity::Critical;
        idle.gpuCostNs = 4000000;
        idle.gpuCostPercent = 40.0;
        Finding hostOnly;
        hostOnly.title = u"Synchronisation takes 60 % of CUDA API time (host time)"_s;
        hostOnly.severity = Severity::Warning;
        FindingsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setFindings({ idle, hostOnly });
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 3);
        QCOMPARE(model.index(0, FindingsModel::SeverityColumn).data().toString(), u"critical"_s);
        QCOMPARE(model.index(1, FindingsModel::SeverityColumn).data().toString(), u"warning"_s);
        QVERIFY(model.index(0, FindingsModel::SeverityColumn).data(SortRole).toInt()
            > model.index(1, FindingsModel::SeverityColumn).data(SortRole).toInt());
        QCOMPARE(model.index(0, FindingsModel::TitleColumn).data(Qt::ToolTipRole).toString(), u"the numbers"_s);
        QCOMPARE(model.index(0, FindingsModel::GpuCostColumn).data().toString(), u"4.00 ms (40.0 %)"_s);
        QCOMPARE(model.index(0, FindingsModel::GpuCostColumn).data(RawValueRole).toLongLong(), 4000000);
        QCOMPARE(model.index(1, FindingsModel::GpuCostColumn).data().toString(), QString()); // costs no GPU time
        QCOMPARE(model.index(1, FindingsModel::TitleColumn).data(IdentityRole).toInt(), 1);
        QCOMPARE(model.headerData(FindingsModel::GpuCostColumn, Qt::Horizontal).toString(), u"GPU cost"_s);
        model.setFindings({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestDiagnosticsTableModel)
#include "tst_diagnosticstablemodel.moc"
