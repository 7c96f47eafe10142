// SPDX-License-Identifier: GPL-3.0-or-later
// Loads as a person sees them in the main window: progress rows while loading, Cancel, error banners that stay,
// closing during a load, and the open order (the compare baseline) whichever load ends first. Loads are held
// at a gate on their own thread (LoadJob's test hook), never slowed down by sleeps.
#include "app/mainwindow.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/models/kernelinstancemodel.h"
#include "core/models/reporttablemodel.h"
#include "core/session/loadcoordinator.h"
#include "core/session/loadjob.h"
#include "core/session/workbench.h"
#include "loaderfixtures.h"
#include "loadgate.h"
#include "oracleexports.h"
#include "testutils.h"
#include "widgets/compare/comparepane.h"
#include "widgets/kernels/kerneltablepane.h"
#include "widgets/nvtx/nvtxpane.h"
#include "widgets/shell/loaderrorbanners.h"
#include "widgets/shell/loadprogressstrip.h"
#include "widgets/shell/startpage.h"
#include "widgets/statistics/statisticspane.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <memory>
#include <set>

using namespace nsw;
using namespace nsw::test;

namespace {

/// What a person sees of @p widget: shown, with a size, inside the window.
bool isOnScreenIn(const QWidget* widget, const QWidget* window)
{
    if (!widget || !widget->isVisible() || widget->height() <= 0 || widget->width() <= 0)
        return false;
    const QRect inWindow(widget->mapTo(window, QPoint(0, 0)), widget->size());
    return window->rect().contains(inWindow);
}

/// A grab with drawing on it: more than a background colour and a border.
bool grabIsNotBlank(QWidget* widget)
{
    const QImage image = widget->grab().toImage();
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return colours.size() > 4;
}

LoadJob* onlyJobOf(const MainWindow& w)
{
    const auto jobs = w.findChildren<LoadJob*>();
    return jobs.size() == 1 ? jobs.first() : nullptr;
}

} // namespace

