// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/models/iterationtablemodel.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "core/session/workbenchload.h"
#include "iterationfixtures.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/tableviews.h"
#include "widgets/compare/comparepane.h"
#include "widgets/iterations/iterationschart.h"
#include "widgets/iterations/iterationspane.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace nsw;
using namespace Qt::StringLiterals;

class TestIterationsPane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void showsTheIterations();
    void guessIsLabelled();
    void typedMarker();
    void activatingARowRequestsFocus();
    void iterationsCompareSideBySide();
    void noIterationsNoEmptyChart();
    void shortChartKeepsItsNumbersApart();
    void exports();

private:
    struct Open
    {
        std::unique_ptr<Workbench> workbench;
        std::unique_ptr<IterationsPane> pane;
    };
    Open open(const QString& path);
    static QString cellText(const QTableView& view, int row, int column)
    {
        return view.model()->index(row, column).data().toString();
    }
    QTemporaryDir m_dir;
    QString m_marker, m_gap;
};

void TestIterationsPane::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_marker = m_dir.filePath(u"marker.sqlite"_s);
    m_gap = m_dir.filePath(u"gap.sqlite"_s);
    test::writeMarkerFixture(m_marker);
    test::writeGapFixture(m_gap);
}

TestIterationsPane::Open TestIterationsPane::open(const QString& path)
{
    Open o;
    o.workbench = std::make_unique<Workbench>();
    const Result<LoadedProfile> result = loadForWorkbench(path);
    if (!result)
        qFatal("cannot load %s: %s", qPrintable(path), qPrintable(result.errorMessage()));
    const LoadedProfile& loaded = *result;
    o.workbench->addSession(new ProfileSession(loaded));
    o.pane = std::make_unique<IterationsPane>(o.workbench.get());
    QSignalSpy shown(o.pane.get(), &IterationsPane::iterationsShown);
    o.pane->resize(900, 600);
    o.pane->show();
    if (o.pane->view()->model()->rowCount() == 0 && !shown.wait(30000))
        qFatal("iterations of %s not shown", qPrintable(path));
    return o;
}

void TestIterationsPane::showsTheIterations()
{
    Open o = open(m_marker);
    QTableView* view = o.pane->view();
    QVERIFY(view->isVisible());
    QCOMPARE(view->model()->rowCount(), 4);
    // Every row is on screen, in index order, with the hand-worked values (iterationfixtures.h).
    for (int row = 0; row < 4; ++row) {
        const QRect r = view->visualRect(view->model()->index(row, 0));
        QVERIFY(!r.isEmpty() && view->viewport()->rect().contains(r.center()));
        QCOMPARE(cellText(*view, row, IterationTableModel::IndexColumn), QString::number(row));
        QCOMPARE(cellText(*view, row, IterationTableModel::NameColumn), u"ProfilerStep#%1"_s.arg(row));
    }
    QCOMPARE(cellText(*view, 2, IterationTableModel::DurationColumn), u"1.50 µs"_s);
    QCOMPARE(cellText(*view, 2, IterationTableModel::BusyColumn), u"1.50 µs"_s);
    QCOMPARE(cellText(*view, 0, IterationTableModel::IdleColumn), u"600 ns"_s);
    QCOMPARE(cellText(*view, 0, IterationTableModel::KernelsColumn), u"4"_s);
    QCOMPARE(cellText(*view, 1, IterationTableModel::TopKernelColumn), u"nccl_allreduce"_s);
    QCOMPARE(view->model()->headerData(IterationTableModel::BusyColumn, Qt::Horizontal).toString(), u"GPU busy"_s);
    QVERIFY(o.pane->message()->isVisible());
    QVERIFY(o.pane->message()->text().contains(u"4 iterations. NVTX marker ProfilerStep#N"_s));
    QVERIFY(!o.pane->message()->text().startsWith(u"Guess"_s));
    // The chart: one point per iteration, none an outlier (durations 1000 1000 1500 500, limit 1112 from 1000).
    QVERIFY(o.pane->chart()->isVisible() && o.pane->chart()->height() > 50);
    QCOMPARE(o.pane->chart()->durationGraph()->dataCount(), 4);
    QCOMPARE(o.pane->chart()->durationGraph()->data()->at(2)->value, 0.0015);
    QCOMPARE(o.pane->chart()->outlierGraph()->dataCount(), 0);
}

