// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"
#include "core/stats/kernelindex.h"
#include "core/stats/reporttable.h"

#include <QStringList>
#include <vector>

namespace nsw {

ReportTable cudaGpuKernSum(const Profile& profile, KernelNameMode mode);
ReportTable cudaApiSum(const Profile& profile);
ReportTable cudaGpuMemTimeSum(const Profile& profile);
ReportTable cudaGpuMemSizeSum(const Profile& profile);
ReportTable osrtSum(const Profile& profile);

/// nsys's API name cleanup: a trailing "_v" + 4 characters (e.g. "_v7000", "_v3020") is a CUDA version tag.
QString apiReportName(const QString& name);

} // namespace nsw
