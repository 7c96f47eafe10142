// SPDX-License-Identifier: GPL-3.0-or-later
// The window as a person uses it on a large export (issue 33), offscreen. Run by hand:
//   bench_window TRACE.sqlite
// Measures, in one run: the floors (a plain SQLite scan of the kernel columns, kscan, and of every column the loader
// reads, scan); then, in the real main window, the time from openFiles() to the Kernels pane holding rows (first
// view) and to every pane showing its results for the whole profile (all panes); a CSV export of the largest table
// (the executions of the kernel with the most) and a sort of it by duration; the process's peak RSS at the end; and,
// through all of it, the longest time the GUI thread did not return to its event loop (max stall; a line before the
// last also gives it less the pauses of the whole machine, machinepauses.h). The last line is
//   window first-view X x kscan; all panes Y x scan; rss Z x file; max stall W ms
#include "app/mainwindow.h"
#include "benchscans.h"
#include "core/models/kernelinstancemodel.h"
#include "core/models/kernelsummarymodel.h"
#include "core/session/workbench.h"
#include "machinepauses.h"
#include "widgets/common/backgroundexport.h"
#include "widgets/common/pane.h"
#include "widgets/kernels/kerneltablepane.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>
#include <ctime>
#include <functional>
#include <map>
#include <utility>
#include <vector>

using namespace nsw;
using namespace nsw::bench;

namespace {

/// The longest the event loop went without running: a 1 ms timer, and the largest gap between two of its ticks
/// beyond the 1 ms it waits (plus a millisecond of the timer's own slack).
class StallMeter
{
public:
    StallMeter()
    {
        m_clock.start();
        m_last = 0;
        QObject::connect(&m_timer, &QTimer::timeout, [this]() {
            const qint64 now = m_clock.nsecsElapsed();
            const qint64 stall = now - m_last;
            if (stall > kKeepAboveNs) {
                const long long end = monotonicNs();
                m_stalls.emplace_back(end - stall, end);
                if (m_traceAboveNs > 0 && stall > m_traceAboveNs)
                    std::fprintf(stderr, "stall %.0f ms: monotonic %.6f .. %.6f\n", double(stall) / 1e6,
                        double(end - stall) / 1e9, double(end) / 1e9);
            }
            if (stall > m_max) {
                m_max = stall;
                m_maxEnded = now;
            }
            m_last = now;
        });
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.start(1);
    }
    /// Runs the event loop until the timer has ticked once: between two of the benchmark's own steps, as between two
    /// clicks of a user, the GUI thread returns to its event loop (else the steps' times would add up to one stall).
    void returnToEventLoop()
    {
        const qint64 before = m_last;
        while (m_last == before)
            QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    double maxStallMs() const { return std::max(0.0, double(m_max) / 1e6 - 2.0); }
    /// As maxStallMs(), less the machine pauses inside each stall: what is left is the window's own.
    double maxStallLessPausesMs(const MachinePauses& pauses) const
    {
        qint64 longest = 0;
        for (const auto& [start, end] : m_stalls)
            longest = std::max<qint64>(longest, end - start - pauses.within(start, end));
        return std::max(0.0, double(longest) / 1e6 - 2.0);
    }
    /// When the longest stall ended, in seconds since the meter started.
    double maxStallEnded() const { return double(m_maxEnded) / 1e9; }
    double elapsed() const { return double(m_clock.nsecsElapsed()) / 1e9; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    /// BENCH_WINDOW_TRACE_STALLS=MS prints every stall longer than MS milliseconds with its CLOCK_MONOTONIC times, to
    /// look up in a `perf record -k CLOCK_MONOTONIC` of the run.
    const qint64 m_traceAboveNs = qEnvironmentVariableIsSet("BENCH_WINDOW_TRACE_STALLS")
        ? qint64(qEnvironmentVariable("BENCH_WINDOW_TRACE_STALLS").toDouble() * 1e6 + 0.5)
        : 0;
    /// Stalls over 10 ms, from their start to their end on CLOCK_MONOTONIC (the machine's pauses are timed on it).
    static constexpr qint64 kKeepAboveNs = 10'000'000;
    std::vector<std::pair<long long, long long>> m_stalls;
    qint64 m_last = 0;
    qint64 m_max = 0;
    qint64 m_maxEnded = 0;
};

/// Runs the event loop as the application does until @p done, or @p seconds pass; false on the timeout. The loop sleeps
/// until an event comes (the stall meter's timer brings one every millisecond): processEvents() with a time limit
/// never waits, and spinning through it took most of a core from the load and the panes on a 2-core machine.
bool runUntil(const std::function<bool()>& done, double seconds)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        if (double(t.elapsed()) / 1000.0 > seconds)
            return false;
    }
    return true;
}

double seconds(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e9;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_window TRACE.sqlite\n");
        return 1;
    }
    const QString path = QFileInfo(QString::fromLocal8Bit(argv[1])).absoluteFilePath();
    // The first open, read from SQLite: a profile cache of its own, empty, so that a run before this one (which
    // wrote the user's cache) does not turn the measure into a reopen (bench_load measures that).
    QTemporaryDir cache;
    qputenv("NSYS_WORKBENCH_CACHE_DIR", QFile::encodeName(cache.path()));
    const Floors floors = measureFloors(path);
    if (!floors.ok) {
        std::fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 1;
    }
    std::printf("floor: kernel columns %.2f s, every loaded column %.2f s\n", floors.kscan, floors.fullScan);

