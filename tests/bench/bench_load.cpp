// SPDX-License-Identifier: GPL-3.0-or-later
// Opening an export in the real window, offscreen (issue 12). Run by hand on a large export:
//   bench_load TRACE.sqlite
// Measures, in one run and on a warm page cache: a plain SQLite scan of the kernel columns the Kernels pane needs
// (kscan) and of every column the loader reads (scan), then the time from MainWindow::openFiles() to the Kernels
// pane holding rows (first view) and to the load's end (full), and the process's peak RSS when the load ended (the
// panes' analyses that start then have their own benchmarks). The last line is
//   load first-view X x kscan; full Y x scan; rss Z x file
#include "app/mainwindow.h"
#include "benchscans.h"
#include "widgets/kernels/kerneltablepane.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <cstdio>

using namespace nsw;
using namespace nsw::bench;

namespace {

qint64 rowsOf(const QAbstractItemModel* model)
{
    return model ? model->rowCount() : 0;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_load TRACE.sqlite\n");
        return 1;
    }
    const QString path = QFileInfo(QString::fromLocal8Bit(argv[1])).absoluteFilePath();
    const Floors floors = measureFloors(path);
    if (!floors.ok) {
        std::fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 1;
    }
    const double kscan = floors.kscan;
    const double fullScan = floors.fullScan;
    std::printf("floor: kernel columns %.2f s, every loaded column %.2f s\n", kscan, fullScan);

    MainWindow window(true);
    window.resize(1600, 1000);
    window.show();
    auto* kernels = window.findChild<KernelTablePane*>();
    if (!kernels) {
        std::fprintf(stderr, "no Kernels pane\n");
        return 1;
    }
    bool ended = false;
    bool ok = false;
    QString error;
    QElapsedTimer t;
    double fullLoad = -1;
    double rssAtEnd = 0;
    QObject::connect(&window, &MainWindow::loadEnded, [&](const QString&, bool success, const QString& e) {
        fullLoad = double(t.nsecsElapsed()) / 1e9;
        rssAtEnd = peakRssBytes(); // the load's peak: the panes' analyses that start now have their own benchmarks
        ended = true;
        ok = success;
        error = e;
    });
    t.start();
    window.openFiles({ path });
    double firstView = -1;
    double rssAtFirstView = 0;
    // Wait in the event loop as the application does (a loop returning at once would spin on one of the cores the
    // load uses); the timer bounds how late the first view is seen.
    QTimer tick;
    tick.start(2);
    while (!ended || firstView < 0) {
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        if (firstView < 0 && rowsOf(kernels->summaryView()->model()) > 0) {
            firstView = double(t.nsecsElapsed()) / 1e9;
            rssAtFirstView = peakRssBytes();
        }
        if (ended && (!ok || double(t.nsecsElapsed()) / 1e9 > fullLoad + 60))
            break; // failed, or loaded with no kernel to show
    }
    if (!ok) {
        std::fprintf(stderr, "load failed: %s\n", qPrintable(error));
        return 2;
    }
    if (firstView < 0) {
        std::fprintf(stderr, "the Kernels pane stayed empty\n");
        return 2;
    }
    const double rssAfter = peakRssBytes();
    const double fileBytes = double(QFileInfo(path).size());
    std::printf("window: kernels pane filled %.2f s (peak RSS %.0f MiB by then), whole load %.2f s, peak RSS %.0f MiB "
                "(%.0f MiB once the panes' analyses began), file %.0f MiB\n",
        firstView, rssAtFirstView / 1048576.0, fullLoad, rssAtEnd / 1048576.0, rssAfter / 1048576.0,
        fileBytes / 1048576.0);
    std::printf("load first-view %.2f x kscan; full %.2f x scan; rss %.2f x file\n", firstView / kscan,
        fullLoad / fullScan, rssAtEnd / fileBytes);
    return 0;
}
