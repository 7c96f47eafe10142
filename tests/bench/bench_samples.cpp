// SPDX-License-Identifier: GPL-3.0-or-later
// CPU samples (issue 35): loading the samples against a plain sqlite3 scan of the two tables' columns it reads
// (target <= 1.0x), and re-focusing the Samples pane on new 10 % windows of the capture (count, every view, the
// models reset as the pane does; target <= 300 ms, worst of the windows), on an export with 1M samples:
//   bench_samples [EXPORT] [--iterations N]
// The export defaults to /tmp/nsw-bench/samples.sqlite (`nsys-tracegen --cpu-samples 1000000`, run-benchmarks.sh
// makes it). Prints one line per target, the ratio or time last.
#include "benchargs.h"
#include "core/models/samplemodels.h"
#include "core/profile/profileloader.h"
#include "core/sqlite/sqlitedb.h"
#include "widgets/samples/samplespane.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <cstdio>
#include <sqlite3.h>

using namespace nsw;

namespace {

/// What the loader reads of the two tables, scanned with plain sqlite3 calls.
double scanFloorSeconds(const QString& path, qint64* samples, qint64* frames)
{
    QElapsedTimer t;
    t.start();
    QString error;
    const auto db = SqliteDb::open(path, &error);
    qint64 sum = 0;
    const char* queries[] = { "SELECT id, start, cpu, threadState, globalTid FROM COMPOSITE_EVENTS",
        "SELECT id, symbol, module, kernelMode, unresolved, stackDepth FROM SAMPLING_CALLCHAINS" };
    qint64* counts[] = { samples, frames };
    for (int q = 0; q < 2 && db; ++q) {
        sqlite3_stmt* st = nullptr;
        *counts[q] = 0;
        if (sqlite3_prepare_v2(db->handle(), queries[q], -1, &st, nullptr) != SQLITE_OK)
            continue;
        const int columns = sqlite3_column_count(st);
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < columns; ++c)
                sum += sqlite3_column_int64(st, c);
            ++*counts[q];
        }
        sqlite3_finalize(st);
    }
    if (sum == 42)
        std::printf(" ");
    return double(t.nsecsElapsed()) / 1e9;
}

double loadSeconds(const QString& path, ProfilePtr* profile, unsigned parts)
{
    QElapsedTimer t;
    t.start();
    LoadOptions options;
    options.parts = parts;
    LoadResult r = ProfileLoader::load(path, options);
    const double s = double(t.nsecsElapsed()) / 1e9;
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(r.errorMessage()));
        std::exit(2);
    }
    *profile = r->profile;
    return s;
}

/// One re-focus as the pane does it: the job's views, then the models reset on the GUI thread.
double refocusMs(const SamplesRequest& request)
{
    QElapsedTimer t;
    t.start();
    const auto view = buildSamplesView(request, 300, {});
    if (!view) {
        std::fprintf(stderr, "%s\n", qPrintable(view.errorMessage()));
        std::exit(2);
    }
    const SamplesResult& r = (*view)->result;
    SampleFlatModel flat;
    flat.setFunctions(r.profile, r.functions, r.counts.samples);
    SampleTreeModel topDown, bottomUp;
    topDown.setRows(r.profile, *(*view)->topDown, r.counts.samples);
    bottomUp.setRows(r.profile, (*view)->bottomUp, r.counts.samples);
    return double(t.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    bench::BenchArgs args = bench::parseBenchArgs(app.arguments().mid(1));
    if (args.path == QLatin1String("/tmp/nsw-bench/big.sqlite"))
        args.path = QStringLiteral("/tmp/nsw-bench/samples.sqlite");
    double floor = 1e9, ours = 1e9;
    qint64 samples = 0, frames = 0;
    ProfilePtr profile;
    for (int i = 0; i < args.iterations; ++i) {
        floor = std::min(floor, scanFloorSeconds(args.path, &samples, &frames));
        ours = std::min(ours, loadSeconds(args.path, &profile, LoadCpuSamples));
    }
    std::printf("%s: %lld samples, %lld frames, %zu functions\n", qPrintable(args.path), qlonglong(samples),
        qlonglong(frames), profile->cpuSamples.functions.size());
    std::printf("samples load: %.2f s, floor (sqlite3 scan of COMPOSITE_EVENTS + SAMPLING_CALLCHAINS) %.2f s, "
                "ratio %.2fx (target <= 1.0x)\n",
        ours, floor, ours / floor);

    // The pane's re-focus needs what the GPU-idle choice reads too.
    loadSeconds(args.path, &profile, LoadCpuSamples | LoadKernels | LoadMemOps | LoadCudaApi);
    TimeNs lo = std::numeric_limits<TimeNs>::max(), hi = std::numeric_limits<TimeNs>::min();
    for (const TimeNs t : profile->cpuSamples.time) {
        lo = std::min(lo, t);
        hi = std::max(hi, t);
    }
    SamplesRequest request;
    request.profile = profile;
    request.bottomUp = true;
    const double first = refocusMs(request);
    std::vector<double> times;
    const int windows = 10;
    for (int w = 0; w < windows; ++w) {
        const TimeNs start = lo + (hi - lo) * (w * 9 % windows) / windows;
        request.focus = FocusRange { start, start + (hi - lo) / 10, QStringLiteral("window") };
        request.duringGpuIdle = w % 2 == 1;
        times.push_back(refocusMs(request));
    }
    std::printf("samples first view (call tree built): %.0f ms\n", first);
    const double worst = *std::max_element(times.begin(), times.end());
    std::printf("samples re-focus over %d windows of 10 %% (half of them during GPU idle): median %.0f ms, worst "
                "%.0f ms (target <= 300 ms)\n",
        windows, bench::median(times), worst);
    const double ratio = ours / floor;
    std::printf("samples load %.2f x scan (target 1.0 x: %s); re-focus worst %.0f ms (target 300 ms: %s)\n", ratio,
        ratio <= 1.0 ? "met" : "MISSED", worst, worst <= 300 ? "met" : "MISSED");
    return 0;
}
