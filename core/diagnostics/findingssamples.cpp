// SPDX-License-Identifier: GPL-3.0-or-later
// Findings on the CPU samples taken while a GPU sat idle: the host function its launching threads were running.
#include "core/diagnostics/findingsbuilder.h"
#include "core/util/timeformat.h"

namespace nsw {

void FindingsBuilder::cpuDuringGpuIdle()
{
    if (!r.idleSamples.hasSamples) {
        skip("cpu_during_gpu_idle", QStringLiteral("the export has no CPU samples (profile with -s cpu)"));
        return;
    }
    const Profile& p = *r.profile;
    for (const GpuIdleSamples& g : r.idleSamples.gpus) {
        if (g.functions.empty() || g.samples == 0 || double(g.samples) < th("idle_samples_min"))
            continue;
        const FunctionCount& top = g.functions.front();
        const double share = samplePercent(top.self, g.samples);
        if (share < th("idle_function_pct"))
            continue;
        const QString function = sampleFunctionName(p, top.function);
        Finding f = finding("cpu_during_gpu_idle", Severity::Warning,
            QStringLiteral("%1 idle %2 (%3): %4 was running in %5 %6 % of those samples")
                .arg(kSubjectGpu, formatDuration(g.gapNs), gapCauseName(g.dominantCause()), p.threadLabel(g.topThread),
                    function)
                .arg(QString::number(share, 'f', 0)));
        f.detail = QStringLiteral("%1 CPU samples of the threads that launch %2's work fell in its %3 idle gaps (%4); "
                                  "%5 of them (%6 %) were running in %7 (%8), %9 had it on the stack.")
                       .arg(g.samples)
                       .arg(kSubjectGpu)
                       .arg(g.gaps)
                       .arg(formatDuration(g.gapNs))
                       .arg(top.self)
                       .arg(QString::number(share, 'f', 1), function, sampleModuleName(p, top.function))
                       .arg(top.total);
        f.metrics = { { QStringLiteral("idle_ns"), double(g.gapNs), QStringLiteral("ns") },
            { QStringLiteral("idle_samples"), double(g.samples), QStringLiteral("count") },
            { QStringLiteral("function_samples"), double(top.self), QStringLiteral("count") },
            { QStringLiteral("function_share_pct"), share, QStringLiteral("%") } };
        f.recommendation = QStringLiteral("The GPU waits while the host runs %1: make it faster, move it off the "
                                          "launching thread, or overlap it with GPU work (prefetch, a worker thread, "
                                          "CUDA graphs).")
                               .arg(function);
        f.evidence.devices = { g.device };
        if (const ProcessIndex process = p.processOfThread(g.topThread); process >= 0)
            f.evidence.pids = { p.processes[std::size_t(process)].pid };
        f.evidence.start = g.exampleStart;
        f.evidence.end = g.exampleEnd;
        // The idle time the function's share of the samples stands for.
        setGpuCost(f, TimeNs(double(g.gapNs) * share / 100.0), g.device);
        f.thresholds = { thText("idle_function_pct"), thText("idle_samples_min") };
        add(std::move(f), g.device);
    }
}

} // namespace nsw
