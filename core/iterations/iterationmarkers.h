// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/profile/profile.h"

#include <QString>
#include <vector>

namespace nsw {

/// NVTX ranges from libraries (cub::, thrust::, NCCL, cuBLAS, cuDNN...) or in such a library's domain: they repeat
/// like iterations but never are one (nsys-ai's phantom iterations, its issue #215).
bool isLibraryNvtxRange(const Profile& profile, std::size_t nvtxRow);

/// One iteration taken from an NVTX range instance.
struct MarkerRange
{
    TimeNs start = 0;
    TimeNs end = 0;
    StringRef name = kNoString;
};

/// The instances of the marker that make the iterations, in time order.
struct MarkerRanges
{
    QString marker; ///< "ProfilerStep#N", "train_step", or the name the user gave
    QString detail; ///< where they were found: "12 ranges of process 100 (python)"
    std::vector<MarkerRange> ranges;
};

/// The iterations of a profile from an NVTX marker: @p marker names it (exact name, the same name up to its numbers
/// as in ProfilerStep#12 for every ProfilerStep#N, or a regular expression the whole name matches); when empty, the
/// first of the known markers found (ProfilerStep#N, then "iteration 5"/"step_5"-style names, train_step,
/// vLLM's execute_model, nsys-ai's sample_N). Library ranges and unterminated ranges are never taken. Of the
/// processes that have the marker, the one with the most instances is used (only @p process when given: one rank of
/// a distributed run); nested instances (a marker inside another) are dropped for the outermost. A start/end range
/// belongs to the process that started it, wherever it ends. NoData when nothing matches.
Result<MarkerRanges> findMarkerRanges(
    const Profile& profile, const QString& marker, const JobContext& job = {}, ProcessIndex process = kNoIndex);

/// The markers tried when none is named, in order (for help texts).
QStringList knownIterationMarkers();

} // namespace nsw