class TestWindowLoads : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_modern;
    QString m_old;
    LoadGate m_gate;

    QWidget* progressRowFor(const MainWindow& w, const QString& path) const
    {
        for (QWidget* row : w.progressStrip()->findChildren<QWidget*>(QStringLiteral("loadRow")))
            if (row->toolTip() == QFileInfo(path).absoluteFilePath())
                return row;
        return nullptr;
    }

    QString writeFile(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(bytes);
        return path;
    }

    /// The demo export under a path of its own: a load of the shipped file may come whole from the suite's profile
    /// cache (another test opened it), and then never passes the stage these tests hold it in.
    QString uncachedCopyOfDemo(const QString& name)
    {
        const QString copy = m_dir.filePath(name);
        QFile::remove(copy);
        return QFile::copy(demoExport(), copy) ? QFileInfo(copy).absoluteFilePath() : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // These tests hold loads at their stages; a profile the cache brings back whole passes none of them. A limit
        // of 0 MB keeps every profile out of the cache (tst_profilecache tests the window's cached loads).
        qputenv("NSYS_WORKBENCH_CACHE_MAX_MB", "0");
        m_modern = m_dir.filePath(QStringLiteral("modern.sqlite"));
        m_old = m_dir.filePath(QStringLiteral("old.sqlite"));
        QString error;
        QVERIFY2(writeModernExport(m_modern, &error), qPrintable(error));
        QVERIFY2(writeOldExport(m_old, &error), qPrintable(error));
        m_gate.install();
    }

    void cleanup() { QVERIFY(m_gate.openAndWaitForLoads()); }

    void cleanupTestCase() { m_gate.uninstall(); }

    void progressRowIsOnScreenWhileALoadRuns()
    {
        MainWindow w(true);
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.progressStrip()->isVisible());
        m_gate.close();
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles({ m_modern });
        QWidget* row = progressRowFor(w, m_modern);
        QVERIFY(row);
        QTRY_VERIFY(isOnScreenIn(row, &w));
        QVERIFY(isOnScreenIn(w.progressStrip(), &w));
        QVERIFY(grabIsNotBlank(row));
        // File name, stage, elapsed time and Cancel, all readable.
        QVERIFY(row->findChild<QLabel*>(QStringLiteral("loadName"))->text().contains(QStringLiteral("modern.sqlite")));
        QTRY_VERIFY(!row->findChild<QLabel*>(QStringLiteral("loadStage"))->text().isEmpty());
        QVERIFY(row->findChild<QLabel*>(QStringLiteral("loadElapsed"))->text().endsWith(QStringLiteral(" s")));
        QVERIFY(isOnScreenIn(row->findChild<QPushButton*>(QStringLiteral("loadCancel")), &w));
        // The window stays usable: no modal dialog.
        QVERIFY(!QApplication::activeModalWidget());
        m_gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
        QVERIFY(ended.first().at(1).toBool());
        QVERIFY(!w.progressStrip()->isVisible());
        QCOMPARE(w.progressStrip()->rowCount(), 0);
    }

    void kernelsFirstWhileTheRestLoads()
    {
        // Held in the second stage of the load (joining launches to API calls): the kernels are on screen, the panes
        // that need the rest say what they wait for, and nothing shows partial numbers. Released, all fill.
        const QString demo = uncachedCopyOfDemo(QStringLiteral("demo-staged.sqlite"));
        const qint64 kernelNames = queryRows(demo,
            QStringLiteral("SELECT COUNT(DISTINCT s.value) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                           "s.id = k.demangledName"))
                                       .value(0)
                                       .value(0)
                                       .toLongLong();
        QVERIFY(kernelNames > 1);
        MainWindow w(true);
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        m_gate.close({ QFileInfo(demo).absoluteFilePath() }, false, QStringLiteral("Joining"));
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles({ demo });
        QTRY_COMPARE_WITH_TIMEOUT(w.workbench()->sessions().size(), std::size_t(1), 20000);
        ProfileSession* session = w.workbench()->sessions().front();
        QVERIFY(!session->isComplete());
        QCOMPARE(ended.count(), 0);
        QVERIFY(isOnScreenIn(progressRowFor(w, demo), &w)); // the load goes on, visibly

        auto* kernels = w.findChild<KernelTablePane*>();
        QTRY_COMPARE(kernels->summaryView()->model()->rowCount(), int(kernelNames));
        QVERIFY(isOnScreenIn(kernels->summaryView(), &w));
        // Selecting works now; the executions' launching calls come with the second stage.
        kernels->summaryView()->setCurrentIndex(kernels->summaryView()->model()->index(0, 0));
        QAbstractItemModel* executions = kernels->instanceView()->model();
        QTRY_VERIFY(executions->rowCount() > 0);
        auto launchOfFirst
            = [&]() { return executions->index(0, KernelInstanceModel::LaunchColumn).data().toString(); };
        QCOMPARE(launchOfFirst(), QString());

        auto* nvtx = w.findChild<NvtxPane*>();
        auto* waiting = nvtx->findChild<QLabel*>(QStringLiteral("waitingOverlay"));
        QVERIFY(waiting);
        QTRY_VERIFY(isOnScreenIn(waiting, &w));
        QCOMPARE(waiting->size(), nvtx->size());
        QVERIFY(waiting->text().contains(QStringLiteral("NVTX")));
        QVERIFY(waiting->text().contains(session->displayName()));
        QVERIFY(grabIsNotBlank(waiting));

        auto* statistics = w.findChild<StatisticsPane*>();
        w.dockOf(statistics)->raise(); // its tab, behind Kernels
        QCOMPARE(statistics->reportSelector()->currentData().toString(), QStringLiteral("cuda_api_sum"));
        const auto waitingMessage = [&]() -> QLabel* {
            for (QLabel* l : statistics->findChildren<QLabel*>())
                if (isOnScreenIn(l, &w) && l->text().startsWith(QStringLiteral("cuda_api_sum needs")))
                    return l;
            return nullptr;
        };
        QTRY_VERIFY(waitingMessage());
        QCOMPARE(statistics->model()->rowCount(), 0); // never a partial API summary
        QSignalSpy shown(statistics, &StatisticsPane::reportShown);
        statistics->reportSelector()->setCurrentIndex(
            statistics->reportSelector()->findData(QStringLiteral("cuda_gpu_kern_sum")));
        QTRY_VERIFY(shown.count() > 0);
        QTRY_COMPARE(statistics->model()->rowCount(), int(kernelNames));

        m_gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
        QVERIFY(ended.first().at(1).toBool());
        QVERIFY(session->isComplete());
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(1));
        QVERIFY(!waiting->isVisible());
        QCOMPARE(kernels->summaryView()->model()->rowCount(), int(kernelNames)); // kept, not rebuilt empty
        QTRY_VERIFY(launchOfFirst().startsWith(QStringLiteral("cu"))); // cudaLaunchKernel, cuLaunchKernel...
        QCOMPARE(session->cachedKernelIndex(KernelNameMode::Demangled)->profile(), session->profile());
        QVERIFY(session->profile()->cudaApi.size() > 0);
        statistics->reportSelector()->setCurrentIndex(
            statistics->reportSelector()->findData(QStringLiteral("cuda_api_sum")));
        QTRY_VERIFY(statistics->model()->rowCount() > 0);
    }

    void theFirstStageMakesRoomThenFillsThePanesInTwoTurns()
    {
        // Leaving the start page (laying out every pane) and filling the panes were one long stop of the event loop
        // when the kernels arrived: now the window makes room in one turn and the panes take the profile in the next,
        // and no frame in between shows the panes empty (the window does not paint until they have the profile).
        const QString demo = uncachedCopyOfDemo(QStringLiteral("demo-two-turns.sqlite"));
        MainWindow w(true);
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.startPage()->isVisible());
        auto* loads = w.findChild<LoadCoordinator*>();
        QVERIFY(loads);
        auto* kernels = w.findChild<KernelTablePane*>();
        bool arrived = false;
        connect(loads, &LoadCoordinator::firstStageArriving, this, [&]() {
            arrived = true;
            QVERIFY(!w.startPage()->isVisible());
            QVERIFY(isOnScreenIn(kernels->summaryView(), &w));
            QVERIFY(w.workbench()->sessions().empty()); // the panes get the profile in the next turn
            QVERIFY(!w.updatesEnabled());
        });
        bool timerRanBetween = false;
        QTimer between; // a timer of the event loop, started when the room is made
        between.setSingleShot(true);
        connect(&between, &QTimer::timeout, this, [&]() { timerRanBetween = true; });
        connect(loads, &LoadCoordinator::firstStageArriving, &between, [&]() { between.start(0); });
        bool openedAfterATurn = false;
        connect(loads, &LoadCoordinator::sessionOpened, this, [&]() { openedAfterATurn = arrived && timerRanBetween; });
        m_gate.close({ QFileInfo(demo).absoluteFilePath() }, false, QStringLiteral("Joining"));
        w.openFiles({ demo });
        QTRY_COMPARE_WITH_TIMEOUT(w.workbench()->sessions().size(), std::size_t(1), 20000);
        QVERIFY(arrived);
        QVERIFY(openedAfterATurn);
        QVERIFY(w.updatesEnabled());
        QTRY_VERIFY(kernels->summaryView()->model()->rowCount() > 0);
        QVERIFY(grabIsNotBlank(kernels->summaryView()));
    }

    void cancellingTheSecondStageClosesOnlyItsProfile()
    {
        MainWindow w(true);
        w.resize(1200, 800);
        w.show();
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles({ m_modern });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
        const QString demo = uncachedCopyOfDemo(QStringLiteral("demo-cancelled.sqlite"));
        m_gate.close({ demo }, false, QStringLiteral("Joining"));
        w.openFiles({ demo });
        QTRY_COMPARE_WITH_TIMEOUT(w.workbench()->sessions().size(), std::size_t(2), 20000);
        QWidget* row = progressRowFor(w, demo);
        QVERIFY(row);
        QTest::mouseClick(row->findChild<QPushButton*>(QStringLiteral("loadCancel")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 20000);
        QVERIFY(!ended.last().at(1).toBool());
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(1));
        QCOMPARE(w.workbench()->sessions().front()->path(), QFileInfo(m_modern).absoluteFilePath());
        QVERIFY(w.workbench()->sessions().front()->isComplete());
    }

    void severalLoadsShowSeveralRowsAndCancelStopsOnlyItsOwn()
    {
        MainWindow w(true);
        w.resize(1200, 800);
        w.show();
        // A profile already open must survive the cancel.
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        const QString open = m_dir.filePath(QStringLiteral("open-before.sqlite"));
        QVERIFY(QFile::copy(m_modern, open));
        w.openFiles({ open });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(1));

        m_gate.close();
        w.openFiles({ m_modern, m_old });
        QTRY_VERIFY(isOnScreenIn(progressRowFor(w, m_modern), &w));
        QTRY_VERIFY(isOnScreenIn(progressRowFor(w, m_old), &w));
        QCOMPARE(w.progressStrip()->rowCount(), 2);
        QVERIFY(progressRowFor(w, m_old)->y() != progressRowFor(w, m_modern)->y()); // rows, not overlapping

        QTest::mouseClick(
            progressRowFor(w, m_modern)->findChild<QPushButton*>(QStringLiteral("loadCancel")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 20000);
        QCOMPARE(ended.at(1).at(0).toString(), QFileInfo(m_modern).absoluteFilePath());
        QVERIFY(!ended.at(1).at(1).toBool());
        QCOMPARE(w.progressStrip()->rowCount(), 1);
        QVERIFY(isOnScreenIn(progressRowFor(w, m_old), &w)); // the other load goes on
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(1));
        QVERIFY(w.errorBanners()->errors().empty()); // a cancel is not an error

        m_gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 3, 20000);
        QVERIFY(ended.at(2).at(1).toBool());
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(2));
        QCOMPARE(w.workbench()->sessions().front()->path(), QFileInfo(open).absoluteFilePath());
    }

    void failedLoadLeavesABannerUntilDismissed_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("withProfileOpen");
        QTest::addRow("not SQLite") << writeFile(QStringLiteral("text.sqlite"), "not a database, just text") << false;
        QTest::addRow("empty file") << writeFile(QStringLiteral("empty.sqlite"), {}) << false;
        QFile modern(m_modern);
        QVERIFY(modern.open(QIODevice::ReadOnly));
        const QByteArray bytes = modern.readAll();
        QTest::addRow("truncated export")
            << writeFile(QStringLiteral("truncated.sqlite"), bytes.left(bytes.size() / 3)) << false;
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("empty-folder")));
        QTest::addRow("empty folder") << m_dir.filePath(QStringLiteral("empty-folder")) << false;
        QTest::addRow("not SQLite, beside an open profile")
            << writeFile(QStringLiteral("text2.sqlite"), "still not a database") << true;
    }
    void failedLoadLeavesABannerUntilDismissed()
    {
        QFETCH(QString, path);
        QFETCH(bool, withProfileOpen);
        MainWindow w(true);
        w.resize(1200, 800);
        w.show();
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        if (withProfileOpen) {
            w.openFiles({ m_modern });
            QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
            ended.clear();
        }
        w.openFiles({ path });
        if (!QFileInfo(path).isDir()) // a folder fails before any load starts
            QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
        QTRY_COMPARE(int(w.errorBanners()->errors().size()), 1);
        QWidget* banner = w.errorBanners()->banner(0);
        QVERIFY(isOnScreenIn(banner, &w));
        QVERIFY(grabIsNotBlank(banner));
        const QString text = banner->findChild<QLabel*>(QStringLiteral("loadErrorText"))->text();
        QVERIFY2(text.contains(QFileInfo(path).fileName()), qPrintable(text));
        const LoadError error = w.errorBanners()->errors().front();
        QCOMPARE(error.path, QFileInfo(path).absoluteFilePath());
        QVERIFY(!error.reason.isEmpty());
        QVERIFY2(!error.reason.startsWith(error.path), qPrintable(error.reason)); // said once, not twice
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(withProfileOpen ? 1 : 0));
        // The start page lists it too when nothing is open.
        QCOMPARE(w.startPage()->isVisible(), !withProfileOpen);
        if (!withProfileOpen)
            QVERIFY(w.startPage()->errorText().contains(error.reason.toHtmlEscaped()));
        // It stays (no timeout) until dismissed.
        QCoreApplication::processEvents();
        QVERIFY(isOnScreenIn(banner, &w));
        QTest::mouseClick(banner->findChild<QPushButton*>(QStringLiteral("dismissLoadError")), Qt::LeftButton);
        QVERIFY(w.errorBanners()->errors().empty());
        QTRY_VERIFY(!w.errorBanners()->isVisible());
        QVERIFY(w.startPage()->errorText().isEmpty());
    }

    void closingDuringALoadReturnsAtOnce()
    {
        auto* w = new MainWindow(true);
        w->show();
        m_gate.close({}, true); // the load thread stays held even after the cancel: closing must not wait for it
        w->openFiles({ m_modern });
        QTRY_VERIFY(isOnScreenIn(progressRowFor(*w, m_modern), w));
        QPointer<LoadJob> job = onlyJobOf(*w);
        QVERIFY(job);
        QElapsedTimer clock;
        clock.start();
        w->close();
        delete w;
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(!job);
        QVERIFY(!LoadJob::waitForDetachedLoads(0)); // still held on its thread, detached
        m_gate.open(); // the thread ends on its own, its result dropped
        QVERIFY(LoadJob::waitForDetachedLoads(20000));
        QCoreApplication::processEvents(); // the dropped result's delivery finds no job
    }

    void baselineIsTheFirstProfileOpenedWhicheverLoadEndsFirst()
    {
        MainWindow w(true);
        w.show();
        auto* compare = qobject_cast<ComparePane*>(w.pane(QStringLiteral("compare")));
        QVERIFY(compare);
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        m_gate.close({ QFileInfo(m_modern).absoluteFilePath() }); // the first one opened ends last
        w.openFiles({ m_modern, m_old });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
        QCOMPARE(ended.first().at(0).toString(), QFileInfo(m_old).absoluteFilePath());
        m_gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 20000);
        const auto& sessions = w.workbench()->sessions();
        QCOMPARE(sessions.size(), std::size_t(2));
        QCOMPARE(sessions[0]->path(), QFileInfo(m_modern).absoluteFilePath());
        QCOMPARE(sessions[1]->path(), QFileInfo(m_old).absoluteFilePath());
        QCOMPARE(compare->controller()->baseline(), sessions[0]);
        QCOMPARE(w.workbench()->current()->path(), QFileInfo(m_modern).absoluteFilePath()); // the first argument
    }

    /// Several files opened at once show the first of them, also when it loads first (it was the last one loaded);
    /// a file opened later is shown when it loads.
    void theFirstProfileOpenedIsShownWhicheverLoadEndsLast()
    {
        MainWindow w(true);
        w.show();
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        m_gate.close({ QFileInfo(m_old).absoluteFilePath() }); // the second one opened ends last
        w.openFiles({ m_modern, m_old });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
        QCOMPARE(ended.first().at(0).toString(), QFileInfo(m_modern).absoluteFilePath());
        m_gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 20000);
        QCOMPARE(w.workbench()->current()->path(), QFileInfo(m_modern).absoluteFilePath());
        QVERIFY2(w.windowTitle().startsWith(QFileInfo(m_modern).fileName()), qPrintable(w.windowTitle()));
        w.workbench()->removeSession(w.workbench()->current());
        QCOMPARE(w.workbench()->current()->path(), QFileInfo(m_old).absoluteFilePath());
    }
};

QTEST_MAIN(TestWindowLoads)
#include "tst_windowloads.moc"
