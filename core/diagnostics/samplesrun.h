// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/samples/samplecounts.h"

#include <memory>
#include <vector>

namespace nsw {

/// What the `samples` command and the Samples pane ask for.
struct SamplesRequest
{
    ProfilePtr profile;
    FocusRange focus; ///< inactive: the whole capture
    SampleScope scope; ///< whose samples
    /// A stretch inside the focus the user picked (a timeline range, an idle gap); inactive: the whole focus.
    FocusRange selection;
    /// Only samples of the threads that launch a GPU's work, taken while that GPU sat in an idle gap.
    bool duringGpuIdle = false;
    int gpu = -1; ///< with duringGpuIdle: the GPU's DiagnosticsDevice key; -1 every GPU
    bool bottomUp = false; ///< also build the bottom-up tree
};

/// The selected samples counted on the profile's call tree, as the views show them.
struct SamplesResult
{
    ProfilePtr profile;
    std::shared_ptr<const SampleCallTree> tree;
    std::vector<std::uint32_t> rows; ///< the selected samples (CpuSamples rows), by thread then time
    SampleCounts counts;
    std::vector<FunctionCount> functions; ///< the flat list
    std::shared_ptr<const SampleBottomUp> bottomUp; ///< when asked
    /// What was selected, in words: "all threads", "thread python3 (145), during the idle gaps of GPU 0 (12 gaps,
    /// 3.2 ms)".
    QString description;
    qint64 idleGaps = 0; ///< with duringGpuIdle: the gaps the samples were taken in
    TimeNs idleNs = 0;
};

/// Why @p profile has no CPU samples to show ("... has no CPU samples: the export has no COMPOSITE_EVENTS table;
/// record with nsys profile -s cpu"), empty when it has some.
QString missingSamplesReason(const Profile& profile);

/// The GPUs a --during gpu-idle:GPU can name (the DiagnosticsDevice keys of the profile's kernels and memory
/// operations), ascending.
std::vector<int> sampleGpuKeys(const ProfilePtr& profile, const CancelToken& cancel = CancelToken::never());

/// Selects and counts the samples. Fails with NoData (naming the file) when the profile has no samples, with Usage
/// when the GPU is not one of the profile's; an empty selection is a result with 0 samples.
Result<SamplesResult> computeSamples(const SamplesRequest& request, const JobContext& job = {});

} // namespace nsw
