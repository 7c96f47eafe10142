// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/idlegaps.h"
#include "core/samples/samplecounts.h"

#include <memory>
#include <vector>

namespace nsw {

/// The threads that launch each GPU's work: those whose CUDA API calls launched its kernels and memory operations
/// (the whole profile, whatever the focus), by DiagnosticsDevice key. Built once per profile.
struct GpuLaunchers
{
    std::vector<int> devices; ///< DiagnosticsDevice keys, ascending
    std::vector<std::vector<ThreadIndex>> threads; ///< per device, ascending
    const std::vector<ThreadIndex>* of(int device) const;
};
std::shared_ptr<const GpuLaunchers> gpuLaunchersOf(const AnalysisContext& context, const CancelToken& cancel);

/// The samples of @p device's launching threads (those @p scope holds) taken inside @p gaps (that device's, sorted
/// by start), each gap cut to @p limit when it is active. Appended to @p rows.
void appendIdleSamples(const Profile& profile, const SampleThreadIndex& index, const std::vector<ThreadIndex>& threads,
    std::span<const IdleGap> gaps, const SampleScope& scope, const FocusRange& limit, std::vector<std::uint32_t>& rows);

/// The CPU samples of one GPU's launching threads taken while the GPU sat in an idle gap.
struct GpuIdleSamples
{
    int device = -1; ///< DiagnosticsDevice key
    qint64 gaps = 0; ///< idle gaps in the window (any length)
    TimeNs gapNs = 0;
    TimeNs causeNs[kGapCauseCount] = {};
    qint64 samples = 0;
    std::vector<FunctionCount> functions; ///< by self samples (the function that was running), at most kTopFunctions
    ThreadIndex topThread = kNoIndex; ///< the launching thread with the most of those samples
    qint64 topThreadSamples = 0;
    /// The longest gap whose samples ran the top function most (for the finding's evidence); kNoTime when none.
    TimeNs exampleStart = kNoTime;
    TimeNs exampleEnd = kNoTime;
    static constexpr std::size_t kTopFunctions = 20;
    GapCause dominantCause() const;
};

struct IdleSamplesResult
{
    bool hasSamples = false; ///< the profile holds CPU samples
    std::vector<GpuIdleSamples> gpus; ///< GPUs with idle gaps, by key
    /// Per listed gap of IdleGapResult::deviceGaps / streamGaps: the function most samples were running in during
    /// the gap (-1 when no sample of the GPU's launching threads fell in it) and those samples.
    std::vector<std::int32_t> deviceGapTop, streamGapTop;
    std::vector<qint64> deviceGapSamples, streamGapSamples;
};

/// Joins the profile's CPU samples to every GPU's idle gaps (all of them, the listed ones of @p listed for the
/// per-gap column). Empty (hasSamples false) without samples.
IdleSamplesResult computeIdleSamples(
    const AnalysisContext& context, const IdleGapResult& listed, const JobContext& job);

} // namespace nsw