void TestIterationsPane::guessIsLabelled()
{
    Open o = open(m_gap);
    QVERIFY(o.pane->message()->isVisible());
    QVERIFY2(
        o.pane->message()->text().startsWith(u"Guess: 3 iterations. a guess"_s), qPrintable(o.pane->message()->text()));
    QCOMPARE(o.pane->view()->model()->rowCount(), 3);
    for (int row = 0; row < 3; ++row)
        QCOMPARE(cellText(*o.pane->view(), row, IterationTableModel::NameColumn), u"guess"_s);
}

void TestIterationsPane::typedMarker()
{
    Open o = open(m_marker);
    QSignalSpy shown(o.pane.get(), &IterationsPane::iterationsShown);
    o.pane->markerEdit()->setText(u"ProfilerStep#[13]"_s);
    QTest::keyClick(o.pane->markerEdit(), Qt::Key_Return);
    QVERIFY(shown.wait(30000));
    QCOMPARE(o.pane->view()->model()->rowCount(), 2);
    QCOMPARE(cellText(*o.pane->view(), 1, IterationTableModel::NameColumn), u"ProfilerStep#3"_s);
    o.pane->markerEdit()->setText(u"no_such_range"_s);
    QTest::keyClick(o.pane->markerEdit(), Qt::Key_Return);
    QVERIFY(shown.wait(30000));
    QCOMPARE(o.pane->view()->model()->rowCount(), 0);
    QVERIFY(o.pane->message()->text().contains(u"no NVTX range matches the marker 'no_such_range'"_s));
}

void TestIterationsPane::activatingARowRequestsFocus()
{
    Open o = open(m_marker);
    QSignalSpy focus(o.pane.get(), &IterationsPane::focusRequested);
    QTableView* view = o.pane->view();
    const QRect r = view->visualRect(view->model()->index(2, IterationTableModel::NameColumn));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, r.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, r.center());
    QCOMPARE(focus.count(), 1);
    const auto range = focus.first().first().value<FocusRange>();
    QCOMPARE(range.start, 3000);
    QCOMPARE(range.end, 4500);
    QCOMPARE(range.label, u"iteration 2 (ProfilerStep#2)"_s);
    // The selected iteration is ringed on the chart.
    view->selectRow(1);
    QCOMPARE(o.pane->chart()->graph(2)->dataCount(), 1);
}

void TestIterationsPane::iterationsCompareSideBySide()
{
    Open o = open(m_marker);
    ComparePane compare(o.workbench.get(), nullptr);
    CompareController* controller = compare.controller();
    connect(o.pane.get(), &IterationsPane::compareRequested, controller, &CompareController::addIteration);
    QSignalSpy requested(o.pane.get(), &IterationsPane::compareRequested);

    // Compare → Selected iteration on iteration 1, then the median one (durations 1000 1000 1500 500: the lower
    // middle of the sorted durations is 1000, iteration 0 by index).
    QToolButton* button = o.pane->compareButton();
    QVERIFY(button->isVisible() && button->isEnabled());
    o.pane->view()->selectRow(1);
    const QList<QAction*> actions = button->menu()->actions();
    QCOMPARE(actions.size(), 2);
    actions[0]->trigger();
    actions[1]->trigger();
    QCOMPARE(requested.count(), 2);
    QCOMPARE(requested[0][1].value<FocusRange>().start, 2000);
    QCOMPARE(requested[1][1].value<FocusRange>().start, 1000);

    // Only the two iterations: the whole profile left out.
    ProfileSession* session = o.workbench->sessions().front();
    controller->setIncluded(session, false);
    QSignalSpy results(controller, &CompareController::resultsChanged);
    compare.resize(1000, 600);
    compare.show();
    QTRY_VERIFY(!controller->isBusy() && controller->comparison().profileCount() == 2);
    const Comparison& c = controller->comparison();
    QCOMPARE(c.profiles, (QStringList { u"marker.sqlite · iteration 1"_s, u"marker.sqlite · median iteration (0)"_s }));
    QCOMPARE(c.baseline, std::size_t(0));
    // Kernels overlapping each range, whole durations (the fixture's layout): [2000, 3000) holds gemm_c 200 and
    // nccl_allreduce 1700; [1000, 2000) fill_kernel 500 (it ends at 1000), gemm_a, gemm_b and gemm_c 200 each.
    const std::map<QString, std::pair<TimeNs, TimeNs>> expected { { u"gemm_c"_s, { 200, 200 } },
        { u"nccl_allreduce"_s, { 1700, 0 } }, { u"fill_kernel"_s, { 0, 500 } }, { u"gemm_a"_s, { 0, 200 } },
        { u"gemm_b"_s, { 0, 200 } } };
    std::map<QString, std::pair<TimeNs, TimeNs>> actual;
    for (const CompareRow& r : c.rows)
        actual[r.key] = { r.cells[0].totalNs, r.cells[1].totalNs };
    QCOMPARE(actual, expected);

    // What a person sees: both iterations as columns, the baseline named in the selector and the Profiles button.
    const QAbstractItemModel* model = compare.tableView()->model();
    QString headers;
    for (int col = 0; col < model->columnCount(); ++col)
        headers += model->headerData(col, Qt::Horizontal).toString() + u'|';
    QVERIFY2(headers.contains(u"iteration 1"_s) && headers.contains(u"median iteration"_s), qPrintable(headers));
    auto* baseline = compare.findChild<QComboBox*>(u"baseline"_s);
    QVERIFY(baseline && baseline->isVisible());
    QCOMPARE(baseline->count(), 2);
    QCOMPARE(baseline->currentText(), u"marker.sqlite · iteration 1"_s);
    QVERIFY(compare.findChild<QToolButton*>(u"profiles"_s)->text().contains(u"+ 2 iterations"_s));

    // The median as the baseline: the values swap sides.
    baseline->setCurrentIndex(1);
    Q_EMIT baseline->activated(1);
    QTRY_VERIFY(!controller->isBusy() && controller->comparison().baseline == 1);

    // Removing an iteration (unchecking it under Profiles) leaves one entry.
    controller->removeIteration(0);
    QTRY_VERIFY(!controller->isBusy() && controller->comparison().profileCount() == 1);
    QCOMPARE(controller->comparison().profiles.front(), u"marker.sqlite · median iteration (0)"_s);
}

