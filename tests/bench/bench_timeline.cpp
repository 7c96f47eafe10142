// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline pane on a large export (issue 14). Run by hand:
//   bench_timeline TRACE.sqlite [VIEWS]
// Measures, in one run: an in-process SQLite scan of the columns the timeline index reads (times, placement,
// thread), the index build on the loaded profile (best of two), its own bytes per event, hit-testing, and the paint
// time of the whole pane offscreen (1920 px wide) over VIEWS (30) views from "fit all" down to a 10 µs window at
// random places (CPU time of the GUI thread, best of three paints per view: the machine may be shared; wall time is
// printed too), after one warm-up
// paint (font and style caches), the search box's search (off the GUI thread in the pane) and a step to the next
// occurrence, and the correlated partner of a launch call. An export with GPU_METRICS is painted with its counter rows
// (read first, timed). NSW_BENCH_VERBOSE=1 prints each view. The last
// line is
//   timeline paint p50 X ms p99 Y ms; index Z bytes/event; build W x scan
#include "core/session/workbench.h"
#include "core/session/workbenchload.h"
#include "core/timeline/correlation.h"
#include "core/timeline/eventsearch.h"
#include "core/timeline/timelinebuild.h"
#include "widgets/timeline/timelinepane.h"
#include "widgets/timeline/timelineview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QRandomGenerator>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sqlite3.h>

using namespace nsw;

