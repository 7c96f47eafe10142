// SPDX-License-Identifier: GPL-3.0-or-later
// The window's default layout as a person sees it: room for the tables at common screen sizes (also once a
// timeline takes the top), charts as tabs, a first start that uses the screen, and Reset Layout.
#include "app/mainwindow.h"
#include "app/panekeys.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/session/workbench.h"
#include "oracleexports.h"
#include "widgets/common/pane.h"
#include "widgets/compare/comparepane.h"
#include "widgets/diagnostics/findingspane.h"
#include "widgets/iterations/iterationspane.h"
#include "widgets/kernels/kerneltablepane.h"
#include "widgets/nvtx/nvtxpane.h"
#include "widgets/shell/startpage.h"

#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLayout>
#include <QMenu>
#include <QScreen>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace nsw;
using namespace nsw::test;

namespace {

/// Stands in for the timeline pane (another branch) in the top row.
class TopPlaceholder : public Pane
{
public:
    explicit TopPlaceholder(Workbench* workbench)
        : Pane(workbench, QStringLiteral("timeline"), QStringLiteral("&Timeline"))
    { }
};

/// Whole rows a view shows at once, from the height of its first row.
int visibleRowCapacity(const QAbstractItemView* view)
{
    const QModelIndex first = view->model() ? view->model()->index(0, 0) : QModelIndex();
    const int rowHeight = first.isValid() ? view->visualRect(first).height() : 0;
    return rowHeight > 0 ? view->viewport()->height() / rowHeight : 0;
}

QAbstractItemView* mainViewOf(Pane* pane)
{
    if (auto* kernels = qobject_cast<KernelTablePane*>(pane))
        return kernels->summaryView();
    if (auto* nvtx = qobject_cast<NvtxPane*>(pane))
        return nvtx->view();
    return pane->exportableView();
}

bool openAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy ended(&w, &MainWindow::loadEnded);
    w.openFiles({ path });
    return ended.wait(30000) && ended.first().at(1).toBool();
}

/// The visible parts of @p dock's visible splitters that overlap each other or stick out of their splitter.
/// The pane's own parts (controls, status lines, splitters): inside the pane and apart. When the pane has less room
/// than their minimums, Qt squeezes every part, and wrapped controls are then drawn over the status line below.
void checkPaneParts(QDockWidget* dock, QStringList& overlaps)
{
    QWidget* pane = dock->widget();
    if (!pane || !pane->isVisible() || pane->visibleRegion().isEmpty())
        return;
    QList<QWidget*> parts;
    for (QWidget* w : pane->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (w->isVisible() && !w->isWindow() && w->width() > 0 && w->height() > 0)
            parts << w;
    auto describe = [&](const QWidget* part) {
        return QStringLiteral("%1 %2 in %3: %4,%5 %6x%7 in %8x%9")
            .arg(QLatin1String(part->metaObject()->className()), part->objectName(),
                QLatin1String(pane->metaObject()->className()))
            .arg(part->x())
            .arg(part->y())
            .arg(part->width())
            .arg(part->height())
            .arg(pane->width())
            .arg(pane->height());
    };
    for (int i = 0; i < parts.size(); ++i) {
        if (!pane->rect().contains(parts[i]->geometry()))
            overlaps << describe(parts[i]) + QStringLiteral(" (outside)");
        for (int j = i + 1; j < parts.size(); ++j)
            if (parts[i]->geometry().intersects(parts[j]->geometry()))
                overlaps << describe(parts[i]) + QStringLiteral(" overlaps ") + describe(parts[j]);
    }
}

void checkSplitters(QDockWidget* dock, QStringList& overlaps, int& checked)
{
    for (QSplitter* splitter : dock->findChildren<QSplitter*>()) {
        if (!splitter->isVisible() || splitter->visibleRegion().isEmpty())
            continue;
        QList<QWidget*> parts;
        for (int i = 0; i < splitter->count(); ++i)
            if (splitter->widget(i)->isVisible())
                parts << splitter->widget(i);
        auto describe = [&](const QWidget* part) {
            return QStringLiteral("%1 in %2: %3,%4 %5x%6 in %7x%8")
                .arg(QLatin1String(part->metaObject()->className()),
                    QLatin1String(splitter->parentWidget()->metaObject()->className()))
                .arg(part->x())
                .arg(part->y())
                .arg(part->width())
                .arg(part->height())
                .arg(splitter->width())
                .arg(splitter->height());
        };
        for (int i = 0; i < parts.size(); ++i) {
            if (!splitter->rect().contains(parts[i]->geometry()))
                overlaps << describe(parts[i]) + QStringLiteral(" (outside)");
            for (int j = i + 1; j < parts.size(); ++j)
                if (parts[i]->geometry().intersects(parts[j]->geometry()))
                    overlaps << describe(parts[i]) + QStringLiteral(" overlaps ") + describe(parts[j]);
            ++checked;
        }
    }
}

} // namespace

class TestWindowLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void firstStartUsesTheScreen()
    {
        MainWindow w(true);
        const QRect available = w.screen()->availableGeometry();
        // 90 % of the screen (wider when the panes' minimum widths need more: the test screen is 800 px wide).
        QCOMPARE(w.height(), available.height() * 9 / 10);
        QVERIFY2(w.width() >= available.width() * 9 / 10, qPrintable(QString::number(w.width())));
    }

    void tablesHaveRoomForRows_data()
    {
        QTest::addColumn<QSize>("window");
        QTest::addColumn<bool>("withTimeline");
        QTest::addColumn<int>("minimumRows");
        // Maximised windows: the screen less a title bar and a desktop panel.
        QTest::addRow("1920x1080") << QSize(1920, 1020) << false << 15;
        QTest::addRow("1366x768") << QSize(1366, 708) << false << 8;
        QTest::addRow("1920x1080 with a timeline on top") << QSize(1920, 1020) << true << 15;
        QTest::addRow("1366x768 with a timeline on top") << QSize(1366, 708) << true << 8;
    }
    void tablesHaveRoomForRows()
    {
        QFETCH(QSize, window);
        QFETCH(bool, withTimeline);
        QFETCH(int, minimumRows);
        MainWindow w(true);
        if (withTimeline && !w.pane(QStringLiteral("timeline")))
            w.addPane(new TopPlaceholder(w.workbench()), PaneGroup::Top);
        w.resize(window);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, demoExport()));
        w.applyDefaultLayout();
        for (const char* id : { "kernels", "statistics", "nvtx" }) {
            Pane* pane = w.pane(QLatin1String(id));
            w.dockOf(pane)->raise();
            QAbstractItemView* view = mainViewOf(pane);
            QVERIFY(view);
            QTRY_VERIFY(view->isVisible() && view->model()->rowCount() > 0);
            QTRY_VERIFY2(visibleRowCapacity(view) >= minimumRows,
                qPrintable(QStringLiteral("%1: %2 rows in %3 px, pane %4 px, window %5 px, timeline %6 px")
                               .arg(QLatin1String(id))
                               .arg(visibleRowCapacity(view))
                               .arg(view->viewport()->height())
                               .arg(pane->height())
                               .arg(w.height())
                               .arg(withTimeline ? w.dockOf(w.pane(QStringLiteral("timeline")))->height() : 0)));
        }
        if (withTimeline) {
            QDockWidget* top = w.dockOf(w.pane(QStringLiteral("timeline")));
            QCOMPARE(w.dockWidgetArea(top), Qt::TopDockWidgetArea);
            QVERIFY(top->isVisible());
            QVERIFY2(top->width() >= w.width() * 9 / 10, qPrintable(QString::number(top->width()))); // across the top
            QVERIFY2(top->height() >= w.height() / 5, qPrintable(QString::number(top->height()))); // a real share
            QDockWidget* kernels = w.dockOf(w.pane(QStringLiteral("kernels")));
            kernels->raise();
            QTRY_VERIFY(kernels->isVisible());
            QVERIFY2(top->geometry().bottom() < kernels->geometry().top(),
                qPrintable(QStringLiteral("timeline %1,%2 %3x%4; kernels %5,%6 %7x%8; window %9x%10")
                               .arg(top->x())
                               .arg(top->y())
                               .arg(top->width())
                               .arg(top->height())
                               .arg(kernels->x())
                               .arg(kernels->y())
                               .arg(kernels->width())
                               .arg(kernels->height())
                               .arg(w.width())
                               .arg(w.height())));
        }
    }

    void splitterPartsNeverOverlap_data()
    {
        QTest::addColumn<QSize>("window");
        QTest::addRow("1366x768") << QSize(1366, 708);
        QTest::addRow("1920x1080") << QSize(1920, 1020);
        QTest::addRow("1366x680 (unmaximised at 1366x768)") << QSize(1366, 680);
    }
    void splitterPartsNeverOverlap()
    {
        // At 1366x768 the focus banner took the height the Categories chart's minimum needed: the chart was drawn
        // over its table's header.
        QFETCH(QSize, window);
        MainWindow w(true);
        w.resize(window);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, demoExport()));
        w.applyDefaultLayout();
        ProfileSession* session = w.workbench()->current();
        session->setFocus(FocusRange { 0, session->profile()->captureDurationNs() / 2, QStringLiteral("step") });
        QApplication::processEvents();
        int checked = 0;
        QStringList overlaps;
        // Every pane brought to the front of its tab group in turn (its splitters are then on screen).
        for (QDockWidget* dock : w.findChildren<QDockWidget*>()) {
            if (!dock->isVisible() && w.tabifiedDockWidgets(dock).isEmpty())
                continue;
            dock->raise();
            QApplication::processEvents();
            checkSplitters(dock, overlaps, checked);
            checkPaneParts(dock, overlaps);
        }
        QVERIFY2(overlaps.isEmpty(), qPrintable(overlaps.join(QStringLiteral("; "))));
        QVERIFY(checked > 0);
    }

    void startPageHasTheWindowUntilAProfileOpens()
    {
        MainWindow w(true);
        w.resize(1366, 708);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.startPage()->isVisible());
        QVERIFY2(w.startPage()->width() >= w.width() * 9 / 10, qPrintable(QString::number(w.startPage()->width())));
        for (const char* id : { "kernels", "nvtx", "categories" })
            QVERIFY(!w.dockOf(w.pane(QLatin1String(id)))->isVisible());
        QVERIFY(openAndWait(w, demoExport()));
        QVERIFY(!w.startPage()->isVisible());
        for (const char* id : { "kernels", "nvtx", "categories" })
            QTRY_VERIFY(w.dockOf(w.pane(QLatin1String(id)))->isVisible());
        // Closing the last profile brings the start page back, and the panes return as they were.
        QDockWidget* kernels = w.dockOf(w.pane(QStringLiteral("kernels")));
        QTRY_VERIFY(qAbs(kernels->width() - w.width() * 45 / 100) < 20); // the default layout, sized at last
        const QRect before = kernels->geometry();
        w.workbench()->removeSession(w.workbench()->current());
        QTRY_VERIFY(w.startPage()->isVisible());
        QVERIFY(!kernels->isVisible());
        QVERIFY(openAndWait(w, demoExport()));
        QTRY_COMPARE(kernels->geometry(), before);
    }

    void chartsAreTabsBesideTheTables()
    {
        MainWindow w(true);
        w.resize(1920, 1020);
        w.show();
        QVERIFY(openAndWait(w, demoExport()));
        QDockWidget* categories = w.dockOf(w.pane(QStringLiteral("categories")));
        const QList<QDockWidget*> tabs = w.tabifiedDockWidgets(categories);
        QCOMPARE(tabs.size(), 3);
        QVERIFY(tabs.contains(w.dockOf(w.pane(QStringLiteral("nvlink")))));
        QVERIFY(tabs.contains(w.dockOf(w.pane(QStringLiteral("compare")))));
        QVERIFY(tabs.contains(w.dockOf(w.pane(QStringLiteral("iterations")))));
        QDockWidget* kernels = w.dockOf(w.pane(QStringLiteral("kernels")));
        QVERIFY(!tabs.contains(kernels));
        QVERIFY(w.tabifiedDockWidgets(kernels).contains(w.dockOf(w.pane(QStringLiteral("statistics")))));
        QVERIFY(w.tabifiedDockWidgets(kernels).contains(w.dockOf(w.pane(QStringLiteral("ranks")))));
        // Columns: NVTX tree, tables, charts, each the window's full height below the timeline.
        QDockWidget* nvtx = w.dockOf(w.pane(QStringLiteral("nvtx")));
        QTRY_VERIFY(categories->isVisible() && kernels->isVisible() && nvtx->isVisible());
        QVERIFY(nvtx->geometry().right() < kernels->geometry().left());
        QVERIFY(kernels->geometry().right() < categories->geometry().left());
        QVERIFY(categories->width() >= w.width() / 5);
        const int belowTimeline = w.height() - w.dockOf(w.pane(QStringLiteral("timeline")))->height();
        QVERIFY2(kernels->height() >= belowTimeline * 3 / 4, qPrintable(QString::number(kernels->height())));
    }

    void paneShownFromTheViewMenuComesToTheFront()
    {
        MainWindow w(true);
        w.resize(1366, 740);
        w.show();
        QVERIFY(openAndWait(w, demoExport()));
        QDockWidget* iterations = w.dockOf(w.pane(QStringLiteral("iterations")));
        QDockWidget* categories = w.dockOf(w.pane(QStringLiteral("categories")));
        QTRY_VERIFY(categories->isVisible()); // the front tab of the charts
        iterations->close(); // its title bar's close button
        QVERIFY(iterations->isHidden());
        showActionOf(iterations)->trigger(); // View → Iterations: shown again
        // In front: on screen, where the tab behind it is moved off the window (Qt keeps it "visible").
        QTRY_VERIFY(!iterations->visibleRegion().isEmpty());
        QVERIFY(categories->visibleRegion().isEmpty());
        QCOMPARE(w.tabifiedDockWidgets(iterations).size(), 3); // Categories, NVLink, Compare
        QVERIFY(iterations->widget()->height() > 100);
    }

    void paneBehindATabComputesWhenItsTabComesToTheFront()
    {
        MainWindow w(true);
        w.resize(1366, 740);
        w.show();
        QVERIFY(openAndWait(w, demoExport()));
        auto* findings = static_cast<FindingsPane*>(w.pane(QStringLiteral("findings")));
        QDockWidget* dock = w.dockOf(findings);
        QDockWidget* kernels = w.dockOf(w.pane(QStringLiteral("kernels")));
        QVERIFY(w.tabifiedDockWidgets(kernels).contains(dock));
        QTRY_VERIFY(!kernels->visibleRegion().isEmpty()); // the front tab of the tables
        // Behind it, Findings is "visible" to Qt (moved off the window) but seen by nobody: it computes nothing.
        QVERIFY(findings->isVisible());
        QVERIFY(dock->visibleRegion().isEmpty());
        QVERIFY(!findings->isComputing());
        QVERIFY(!findings->result());
        QVERIFY(findings->isSettled() && findings->isDeferred());
        dock->raise(); // its tab clicked
        QTRY_VERIFY(!findings->findingsView()->visibleRegion().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(findings->result(), 30000);
        QVERIFY(!findings->isDeferred());
        QVERIFY(findings->findingsView()->model()->rowCount() > 0);
        QVERIFY(kernels->visibleRegion().isEmpty());
    }

    void iterationsGoToTheCompareTabWithoutLeavingIterations()
    {
        MainWindow w(true);
        w.resize(1366, 740);
        w.show();
        QVERIFY(openAndWait(w, demoExport()));
        auto* iterations = static_cast<IterationsPane*>(w.pane(QStringLiteral("iterations")));
        QDockWidget* dock = w.dockOf(iterations);
        dock->raise();
        QTRY_VERIFY(iterations->view()->model()->rowCount() > 0); // the demo: 91 execute_model ranges
        iterations->view()->selectRow(3);
        QToolButton* compare = iterations->compareButton();
        QTRY_VERIFY(compare->isVisible() && compare->isEnabled());
        compare->menu()->actions().at(0)->trigger(); // Selected iteration
        compare->menu()->actions().at(1)->trigger(); // Median iteration
        // The Iterations pane stays in front (the Compare pane is a tab behind it), the status bar says where they
        // went, and the Compare pane lists both after the profile.
        QVERIFY(!dock->visibleRegion().isEmpty());
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("to the Compare pane")),
            qPrintable(w.statusBar()->currentMessage()));
        auto* comparePane = static_cast<ComparePane*>(w.pane(QStringLiteral("compare")));
        const auto members = comparePane->controller()->members();
        QCOMPARE(members.size(), std::size_t(3));
        QCOMPARE(members[1].label, QStringLiteral("demo-llm-inference.sqlite · iteration 3"));
        QVERIFY2(members[2].label.startsWith(QStringLiteral("demo-llm-inference.sqlite · median iteration (")),
            qPrintable(members[2].label));
    }

    void resetLayoutRestoresTheDefault()
    {
        MainWindow w(true);
        w.show();
        QVERIFY(openAndWait(w, demoExport()));
        // The default layout at the default window size (the first open may have found the window another size).
        w.resetLayout();
        w.layout()->activate();
        const QSize defaultSize = w.size();
        QDockWidget* kernels = w.dockOf(w.pane(QStringLiteral("kernels")));
        QDockWidget* nvtx = w.dockOf(w.pane(QStringLiteral("nvtx")));
        QDockWidget* compare = w.dockOf(w.pane(QStringLiteral("compare")));
        const int kernelsWidth = kernels->width();
        kernels->setFloating(true);
        nvtx->hide();
        w.removeDockWidget(compare);
        w.resize(640, 480);
        w.resetLayout();
        QCOMPARE(w.height(), defaultSize.height());
        QVERIFY(w.width() >= w.screen()->availableGeometry().width() * 9 / 10);
        QTRY_VERIFY(kernels->isVisible());
        QTRY_VERIFY(nvtx->isVisible());
        QTRY_VERIFY(w.dockOf(w.pane(QStringLiteral("categories")))->isVisible()); // in front of its tabs
        QVERIFY(!kernels->isFloating());
        QCOMPARE(w.dockWidgetArea(nvtx), Qt::LeftDockWidgetArea);
        QVERIFY(w.tabifiedDockWidgets(w.dockOf(w.pane(QStringLiteral("categories")))).contains(compare));
        QTRY_VERIFY2(qAbs(kernels->width() - kernelsWidth) <= 4, qPrintable(QString::number(kernels->width())));
    }
};

QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
