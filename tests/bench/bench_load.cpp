// SPDX-License-Identifier: GPL-3.0-or-later
// Opening an export in the real window, offscreen (issues 12 and 37). Run by hand on a large export:
//   bench_load TRACE.sqlite
// Measures, in one run and on a warm page cache: a plain SQLite scan of the kernel columns the Kernels pane needs
// (kscan) and of every column the loader reads (scan), then the time from MainWindow::openFiles() to the Kernels
// pane holding rows (first view) and to the load's end (full), and the process's peak RSS when the load ended (the
// panes' analyses that start then have their own benchmarks). The load goes through a profile cache of its own (a
// fresh NSYS_WORKBENCH_CACHE_DIR), written in the background; once it is written, a second process opens the export
// again (bench_load --reopen): from the cache, to the same first view and whole profile (reopen), its peak RSS then,
// and to every shown pane filled (no pane job left running). The last line is
//   load first-view X x kscan; full Y x scan; rss Z x file; reopen A x scan; reopen rss B x file; cache C x file;
//   window reopen D x scan
// (one line; targets: reopen <= 0.05, reopen rss <= 0.15, cache <= 0.4, window reopen <= 0.3).
#include "app/mainwindow.h"
#include "benchscans.h"
#include "core/jobs/handoff.h"
#include "core/profilecache/profilecache.h"
#include "core/util/cachestore.h"
#include "widgets/common/pane.h"
#include "widgets/kernels/kerneltablepane.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QTableView>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <map>

using namespace nsw;
using namespace nsw::bench;

namespace {

qint64 rowsOf(const QAbstractItemModel* model)
{
    return model ? model->rowCount() : 0;
}

double secondsSince(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e9;
}

/// One open of an export in the window: seconds from openFiles() to the Kernels pane's first rows, to the load's
/// end and to every shown pane filled (their jobs done), and the peak RSS when the load ended.
struct WindowOpen
{
    double firstView = -1;
    double full = -1;
    double panesFilled = -1;
    double rssAtFirstView = 0;
    double rssAtEnd = 0;
    QByteArray residentAtEnd, residentWhenFilled; // residentSplit() then
    QString error;
};

/// True once the panes' job pool has stayed idle over a few rounds of events (a finished job's result may start
/// the next one).
bool panesIdle(int& idleRounds)
{
    idleRounds = jobThreadPool()->activeThreadCount() == 0 ? idleRounds + 1 : 0;
    return idleRounds >= 20;
}

WindowOpen openInWindow(const QString& path)
{
    WindowOpen o;
    MainWindow window(true);
    window.resize(1600, 1000);
    window.show();
    auto* kernels = window.findChild<KernelTablePane*>();
    if (!kernels) {
        o.error = QStringLiteral("no Kernels pane");
        return o;
    }
    bool ended = false;
    bool ok = false;
    QElapsedTimer t;
    QObject::connect(&window, &MainWindow::loadEnded, [&](const QString&, bool success, const QString& e) {
        o.full = secondsSince(t);
        o.rssAtEnd = peakRssBytes(); // the load's peak: the panes' analyses that start now have their own benchmarks
        o.residentAtEnd = residentSplit();
        ended = true;
        ok = success;
        o.error = e;
    });
    t.start();
    window.openFiles({ path });
    // Wait in the event loop as the application does (a loop returning at once would spin on one of the cores the
    // load uses); the timer bounds how late the first view is seen.
    QTimer tick;
    tick.start(2);
    int idleRounds = 0;
    // When each shown pane was last seen computing (to stderr: where a window reopen's time goes).
    std::map<Pane*, double> lastBusy;
    const QList<Pane*> panes = window.findChildren<Pane*>();
    while (!ended || o.firstView < 0 || o.panesFilled < 0) {
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        if (o.firstView < 0 && rowsOf(kernels->summaryView()->model()) > 0) {
            o.firstView = secondsSince(t);
            o.rssAtFirstView = peakRssBytes();
        }
        if (o.panesFilled < 0)
            for (Pane* p : panes)
                if (p->isVisible() && !p->isSettled())
                    lastBusy[p] = secondsSince(t);
        if (ended && o.panesFilled < 0 && panesIdle(idleRounds)) {
            o.panesFilled = secondsSince(t);
            for (const auto& [pane, seconds] : lastBusy)
                std::fprintf(stderr, "pane %s last computing at %.3f s (load ended %.3f s)\n",
                    qPrintable(pane->paneId()), seconds, o.full);
            o.residentWhenFilled = residentSplit();
        }
        if (ended && (!ok || secondsSince(t) > o.full + 120))
            break; // failed, or loaded with no kernel to show
    }
    // A first open's cache entry is written while the window is open (its timeline index is stored once the Timeline
    // pane holds it); not timed.
    profilecache::waitForWrites();
    if (!ok)
        o.error = QStringLiteral("load failed: ") + o.error;
    else if (o.firstView < 0)
        o.error = QStringLiteral("the Kernels pane stayed empty");
    return o;
}

/// The second open, in a process of its own (a fresh page table, the cache file on disk as a user finds it): runs
/// this program with --reopen and reads the line it prints.
WindowOpen reopenInAnotherProcess(const QString& path)
{
    WindowOpen o;
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--reopen"), path });
    if (!child.waitForFinished(600000) || child.exitCode() != 0) {
        o.error = QStringLiteral("the reopen failed");
        return o;
    }
    const QStringList fields = QString::fromUtf8(child.readAllStandardOutput())
                                   .section(QStringLiteral("reopened "), 1)
                                   .split(QLatin1Char(' '));
    if (fields.size() < 4) {
        o.error = QStringLiteral("the reopen printed no result");
        return o;
    }
    o.firstView = fields[0].toDouble();
    o.full = fields[1].toDouble();
    o.panesFilled = fields[2].toDouble();
    o.rssAtEnd = fields[3].toDouble();
    return o;
}

double cacheFileBytes()
{
    double bytes = 0;
    for (const CacheEntry& e : listCacheEntries(CacheSettings::fromEnvironment()))
        if (e.kind == CacheEntry::Kind::Profile)
            bytes += double(e.bytes);
    return bytes;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const bool reopen = argc == 3 && std::strcmp(argv[1], "--reopen") == 0;
    if (argc != 2 && !reopen) {
        std::fprintf(stderr, "usage: bench_load TRACE.sqlite\n");
        return 1;
    }
    const QString path = QFileInfo(QString::fromLocal8Bit(argv[argc - 1])).absoluteFilePath();
    if (reopen) {
        const WindowOpen o = openInWindow(path);
        if (!o.error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(o.error));
            return 2;
        }
        std::fprintf(stderr, "reopen: resident at load end %s; when every pane is filled %s\n",
            o.residentAtEnd.constData(), o.residentWhenFilled.constData());
        std::printf("reopened %.3f %.3f %.3f %.0f\n", o.firstView, o.full, o.panesFilled, o.rssAtEnd);
        return 0;
    }
    QTemporaryDir cache;
    qputenv("NSYS_WORKBENCH_CACHE_DIR", QFile::encodeName(cache.path()));