    MainWindow window(true);
    window.resize(1600, 1000);
    window.show();
    auto* kernels = window.findChild<KernelTablePane*>();
    const QList<Pane*> panes = window.findChildren<Pane*>();
    MachinePauses machinePauses;
    StallMeter stalls;
    bool ended = false, ok = false;
    QString error;
    QObject::connect(&window, &MainWindow::loadEnded, [&](const QString&, bool success, const QString& e) {
        ended = true;
        ok = success;
        error = e;
    });
    QElapsedTimer t;
    t.start();
    const double stallsStartedBeforeOpen = stalls.elapsed();
    window.openFiles({ path });
    double firstView = -1;
    const auto kernelRows = [&]() { return kernels->summaryView()->model()->rowCount(); };
    if (!runUntil([&]() { return ended || kernelRows() > 0; }, 600)) {
        std::fprintf(stderr, "no first view after 600 s\n");
        return 2;
    }
    firstView = seconds(t);
    if (!runUntil([&]() { return ended; }, 600) || !ok) {
        std::fprintf(stderr, "load failed: %s\n", qPrintable(error));
        return 2;
    }
    const double loaded = seconds(t);
    const double rssAtLoadEnd = peakRssBytes();
    // Every pane the user sees shows the whole profile's results: nothing computing or waiting, for 50 ms on end. The
    // panes behind other tabs compute nothing until chosen (Pane::isDeferred()): they are timed below, tab by tab.
    const auto allSettled = [&]() {
        for (const Pane* p : panes)
            if (!p->isSettled())
                return false;
        return kernelRows() > 0;
    };
    qint64 settledSince = -1;
    // When each pane last became settled (which one the others wait for), and what the process held then.
    std::map<const Pane*, std::pair<double, QByteArray>> paneSettled;
    if (!runUntil(
            [&]() {
                for (const Pane* p : panes)
                    if (!p->isSettled())
                        paneSettled.erase(p);
                    else if (!paneSettled.count(p))
                        paneSettled[p] = { seconds(t), residentSplit() };
                if (!allSettled())
                    settledSince = -1;
                else if (settledSince < 0)
                    settledSince = t.nsecsElapsed();
                return settledSince >= 0 && t.nsecsElapsed() - settledSince >= 50'000'000;
            },
            900)) {
        std::fprintf(stderr, "the panes did not settle:");
        for (const Pane* p : panes)
            if (!p->isSettled())
                std::fprintf(stderr, " %s", qPrintable(p->paneId()));
        std::fprintf(stderr, "\n");
        return 2;
    }
    const double allPanes = double(settledSince) / 1e9;
    std::printf("panes settled (s):");
    for (const auto& [pane, when] : paneSettled)
        std::printf(" %s %.2f (%s)", qPrintable(pane->paneId()), when.first, when.second.constData());
    std::printf("\n");
    std::printf("window: kernels pane filled %.2f s, load ended %.2f s (peak RSS %.0f MiB by then), every pane settled "
                "%.2f s (peak RSS %.0f MiB by then)\n",
        firstView, loaded, rssAtLoadEnd / 1048576.0, allPanes, peakRssBytes() / 1048576.0);
    // Each tab behind another chosen in turn, as a user clicks through them, until its pane is filled.
    std::printf("behind tabs, filled once chosen (s):");
    for (Pane* p : panes) {
        QDockWidget* dock = window.dockOf(p);
        if (!p->isDeferred() || !dock || !dock->isVisible())
            continue;
        stalls.returnToEventLoop();
        QElapsedTimer chosen;
        chosen.start();
        dock->raise();
        if (!runUntil([&]() { return !p->isDeferred() && p->isSettled(); }, 600)) {
            std::fprintf(stderr, "%s: not filled 600 s after its tab was chosen\n", qPrintable(p->paneId()));
            return 2;
        }
        std::printf(
            " %s %.2f (peak RSS %.0f MiB)", qPrintable(p->paneId()), seconds(chosen), peakRssBytes() / 1048576.0);
    }
    std::printf("\n");
    stalls.returnToEventLoop();
    window.dockOf(kernels)->raise();
    stalls.returnToEventLoop();

