// SPDX-License-Identifier: GPL-3.0-or-later
// The docked panes as a person sees them in the first-start layout at 1366x768 and 1920x1080 (the window at 90 % of
// the screen), two profiles open: each table's name column and key numbers inside its viewport, rows to read, the
// timeline a third of the window, the NVLink peak list a tab of its own, every dock tab titled whole; and the pane
// maximised and restored.
#include "../nvlink/nvf1bytes.h"
#include "app/mainwindow.h"
#include "app/panemaximizer.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/models/comparetablemodel.h"
#include "core/models/kernelsummarymodel.h"
#include "core/models/nvtxtreemodel.h"
#include "core/models/reporttablemodel.h"
#include "core/session/workbench.h"
#include "oracleexports.h"
#include "widgets/compare/comparepane.h"
#include "widgets/kernels/kerneltablepane.h"
#include "widgets/nvlink/nvlinkattach.h"
#include "widgets/nvlink/nvlinkpane.h"
#include "widgets/nvtx/nvtxpane.h"
#include "widgets/shell/docktitlebar.h"
#include "widgets/statistics/statisticspane.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace nsw;
using namespace nsw::test;

namespace {
QString s(const char* text)
{
    return QString::fromUtf8(text);
}

/// Where logical column @p column is drawn, as "x+width in viewport" for messages.
template <class View> QString where(const View* view, int column)
{
    return s("column %1 '%2' at %3 px, %4 px wide, viewport %5 px")
        .arg(column)
        .arg(view->model()->headerData(column, Qt::Horizontal).toString())
        .arg(view->columnViewportPosition(column))
        .arg(view->columnWidth(column))
        .arg(view->viewport()->width());
}

/// Shown whole without scrolling, wide enough for a few characters.
template <class View> bool inSight(const View* view, int column)
{
    const int x = view->columnViewportPosition(column);
    return !view->isColumnHidden(column) && x >= 0 && x + view->columnWidth(column) <= view->viewport()->width()
        && view->columnWidth(column) >= 4 * view->fontMetrics().averageCharWidth();
}

int rowsShown(const QTableView* view)
{
    const int rowHeight = view->verticalHeader()->defaultSectionSize();
    return rowHeight > 0 ? std::min(view->viewport()->height() / rowHeight, view->model()->rowCount()) : 0;
}

bool openBoth(MainWindow& w)
{
    QSignalSpy ended(&w, &MainWindow::loadEnded);
    w.openFiles({ pairBefore(), pairAfter() });
    return QTest::qWaitFor([&]() { return ended.count() == 2; }, 60000) && ended.at(0).at(1).toBool()
        && ended.at(1).at(1).toBool();
}

QDockWidget* raised(MainWindow& w, const char* id)
{
    QDockWidget* dock = w.dockOf(w.pane(QLatin1String(id)));
    dock->raise();
    QApplication::processEvents();
    return dock;
}
} // namespace

