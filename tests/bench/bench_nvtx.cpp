// SPDX-License-Identifier: GPL-3.0-or-later
// bench_nvtx TRACE [--runs N] [--sqlite3 PATH]
//
// Loads an export as the workbench does (NVTX, CUDA API, kernels, memory operations), then times, in the same run
// and on the same warm page cache, (1) the sqlite3 command-line tool scanning NVTX_EVENTS and the kernel and CUDA
// API columns the tree needs, and (2) building the NVTX tree from the loaded profile. Prints both and their ratio;
// the target is tree build <= 1.5 x the scan. Medians over --runs runs (default 3).
#include "core/nvtx/nvtxexport.h"
#include "core/nvtx/nvtxtree.h"
#include "core/profile/profileloader.h"
#include "core/util/procstatus.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <algorithm>
#include <cstdio>

using namespace nsw;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

QString rss()
{
    return QStringLiteral("%1 kB (peak %2 kB)").arg(procStatusKiB("VmRSS")).arg(procStatusKiB("VmHWM"));
}

void print(const QString& text)
{
    std::printf("%s\n", text.toUtf8().constData());
    std::fflush(stdout);
}

/// Reads every value of the columns the tree needs (max() decodes each one; nothing is printed per row).
const char* const kScanSql
    = "SELECT max(start), max(end), max(eventType), max(globalTid), max(endGlobalTid), max(domainId), max(textId), "
      "max(length(text)) FROM NVTX_EVENTS;"
      "SELECT max(start), max(end), max(globalPid), max(correlationId), max(demangledName) FROM "
      "CUPTI_ACTIVITY_KIND_KERNEL;"
      "SELECT max(start), max(end), max(globalTid), max(correlationId) FROM CUPTI_ACTIVITY_KIND_RUNTIME;";

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = QCoreApplication::arguments().mid(1);
    int runs = 3;
    QString sqlite3 = QStringLiteral("sqlite3");
    QString trace;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            runs = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--sqlite3") && i + 1 < args.size())
            sqlite3 = args[++i];
        else
            trace = args[i];
    }
    if (trace.isEmpty()) {
        std::fprintf(stderr, "usage: bench_nvtx TRACE [--runs N] [--sqlite3 PATH]\n");
        return 1;
    }

    QElapsedTimer timer;
    timer.start();
    LoadOptions options;
    options.parts = LoadNvtx | LoadCudaApi | LoadKernels | LoadMemOps;
    const LoadResult loaded = ProfileLoader::load(trace, options);
    if (!loaded.ok()) {
        std::fprintf(stderr, "bench_nvtx: %s\n", loaded.errorMessage().toUtf8().constData());
        return 2;
    }
    const Profile& p = *loaded->profile;
    print(QStringLiteral("%1: %2 NVTX rows, %3 kernels, %4 memory operations, %5 CUDA API rows, %6 threads")
              .arg(trace)
              .arg(p.nvtx.size())
              .arg(p.kernels.size())
              .arg(p.memops.size())
              .arg(p.cudaApi.size())
              .arg(p.threads.size()));
    print(QStringLiteral("load (NVTX, API, kernels, memops): %1 ms; RSS %2").arg(timer.elapsed()).arg(rss()));

    std::vector<double> scans;
    for (int r = 0; r < runs; ++r) {
        QProcess process;
        timer.restart();
        process.start(sqlite3, { QStringLiteral("-readonly"), trace, QString::fromLatin1(kScanSql) });
        if (!process.waitForFinished(-1) || process.exitCode() != 0) {
            std::fprintf(stderr, "bench_nvtx: %s failed: %s\n", sqlite3.toUtf8().constData(),
                process.readAllStandardError().constData());
            return 2;
        }
        scans.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const double scan = median(scans);
    print(QStringLiteral("sqlite3 scan of NVTX_EVENTS + kernel + CUDA API columns: %1 ms (median of %2)")
              .arg(scan, 0, 'f', 0)
              .arg(runs));

    struct Variant
    {
        const char* name;
        NvtxTreeOptions options;
    };
    const Variant variants[] = {
        { "per thread", { NvtxGrouping::ByThread, false } },
        { "per thread, normalized names", { NvtxGrouping::ByThread, true } },
        { "all threads merged", { NvtxGrouping::Merged, false } },
    };
    double headline = 0;
    for (const Variant& v : variants) {
        std::vector<double> builds;
        std::size_t nodes = 0;
        double coverage = 0;
        for (int r = 0; r < runs; ++r) {
            timer.restart();
            const NvtxTree tree = buildNvtxTree(loaded->profile, v.options);
            builds.push_back(double(timer.nsecsElapsed()) / 1e6);
            nodes = tree.nodes.size();
            coverage = tree.coverage.percent();
            if (r == 0) {
                QElapsedTimer flat;
                flat.start();
                const std::size_t rows = nvtxPreorder(tree).size();
                print(QStringLiteral("  flattening %1 rows for export: %2 ms").arg(rows).arg(flat.elapsed()));
            }
        }
        const double build = median(builds);
        if (headline == 0)
            headline = build;
        print(QStringLiteral("tree build (%1): %2 ms (median of %3), %4 nodes, coverage %5 %, ratio to scan %6")
                  .arg(QLatin1String(v.name))
                  .arg(build, 0, 'f', 0)
                  .arg(runs)
                  .arg(nodes)
                  .arg(coverage, 0, 'f', 1)
                  .arg(build / scan, 0, 'f', 3));
    }
    print(QStringLiteral("RSS after builds: %1").arg(rss()));
    const double ratio = headline / scan;
    print(QStringLiteral("RATIO tree build / sqlite3 scan = %1 (target <= 1.5): %2")
              .arg(ratio, 0, 'f', 3)
              .arg(ratio <= 1.5 ? QStringLiteral("OK") : QStringLiteral("OVER TARGET")));
    return 0;
}
