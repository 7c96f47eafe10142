// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnosticstypes.h"
#include "core/diagnostics/h2dtimeline.h"
#include "core/diagnostics/idlegaps.h"
#include "core/diagnostics/idlesamples.h"
#include "core/diagnostics/kerneltiming.h"
#include "core/diagnostics/launchcost.h"
#include "core/diagnostics/memorytransfers.h"
#include "core/diagnostics/ncclbreakdown.h"
#include "core/diagnostics/ncclskew.h"
#include "core/diagnostics/overlap.h"
#include "core/diagnostics/perprocess.h"
#include "core/diagnostics/streamconcurrency.h"
#include "core/diagnostics/syncanalysis.h"
#include "core/diagnostics/temporalbreakdown.h"
#include "core/diagnostics/tensorcores.h"
#include "core/diagnostics/thresholds.h"
#include "core/diagnostics/whatif.h"
#include "core/iterations/iterations.h"
#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/nvtx/nvtxphases.h"
#include "core/nvtx/nvtxtree.h"
#include "core/profile/loadtypes.h"

#include <memory>
#include <optional>

namespace nsw {

/// What the `report` and `findings` commands and the Findings pane ask for. The profile needs every part loaded
/// (kernels with names and placement, memory operations, CUDA API calls, NVTX); a part it lacks only makes the
/// checks that need it say so (SkippedCheck).
struct DiagnosticsRequest
{
    ProfilePtr profile;
    FocusRange focus; ///< inactive: the whole capture
    Thresholds thresholds;
    /// Phases for the NVTX time-per-phase table (nsys-llm-explainer's --phase-map); empty: the phases are found in
    /// the NVTX ranges (see nvtxLevelPhases()).
    NvtxPhaseMap phaseMap;
    /// Read the memcpy memory kinds (pageable/pinned) from the export (profile->meta.filePath): the loaded profile
    /// does not hold them. Off: the by-kind table and the pageable check are skipped, and say so.
    bool readMemoryKinds = true;
    /// Detect iterations for the outlier check (as `nsys-workbench iterations`); empty marker: automatic.
    bool detectIterations = true;
    QString iterationMarker;
    /// The tensor-core rules (a "tensorcores" rule set); null: the shipped ones.
    std::shared_ptr<const RuleList> tensorCoreRules;
    std::size_t longestKernels = 20; ///< how many of the longest kernel executions to list
};

/// Everything section 2 computes plus the findings. Plain values: copyable, shareable across threads.
struct DiagnosticsResult
{
    ProfilePtr profile;
    FocusRange focus;
    TimeNs windowStart = 0; ///< the window occupancy measures use (focus, else capture span)
    TimeNs windowEnd = 0;
    TimeNs clockOrigin = 0; ///< sessionClockOrigin(): outputs show times on the session clock (timestamp - origin)
    std::vector<DiagnosticsDevice> devices;
    Thresholds thresholds;

    IdleGapResult idleGaps;
    IdleSamplesResult idleSamples; ///< CPU samples of the launching threads during the idle gaps
    OverlapResult overlap;
    NcclBreakdown nccl;
    NcclSkewResult ncclSkew;
    LaunchCostResult launchCost;
    SyncResult sync;
    MemoryResult memory;
    PerProcessResult perProcess;
    std::vector<DeviceTimeBreakdown> temporal;
    std::vector<DeviceConcurrency> streamConcurrency;
    KernelTiming kernelTiming; ///< the longest kernels and the launch percentiles
    H2dTimeline h2d;
    TensorCoreResult tensorCores;
    std::vector<WhatIfRow> whatIf; ///< the window's, then the median iteration's (see computeWhatIf)
    /// NVTX coverage (kernel time inside ranges / all kernel time); nullopt without NVTX ranges.
    std::optional<NvtxCoverage> nvtxCoverage;
    /// The NVTX phases: of the phase map, else found in the ranges (nvtxLevelPhases(): phasesLevel says which).
    std::vector<NvtxPhaseRow> phases;
    QString phasesLevel; ///< the ranges taken as phases without a phase map, in words; empty with one
    QString phasesMissing; ///< why there are no phases (no NVTX ranges, a single name)
    /// Detected iterations; null when not asked, or none found (iterationsMissing says why).
    std::shared_ptr<const IterationTable> iterations;
    QString iterationsMissing;

    std::vector<Finding> findings; ///< ranked: GPU cost, then severity (critical first), host time, id
    std::vector<SkippedCheck> skipped;

    const QString& deviceLabel(int key) const;
};

/// What runDiagnostics reads of a profile, for callers that load one only to diagnose it (`report`, `findings`):
/// everything but the OS runtime calls and the kernels' mangled names and launch shapes, which no analysis uses.
LoadOptions diagnosticsLoadOptions();

/// Runs every analysis of section 2 on the profile, then the findings. Cancelled when @p job is; progress in
/// stages ("Idle gaps", "Overlap"...).
Result<DiagnosticsResult> runDiagnostics(const DiagnosticsRequest& request, const JobContext& job = {});

/// The findings of an analysed profile with the given thresholds (runDiagnostics calls it; the pane calls it again
/// when only the findings' thresholds change). Fills result.findings and result.skipped, sorted. The result must
/// have been analysed with the same analysis thresholds (analysisThresholdsDiffer() false): otherwise the request
/// goes through runDiagnostics again.
void computeFindings(DiagnosticsResult& result, const Thresholds& thresholds);

/// Whether @p a and @p b differ in a threshold that shapes the analyses themselves, not only the findings:
/// listed_gap_us (which gaps are listed), long_gap_ms (the long-gap totals) or short_kernel_us (launch cost). A
/// change of one of them runs every analysis again, so that tables, reports and findings name the thresholds they
/// were computed with.
bool analysisThresholdsDiffer(const Thresholds& a, const Thresholds& b);

/// Every table of the result, in a stable order, with nsys-llm-explainer's names where it has one: kernels,
/// nvtx_ranges, gpu_idle_gaps, kernels_by_pid, sync_by_pid, nvtx_by_pid; then ours: gpu_idle_by_device,
/// gpu_stream_gaps, gap_histogram, overlap_by_gpu, nccl_shared_streams, nccl_by_collective, nccl_by_stream,
/// nccl_skew, launch_cost, launch_rate_by_pid, sync_by_thread, memory_by_direction, memory_by_kind, processes,
/// gpu_time_breakdown, nvtx_phases (with NVTX phases), iterations (when detected), cpu_samples_gpu_idle (with CPU
/// samples), then stream_concurrency, longest_kernels, h2d_over_time, h2d_load_phases, launch_percentiles,
/// tensor_cores, non_tensor_core_kernels, what_if, and last findings. Raw values: durations in ns, start_ns/end_ns
/// columns on the session clock (timestamp - clockOrigin, 0 but for --ts-normalize exports), percentages 0..100, an
/// empty cell (std::monostate) where a value does not apply.
std::vector<DiagnosticsTable> diagnosticsTables(const DiagnosticsResult& result);

} // namespace nsw
