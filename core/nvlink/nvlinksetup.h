// SPDX-License-Identifier: GPL-3.0-or-later
// The one place that sets an NVLink source against its export, for the `nvlink` command and the NVLink pane: the
// clock alignment, where a recording lies against the capture, and the GPU's model and link bandwidth.
#pragma once

#include "core/jobs/result.h"
#include "core/nvlink/linkpeaks.h"
#include "core/nvlink/nvlinkpeaksrun.h"
#include "core/nvlink/recordingplacement.h"

#include <functional>
#include <optional>

namespace nsw {

struct NvlinkSetupRequest
{
    NvlinkSeriesSource source; ///< an NVF1 recording, or else the export's GPU metrics
    /// The export's metadata and GPUs: a loaded profile, or the metadata alone (the CLI reads no table); null: no
    /// export (a recording on its own).
    const Profile* exportInfo = nullptr;
    CaptureSpan capture; ///< the export's capture span
    /// Asked when @p capture is unknown or the recording seems not to belong to it: the exact span (the CLI's from
    /// the events, which it reads only then). Empty: @p capture is exact.
    std::function<CaptureSpan()> exactCapture;
    TimeNs offsetNs = 0; ///< the user's correction of the NVML clock (recordings only)
    bool alignStart = false; ///< put the recording's first sample at the capture start, then add the offset
    /// The kernels at the peaks need the NVML clock matched to the export's: without a usable session start time
    /// the request is then a NoData error.
    bool needKernelClock = false;
    const LinkPeakTable* peakTable = nullptr; ///< for gpuModel; null: none looked up
    QString recordingPath; ///< for messages
    QString exportPath;
};

struct NvlinkSetup
{
    /// NVML clock → session clock. GPU metrics are sampled on the export's own clock: anchored at its session start
    /// (never offset), as are the kernels.
    ClockAlignment alignment;
    std::optional<RecordingPlacement> placement; ///< a recording's, against the export's capture
    /// "R.bin: the recording does not overlap the capture: ... (export E.sqlite). Is it from another session?" when
    /// the recording shares (almost) no time with the capture, else empty. Callers add how to fix it in their terms.
    QString anotherSessionWarning;
    QString gpuName; ///< the GPU's model name (nvlinkGpuModel()), empty when unknown
    std::optional<LinkPeakEntry> gpuModel; ///< its entry of the link-peak table
};

Result<NvlinkSetup> setUpNvlinkSource(const NvlinkSetupRequest& request);

} // namespace nsw
