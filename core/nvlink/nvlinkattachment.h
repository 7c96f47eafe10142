// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/gpumetricsreader.h"
#include "core/nvlink/linkpeaks.h"
#include "core/nvlink/nvf1reader.h"

#include <memory>

namespace nsw {

/// ProfileSession attachment key of the NVLink state.
inline QString nvlinkAttachmentKey()
{
    return QStringLiteral("nvlink");
}

struct NvlinkRecordingEntry
{
    std::shared_ptr<const Nvf1Recording> recording;
    int gpu = 0; ///< the GPU (CUDA device of the export) the recording is of; the file does not say
};

/// A profile's NVLink data (ProfileSession attachment "nvlink"). Treated as immutable once attached: change a copy
/// and attach it again, so that every pane sees the change (attachmentChanged).
struct NvlinkAttachment
{
    std::vector<NvlinkRecordingEntry> recordings;
    std::shared_ptr<const GpuMetricsNvlink> gpuMetrics; ///< null when the export has no NVLink GPU metrics
    bool gpuMetricsSearched = false;
    TimeNs clockOffsetNs = 0; ///< user correction of the NVML clock (ClockAlignment::offsetNs)
};

/// The model name of GPU @p gpu for the link-peak table: the export's GPU with that CUDA device (or id), else the
/// only model when all GPUs are the same, else the chip of the GPU metrics; empty when unknown.
QString nvlinkGpuModel(const Profile& profile, int gpu, const GpuMetricsNvlink* metrics);

} // namespace nsw