namespace {

struct TableColumns
{
    const char* table;
    const char* columns;
};

// The columns buildTimelineIndex() reads from the loaded profile.
const TableColumns kTimelineColumns[] = {
    { "CUPTI_ACTIVITY_KIND_KERNEL", "start, end, deviceId, streamId, globalPid" },
    { "CUPTI_ACTIVITY_KIND_MEMCPY", "start, end, deviceId, streamId, globalPid" },
    { "CUPTI_ACTIVITY_KIND_MEMSET", "start, end, deviceId, streamId, globalPid" },
    { "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "start, end, deviceId, streamId, globalPid" },
    { "CUPTI_ACTIVITY_KIND_RUNTIME", "start, end, globalTid" },
    { "NVTX_EVENTS", "start, end, eventType, globalTid" },
    { "OSRT_API", "start, end, globalTid" },
};

double seconds(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e9;
}

/// CPU time of the calling thread: on a machine shared with other jobs, wall time measures the neighbours too.
double threadSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

/// Steps through every row reading every column; tables or columns the file lacks are skipped. Returns seconds.
double scan(const QString& path)
{
    sqlite3* db = nullptr;
    const QByteArray uri = QByteArray("file:") + path.toUtf8() + "?immutable=1";
    if (sqlite3_open_v2(uri.constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK)
        return -1;
    QElapsedTimer t;
    t.start();
    volatile quint64 sink = 0; // wraps
    for (const TableColumns& table : kTimelineColumns) {
        sqlite3_stmt* stmt = nullptr;
        const QByteArray sql = QByteArray("SELECT ") + table.columns + " FROM " + table.table;
        if (sqlite3_prepare_v2(db, sql.constData(), -1, &stmt, nullptr) != SQLITE_OK)
            continue;
        const int columns = sqlite3_column_count(stmt);
        while (sqlite3_step(stmt) == SQLITE_ROW)
            for (int c = 0; c < columns; ++c)
                sink = sink + quint64(sqlite3_column_int64(stmt, c));
        sqlite3_finalize(stmt);
    }
    const double elapsed = seconds(t);
    sqlite3_close(db);
    return elapsed;
}

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    const std::size_t i = std::size_t(std::ceil(p * double(values.size()))) - 1;
    return values[std::min(i, values.size() - 1)];
}

/// VIEWS ranges: fit all, then widths shrinking geometrically to 10 µs, each centred at a random place.
std::vector<std::pair<double, double>> views(const TimelineIndex& index, int count)
{
    std::vector<std::pair<double, double>> out { { double(index.start()), double(index.end()) } };
    QRandomGenerator random(14);
    const double extent = std::max(1.0, double(index.end() - index.start()));
    const double narrowest = std::min(10'000.0, extent);
    for (int i = 1; i < count; ++i) {
        const double width = extent * std::pow(narrowest / extent, double(i) / (count - 1));
        const double centre = double(index.start()) + random.generateDouble() * extent;
        out.emplace_back(centre - width / 2, centre + width / 2);
    }
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_timeline TRACE.sqlite [VIEWS]\n");
        return 1;
    }
    const QString path = QFileInfo(QString::fromLocal8Bit(argv[1])).absoluteFilePath();
    const int viewCount = argc > 2 ? std::max(2, atoi(argv[2])) : 30;
    scan(path); // warm the page cache
    const double scanSeconds = scan(path);
    if (scanSeconds < 0) {
        std::fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 2;
    }

    const Result<LoadedProfile> result = loadForWorkbench(path);
    if (!result) {
        std::fprintf(stderr, "load failed: %s\n", qPrintable(result.errorMessage()));
        return 2;
    }
    const LoadedProfile& loaded = *result;
    double build = 1e300;
    TimelineIndexPtr index;
    for (int i = 0; i < 2; ++i) {
        index.reset();
        QElapsedTimer t;
        t.start();
        Result<TimelineIndexPtr> result = buildTimelineIndex(loaded.profile);
        build = std::min(build, seconds(t));
        index = *result;
    }
    const double bytesPerEvent = double(index->memoryBytes()) / double(std::max<std::size_t>(1, index->eventCount()));
    std::printf("floor: sqlite scan of the timeline's columns %.3f s\n", scanSeconds);
    std::printf("index: %zu events, %zu rows, %zu lanes, %.2f MiB, built in %.3f s\n", index->eventCount(),
        index->rows().size(), index->lanes().size(), double(index->memoryBytes()) / 1048576.0, build);

    Workbench workbench;
    auto* session = new ProfileSession(loaded);
    session->setAttachment(QStringLiteral("timeline"), std::const_pointer_cast<TimelineIndex>(index));
    workbench.addSession(session);
    TimelinePane pane(&workbench);
    pane.resize(1920 + 16, 1000);
    pane.show();
    TimelineView* view = pane.view();
    // Counter rows (GPU_METRICS) are read in the background: wait for them, so that the paints below include them.
    if (loaded.profile->meta.tables.contains(QStringLiteral("GPU_METRICS"))) {
        QElapsedTimer wait;
        wait.start();
        QTimer tick; // wakes the loop for the time limit; the loop sleeps otherwise (a timed processEvents() spins)
        tick.start(100);
        while (!view->counters() && wait.elapsed() < 300000)
            QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        std::size_t samples = 0;
        if (view->counters())
            for (const CounterTrack& t : view->counters()->tracks())
                samples += t.series->intervalCount();
        std::printf("counter rows: %zu (%zu samples), GPU metrics read and rows built in %.2f s\n",
            view->counters() ? view->counters()->tracks().size() : 0, samples, seconds(wait));
    }
    QImage image(pane.size(), QImage::Format_ARGB32_Premultiplied);
    // One paint first: the font and style caches fill once per process, not per view.
    pane.render(&image);
    std::vector<double> paints, walls;
    for (const auto& [start, end] : views(*index, viewCount)) {
        view->showRange(start, end);
        // Best of three, as the build's best of two: one paint of a view is what it costs, a VM's other tenants not.
        double paint = 1e300, wall = 1e300;
        for (int attempt = 0; attempt < 3; ++attempt) {
            QElapsedTimer t;
            t.start();
            const double cpu = threadSeconds();
            pane.render(&image);
            paint = std::min(paint, (threadSeconds() - cpu) * 1000);
            wall = std::min(wall, seconds(t) * 1000);
        }
        paints.push_back(paint);
        walls.push_back(wall);
        if (qEnvironmentVariableIsSet("NSW_BENCH_VERBOSE"))
            std::printf("view %.0f..%.0f ns: %.2f ms (wall %.2f ms)\n", start, end, paints.back(), walls.back());
    }
    // Clicks on the lanes of the visible tracks, at random times of a mid-zoom view.
    view->showRange(double(index->start()), double(index->start()) + double(index->end() - index->start()) / 20);
    std::vector<QPoint> clicks;
    QRandomGenerator random(3);
    for (const TimelineLayout::Item& item : view->layout().items()) {
        const TimelineRow& row = view->rows()[std::size_t(item.row)];
        for (std::uint32_t l = 0; l < row.laneCount; ++l) {
            const int y
                = TimelineView::kRulerHeight + TimelineLayout::laneTop(item, l) + TimelineLayout::kLaneHeight / 2;
            if (y < view->height())
                clicks.emplace_back(0, y);
        }
    }
    const int hitCount = 2000;
    double worstHit = 0;
    QElapsedTimer hits;
    hits.start();
    for (int i = 0; i < hitCount && !clicks.empty(); ++i) {
        QPoint p = clicks[std::size_t(random.bounded(int(clicks.size())))];
        p.setX(TimelineView::kLabelWidth + int(random.bounded(view->width() - TimelineView::kLabelWidth)));
        QElapsedTimer one;
        one.start();
        view->hitAt(p);
        worstHit = std::max(worstHit, seconds(one) * 1e6);
    }
    const double hitUs = seconds(hits) * 1e6 / hitCount;
    std::printf("paint of %d views at %dx%d (GUI thread CPU time): min %.2f ms, max %.2f ms; wall p50 %.2f ms p99 %.2f "
                "ms; hit-test mean %.2f µs, worst %.1f µs\n",
        int(paints.size()), view->width(), view->height(), *std::min_element(paints.begin(), paints.end()),
        *std::max_element(paints.begin(), paints.end()), percentile(walls, 0.5), percentile(walls, 0.99), hitUs,
        worstHit);
    // Find: the whole search (as the pane runs it in the background), then Next from the middle as the GUI does it.
    for (const auto& [text, regex] : { std::pair { "moe", false }, std::pair { "^nccl.*allreduce", true },
             std::pair { "cudaLaunchKernel", false }, std::pair { "no such name", false } }) {
        QElapsedTimer t;
        t.start();
        const EventMatches matches = findEvents(loaded.profile, { QString::fromUtf8(text), regex });
        const double searchMs = seconds(t) * 1000;
        t.restart();
        const EventRef next = matches.firstFrom(index->start() + (index->end() - index->start()) / 2);
        const std::int64_t ordinal = matches.ordinalOf(next);
        const bool revealed = next.valid() && view->revealEvent(next);
        std::printf("find \"%s\"%s: %zu matches in %.1f ms; next (#%lld) found and revealed in %.2f ms%s\n", text,
            regex ? " (regex)" : "", matches.count(), searchMs, static_cast<long long>(ordinal + 1), seconds(t) * 1000,
            next.valid() && !revealed ? " (NOT REVEALED)" : "");
    }
    if (loaded.profile->cudaApi.size()) {
        const EventRef call { EventTable::CudaApi, std::uint32_t(loaded.profile->cudaApi.size() / 2) };
        QElapsedTimer t;
        t.start();
        const std::size_t partners = correlatedEvents(*loaded.profile, call).size();
        std::printf("correlated partners of a CUDA API call: %zu in %.2f ms\n", partners, seconds(t) * 1000);
    }
    std::printf("timeline paint p50 %.2f ms p99 %.2f ms; index %.2f bytes/event; build %.2f x scan\n",
        percentile(paints, 0.5), percentile(paints, 0.99), bytesPerEvent, build / scanSeconds);
    return 0;
}
