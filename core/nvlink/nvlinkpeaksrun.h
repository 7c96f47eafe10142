// SPDX-License-Identifier: GPL-3.0-or-later
// The NVLink pipeline shared by the `nvlink` command and the NVLink pane: series → peaks → kernels at the peaks.
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/nvlink/ccljson.h"
#include "core/nvlink/gpumetricsreader.h"
#include "core/nvlink/nvf1reader.h"
#include "core/nvlink/peakkernels.h"
#include "core/nvlink/plotreduction.h"

#include <memory>
#include <optional>
#include <vector>

namespace nsw {

class SqliteDb;

/// The NVLink data an analysis reads: an NVF1 recording, or else the export's GPU metrics of one GPU.
struct NvlinkSeriesSource
{
    std::shared_ptr<const Nvf1Recording> recording;
    std::shared_ptr<const GpuMetricsNvlink> gpuMetrics; ///< read when there is no recording
    int gpu = 0; ///< CUDA device of the export the data is of
};

/// The series of @p source that @p filter keeps, in their stored order. GPU metrics only hold the GPU's sums over
/// links: every link filter keeps them (by direction).
std::vector<const ThroughputSeries*> selectSeries(const NvlinkSeriesSource& source, const NvlinkFilter& filter);

/// Where the kernels at the peaks come from: the loaded profile (every kernel of the device, indexed once and
/// reusable), or the export itself (only the kernels near the peaks: the CLI, which never loads the profile).
struct NvlinkKernelSource
{
    ProfilePtr profile;
    const SqliteDb* exportDb = nullptr; ///< used when there is no profile
    std::shared_ptr<const KernelOverlapIndex> index; ///< a previous result's index of the same profile and GPU
};

struct NvlinkPeaksRequest
{
    std::vector<const ThroughputSeries*> series;
    std::shared_ptr<const void> keepAlive; ///< owns the series
    ClockAlignment alignment;
    int gpu = 0;
    std::size_t top = 10;
    bool ncclOnly = false;
    std::optional<LinkPeakEntry> gpuModel; ///< link bandwidth for GB/s ↔ % of peak
    FocusRange focus;
    NvlinkKernelSource kernels;
    /// Also what a plot needs: the per-series max indexes and the NCCL activity band over the series' span.
    bool forPlot = false;
    std::vector<std::shared_ptr<const SeriesMaxIndex>> reusablePlotIndexes; ///< parallel to series; null: build
};

struct NvlinkPeaksResult
{
    /// The top peaks, one link's TX and RX over one interval counted once (findPeaks), with their kernels.
    std::vector<NvlinkPeak> peaks;
    std::vector<IntervalWindow> focusWindows; ///< per series, the intervals that overlap the focus
    std::shared_ptr<const KernelOverlapIndex> kernels;
    std::vector<std::pair<TimeNs, TimeNs>> ncclBusy; ///< forPlot only
    std::vector<std::shared_ptr<const SeriesMaxIndex>> plotIndexes; ///< forPlot only, parallel to series
};

/// Finds the peaks of the request's series and the kernels of its GPU that overlap them.
Result<NvlinkPeaksResult> computeNvlinkPeaks(const NvlinkPeaksRequest& request, const JobContext& job = {});

/// The ccl-bench tools' peak_kernels JSON of a computed request: their own ranking (TX and RX apart), the
/// intervals overlapping the focus when there is one, or their error object.
OrderedJson cclPeakKernelsOf(const NvlinkPeaksRequest& request, const NvlinkPeaksResult& result);

} // namespace nsw
