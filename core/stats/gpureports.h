// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/profile.h"
#include "core/stats/kernelindex.h"
#include "core/stats/reporttable.h"

namespace nsw {

/// nsys's cuda_gpu_sum (2022: gpusum): kernels (by name in @p mode, category CUDA_KERNEL) and memory operations (by
/// operation name, MEMORY_OPER) in one summary, grouped by the name's text, sorted by total descending; equal totals
/// in name order (SQLite's GROUP BY). @p requireEnum: skipped, as current nsys does, when the export has copies but
/// no ENUM_CUDA_MEMCPY_OPER table (false for the window's legacy-names view).
ReportTable cudaGpuSum(
    const Profile& profile, KernelNameMode mode, const FocusRange& focus = {}, bool requireEnum = true);

/// nsys's cuda_gpu_trace (gputrace): every kernel, memcpy and memset by start time (equal starts: kernels, copies,
/// memsets, each in table order). Sizes in MB (10^6 bytes) and throughput in MB/s, 3 decimals; throughput is
/// bytes * (10^9 / duration) with nsys's integer division. Its rows are made on demand and read @p profile.
ReportTable cudaGpuTrace(const Profile& profile, const FocusRange& focus = {});

/// nsys's cuda_api_gpu_sum (2022: apigpusum) as nsys 2022.4 computes it: CUDA API calls (CUDA_API, names without
/// their "_v" version suffix), kernels (CUDA_KERNEL, by name in @p mode) and memory operations (MEMORY_OPER, copies
/// named from nsys 2022.4's own list, so exports without the ENUM tables are read too) in one summary grouped by the
/// name's text, sorted by total descending; equal totals in name order.
ReportTable cudaApiGpuSum(const Profile& profile, KernelNameMode mode, const FocusRange& focus = {});

/// nsys 2022.4's name of a copy kind ("[CUDA memcpy HtoD]", its MemcpyOperStrs list, by ENUM_CUDA_MEMCPY_OPER id);
/// empty for an id outside the list.
QString nsys2022MemcpyName(std::uint8_t copyKind);

/// bytes * (1000000000 / duration) in MB/s as SQLite computes it in nsys's reports: integer division, NULL for a
/// zero duration, a REAL when the product overflows 64 bits.
ReportValue throughputMBps(qint64 bytes, TimeNs duration);

/// nsys's names of ENUM_CUDA_MEM_KIND ids (the same in its 2022.4 list and in the ENUM table's labels); empty for
/// an id it does not know.
QString memKindName(std::uint8_t kind);

} // namespace nsw
