// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The NVLink data a profile offers the pane: its attached NVF1 recordings and the GPUs of its GPU metrics, how the
// pane lists and names them, and what each is set against the profile.

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/nvlink/nvlinkattachment.h"
#include "core/nvlink/nvlinksetup.h"

#include <QString>
#include <optional>
#include <vector>

namespace nsw {

/// One source: an attached recording, or the export's GPU metrics of one GPU.
struct NvlinkSourceChoice
{
    bool gpuMetrics = false;
    int index = 0; ///< recording index, or GPU for GPU metrics
};

struct NvlinkSourceItem
{
    QString label;
    QString key; ///< stable while the source is attached
};

/// The recordings, then the GPUs of the GPU metrics.
std::vector<NvlinkSourceItem> nvlinkSourceItems(const NvlinkAttachment& attachment);
/// The source @p key names, when @p attachment (may be null) still has it.
std::optional<NvlinkSourceChoice> nvlinkSourceOfKey(const QString& key, const NvlinkAttachment* attachment);
/// The GPU (CUDA device of the export) the source's data is of.
int nvlinkSourceGpu(const NvlinkSourceChoice& source, const NvlinkAttachment& attachment);
/// The throughput series of the source.
NvlinkSeriesSource nvlinkSeriesOf(const NvlinkSourceChoice& source, const NvlinkAttachment& attachment);
/// The source set against @p profile (core's setUpNvlinkSource(), as the nvlink command does): clock alignment with
/// the attachment's offset, a recording's placement against the capture, the GPU's model in @p peakTable.
std::optional<NvlinkSetup> nvlinkSourceSetup(const NvlinkSourceChoice& source, const NvlinkAttachment& attachment,
    const Profile& profile, const LinkPeakTable& peakTable);
/// The links of the recording, ascending.
std::vector<int> linksOf(const Nvf1Recording& recording);
/// The NVLink GPU metrics of @p profile (from the GPU metric counters the timeline reads too: one scan serves both).
Result<std::shared_ptr<const GpuMetricsNvlink>> readNvlinkGpuMetrics(const ProfilePtr& profile, const JobContext& job);

} // namespace nsw