void TestIterationsPane::noIterationsNoEmptyChart()
{
    // Two bursts of work and no marker: no iterations, and the chart says so instead of an empty plot with a legend.
    const QString path = m_dir.filePath(u"twobursts.sqlite"_s);
    test::writeTwoBurstsFixture(path);
    Open o = open(path);
    IterationsChart* chart = o.pane->chart();
    QCOMPARE(o.pane->view()->model()->rowCount(), 0);
    QVERIFY(!o.pane->compareButton()->isEnabled());
    QVERIFY(!chart->legend->visible());
    QVERIFY(!chart->xAxis->tickLabels() && !chart->yAxis->tickLabels());
    QStringList texts;
    for (int i = 0; i < chart->itemCount(); ++i)
        if (const auto* text = qobject_cast<QCPItemText*>(chart->item(i)); text && text->visible())
            texts << text->text();
    QCOMPARE(texts, QStringList { u"No iterations to chart"_s });
}

void TestIterationsPane::shortChartKeepsItsNumbersApart()
{
    // A docked pane at 1920x1080 gives the chart about 90 px: QCustomPlot's five ticks ran "706050403020100" together
    // and the legend covered the points.
    Open o = open(m_marker);
    IterationsChart* chart = o.pane->chart();
    chart->setMinimumHeight(0);
    chart->setFixedHeight(90);
    chart->replot();
    QVERIFY(chart->isVisible() && chart->height() == 90);
    const QFontMetrics metrics(chart->yAxis->tickLabelFont());
    const QVector<double> ticks = chart->yAxis->tickVector();
    QVERIFY(ticks.size() >= 2);
    for (qsizetype i = 1; i < ticks.size(); ++i) {
        const double gap = std::abs(chart->yAxis->coordToPixel(ticks[i]) - chart->yAxis->coordToPixel(ticks[i - 1]));
        QVERIFY2(gap >= 1.5 * metrics.height(), qPrintable(QString::number(gap)));
    }
    QVERIFY(!chart->legend->visible());
    // Tall enough, the legend is back.
    chart->setFixedHeight(400);
    chart->replot();
    QVERIFY(chart->legend->visible());
}

void TestIterationsPane::exports()
{
    Open o = open(m_marker);
    const QString csv = m_dir.filePath(u"pane.csv"_s);
    QCOMPARE(exportViewCsv(o.pane->exportableView(), csv), QString());
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QVERIFY2(lines.value(0).startsWith("Iteration,Marker,Start"), lines.value(0).constData());
    QCOMPARE(lines.size(), 6);
    const QString png = m_dir.filePath(u"pane.png"_s);
    QCOMPARE(savePlotPng(*o.pane->exportablePlot(), png, { 600, 400 }), QString());
    QVERIFY(QFile(png).size() > 1000);
}

QTEST_MAIN(TestIterationsPane)
#include "tst_iterationspane.moc"
