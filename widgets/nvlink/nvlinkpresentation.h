// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How the NVLink pane words and draws a computed result: the plot's lines and peak marks, the notes above it and
// the caption of a peak's kernels.

#include "core/nvlink/nvlinkpeaksrun.h"
#include "widgets/nvlink/nvlinkplot.h"

#include <QStringList>
#include <vector>

namespace nsw {

struct Nvf1Recording;

/// A line per series, in % of peak or GB/s as asked when the GPU model allows converting, else in the series' own
/// unit (unitFallback); the peaks marked in the unit shown.
struct NvlinkPlotContent
{
    std::vector<NvlinkPlotSeries> series;
    std::vector<NvlinkPlotPeak> peaks;
    bool showPercent = false;
    bool unitFallback = false; ///< a series could not be converted: every line is in its measured unit
};
NvlinkPlotContent plotContentOf(const NvlinkPeaksRequest& request, const NvlinkPeaksResult& result, bool wantPercent);

/// What the focus does to the peaks, when there is one.
QString focusNote(const NvlinkPeaksRequest& request, const NvlinkPeaksResult& result);
/// "FILE: N records, M polls of L links over T." and the recording's warnings.
QStringList recordingNotes(const Nvf1Recording& recording);
/// "Peak #R (link L TX, V GB/s, D, S at T): N kernels, M NCCL".
QString peakCaption(const NvlinkPeak& peak);

} // namespace nsw
