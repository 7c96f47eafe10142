// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/clockalignment.h"
#include "core/nvlink/kernelspans.h"
#include "core/nvlink/linkpeaks.h"
#include "core/nvlink/nvlinkanalysis.h"

#include <limits>

namespace nsw {

struct PeakKernel
{
    std::uint32_t span = 0; ///< index into the KernelSpans
    TimeNs overlapNs = 0;
    double overlapPct = 0; ///< of the interval
    bool nccl = false;
};

/// Another direction of a peak's link over the same interval (NvlinkPeak::merged).
struct PeakDirection
{
    LinkDirection direction = LinkDirection::Rx;
    IntervalRef ref;
    double value = 0; ///< in the peak's unit
    qint64 bytes = -1;
};

/// One of the top-N intervals, on the session timeline, with the kernels that overlap it.
struct NvlinkPeak
{
    int rank = 0; ///< 1 = highest
    IntervalRef ref;
    int link = kAllLinks;
    LinkDirection direction = LinkDirection::Tx;
    ThroughputUnit unit = ThroughputUnit::GBps;
    TimeNs start = 0; ///< session ns (aligned)
    TimeNs end = 0;
    double value = 0; ///< in unit
    qint64 bytes = -1; ///< -1 when unknown (percent series)
    double gbps = std::numeric_limits<double>::quiet_NaN(); ///< NaN when unknown (see fillPeakUnits)
    double percentOfPeak = std::numeric_limits<double>::quiet_NaN();
    std::vector<PeakKernel> kernels; ///< longest overlap first, then by start
    int ncclKernels = 0;
    /// The link's other direction over the same interval, when it ranks above the next peak too: the interval is
    /// listed once ("TX+RX"), with the values of its highest direction.
    std::vector<PeakDirection> merged;

    /// "TX", "RX" or "TX+RX".
    QString directionText() const;
};

/// The windows of intervalsOverlapping() of each series placed on the session timeline by @p alignment.
std::vector<IntervalWindow> focusWindows(
    const std::vector<const ThroughputSeries*>& series, const ClockAlignment& alignment, const FocusRange& focus);

/// The @p top peaks of @p series placed on the session timeline by @p alignment: the intervals ranked as topIntervals
/// does (under @p focus, among the intervals that overlap it), except that one link's TX and RX over the same
/// interval count once (a collective sends and receives at once; two slots for one interval would push a distinct
/// peak out of the list).
std::vector<NvlinkPeak> findPeaks(const std::vector<const ThroughputSeries*>& series, const ClockAlignment& alignment,
    std::size_t top, const FocusRange& focus = {});

/// GB/s and % of peak of each peak from the link-peak table entry of the GPU (null: only the measured unit).
/// Per-link series compare with one link, sums over links with the GPU (links × per-link bandwidth).
void fillPeakUnits(std::vector<NvlinkPeak>& peaks, const LinkPeakEntry* gpuModel);

/// Fills each peak's kernels (exact ns overlap). @p ncclOnly keeps NCCL kernels only; an active @p focus keeps the
/// kernels that overlap it (FocusRange::overlaps).
void attachKernels(
    std::vector<NvlinkPeak>& peaks, const KernelOverlapIndex& kernels, bool ncclOnly, const FocusRange& focus = {});

} // namespace nsw
