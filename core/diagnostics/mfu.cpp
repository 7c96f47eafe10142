// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/mfu.h"

#include "core/diagnostics/analysiscontext.h"
#include "core/iterations/iterations.h"
#include "core/nvtx/nvtxtree.h"
#include "core/profile/capturespan.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace nsw {

namespace {

QString number(double v)
{
    return QString::number(v, 'g', 6);
}

/// TFLOP/s from FLOPs done in @p ns nanoseconds.
double tflopsOf(double flops, TimeNs ns)
{
    return ns > 0 ? flops / double(ns) / 1e3 : 0.0;
}

} // namespace

QString exportGpuName(const Profile& p)
{
    QString name;
    for (const GpuInfo& g : p.gpus) {
        if (g.name.isEmpty())
            continue;
        if (!name.isEmpty() && g.name != name)
            return {};
        name = g.name;
    }
    return name;
}

Result<MfuPeak> resolveMfuPeak(const MfuRequest& request)
{
    using R = Result<MfuPeak>;
    MfuPeak r;
    r.gpuName = request.gpuName.isEmpty() && request.profile ? exportGpuName(*request.profile) : request.gpuName;
    const GpuPeak* peak = findGpuPeak(r.gpuName);
    const QString precision = precisionName(request.precision);
    if (request.peakTflops > 0) {
        r.peakTflops = request.peakTflops;
        r.peakGpu = QStringLiteral("given");
        r.assumption = QStringLiteral("Peak %1 TFLOP/s per GPU for %2, given (--peak-tflops).")
                           .arg(number(r.peakTflops), precision);
    } else if (!peak) {
        return R::failure(ErrorKind::Usage,
            r.gpuName.isEmpty()
                ? QStringLiteral("the export does not name its GPU (no TARGET_INFO_GPU): give --gpu-name (e.g. "
                                 "\"H100 SXM\") or --peak-tflops")
                : QStringLiteral("no built-in peak for the GPU \"%1\": give --peak-tflops").arg(r.gpuName));
    } else if (peak->tflops[std::size_t(request.precision)] <= 0) {
        return R::failure(ErrorKind::Usage,
            QStringLiteral("the built-in table has no %1 peak for %2: choose another --precision or give "
                           "--peak-tflops")
                .arg(precision, peak->gpu));
    } else {
        r.peakTflops = peak->tflops[std::size_t(request.precision)];
        r.peakGpu = peak->gpu;
        r.assumption = QStringLiteral("Peak %1 TFLOP/s per GPU: %2, %3, dense (no structured sparsity), from the %4 "
                                      "(built-in table; --peak-tflops overrides).")
                           .arg(number(r.peakTflops), peak->gpu, precision, peak->source);
    }
    r.peakBandwidthTBs = request.peakBandwidthTBs > 0 ? request.peakBandwidthTBs : (peak ? peak->memoryTBs : 0.0);
    return r;
}

