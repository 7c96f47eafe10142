// SPDX-License-Identifier: GPL-3.0-or-later
// Findings on what the GPU time goes to: one NVTX phase dominating it, and matrix work that does not run on tensor
// cores (told from kernel names).
#include "core/diagnostics/findingsbuilder.h"
#include "core/util/outputtext.h"
#include "core/util/timeformat.h"

namespace nsw {

using namespace findingtext;

void FindingsBuilder::phaseDominance()
{
    if (r.phases.empty()) {
        skip("phase_dominance",
            r.phasesMissing.isEmpty()
                ? QStringLiteral("no NVTX phases")
                : QStringLiteral("no NVTX phases: %1 (a --phase-map names them)").arg(r.phasesMissing));
        return;
    }
    const bool automatic = !r.phasesLevel.isEmpty();
    TimeNs cpuAll = 0, gpuAll = 0;
    for (const NvtxPhaseRow& p : r.phases) {
        cpuAll += p.cpuTime;
        gpuAll += p.gpuTime;
    }
    const TimeNs kernelNs = r.nvtxCoverage ? r.nvtxCoverage->totalNs : 0;
    for (const NvtxPhaseRow& p : r.phases) {
        if (p.phase == kUnmappedPhase && !automatic)
            continue;
        const double cpu = cpuAll > 0 ? 100.0 * double(p.cpuTime) / double(cpuAll) : 0.0;
        const double gpu = gpuAll > 0 ? 100.0 * double(p.gpuTime) / double(gpuAll) : 0.0;
        if (std::max(cpu, gpu) < th("phase_dominance_pct"))
            continue;
        const bool byGpu = gpu >= cpu;
        const QString of = automatic
            ? (byGpu ? QStringLiteral("the phases' kernel time") : QStringLiteral("the phases' NVTX (wall) time"))
            : (byGpu ? QStringLiteral("the kernel time inside NVTX ranges") : QStringLiteral("the NVTX (wall) time"));
        Finding f = finding("phase_dominance", Severity::Info,
            QStringLiteral("%1 %2 takes %3 of %4")
                .arg(automatic ? QStringLiteral("NVTX phase") : QStringLiteral("Phase"), shortName(p.phase),
                    pct(byGpu ? gpu : cpu), of));
        f.detail = QStringLiteral("%1: %2 instance%7, %3 of NVTX time (%4 of all phases') and %5 of kernel time "
                                  "attributed to its ranges (%6")
                       .arg(cutLongText(p.phase), QString::number(p.instances), formatDuration(p.cpuTime), pct(cpu),
                           formatDuration(p.gpuTime), pct(gpu), p.instances == 1 ? QString() : QStringLiteral("s"));
        f.detail += kernelNs > 0 ? QStringLiteral(", %1 of all kernel time in the window).")
                                       .arg(pct(100.0 * double(p.gpuTime) / double(kernelNs)))
                                 : QStringLiteral(").");
        if (automatic)
            f.detail += QStringLiteral(" The phases, without a phase map: %1, by name (numbers in names ignored); a "
                                       "phase with at least %2 of the phases' NVTX time or kernel time dominates.")
                            .arg(r.phasesLevel, pct(th("phase_dominance_pct")));
        f.metrics = { { QStringLiteral("wall_pct"), cpu, QStringLiteral("%") },
            { QStringLiteral("gpu_pct"), gpu, QStringLiteral("%") },
            { QStringLiteral("wall_ns"), double(p.cpuTime), QStringLiteral("ns") },
            { QStringLiteral("gpu_ns"), double(p.gpuTime), QStringLiteral("ns") } };
        f.recommendation = QStringLiteral("Work on %1 first: a change in every other phase together gains at most "
                                          "%2 of this time (its kernels: the NVTX pane, or --nvtx on its ranges).")
                               .arg(cutLongText(p.phase), pct(100.0 - (byGpu ? gpu : cpu)));
        if (p.firstRow >= 0)
            f.evidence.nvtxRange = r.profile->strings.at(r.profile->nvtx.name[std::size_t(p.firstRow)]);
        f.thresholds = { thText("phase_dominance_pct") };
        add(f);
    }
}

void FindingsBuilder::tensorCoreUse()
{
    const TensorCoreResult& tc = r.tensorCores;
    if (tc.total.kernelNs <= 0) {
        skip("tensor_cores", QStringLiteral("no kernels in the window"));
        return;
    }
    double share = 0;
    QStringList names, described;
    for (const NonTensorCoreKernel& k : tc.biggestOthers)
        if (k.matrixLike) {
            share += k.sharePercent;
            names << k.name;
            if (described.size() < 3)
                described << QStringLiteral("%1 (%2)").arg(k.name, pct(k.sharePercent));
        }
    if (share < th("non_tc_matrix_pct"))
        return;
    Finding f = finding("tensor_cores", Severity::Info,
        QStringLiteral("Matrix kernels without tensor cores take %1 of kernel time (name heuristic)").arg(pct(share)));
    f.detail = QStringLiteral("Tensor-core kernels take %1 of kernel time; of the others, these look like matrix work "
                              "by their names: %2. Told from kernel names by the rules %3, not measured.")
                   .arg(pct(tc.total.percent()), described.join(QStringLiteral("; ")), tc.rules);
    f.metrics = { { QStringLiteral("matrix_non_tc_pct"), share, QStringLiteral("%") },
        { QStringLiteral("tensor_core_pct"), tc.total.percent(), QStringLiteral("%") } };
    f.recommendation = QStringLiteral("Run them on tensor cores: TF32 for FP32 matrices (torch.backends.cuda.matmul."
                                      "allow_tf32, cublasSetMathMode), BF16/FP16 inputs, shapes in multiples of 8 or "
                                      "16. If a kernel is misjudged, edit the tensorcores rules in the Categories "
                                      "pane.");
    f.evidence.kernelNames = names;
    f.thresholds = { thText("non_tc_matrix_pct") };
    add(f);
}

} // namespace nsw
