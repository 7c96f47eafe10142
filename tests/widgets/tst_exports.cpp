// SPDX-License-Identifier: GPL-3.0-or-later
// File → Export from the window: the table CSV is the CLI's, byte for byte; the chart PNG is the chart on screen.
#include "app/mainwindow.h"
#include "core/models/reporttablemodel.h"
#include "oracleexports.h"
#include "widgets/categories/categoriespane.h"
#include "widgets/common/tableviews.h"
#include "widgets/compare/comparepane.h"
#include "widgets/nvlink/nvlinkpane.h"
#include "widgets/statistics/statisticspane.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

using namespace nsw;

namespace {
QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

class TestExports : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    bool openAndWait(MainWindow& w, const QString& path)
    {
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles({ path });
        return ended.wait(60000) && ended.first().at(1).toBool();
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void statisticsCsvIsTheClisCsv_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("report");
        QTest::newRow("generated training, kernels") << test::pairBefore() << QStringLiteral("cuda_gpu_kern_sum");
        QTest::newRow("generated training, CUDA API") << test::pairBefore() << QStringLiteral("cuda_api_sum");
        QTest::newRow("demo, kernels") << test::demoExport() << QStringLiteral("cuda_gpu_kern_sum");
        // Reports that follow nsys 2022.4: kernels per NVTX range, addresses in hex, OpenMP from the export itself.
        QTest::newRow("generated training, NVTX kernels") << test::pairBefore() << QStringLiteral("nvtx_kern_sum");
        QTest::newRow("generated 2024.6, unified memory")
            << test::generatedExport(QStringLiteral("2024.6")) << QStringLiteral("um_sum");
        QTest::newRow("generated 2024.6, OpenMP")
            << test::generatedExport(QStringLiteral("2024.6")) << QStringLiteral("openmp_sum");
    }

    /// The window's table CSV and `stats --format csv -o` of the same report are the same bytes: LF line ends, nsys's
    /// quoting, reals as nsys prints them ("993147.0", not "993147").
    void statisticsCsvIsTheClisCsv()
    {
        QFETCH(QString, path);
        QFETCH(QString, report);
        MainWindow w(true);
        w.show();
        QVERIFY(openAndWait(w, path));
        auto* stats = qobject_cast<StatisticsPane*>(w.pane(QStringLiteral("statistics")));
        QVERIFY(stats);
        w.dockOf(stats)->raise(); // its tab, behind Kernels
        stats->reportSelector()->setCurrentIndex(stats->reportSelector()->findData(report));
        QTRY_VERIFY_WITH_TIMEOUT(stats->model()->report().name == report && stats->model()->rowCount() > 0, 60000);
        const QString windowFile = m_dir.filePath(QStringLiteral("window-%1.csv").arg(report));
        QCOMPARE(exportViewCsv(stats->exportableView(), windowFile), QString());

        const QString cliFile = m_dir.filePath(QStringLiteral("cli-%1.csv").arg(report));
        QProcess cli;
        cli.start(QStringLiteral(NSW_WORKBENCH_EXE),
            { QStringLiteral("stats"), QStringLiteral("-r"), report, QStringLiteral("--format"), QStringLiteral("csv"),
                QStringLiteral("-o"), cliFile, path });
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);

        const QByteArray window = readAll(windowFile);
        const QByteArray expected = readAll(cliFile);
        QVERIFY(!expected.isEmpty());
        QVERIFY(!window.contains('\r'));
        QCOMPARE(window, expected);
        // The averages are nsys's reals: one decimal at least ("993147.0").
        const QList<QByteArray> lines = window.split('\n');
        const int avg = int(lines.first().split(',').indexOf("Avg (ns)"));
        if (report == QLatin1String("um_sum"))
            return; // no averages: addresses, sizes and throughputs
        QVERIFY(avg > 0);
        QVERIFY2(lines[1].split(',').value(avg).contains('.'), lines[1].constData());
    }

    /// Chart → PNG takes the chart in front (the last one shown or clicked), never one behind another tab.
    void pngExportTakesTheChartInFront()
    {
        MainWindow w(true);
        w.resize(1400, 900);
        w.show();
        QVERIFY(openAndWait(w, test::pairBefore()));
        auto* categories = qobject_cast<CategoriesPane*>(w.pane(QStringLiteral("categories")));
        auto* compare = qobject_cast<ComparePane*>(w.pane(QStringLiteral("compare")));
        auto* nvlink = qobject_cast<NvlinkPane*>(w.pane(QStringLiteral("nvlink")));
        QVERIFY(categories && compare && nvlink);
        // The three charts share one tab group in the default layout: one is in front at a time.
        QVERIFY(w.tabifiedDockWidgets(w.dockOf(categories)).contains(w.dockOf(compare)));
        // A dock behind another tab stays isVisible() with nothing on screen: what a person sees is the visible region.
        const auto onScreen
            = [](const QWidget* widget) { return widget->isVisible() && !widget->visibleRegion().isEmpty(); };
        for (Pane* front : std::initializer_list<Pane*> { compare, categories, nvlink, compare }) {
            w.dockOf(front)->raise();
            if (front == nvlink) {
                // This export has no NVLink data: the pane shows no plot, and no hidden chart is exported instead.
                QTRY_VERIFY(onScreen(nvlink));
                QVERIFY(!onScreen(nvlink->exportablePlot()));
                QVERIFY(!w.plotToExport() || onScreen(w.plotToExport()));
                QVERIFY(w.plotToExport() != nvlink->exportablePlot());
                continue;
            }
            QTRY_VERIFY(onScreen(front->exportablePlot()));
            QCOMPARE(w.plotToExport(), front->exportablePlot());
            for (Pane* other : std::initializer_list<Pane*> { compare, nvlink, categories })
                if (other != front)
                    QVERIFY2(!onScreen(other->exportablePlot()), qPrintable(other->paneId()));
        }
        // Focus in a table elsewhere does not change which chart is exported.
        w.pane(QStringLiteral("kernels"))->exportableView()->setFocus();
        QCOMPARE(w.plotToExport(), compare->exportablePlot());
        // With the charts' docks closed there is nothing to export, rather than a hidden chart.
        for (Pane* p : std::initializer_list<Pane*> { compare, nvlink, categories })
            w.dockOf(p)->close();
        QTRY_VERIFY(!onScreen(compare->exportablePlot()));
        QVERIFY(!w.plotToExport());
    }
};

QTEST_MAIN(TestExports)
#include "tst_exports.moc"