namespace {

bool rangeMatches(const RangeFlops& range, const QString& name)
{
    if (!range.pattern.startsWith(QLatin1String("re:")))
        return range.pattern == name;
    const QRegularExpression re(QRegularExpression::anchoredPattern(range.pattern.mid(3)));
    return re.isValid() && re.match(name).hasMatch();
}

void addIterations(const IterationTable& table, MfuResult& r)
{
    const double peakAll = r.peakTflops * r.gpus;
    double flops = 0;
    TimeNs time = 0;
    for (const Iteration& it : table.iterations) {
        if (table.isGuess() && &it == &table.iterations.back())
            continue; // no gap after it: not a whole iteration
        MfuIterationRow row { it.index, table.label(it.index), it.start, it.duration(),
            tflopsOf(r.flopsPerIteration, it.duration()), 0 };
        row.mfuPercent = peakAll > 0 ? 100.0 * row.tflops / peakAll : 0.0;
        flops += r.flopsPerIteration;
        time += it.duration();
        r.iterations.push_back(row);
    }
    r.overallMfuPercent = peakAll > 0 ? 100.0 * tflopsOf(flops, time) / peakAll : 0.0;
    const int median = table.medianIteration();
    for (const MfuIterationRow& row : r.iterations)
        if (row.index == median)
            r.medianMfuPercent = row.mfuPercent;
    if (r.bytesPerIteration > 0 && r.peakBandwidthTBs > 0) {
        r.intensity = r.flopsPerIteration / r.bytesPerIteration;
        r.ridge = r.peakTflops / r.peakBandwidthTBs; // TFLOP/s over TB/s: FLOPs per byte
        r.roofTflops = std::min(r.peakTflops, r.intensity * r.peakBandwidthTBs) * r.gpus;
        r.assumptions << QStringLiteral("Roofline: %1 FLOPs over %2 bytes per iteration is %3 FLOPs/byte against a "
                                        "ridge of %4 (peak / %5 TB/s memory bandwidth per GPU): %6-bound, roof %7 "
                                        "TFLOP/s for the %8 GPU(s).")
                             .arg(number(r.flopsPerIteration), number(r.bytesPerIteration), number(r.intensity),
                                 number(r.ridge), number(r.peakBandwidthTBs),
                                 r.intensity < r.ridge ? QStringLiteral("memory") : QStringLiteral("compute"),
                                 number(r.roofTflops))
                             .arg(r.gpus);
    }
}

Status addRanges(const MfuRequest& request, MfuResult& r, const JobContext& job)
{
    const Result<std::shared_ptr<const NvtxTree>> shared = computeNvtxTree({ request.profile, {}, {}, nullptr }, job);
    if (!shared)
        return Status::failure(ErrorKind::Cancelled, QStringLiteral("cancelled"));
    const NvtxTree& tree = **shared;
    for (const RangeFlops& range : request.ranges) {
        MfuRangeRow row;
        row.pattern = range.pattern;
        for (const NvtxNode& node : tree.nodes)
            if (node.kind == NvtxNode::Kind::Range && rangeMatches(range, tree.names[std::size_t(node.name)])) {
                row.instances += node.instances;
                row.gpuSpanNs += node.projectedSpan;
            }
        row.flops = range.flops * double(row.instances);
        row.tflops = tflopsOf(row.flops, row.gpuSpanNs);
        row.mfuPercent = r.peakTflops > 0 ? 100.0 * row.tflops / r.peakTflops : 0.0;
        row.bytes = range.bytes * double(row.instances);
        if (range.bytes > 0 && r.peakBandwidthTBs > 0) {
            row.intensity = range.flops / range.bytes;
            row.roofTflops = std::min(r.peakTflops, row.intensity * r.peakBandwidthTBs);
        }
        r.ranges.push_back(row);
    }
    r.assumptions << QStringLiteral("Ranges: FLOPs per instance as given; a range's time is its GPU projection (first "
                                    "start to last end of the GPU work launched inside it), summed over its "
                                    "instances; its MFU is against one GPU's peak (its kernels run on the GPU its "
                                    "thread launches to).");
    return success();
}

} // namespace

Result<FlopEstimate> transformerFlops(const TransformerModel& m)
{
    if (!(m.parameters > 0) || !(m.tokens > 0))
        return Result<FlopEstimate>::failure(
            ErrorKind::Usage, QStringLiteral("the transformer formula needs the parameters and tokens (both > 0)"));
    const double dense = m.training ? 6 : 2, attention = m.training ? 12 : 4;
    const bool withAttention = m.layers > 0 && m.hidden > 0 && m.sequence > 0;
    const double perToken
        = dense * m.parameters + (withAttention ? attention * m.layers * double(m.hidden) * m.sequence : 0.0);
    FlopEstimate e;
    e.flops = perToken * m.tokens;
    e.formula = withAttention ? QStringLiteral("%1 tokens x (%2 x %3 parameters + %4 x %5 layers x %6 hidden x %7 "
                                               "sequence) = %8 FLOPs")
                                    .arg(number(m.tokens), number(dense), number(m.parameters), number(attention))
                                    .arg(m.layers)
                                    .arg(m.hidden)
                                    .arg(m.sequence)
                                    .arg(number(e.flops))
                              : QStringLiteral("%1 tokens x %2 x %3 parameters = %4 FLOPs")
                                    .arg(number(m.tokens), number(dense), number(m.parameters), number(e.flops));
    e.assumptions << QStringLiteral("FLOPs per iteration from the dense-transformer formula (PaLM, appendix B): %1.")
                         .arg(e.formula)
                  << (m.training ? QStringLiteral("Training: forward and backward (6 N + 12 L H S per token), no "
                                                  "activation recomputation counted.")
                                 : QStringLiteral("Forward only (2 N + 4 L H S per token)."));
    e.assumptions << (withAttention ? QStringLiteral("Attention over the whole sequence, causal masking not "
                                                     "discounted.")
                                    : QStringLiteral("Attention FLOPs left out (give --layers, --hidden and --seq to "
                                                     "count them)."));
    return e;
}

