// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "exportwriter.h"

namespace nsw::tracegen {

/// The process whose unified memory, OpenMP and OpenACC activity hpcactivity writes.
struct HpcProcess
{
    qint64 pid = 0;
    int device = 0; ///< CUDA device of its migrations and GPU page faults
    qint64 contextId = 1;
    qint64 streamId = 7;
};

struct HpcStats
{
    qint64 cpuPageFaults = 0;
    qint64 gpuPageFaults = 0;
    qint64 migrations = 0; ///< CUPTI_ACTIVITY_KIND_MEMCPY rows of copy kinds 11 and 12
    qint64 openmpEvents = 0;
    qint64 openaccEvents = 0;
};

/// The unified memory, OpenMP and OpenACC tables (nsys creates every OpenMP table once OpenMP is traced, most of
/// them empty).
bool isHpcActivityTable(const QString& table);

/// Writes what a CUDA program with managed memory, OpenMP host threads and OpenACC regions leaves in an export,
/// between @p start and @p end: CPU and GPU page faults on a few managed buffers (repeated addresses, unresolved
/// instructions), the host-to-device and device-to-host migrations they cause (a prefetch without faults, an instant
/// one, equal throughputs), OpenMP thread, parallel, loop, barrier (one name in two tables), task and mutex events
/// on four threads, and OpenACC launch, data and other events (some without a source file). Only the tables and
/// columns the export's version has are written. Deterministic for a given @p seed.
HpcStats writeHpcActivity(ExportWriter& w, const HpcProcess& process, qint64 start, qint64 end, quint64 seed);

} // namespace nsw::tracegen
