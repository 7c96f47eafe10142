// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/profile.h"
#include "core/stats/reporttable.h"

#include <vector>

namespace nsw {

/// nsys's label of an NVTX range row: `domain:text`, with an empty domain for the default domain and for domains
/// whose create event is missing (":ncclSend").
QString nvtxReportLabel(const Profile& profile, std::size_t row);

/// `nsys stats -r nvtx_sum` ("NVTX Range Summary"): push/pop and start/end ranges grouped by (Range, Style), CPU
/// durations, unterminated ranges ended at the table-wide maximum timestamp. With an active @p focus only the ranges
/// that overlap it (durations not clipped).
ReportTable nvtxSum(const Profile& profile, const FocusRange& focus = {});

/// One row of nsys's nvtx_gpu_proj_trace: a range that encloses at least one GPU operation's launching call.
struct NvtxProjection
{
    std::uint32_t row = 0; ///< NvtxTable row
    TimeNs projectedStart = 0;
    TimeNs projectedDuration = 0;
    TimeNs origStart = 0;
    TimeNs origDuration = 0;
    qint64 gpuOps = 0; ///< distinct correlation ids
    std::int32_t level = -1; ///< depth from a root range; -1 when nsys has none (ranges identical to another)
    std::int32_t parentRow = -1; ///< the tightest enclosing range on the same thread, or -1
    std::int32_t numChild = 0; ///< children that have a projection themselves
};

/// The projection as nsys_gpu_proj_trace computes it (notes §5.6): ranges that start and end on the same thread,
/// a GPU operation (kernel, memcpy, memset) belongs to every range of its launching thread that contains the whole
/// launching call; span from the first GPU start to the last GPU end. Rows in NvtxTable row order.
std::vector<NvtxProjection> nvtxGpuProjection(const Profile& profile);

/// `nsys stats -r nvtx_gpu_proj_sum` ("NVTX GPU Projection Summary"): the projection grouped by (Range, Style).
/// With an active @p focus only the ranges that overlap it; their projection is computed as usual.
ReportTable nvtxGpuProjSum(const Profile& profile, const FocusRange& focus = {});

} // namespace nsw
