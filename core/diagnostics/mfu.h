// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnosticstypes.h"
#include "core/diagnostics/gpupeaks.h"
#include "core/diagnostics/rangeflops.h"
#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"

#include <optional>

namespace nsw {

/// A dense transformer, for users who do not know their FLOPs: per token 6 N + 12 L H S FLOPs when training
/// (forward and backward), 2 N + 4 L H S for a forward pass only (PaLM's formula, appendix B: attention over the
/// whole sequence, causal masking not discounted, no recomputation). The attention term needs layers, hidden and
/// sequence; without them it is left out (and said).
struct TransformerModel
{
    double parameters = 0; ///< N, embeddings included
    double tokens = 0; ///< tokens one iteration processes on the GPUs of the export
    int layers = 0; ///< L
    int hidden = 0; ///< H (heads x head size)
    int sequence = 0; ///< S
    bool training = true;
};

struct FlopEstimate
{
    double flops = 0;
    QString formula; ///< the arithmetic with the numbers
    QStringList assumptions;
};
/// Usage error when parameters or tokens are missing or not positive.
Result<FlopEstimate> transformerFlops(const TransformerModel& model);

/// The GPU of the export when all its GPUs share one name (the one MfuRequest::gpuName defaults to), else empty.
QString exportGpuName(const Profile& profile);

/// What the `mfu` command and the Findings pane's MFU dialog ask for.
struct MfuRequest
{
    ProfilePtr profile; ///< needs kernels, memory operations and NVTX
    double flopsPerIteration = 0; ///< the GPUs of the export together; 0: from model, or none
    std::optional<TransformerModel> model;
    double bytesPerIteration = 0; ///< for the roofline; 0: none
    std::vector<RangeFlops> ranges;
    Precision precision = Precision::Bf16;
    QString gpuName; ///< the GPU to look up in the table; empty: the export's
    double peakTflops = 0; ///< per GPU, overrides the table
    double peakBandwidthTBs = 0; ///< per GPU, overrides the table
    int gpus = 0; ///< GPUs the FLOPs run on; 0: the GPUs that run kernels in the export
    QString iterationMarker; ///< as `iterations --marker`; empty: automatic
};

/// The peak an MFU is measured against, and where it comes from.
struct MfuPeak
{
    QString gpuName; ///< as found in the export or given
    QString peakGpu; ///< the table's row, or "given"
    double peakTflops = 0; ///< per GPU
    double peakBandwidthTBs = 0; ///< per GPU, 0 when unknown
    QString assumption; ///< the value and its source, in words
};
/// The peak computeMfu() uses for @p request: the given one, else the built-in table's row for the GPU (the export's
/// when none is named) and the precision. Its usage errors are computeMfu()'s.
Result<MfuPeak> resolveMfuPeak(const MfuRequest& request);

struct MfuIterationRow
{
    int index = 0;
    QString label;
    TimeNs start = 0;
    TimeNs duration = 0;
    double tflops = 0; ///< achieved TFLOP/s, all the GPUs together
    double mfuPercent = 0;
};

struct MfuRangeRow
{
    QString pattern;
    qint64 instances = 0;
    TimeNs gpuSpanNs = 0; ///< summed GPU projections of the instances
    double flops = 0; ///< all instances
    double tflops = 0;
    double mfuPercent = 0; ///< against one GPU's peak
    double bytes = 0;
    double intensity = 0; ///< FLOPs per byte, 0 without bytes
    double roofTflops = 0; ///< min(peak, intensity x bandwidth), 0 without bytes
};

/// One achieved point of the roofline, per GPU: an iteration (its FLOPs and bytes shared by the GPUs) or an NVTX range
/// (its kernels run on one GPU).
struct MfuRooflinePoint
{
    bool iteration = false; ///< else an NVTX range
    QString label; ///< the iteration's label, or the range's name or pattern
    double intensity = 0; ///< arithmetic intensity, FLOPs per byte
    double achievedTflops = 0; ///< per GPU
    double attainableTflops = 0; ///< per GPU: min(peak, intensity x bandwidth); 0 without a bandwidth
    bool memoryBound = false; ///< left of the ridge: the bandwidth bounds it, not the peak
    double attainablePercent() const ///< achieved / attainable; 0 without an attainable bound
    {
        return attainableTflops > 0 ? 100.0 * achievedTflops / attainableTflops : 0.0;
    }
};

/// The roofline of one GPU (the chart's numbers): the roof min(peak, intensity x bandwidth), and the achieved points
/// the given bytes allow.
struct MfuRoofline
{
    double peakTflops = 0; ///< per GPU
    double bandwidthTBs = 0; ///< per GPU; 0: no memory roof
    double ridge = 0; ///< FLOPs per byte where the roof turns flat; 0 without a bandwidth
    std::vector<MfuRooflinePoint> points;
    QStringList missing; ///< why a roof or a point is missing (no bytes, no bandwidth, no GPU time), in words
    bool hasRoof() const { return peakTflops > 0 && bandwidthTBs > 0; }
};

struct MfuResult
{
    QString gpuName; ///< as found or given
    QString peakGpu; ///< the table's row, or "given"
    Precision precision = Precision::Bf16;
    double peakTflops = 0; ///< per GPU
    double peakBandwidthTBs = 0; ///< per GPU, 0 when unknown
    int gpus = 1;
    double flopsPerIteration = 0;
    double bytesPerIteration = 0;
    TimeNs clockOrigin = 0; ///< iteration starts are shown as start - clockOrigin
    std::vector<MfuIterationRow> iterations;
    double medianMfuPercent = 0; ///< of the median iteration (lower middle duration)
    double overallMfuPercent = 0; ///< all iterations' FLOPs over their summed time
    double intensity = 0; ///< per iteration, FLOPs per byte (with bytesPerIteration)
    double ridge = 0; ///< peak FLOP/s over bandwidth: intensities below are memory-bound
    double roofTflops = 0; ///< min(peak x GPUs, intensity x bandwidth x GPUs)
    std::vector<MfuRangeRow> ranges;
    MfuRoofline roofline;
    QStringList assumptions; ///< every one the numbers rest on, in words
    QStringList warnings; ///< an MFU above 100 % (mfuAbovePeakWarnings()); empty when the numbers are possible
};

/// The roofline of @p result (computeMfu() fills MfuResult::roofline with it): a point per iteration when bytes per
/// iteration are given, and per NVTX range with bytes and GPU time.
MfuRoofline mfuRoofline(const MfuResult& result);

/// An MFU above 100 % -- more FLOPs in the time than the GPUs' peak allows, so the FLOPs, the precision or the peak
/// is wrong -- said in words: which iterations (how many, the highest), the overall MFU, which ranges, and the likely
/// causes. Empty when every MFU is at most 100 %. computeMfu() puts it in MfuResult::warnings.
QStringList mfuAbovePeakWarnings(const MfuResult& result);

/// MFU per iteration (iterations found by the marker or guessed with high confidence) and per NVTX range, with the
/// roofline when bytes are given. Usage errors: no FLOPs given at all, an unknown GPU without --peak-tflops, a
/// precision the GPU has no peak for; NoData: FLOPs per iteration but no (confident) iterations.
Result<MfuResult> computeMfu(const MfuRequest& request, const JobContext& job = {});

} // namespace nsw