    const Floors floors = measureFloors(path);
    if (!floors.ok) {
        std::fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 1;
    }
    const double kscan = floors.kscan;
    const double fullScan = floors.fullScan;
    std::printf("floor: kernel columns %.2f s, every loaded column %.2f s\n", kscan, fullScan);

    const WindowOpen first = openInWindow(path);
    if (!first.error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(first.error));
        return 2;
    }
    const double fileBytes = double(QFileInfo(path).size());
    std::printf("window: kernels pane filled %.2f s (peak RSS %.0f MiB by then), whole load %.2f s, peak RSS %.0f MiB, "
                "every shown pane filled %.2f s, file %.0f MiB\n",
        first.firstView, first.rssAtFirstView / 1048576.0, first.full, first.rssAtEnd / 1048576.0, first.panesFilled,
        fileBytes / 1048576.0);
    std::printf("window: resident at load end %s; when every pane is filled %s\n", first.residentAtEnd.constData(),
        first.residentWhenFilled.constData());
    profilecache::waitForWrites();
    const double cacheBytes = cacheFileBytes();
    const WindowOpen second = reopenInAnotherProcess(path);
    if (!second.error.isEmpty() || cacheBytes <= 0) {
        std::fprintf(stderr, "%s\n", cacheBytes <= 0 ? "no profile cache file was written" : qPrintable(second.error));
        return 2;
    }
    std::printf("reopen from the profile cache (%.0f MiB): kernels pane filled %.3f s, whole profile %.3f s, peak RSS "
                "%.0f MiB, every shown pane filled %.2f s\n",
        cacheBytes / 1048576.0, second.firstView, second.full, second.rssAtEnd / 1048576.0, second.panesFilled);
    std::printf(
        "load first-view %.2f x kscan; full %.2f x scan; rss %.2f x file; reopen %.3f x scan; reopen rss %.3f x "
        "file; cache %.2f x file; window reopen %.2f x scan\n",
        first.firstView / kscan, first.full / fullScan, first.rssAtEnd / fileBytes,
        std::max(second.firstView, second.full) / fullScan, second.rssAtEnd / fileBytes, cacheBytes / fileBytes,
        second.panesFilled / fullScan);
    return 0;
}