QStringList mfuAbovePeakWarnings(const MfuResult& r)
{
    const auto percent = [](double v) -> QString { return QString::number(v, 'f', 1) + QStringLiteral(" %"); };
    QStringList over;
    const MfuIterationRow* highest = nullptr;
    qsizetype iterationsOver = 0;
    for (const MfuIterationRow& i : r.iterations)
        if (i.mfuPercent > 100.0) {
            ++iterationsOver;
            if (!highest || i.mfuPercent > highest->mfuPercent)
                highest = &i;
        }
    if (highest)
        over << QStringLiteral("%1 of %2 iterations (the highest %3 at %4)")
                    .arg(iterationsOver)
                    .arg(r.iterations.size())
                    .arg(highest->label, percent(highest->mfuPercent));
    if (r.overallMfuPercent > 100.0)
        over << QStringLiteral("all iterations together at %1").arg(percent(r.overallMfuPercent));
    QStringList ranges;
    for (const MfuRangeRow& g : r.ranges)
        if (g.gpuSpanNs > 0 && g.mfuPercent > 100.0)
            ranges << QStringLiteral("%1 at %2").arg(g.pattern, percent(g.mfuPercent));
    if (!ranges.isEmpty())
        over << QStringLiteral("the NVTX range%1 %2")
                    .arg(ranges.size() > 1 ? QStringLiteral("s") : QString(), ranges.join(QStringLiteral(", ")));
    if (over.isEmpty())
        return {};
    QString causes = QStringLiteral("the FLOPs are too high (FLOPs of more than one iteration, or of more GPUs than "
                                    "the %1 counted: --gpus")
                         .arg(r.gpus);
    if (!r.ranges.empty())
        causes += QStringLiteral("; a range's FLOPs are those of one instance on one GPU");
    causes += QStringLiteral("), the precision is wrong (the kernels run at one with a higher peak than %1, e.g. "
                             "fp8: --precision), or the peak is wrong (%2 TFLOP/s per GPU%3: another GPU, or a "
                             "sparse peak: --gpu-name, --peak-tflops)")
                  .arg(precisionName(r.precision), number(r.peakTflops),
                      r.peakGpu == QLatin1String("given") ? QStringLiteral(", given")
                                                          : QStringLiteral(" of ") + r.peakGpu);
    return { QStringLiteral("MFU above 100 %: %1. No GPU does more than its peak, so an input is wrong: %2.")
                 .arg(over.join(QStringLiteral("; ")), causes) };
}

Result<MfuResult> computeMfu(const MfuRequest& request, const JobContext& job)
{
    using R = Result<MfuResult>;
    if (!request.profile)
        return R::failure(ErrorKind::Usage, QStringLiteral("no profile"));
    MfuResult r;
    r.precision = request.precision;
    r.flopsPerIteration = request.flopsPerIteration;
    r.bytesPerIteration = request.bytesPerIteration;
    if (request.model) {
        const Result<FlopEstimate> estimate = transformerFlops(*request.model);
        if (!estimate)
            return estimate.failureAs<MfuResult>();
        r.flopsPerIteration = estimate->flops;
        r.assumptions << estimate->assumptions;
    } else if (r.flopsPerIteration > 0) {
        r.assumptions << QStringLiteral("FLOPs per iteration: %1, given.").arg(number(r.flopsPerIteration));
    }
    if (!(r.flopsPerIteration > 0) && request.ranges.empty())
        return R::failure(ErrorKind::Usage,
            QStringLiteral("no FLOPs: give FLOPs per iteration, the transformer's parameters and tokens, or FLOPs "
                           "per NVTX range"));
    const Result<MfuPeak> peak = resolveMfuPeak(request);
    if (!peak)
        return peak.failureAs<MfuResult>();
    r.gpuName = peak->gpuName;
    r.peakGpu = peak->peakGpu;
    r.peakTflops = peak->peakTflops;
    r.peakBandwidthTBs = peak->peakBandwidthTBs;
    r.assumptions << peak->assumption;
    r.gpus = request.gpus > 0 ? request.gpus : int(makeAnalysisContext(request.profile, {}, job).devices.size());
    r.gpus = std::max(r.gpus, 1);
    r.clockOrigin = captureSpanOf(*request.profile).start;
    if (r.clockOrigin == kNoTime)
        r.clockOrigin = 0;
    if (r.flopsPerIteration > 0) {
        r.assumptions << QStringLiteral("An iteration's FLOPs are those of the %1 GPU(s) of this export together: MFU "
                                        "= FLOPs / (duration x %1 x peak). MFU counts the model's FLOPs: "
                                        "recomputation, padding and masked work are not credited.")
                             .arg(r.gpus);
        const Result<IterationTable> iterations
            = computeIterations({ request.profile, request.iterationMarker, nullptr }, job);
        if (!iterations)
            return R::failure(
                iterations.error().kind == ErrorKind::Cancelled ? ErrorKind::Cancelled : ErrorKind::NoData,
                iterations.errorMessage()
                    + QStringLiteral("; name the iteration's NVTX range (--marker) or give FLOPs per NVTX range"));
        if (!iterations->isConfident())
            return R::failure(ErrorKind::NoData,
                QStringLiteral("the iterations are a guess from GPU idle gaps, %1: name the iteration's NVTX range "
                               "(--marker) or give FLOPs per NVTX range")
                    .arg(iterations->confidenceReason));
        r.assumptions << QStringLiteral("Iterations: %1.").arg(iterations->detection);
        addIterations(*iterations, r);
    }
    if (!request.ranges.empty())
        if (const Status ranges = addRanges(request, r, job); !ranges)
            return ranges.failureAs<MfuResult>();
    r.roofline = mfuRoofline(r);
    r.warnings = mfuAbovePeakWarnings(r);
    return r;
}

} // namespace nsw
