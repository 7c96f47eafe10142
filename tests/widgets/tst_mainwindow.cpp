// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/mainwindow.h"
#include "core/models/modelroles.h"
#include "core/models/reporttablemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/workbench.h"
#include "loaderfixtures.h"
#include "widgets/common/filterbar.h"
#include "widgets/common/tableviews.h"
#include "widgets/kernels/kerneltablepane.h"
#include "widgets/shell/focusbanner.h"
#include "widgets/shell/loaderrorbanners.h"
#include "widgets/statistics/statisticspane.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;
using namespace nsw::test;

class TestMainWindow : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_export;

    bool openAndWait(MainWindow& w, const QString& path, bool* ok = nullptr)
    {
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles({ path });
        if (!ended.wait(20000))
            return false;
        if (ok)
            *ok = ended.first().at(1).toBool();
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // settings (recent files, layout) go to a test location
        m_export = m_dir.filePath(QStringLiteral("modern.sqlite"));
        QString error;
        QVERIFY2(writeModernExport(m_export, &error), qPrintable(error));
    }

    void opensAnExportAndShowsItsKernels()
    {
        MainWindow w(true);
        w.show();
        bool ok = false;
        QVERIFY(openAndWait(w, m_export, &ok));
        QVERIFY(ok);
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(1));
        auto* kernels = qobject_cast<KernelTablePane*>(w.pane(QStringLiteral("kernels")));
        QVERIFY(kernels);
        QTableView* view = kernels->summaryView();
        // Two kernel names: gemm (1000-1500, 2000-2600 = 1100 ns) and the NCCL kernel (1000 + 150 = 1150 ns).
        QCOMPARE(view->model()->rowCount(), 2);
        QCOMPARE(view->model()->index(0, 0).data().toString(),
            QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm *, unsigned long, ncclWork *)"));
        QCOMPARE(view->model()->index(0, 2).data(SortRole).toLongLong(), qint64(1150));
        // Selecting a kernel lists its executions.
        view->setCurrentIndex(view->model()->index(1, 0));
        QCOMPARE(kernels->instanceView()->model()->rowCount(), 2);
        // Typing in the filter bar (debounced) filters by substring, case-insensitive.
        kernels->filterBar()->lineEdit()->setText(QStringLiteral("GEMM<"));
        QTRY_COMPARE(view->model()->rowCount(), 1);
        kernels->filterBar()->lineEdit()->clear();
        QTRY_COMPARE(view->model()->rowCount(), 2);
        QCOMPARE(kernels->summaryProxy()->setFilter(QStringLiteral("^void gemm"), true), QString());
        QCOMPARE(view->model()->rowCount(), 1);
        kernels->summaryProxy()->setFilter(QString(), false);
        // Per-device filter: device 0 is the only device, so switching it off empties the table.
        kernels->setDeviceAllowed(0, false);
        QCOMPARE(view->model()->rowCount(), 0);
        kernels->setDeviceAllowed(0, true);
        QCOMPARE(view->model()->rowCount(), 2);
        // Short names (nsys's :base): the index for that mode is built in the background.
        kernels->setNameMode(KernelNameMode::Short);
        QTRY_COMPARE(view->model()->rowCount(), 2);
        QTRY_COMPARE(view->model()->index(1, 0).data().toString(), QStringLiteral("gemm"));
        kernels->setNameMode(KernelNameMode::Demangled);
        QTRY_COMPARE(view->model()->index(1, 0).data().toString(), QStringLiteral("void gemm<float>(float *, int)"));
        // Export of the visible table.
        const QString csv = m_dir.filePath(QStringLiteral("kernels.csv"));
        QCOMPARE(exportViewCsv(view, csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QStringLiteral("\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(QStringLiteral("Name,Time (%),Total Time (ns),Instances")));
        QVERIFY2(lines[1].startsWith(QStringLiteral(
                     "\"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm *, unsigned long, ncclWork *)\",")),
            qPrintable(lines[1]));
        QVERIFY2(lines[1].contains(QStringLiteral(",1150,2,")), qPrintable(lines[1]));
    }

    void statisticsPaneShowsReports()
    {
        MainWindow w(true);
        w.show();
        QVERIFY(openAndWait(w, m_export));
        auto* stats = qobject_cast<StatisticsPane*>(w.pane(QStringLiteral("statistics")));
        QVERIFY(stats);
        w.dockOf(stats)->raise(); // its tab, behind Kernels: computes once chosen
        QSignalSpy shown(stats, &StatisticsPane::reportShown);
        stats->reportSelector()->setCurrentIndex(stats->reportSelector()->findData(QStringLiteral("osrt_sum")));
        QTRY_VERIFY(shown.count() > 0 && stats->model()->report().name == QLatin1String("osrt_sum"));
        QCOMPARE(stats->model()->rowCount(), 1); // one ioctl of class 27; the class-31 row is not OS runtime
        QCOMPARE(stats->model()->index(0, 1).data(SortRole).toLongLong(), qint64(200));
    }

    void statusBarCountsTheGpusInWords()
    {
        MainWindow w(true);
        QVERIFY(openAndWait(w, m_export));
        int gpus = 0;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("gpucount"));
            db.setDatabaseName(m_export);
            db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("SELECT count(DISTINCT deviceId) FROM (SELECT deviceId FROM "
                                          "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT deviceId FROM "
                                          "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT deviceId FROM "
                                          "CUPTI_ACTIVITY_KIND_MEMSET)")));
            QVERIFY(q.next());
            gpus = q.value(0).toInt();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("gpucount"));
        QVERIFY(gpus > 0);
        QString status;
        for (const QLabel* label : w.statusBar()->findChildren<QLabel*>())
            if (label->text().contains(QStringLiteral("GPU")))
                status = label->text();
        const QString expected = gpus == 1 ? QStringLiteral("1 GPU") : QStringLiteral("%1 GPUs").arg(gpus);
        QVERIFY2(status.contains(expected) && !status.contains(QStringLiteral("(s)")), qPrintable(status));
    }

    void focusBannerSaysWhatThePanesShow()
    {
        MainWindow w(true);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, m_export));
        ProfileSession* session = w.workbench()->current();
        QVERIFY(session);
        QVERIFY(!w.focusBanner()->isVisible());
        const TimeNs capture = session->profile()->captureDurationNs();
        QVERIFY(capture > 0);
        // A quarter of the capture: the banner names it, its length and its share.
        const FocusRange focus { 0, capture / 4, QStringLiteral("ProfilerStep#2") };
        session->setFocus(focus);
        QVERIFY(w.focusBanner()->isVisible());
        QVERIFY(w.focusBanner()->height() > 0);
        const QString text = w.focusBanner()->text();
        QVERIFY2(text.contains(QStringLiteral("ProfilerStep#2")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("25.0 % of the capture")), qPrintable(text));
        auto* clear = w.focusBanner()->findChild<QPushButton*>(QStringLiteral("clearFocus"));
        QVERIFY(clear && clear->isVisible());
        QTest::mouseClick(clear, Qt::LeftButton);
        QVERIFY(!session->focus().isActive());
        QVERIFY(!w.focusBanner()->isVisible());
        // Esc clears it too.
        session->setFocus(focus);
        QVERIFY(w.focusBanner()->isVisible());
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!session->focus().isActive());
        QVERIFY(!w.focusBanner()->isVisible());
    }

    void aLongFocusLabelIsElidedInsteadOfWideningTheWindow()
    {
        // An NVTX range's label can be thousands of characters (a Python dict of a whole trace marker).
        MainWindow w(true);
        w.resize(1000, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, m_export));
        ProfileSession* session = w.workbench()->current();
        QVERIFY(session);
        const QString label
            = QStringLiteral("{'traceMarker': [") + QString(2000, QLatin1Char('x')) + QStringLiteral("]}");
        session->setFocus(FocusRange { 0, session->profile()->captureDurationNs() / 4, label });
        QApplication::processEvents();
        QCOMPARE(w.width(), 1000);
        QVERIFY2(w.minimumSizeHint().width() < 1000, qPrintable(QString::number(w.minimumSizeHint().width())));
        FocusBanner* banner = w.focusBanner();
        QVERIFY(banner->isVisible());
        QVERIFY(banner->geometry().right() < w.width());
        QVERIFY2(banner->text().contains(label), "the whole label is kept");
        const QString shown = banner->shownText();
        QVERIFY2(shown.size() < label.size() && shown.startsWith(QStringLiteral("Focus")), qPrintable(shown));
        QVERIFY(banner->fontMetrics().horizontalAdvance(shown) <= banner->width());
        auto* clear = banner->findChild<QPushButton*>(QStringLiteral("clearFocus"));
        QVERIFY(clear && clear->isVisible());
        QVERIFY(banner->rect().contains(clear->geometry()));
    }

    void statisticsFollowTheFocus()
    {
        MainWindow w(true);
        w.show();
        QVERIFY(openAndWait(w, m_export));
        ProfileSession* session = w.workbench()->current();
        auto* stats = qobject_cast<StatisticsPane*>(w.pane(QStringLiteral("statistics")));
        QVERIFY(stats);
        w.dockOf(stats)->raise();
        QSignalSpy shown(stats, &StatisticsPane::reportShown);
        stats->reportSelector()->setCurrentIndex(
            stats->reportSelector()->findData(QStringLiteral("cuda_gpu_kern_sum")));
        QTRY_VERIFY(shown.count() > 0 && stats->model()->report().name == QLatin1String("cuda_gpu_kern_sum"));
        const auto instances = [&]() {
            int column = -1;
            for (int c = 0; c < stats->model()->columnCount(); ++c)
                if (stats->model()->headerData(c, Qt::Horizontal).toString() == QLatin1String("Instances"))
                    column = c;
            qint64 n = 0;
            for (int r = 0; r < stats->model()->rowCount(); ++r)
                n += stats->model()->index(r, column).data(SortRole).toLongLong();
            return n;
        };
        // The first half of the kernels' span; the expected count from the file with nsys's overlap predicate.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("focusOracle"));
        db.setDatabaseName(m_export);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL")) && q.next());
        const qint64 s = q.value(0).toLongLong(), e = s + (q.value(1).toLongLong() - s) / 2;
        QVERIFY(q.exec(QStringLiteral("SELECT count(*), (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) FROM "
                                      "CUPTI_ACTIVITY_KIND_KERNEL WHERE (start >= %1 AND start < %2) OR "
                                      "(end >= %1 AND end < %2) OR (start < %1 AND end >= %2)")
                           .arg(s)
                           .arg(e))
            && q.next());
        const qint64 inside = q.value(0).toLongLong(), all = q.value(1).toLongLong();
        db.close();
        QVERIFY(inside < all);
        QCOMPARE(instances(), all);
        shown.clear();
        session->setFocus(FocusRange { s, e, QStringLiteral("first half") });
        QTRY_VERIFY(shown.count() > 0);
        QCOMPARE(instances(), inside);
        shown.clear();
        session->clearFocus();
        QTRY_VERIFY(shown.count() > 0);
        QCOMPARE(instances(), all);
    }

    void failedLoadLeavesOpenProfilesAlone()
    {
        MainWindow w(true);
        QVERIFY(openAndWait(w, m_export));
        const QString bad = m_dir.filePath(QStringLiteral("broken.sqlite"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a database");
        f.close();
        bool ok = true;
        QVERIFY(openAndWait(w, bad, &ok));
        QVERIFY(!ok);
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(1));
        QVERIFY(w.workbench()->current());
        QCOMPARE(w.errorBanners()->errors().size(), std::size_t(1));
        QCOMPARE(w.errorBanners()->errors().front().path, bad);
    }

    void severalProfilesAndClosing()
    {
        MainWindow w(true);
        const QString second = m_dir.filePath(QStringLiteral("old.sqlite"));
        QString error;
        QVERIFY2(writeOldExport(second, &error), qPrintable(error));
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles({ m_export, second });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 20000);
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(2));
        auto* kernels = qobject_cast<KernelTablePane*>(w.pane(QStringLiteral("kernels")));
        ProfileSession* old = nullptr;
        for (ProfileSession* s : w.workbench()->sessions())
            if (s->path() == second)
                old = s;
        QVERIFY(old);
        w.workbench()->setCurrent(old);
        QCOMPARE(kernels->summaryView()->model()->rowCount(), 1);
        std::weak_ptr<const Profile> weak = old->profile();
        w.workbench()->removeSession(old);
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(1));
        // Closing frees the profile once background work on it (a cancelled NVTX build...) has wound down.
        QTRY_VERIFY_WITH_TIMEOUT(weak.expired(), 20000);
        QCOMPARE(kernels->summaryView()->model()->rowCount(), 2);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
