// SPDX-License-Identifier: GPL-3.0-or-later
// The histogram bins as a table (what "Bins as CSV" writes) on a hand-made histogram: QAbstractItemModelTester, the
// text and raw values of its cells and headers.
#include "core/models/durationbinsmodel.h"
#include "core/models/modelroles.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

class TestDurationBinsModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cells_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QVariant>("raw");
        // Three bins holding 1, 3 and 4 of 8 executions: shares 12.5, 37.5 and 50 %.
        QTest::addRow("lower edge as a duration")
            << 0 << int(DurationBinsModel::LowerColumn) << u"0 ns"_s << QVariant(qint64(0));
        QTest::addRow("upper edge as a duration")
            << 1 << int(DurationBinsModel::UpperColumn) << u"2.00 µs"_s << QVariant(qint64(2000));
        QTest::addRow("executions") << 2 << int(DurationBinsModel::CountColumn) << u"4"_s << QVariant(qint64(4));
        QTest::addRow("share of all executions, one decimal")
            << 0 << int(DurationBinsModel::ShareColumn) << u"12.5"_s << QVariant(12.5);
        QTest::addRow("half of them") << 2 << int(DurationBinsModel::ShareColumn) << u"50.0"_s << QVariant(50.0);
    }
    void cells()
    {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, text);
        QFETCH(QVariant, raw);
        DurationHistogram histogram;
        histogram.bins = { { 0, 0, 1 }, { 1000, 2000, 3 }, { 2000, 5000, 4 } };
        histogram.count = 8;
        DurationBinsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setHistogram(histogram);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 4);
        QCOMPARE(model.index(row, column).data().toString(), text);
        QCOMPARE(model.index(row, column).data(RawValueRole), raw);
        QCOMPARE(model.index(row, column).data(SortRole), raw);
    }

    void headersNameTheUnitOfRawValues()
    {
        DurationBinsModel model;
        QCOMPARE(model.headerData(DurationBinsModel::LowerColumn, Qt::Horizontal).toString(), u"From"_s);
        QCOMPARE(
            model.headerData(DurationBinsModel::LowerColumn, Qt::Horizontal, RawValueRole).toString(), u"From (ns)"_s);
        QCOMPARE(
            model.headerData(DurationBinsModel::UpperColumn, Qt::Horizontal, RawValueRole).toString(), u"To (ns)"_s);
        QCOMPARE(model.headerData(DurationBinsModel::CountColumn, Qt::Horizontal).toString(), u"Executions"_s);
    }

    void emptyHistogramHasNoRows()
    {
        DurationBinsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        DurationHistogram one;
        one.bins = { { 10, 10, 1 } };
        one.count = 1;
        model.setHistogram(one);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, DurationBinsModel::ShareColumn).data().toString(), u"100.0"_s);
        model.setHistogram(DurationHistogram {});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestDurationBinsModel)
#include "tst_durationbinsmodel.moc"
