// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/profile.h"
#include "core/stats/kernelindex.h"
#include "core/stats/reporttable.h"

#include <QStringList>
#include <vector>

namespace nsw {

/// With an active @p focus, only the rows that overlap it count (FocusRange::overlaps, durations not clipped: nsys's
/// range filter).
ReportTable cudaGpuKernSum(const Profile& profile, KernelNameMode mode, const FocusRange& focus = {});
ReportTable cudaApiSum(const Profile& profile, const FocusRange& focus = {});
ReportTable cudaGpuMemTimeSum(const Profile& profile, const FocusRange& focus = {});
ReportTable cudaGpuMemSizeSum(const Profile& profile, const FocusRange& focus = {});
/// cuda_gpu_mem_time_sum / cuda_gpu_mem_size_sum (@p reportName) for an export without ENUM_CUDA_MEMCPY_OPER, which
/// nsys stats now refuses: computed all the same, with nsys 2022.4's copy-kind names ("[CUDA memcpy HtoD]") and a
/// note saying so. For the window's Statistics pane; `stats` stays exact to nsys. cuda_gpu_sum (its ":base" /
/// ":mangled" @p arguments) the same way; any other report comes back skipped.
ReportTable legacyMemOpReport(
    const QString& reportName, const Profile& p, const FocusRange& focus = {}, const QStringList& arguments = {});

ReportTable osrtSum(const Profile& profile, const FocusRange& focus = {});

/// nsys's API name cleanup: a trailing "_v" + 4 characters (e.g. "_v7000", "_v3020") is a CUDA version tag.
QString apiReportName(const QString& name);

} // namespace nsw
