// SPDX-License-Identifier: GPL-3.0-or-later
// `summarize` on one export (issue 34). Run by hand on the 4M-kernel export:
//   bench_summarize TRACE.sqlite
// Measures in one run, on a warm page cache: the floor, a plain SQLite scan of every column the loader reads
// (benchscans.h), then summarizeTrace() as `summarize` runs it (load and summary, in-process, wall time) and the
// size of the summary file it writes. The last line is
//   summarize X x scan (target 1.0 x: met|MISSED); summary Y % of export (target 2 %: met|MISSED)
#include "benchscans.h"
#include "core/ranks/ranksrun.h"
#include "core/ranks/summaryfile.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <cstdio>

using namespace nsw;
using namespace nsw::bench;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_summarize TRACE.sqlite\n");
        return 1;
    }
    const QString path = QFileInfo(QString::fromLocal8Bit(argv[1])).absoluteFilePath();
    const Floors floors = measureFloors(path);
    if (!floors.ok) {
        std::fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 1;
    }
    std::printf("floor: every loaded column %.2f s\n", floors.fullScan);
    QElapsedTimer timer;
    timer.start();
    const Result<RankFile> summary = summarizeTrace({ path, {} });
    if (!summary) {
        std::fprintf(stderr, "%s\n", qPrintable(summary.errorMessage()));
        return 2;
    }
    const QByteArray bytes = encodeRankSummary(*summary);
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    const double exportBytes = double(QFileInfo(path).size());
    const double ratio = seconds / floors.fullScan;
    const double percent = 100.0 * double(bytes.size()) / exportBytes;
    std::printf("summarize: %.2f s, %zu rank(s), summary %lld bytes of %.0f\n", seconds, summary->ranks.size(),
        qint64(bytes.size()), exportBytes);
    std::printf("summarize %.2f x scan (target 1.0 x: %s); summary %.3f %% of export (target 2 %%: %s)\n", ratio,
        ratio <= 1.0 ? "met" : "MISSED", percent, percent <= 2.0 ? "met" : "MISSED");
    return 0;
}
