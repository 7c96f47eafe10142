// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/profile.h"
#include "core/stats/kernelindex.h"
#include "core/stats/reporttable.h"

#include <optional>

namespace nsw {

/// nsys 2022.4's name of an NVTX range row in its push/pop, start/end and kernel reports: "domain:text" when a
/// domain-create event of the range's process names its domain, else the text alone; nullopt (NULL) without a text.
std::optional<QString> nvtxLabel2022(const Profile& profile, std::size_t row);

/// `nsys stats -r nvtx_pushpop_sum` (2022: nvtxppsum): push/pop ranges grouped by their nsys 2022.4 name, CPU
/// durations, unterminated ranges ended at the table-wide maximum timestamp, by total descending (equal totals in
/// name order). With an active @p focus only the ranges that overlap it (durations not clipped).
ReportTable nvtxPushPopSum(const Profile& profile, const FocusRange& focus = {});

/// `nsys stats -r nvtx_startend_sum` (2022: nvtxsesum): the same for start/end ranges.
ReportTable nvtxStartEndSum(const Profile& profile, const FocusRange& focus = {});

/// `nsys stats -r nvtx_kern_sum` (2022: nvtxkernsum) as nsys 2022.4 computes it: every kernel (name in @p mode) with
/// each CUDA API row of its process that has its correlation id, and each range of that call's thread (ended on
/// the same thread) that contains the whole call, grouped by (PID, TID, range, style, kernel): range and kernel
/// instances (distinct), kernel durations of every (kernel, call, range) combination. A kernel without a containing
/// range, or without its call, forms groups with empty range (and thread) cells. Sorted by range, PID, TID, total
/// descending. With an active @p focus only the kernels that overlap it.
ReportTable nvtxKernSum(const Profile& profile, KernelNameMode mode, const FocusRange& focus = {});

} // namespace nsw