    // The largest table: the executions of the kernel with the most, exported as CSV, then sorted by duration.
    QTableView* summary = kernels->summaryView();
    summary->sortByColumn(KernelSummaryModel::InstancesColumn, Qt::DescendingOrder);
    stalls.returnToEventLoop();
    summary->setCurrentIndex(summary->model()->index(0, 0));
    QTableView* executions = kernels->instanceView();
    auto* instances = qobject_cast<KernelInstanceModel*>(executions->model());
    if (!runUntil([&]() { return instances && instances->rowCount() > 0; }, 60)) {
        std::fprintf(stderr, "no executions listed\n");
        return 2;
    }
    QTemporaryDir dir;
    const QString csv = QDir(dir.path()).filePath(QStringLiteral("executions.csv"));
    stalls.returnToEventLoop();
    QElapsedTimer exportClock;
    exportClock.start();
    QString exportError = QStringLiteral("not finished");
    BackgroundExports::of(&window)->writeFile(
        QStringLiteral("CSV export"), csv, csvWriter(*instances), [&](const QString& e) { exportError = e; });
    if (!runUntil([&]() { return exportError != QLatin1String("not finished"); }, 600) || !exportError.isEmpty()) {
        std::fprintf(stderr, "CSV export failed: %s\n", qPrintable(exportError));
        return 2;
    }
    const double exportSeconds = seconds(exportClock);
    const double rssAfterExport = peakRssBytes();
    stalls.returnToEventLoop();
    QElapsedTimer sortClock;
    sortClock.start();
    executions->sortByColumn(KernelInstanceModel::DurationColumn, Qt::DescendingOrder);
    runUntil([&]() { return !instances->isSorting(); }, 600);
    const double sortSeconds = seconds(sortClock);
    std::printf(
        "executions: %d rows, CSV %.0f MiB in %.2f s (peak RSS %.0f MiB by then), sorted by duration in %.2f s\n",
        int(instances->listedCount()), double(QFileInfo(csv).size()) / 1048576.0, exportSeconds,
        rssAfterExport / 1048576.0, sortSeconds);

    machinePauses.stop();
    if (machinePauses.watching())
        std::printf(
            "machine paused (a real-time thread woke late) at most %.0f ms; max stall less those pauses %.0f ms\n",
            double(machinePauses.longest()) / 1e6, stalls.maxStallLessPausesMs(machinePauses));
    else
        std::printf("machine pauses not watched (no real-time priority for the watching thread)\n");
    const double rss = peakRssBytes();
    const double fileBytes = double(QFileInfo(path).size());
    std::printf("peak RSS %.0f MiB, file %.0f MiB; the longest stall ended %.2f s after the open\n", rss / 1048576.0,
        fileBytes / 1048576.0, stalls.maxStallEnded() - stallsStartedBeforeOpen);
    std::printf("window first-view %.2f x kscan; all panes %.2f x scan; rss %.2f x file; max stall %.0f ms\n",
        firstView / floors.kscan, allPanes / floors.fullScan, rss / fileBytes, stalls.maxStallMs());
    return 0;
}
