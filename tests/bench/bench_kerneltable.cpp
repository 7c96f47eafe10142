// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel table latency on a large export (issue 2: sort and filter answer within 100 ms). Run by hand:
//   bench_kerneltable EXPORT.sqlite
// Loads as the window does, then times what the pane does on each user action, on the GUI thread's code path.
#include "core/models/kernelinstancemodel.h"
#include "core/models/kernelsummarymodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/workbenchload.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>

using namespace nsw;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_kerneltable EXPORT.sqlite\n");
        return 1;
    }
    const Result<LoadedProfile> result = loadForWorkbench(QString::fromLocal8Bit(argv[1]));
    if (!result) {
        std::fprintf(stderr, "%s\n", qPrintable(result.errorMessage()));
        return 2;
    }
    const LoadedProfile& loaded = *result;
    const KernelIndex& index = *loaded.kernelIndex;
    KernelSummaryModel model;
    SortFilterProxy proxy;
    proxy.setSourceModel(&model);
    QElapsedTimer t;
    qint64 worst = 0;
    auto report = [&](const char* what, qint64 ms) {
        worst = std::max(worst, ms);
        std::printf("%-52s %6lld ms\n", what, static_cast<long long>(ms));
    };

    t.start();
    model.setResults(loaded.kernelIndex, summarizeKernels(index, {}, false));
    report("summary of all kernels", t.elapsed());
    for (int c = 0; c < KernelSummaryModel::ColumnCount - 1; ++c) {
        for (const Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
            t.restart();
            proxy.sort(c, order);
            const qint64 ms = t.elapsed();
            worst = std::max(worst, ms);
            if (c == KernelSummaryModel::NameColumn || c == KernelSummaryModel::TotalColumn)
                report(
                    order == Qt::AscendingOrder ? "sort (name/total, ascending)" : "sort (name/total, descending)", ms);
        }
    }
    t.restart();
    proxy.setFilter(QStringLiteral("gemm"), false);
    report("filter by substring", t.elapsed());
    t.restart();
    proxy.setFilter(QStringLiteral("^void .*(kernel|Kernel)<"), true);
    report("filter by regex", t.elapsed());
    proxy.setFilter(QString(), false);

    KernelFilter oneDevice;
    oneDevice.lanes.assign(index.lanes().size(), 0);
    for (std::size_t l = 0; l < index.lanes().size(); ++l)
        oneDevice.lanes[l] = index.lanes()[l].device == index.lanes()[0].device;
    t.restart();
    model.setResults(loaded.kernelIndex, summarizeKernels(index, oneDevice, false));
    report("filter to one device (re-summarize)", t.elapsed());
    t.restart();
    model.setResults(loaded.kernelIndex, summarizeKernels(index, {}, true));
    report("split per device (re-summarize)", t.elapsed());

    int biggest = 0;
    for (std::size_t g = 0; g < index.groups().size(); ++g)
        if (index.groups()[g].end - index.groups()[g].begin
            > index.groups()[std::size_t(biggest)].end - index.groups()[std::size_t(biggest)].begin)
            biggest = int(g);
    KernelInstanceModel instances;
    t.restart();
    instances.setInstances(loaded.profile, kernelInstances(index, biggest, {}));
    report("list executions of the most frequent kernel", t.elapsed());
    t.restart();
    instances.sort(KernelInstanceModel::StartColumn, Qt::AscendingOrder);
    report("sort its executions by start", t.elapsed());
    t.restart();
    instances.sort(KernelInstanceModel::DurationColumn, Qt::DescendingOrder);
    report("sort its executions by duration", t.elapsed());

    std::printf("kernels: %zu, names: %zu, executions of the most frequent: %d\n", loaded.profile->kernels.size(),
        index.groups().size(), int(instances.listedCount()));
    std::printf("worst: %lld ms (target 100 ms): %s\n", static_cast<long long>(worst), worst <= 100 ? "ok" : "MISSED");
    return 0;
}
