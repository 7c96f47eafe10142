// SPDX-License-Identifier: GPL-3.0-or-later
// Times re-focusing the panes' pipelines on a new range of a (large) export (issue 16): the Kernels pane (focus mask
// and summary through the kernel index), the stats reports (cuda_gpu_kern_sum, nvtx_sum), the NVTX tree (from the
// profile's NVTX index, built with the first tree), the categories (g2g and busy, clipped), a Compare entry keyed by
// kernel and the Findings pane's diagnostics (after its first, whole-capture analysis), each computed from the loaded
// profile for a range it has not seen, against the floor of a plain sqlite3 scan of the kernels' start and end
// measured in the same run. Target: 300 ms per pane on the 4M-kernel export.
//   bench_focus [EXPORT] [--iterations N]
#include "core/categories/categoryrun.h"
#include "core/categories/rulelibrary.h"
#include "core/compare/compareentry.h"
#include "core/diagnostics/diagnostics.h"
#include "core/nvtx/nvtxtree.h"
#include "core/profile/profileloader.h"
#include "core/reports/statsrun.h"
#include "core/sqlite/sqlitedb.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <sqlite3.h>

using namespace nsw;

namespace {
constexpr double kTargetMs = 300.0;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

/// The kernels' start and end, read once with sqlite3: what any focus has to look at, at the least.
double scanFloorMs(const QString& path, qint64* rows)
{
    QElapsedTimer t;
    t.start();
    QString error;
    const auto db = SqliteDb::open(path, &error);
    sqlite3_stmt* st = nullptr;
    qint64 sum = 0;
    *rows = 0;
    if (db
        && sqlite3_prepare_v2(db->handle(), "SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL", -1, &st, nullptr)
            == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            sum += sqlite3_column_int64(st, 0) + sqlite3_column_int64(st, 1);
            ++*rows;
        }
        sqlite3_finalize(st);
    }
    if (sum == 42)
        std::printf(" ");
    return double(t.nsecsElapsed()) / 1e6;
}

