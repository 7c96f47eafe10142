// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/profile.h"
#include "core/stats/reporttable.h"

namespace nsw {

// The unified memory reports as nsys 2022.4 computes them. They read the page-fault tables and the unified memory
// migrations (CUPTI_ACTIVITY_KIND_MEMCPY rows of copy kinds 11 and 12 with their virtualAddress) straight from the
// export, which the profile does not hold. With an active focus only the rows that overlap it (a CPU page fault is
// an instant at its start).

/// `nsys stats -r um_sum[:rows=N]` (2022: unifiedmemory): per virtual address, host-to-device and device-to-host
/// migration sizes (MB), CPU page faults (count), GPU page faults (summed numberOfPageFaults) and the migration
/// throughput (MB/s, bytes * (10^9 / ns) in integer arithmetic, empty for a zero duration), by throughput descending
/// (empty last, ties in address order: fault addresses first), at most @p rows rows (a negative limit: all).
ReportTable umSum(const Profile& profile, qint64 rows = 10, const FocusRange& focus = {});

/// `nsys stats -r um_total_sum` (2022: unifiedmemorytotals): one row of totals; the lowest and highest address over
/// CPU faults, GPU faults and both migration directions are empty as soon as one of the four has no row.
ReportTable umTotalSum(const Profile& profile, const FocusRange& focus = {});

/// `nsys stats -r um_cpu_page_faults_sum` (2022: umcpupagefaults): CPU page faults counted per faulting CPU
/// instruction (the CpuInstruction string), by count descending, ties in string id order.
ReportTable umCpuPageFaultsSum(const Profile& profile, const FocusRange& focus = {});

} // namespace nsw
