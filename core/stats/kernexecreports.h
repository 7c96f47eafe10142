// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/profile.h"
#include "core/stats/kernelindex.h"
#include "core/stats/reporttable.h"

namespace nsw {

/// nsys's cuda_kern_exec_sum (2022: kernexecsum): kernels joined to their launching call (same correlation id and
/// process; kernels without one are left out, a kernel with several such calls counts once per call, as nsys's
/// join does), per (PID, TID, device, API name, kernel name): count, launches with a
/// queue time (kernel start - call end >= 0) and Avg/Med/Min/Max/StdDev of total (call start to the later of call
/// end and kernel end), API, queue and kernel time. Sorted by TAvg (as printed, 1 decimal) descending; equal ones in
/// group order (PID, TID, device, then the names' bytes, as SQLite's GROUP BY). With an active @p focus, a launch
/// counts when both its call and its kernel overlap it (nsys's range filter applies to both tables).
ReportTable cudaKernExecSum(const Profile& profile, KernelNameMode mode, const FocusRange& focus = {});

/// nsys's cuda_kern_exec_trace (kernexectrace): one row per launched kernel, by call start (then kernel row). Its rows
/// are made on demand (ReportTable::lazyRow) and read @p profile.
ReportTable cudaKernExecTrace(const Profile& profile, KernelNameMode mode, const FocusRange& focus = {});

} // namespace nsw