double msSince(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e6;
}
} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QString path = QStringLiteral("/tmp/nsw-bench/big.sqlite");
    int iterations = 5;
    const QStringList args = app.arguments().mid(1);
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--iterations") && i + 1 < args.size())
            iterations = std::max(1, args[++i].toInt());
        else
            path = args[i];
    }

    qint64 floorRows = 0;
    std::vector<double> floor { scanFloorMs(path, &floorRows) };

    QElapsedTimer timer;
    timer.start();
    LoadOptions options;
    options.parts = LoadKernels | LoadMemOps | LoadNvtx | LoadCudaApi | LoadGraphLaunches;
    const LoadResult loaded = ProfileLoader::load(path, options);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(loaded.errorMessage()));
        return 2;
    }
    const Profile& p = *loaded->profile;
    std::printf("%s: %zu kernels, %zu NVTX events, %zu CUDA API calls, loaded in %lld ms\n", qPrintable(path),
        p.kernels.size(), p.nvtx.size(), p.cudaApi.size(), timer.elapsed());

    // What a session holds once per profile, whatever the focus.
    timer.restart();
    const auto timeline = CategoryTimeline::build(loaded->profile);
    const RuleSource source = RuleLibrary::shippedSet(QStringLiteral("pytorch"));
    const RuleList* rules = source.document.engine(QStringLiteral("pytorch"))
        ? source.document.engine(QStringLiteral("pytorch"))->model(QStringLiteral("training"))
        : nullptr;
    if (!rules) {
        std::fprintf(stderr, "no shipped pytorch/training rules\n");
        return 1;
    }
    auto matches = std::make_shared<RuleMatchCache>(NameSet { timeline->demangledNames(), timeline->shortNames() });
    std::printf("once per profile: category timeline and rule matches %.0f ms\n", msSince(timer));
    // The NVTX pane's first tree (the whole capture) indexes the profile; every focus after it reuses the index.
    timer.restart();
    const auto wholeTree = buildNvtxTree(NvtxTreeRequest { loaded->profile, {}, {}, nullptr });
    std::printf("once per profile: NVTX tree of the whole capture (with its index) %.0f ms\n", msSince(timer));

    // The Findings pane's first analysis (the whole capture) derives what every focus shares (Profile::derived: zone
    // maps, device keys, memcpy kinds, iterations); each re-focus after it reuses that.
    timer.restart();
    DiagnosticsRequest wholeCapture;
    wholeCapture.profile = loaded->profile;
    if (!runDiagnostics(wholeCapture))
        return 3;
    std::printf("once per profile: findings of the whole capture %.0f ms\n", msSince(timer));

    // The Kernels pane and the Compare pane's entries reuse the session's kernel index.
    timer.restart();
    const auto kernelIndex = std::make_shared<const KernelIndex>(loaded->profile, KernelNameMode::Demangled);
    std::printf("once per profile: kernel index %.0f ms\n", msSince(timer));

    Result<StatsPlan> plan = planReports({ QStringLiteral("cuda_gpu_kern_sum"), QStringLiteral("nvtx_sum") });
    const TimeNs span = p.activityEnd - p.activityStart;
    std::vector<double> kernels, stats, nvtx, categoriesG2g, categoriesBusy, compareEntry, findings;
    for (int i = 0; i < iterations; ++i) {
        floor.push_back(scanFloorMs(path, &floorRows));
        // A new 10 % window each time, moving through the capture.
        const TimeNs start = p.activityStart + span * (5 + (i * 17) % 85) / 100;
        const FocusRange focus { start, start + span / 10, QStringLiteral("window %1").arg(i) };

        // The Kernels pane: the focus mask of the kernel rows, then the summary per name through the session's index.
        timer.restart();
        KernelFilter filter;
        filter.focusRows = kernelRowsOverlapping(p.kernels, focus, CancelToken::never());
        const auto summary = summarizeKernels(*kernelIndex, filter, false);
        kernels.push_back(msSince(timer));
        if (summary.empty())
            return 3;

        timer.restart();
        setFocus(*plan, focus);
        const auto reports = computeReports(*plan, p);
        stats.push_back(msSince(timer));

        timer.restart();
        NvtxTreeOptions treeOptions;
        const auto tree = computeNvtxTree({ loaded->profile, treeOptions, focus, wholeTree.index });
        nvtx.push_back(msSince(timer));

        for (const TimeMode mode : { TimeMode::Global, TimeMode::Busy }) {
            timer.restart();
            CategoryRequest request { timeline, matches, *rules, mode, false, {}, false, focus };
            const auto result = computeCategories(request);
            (mode == TimeMode::Global ? categoriesG2g : categoriesBusy).push_back(msSince(timer));
            if (!result || result->breakdown.bars.empty())
                return 3;
        }
        // A Compare entry keyed by kernel, as the pane asks for it (linked to the kernel rows, with the index).
        timer.restart();
        CompareEntryRequest entryRequest;
        entryRequest.profile = loaded->profile;
        entryRequest.focus = focus;
        entryRequest.forLinking = true;
        entryRequest.index = kernelIndex;
        const auto entry = computeCompareEntry(entryRequest);
        compareEntry.push_back(msSince(timer));
        if (!entry)
            return 3;
        // What the Findings pane asks for (widgets/diagnostics/findingspane.cpp): every analysis and finding.
        timer.restart();
        DiagnosticsRequest diagnostics;
        diagnostics.profile = loaded->profile;
        diagnostics.focus = focus;
        const auto diagnosed = runDiagnostics(diagnostics);
        findings.push_back(msSince(timer));
        if (!reports || !tree || (*tree)->ranges < 0 || !diagnosed)
            return 3;
    }
    const double floorMs = median(floor);
    std::printf("sqlite3 scan floor (kernel start, end; %lld rows): %.1f ms\n", floorRows, floorMs);
    const auto print = [&](const char* what, const std::vector<double>& ms) {
        const double worst = *std::max_element(ms.begin(), ms.end());
        std::printf("refocus %-34s median %7.1f ms  worst %7.1f ms  %5.2f x floor  target %.0f ms: %s\n", what,
            median(ms), worst, median(ms) / floorMs, kTargetMs, worst <= kTargetMs ? "met" : "MISSED");
    };
    print("kernels pane (mask + summary)", kernels);
    print("stats (kern_sum + nvtx_sum)", stats);
    print("nvtx tree", nvtx);
    print("categories g2g", categoriesG2g);
    print("categories busy", categoriesBusy);
    print("compare entry (by kernel)", compareEntry);
    print("findings (every analysis)", findings);
    return 0;
}