class TestDockedPanes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void showTheirNumbers_data()
    {
        QTest::addColumn<QSize>("window");
        QTest::addRow("1920x1080 first start") << QSize(1728, 972);
        QTest::addRow("1366x768 first start") << QSize(1229, 691);
    }
    void showTheirNumbers()
    {
        QFETCH(QSize, window);
        MainWindow w(true);
        w.resize(window);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openBoth(w));
        w.applyDefaultLayout();
        QApplication::processEvents();

        // The timeline: a third of the window at least (it had 200 px at 1080, 140 at 768: GPU rows only).
        QDockWidget* timeline = w.dockOf(w.pane(s("timeline")));
        QVERIFY2(timeline->height() >= w.height() / 3,
            qPrintable(s("timeline %1 px of %2").arg(timeline->height()).arg(w.height())));

        // Kernels: name, Time %, Total, Instances, Avg (only Name and Time % showed at 1366).
        raised(w, "kernels");
        auto* kernels = qobject_cast<KernelTablePane*>(w.pane(s("kernels")));
        QTableView* kv = kernels->summaryView();
        QTRY_VERIFY(kv->isVisible() && kv->model()->rowCount() > 0);
        for (const int c : { int(KernelSummaryModel::NameColumn), int(KernelSummaryModel::TimePercentColumn),
                 int(KernelSummaryModel::TotalColumn), int(KernelSummaryModel::InstancesColumn),
                 int(KernelSummaryModel::AvgColumn) })
            QVERIFY2(inSight(kv, c), qPrintable(where(kv, c)));
        QVERIFY2(kv->columnViewportPosition(KernelSummaryModel::NameColumn) == 0, qPrintable(where(kv, 0)));
        QVERIFY2(rowsShown(kv) >= 5, qPrintable(QString::number(rowsShown(kv))));
        QCOMPARE(kv->textElideMode(), Qt::ElideMiddle); // long kernel names keep their end

        // Statistics: the Name column (nsys prints it last: off-screen at both sizes) and the first numbers.
        raised(w, "statistics");
        auto* stats = qobject_cast<StatisticsPane*>(w.pane(s("statistics")));
        auto* sv = qobject_cast<QTableView*>(stats->exportableView());
        QTRY_VERIFY(sv->isVisible() && sv->model()->rowCount() > 0);
        const ReportTable& report = stats->model()->report();
        int name = -1;
        for (int c = 0; c < int(report.columns.size()); ++c)
            if (report.columns[std::size_t(c)].header == s("Name"))
                name = c;
        QVERIFY(name > 0);
        QTRY_VERIFY2(inSight(sv, name), qPrintable(where(sv, name)));
        for (const int c : { 0, 1, 2 }) // Time (%), Total Time (ns), Num Calls
            QVERIFY2(inSight(sv, c), qPrintable(where(sv, c)));

        // Compare: the key, its status and the change (only key names showed at 1366: no Δ, no status).
        raised(w, "compare");
        auto* compare = qobject_cast<ComparePane*>(w.pane(s("compare")));
        QTRY_VERIFY(!compare->controller()->isBusy() && compare->tableView()->model()->rowCount() > 2);
        QTableView* cv = compare->tableView();
        QTRY_VERIFY(cv->isVisible());
        const CompareTableModel* model = compare->tableModel();
        for (const int c :
            { model->columnOf(CompareTableModel::Column::Key), model->columnOf(CompareTableModel::Column::Status),
                model->columnOf(CompareTableModel::Column::DeltaPercent, 1),
                model->columnOf(CompareTableModel::Column::Delta, 1) })
            QVERIFY2(inSight(cv, c), qPrintable(where(cv, c)));
        QVERIFY2(rowsShown(cv) >= 3, qPrintable(QString::number(rowsShown(cv))));

        // NVTX: the range names, then the GPU and CPU times (the six numbers together are wider than the dock: the
        // names were as wide as the viewport and the numbers to be scrolled to; then the numbers took the width and a
        // range two levels in showed "F…4"). The count follows, in sight when it fits.
        raised(w, "nvtx");
        auto* nvtx = qobject_cast<NvtxPane*>(w.pane(s("nvtx")));
        QTreeView* tv = nvtx->view();
        QTRY_VERIFY(tv->isVisible() && tv->model()->rowCount() > 0);
        for (const int c :
            { int(NvtxTreeModel::RangeColumn), int(NvtxTreeModel::GpuColumn), int(NvtxTreeModel::CpuColumn) })
            QTRY_VERIFY2(inSight(tv, c), qPrintable(where(tv, c)));
        QCOMPARE(tv->columnViewportPosition(NvtxTreeModel::RangeColumn), 0);
        QCOMPARE(tv->header()->visualIndex(NvtxTreeModel::InstancesColumn), 3);
        // 16 characters of a range's name beside the indentation of its process and thread.
        QVERIFY2(tv->columnWidth(NvtxTreeModel::RangeColumn) - 3 * tv->indentation()
                >= 16 * tv->fontMetrics().averageCharWidth(),
            qPrintable(where(tv, NvtxTreeModel::RangeColumn)));

        // NVLink without data (these exports have none): the message whole at the top, no empty plot squeezed under
        // rows of disabled controls. Then, with a recording attached, the peak list is a tab beside the plot.
        QDockWidget* nvlinkDock = raised(w, "nvlink");
        auto* nvlink = qobject_cast<NvlinkPane*>(w.pane(s("nvlink")));
        QTRY_VERIFY(nvlinkDock->isVisible());
        QTabWidget* views = nvlink->views();
        QVERIFY(!views->isVisible());
        QLabel* message = nvlink->messageLabel();
        QVERIFY(message->isVisible() && message->text().startsWith(s("No NVLink data for this profile.")));
        QVERIFY2(message->heightForWidth(message->width()) <= message->height()
                && message->geometry().bottom() < nvlink->height(),
            qPrintable(s("message %1 px high in %2, needs %3")
                           .arg(message->height())
                           .arg(nvlink->height())
                           .arg(message->heightForWidth(message->width()))));
        QTemporaryDir dir;
        const QString bin = dir.filePath(s("nvlink_trace_gpu0.bin"));
        Nvf1Builder recording;
        for (int p = 0; p <= 20; ++p)
            recording.poll(1700000000000000 + p * 1000, { { std::uint64_t(p * p), std::uint64_t(p) } });
        QVERIFY(recording.write(bin));
        attachNvlinkRecordings(
            w.workbench()->current(), { { bin, 0 } }, nullptr, [](const QStringList&, const QStringList&) {});
        QTRY_VERIFY(views->isVisible());
        QCOMPARE(views->count(), 2);
        QVERIFY(views->isVisible());
        views->setCurrentIndex(1);
        QTRY_VERIFY(nvlink->peakView()->isVisible());
        QVERIFY2(nvlink->peakView()->height() >= views->height() / 3,
            qPrintable(s("peak list %1 px in %2").arg(nvlink->peakView()->height()).arg(views->height())));

        // Every tab of the docks' tab bars titled whole, inside its bar (five chart tabs showed "Categori…", "NVLi…",
        // "Ra…" at 1366).
        int tabBars = 0;
        for (const QTabBar* bar : w.findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
            if (!bar->isVisible())
                continue;
            ++tabBars;
            const int padding = bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
            for (int i = 0; i < bar->count(); ++i) {
                const QRect tab = bar->tabRect(i);
                const int text = bar->fontMetrics().horizontalAdvance(bar->tabText(i));
                QVERIFY2(tab.width() >= text + padding && tab.left() >= 0 && tab.right() < bar->width(),
                    qPrintable(s("tab '%1': %2 px at %3 for %4 px of text, bar %5 px")
                                   .arg(bar->tabText(i))
                                   .arg(tab.width())
                                   .arg(tab.left())
                                   .arg(text)
                                   .arg(bar->width())));
            }
        }
        QCOMPARE(tabBars, 2); // the tables', the charts'
    }

    /// View → Maximise Pane (Ctrl+M) and the title bar's button: the pane alone in the window, the others aside; the
    /// same again, or another pane's key, restores the layout as it was.
    void maximiseAndRestore()
    {
        MainWindow w(true);
        w.resize(1229, 691);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles({ demoExport() });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 30000);
        w.applyDefaultLayout();
        QApplication::processEvents();
        QDockWidget* kernels = raised(w, "kernels");
        QDockWidget* timeline = w.dockOf(w.pane(s("timeline")));
        QTRY_VERIFY(kernels->isVisible() && timeline->isVisible());
        const QRect kernelsBefore = kernels->geometry(), timelineBefore = timeline->geometry();

        w.pane(s("kernels"))->setFocus();
        QTRY_VERIFY(
            w.pane(s("kernels"))->hasFocus() || w.pane(s("kernels"))->isAncestorOf(QApplication::focusWidget()));
        QTest::keyClick(&w, Qt::Key_M, Qt::ControlModifier);
        QTRY_COMPARE(w.paneMaximizer()->maximised(), kernels);
        QTRY_VERIFY(!timeline->isVisible());
        QVERIFY2(kernels->width() >= w.width() * 95 / 100 && kernels->height() >= w.height() * 70 / 100,
            qPrintable(
                s("%1x%2 in %3x%4").arg(kernels->width()).arg(kernels->height()).arg(w.width()).arg(w.height())));
        QTest::keyClick(&w, Qt::Key_M, Qt::ControlModifier);
        QTRY_VERIFY(timeline->isVisible());
        QTRY_COMPARE(kernels->geometry(), kernelsBefore);
        QCOMPARE(timeline->geometry(), timelineBefore);

        // The title bar's button; then the timeline's key restores the layout and shows the timeline.
        auto* bar = qobject_cast<DockTitleBar*>(kernels->titleBarWidget());
        QVERIFY(bar && bar->maximiseButton()->isVisible());
        QTest::mouseClick(bar->maximiseButton(), Qt::LeftButton);
        QTRY_VERIFY(!timeline->isVisible());
        QTest::keyClick(&w, Qt::Key_4, Qt::ControlModifier);
        QTRY_VERIFY(timeline->isVisible() && kernels->isVisible());
        QCOMPARE(w.paneMaximizer()->maximised(), nullptr);
        QTRY_COMPARE(kernels->geometry(), kernelsBefore);
    }
};

QTEST_MAIN(TestDockedPanes)
#include "tst_dockedpanes.moc"
