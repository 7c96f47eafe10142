// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/profile/loadtypes.h"
#include "core/reports/reportregistry.h"

#include <QStringList>
#include <vector>

namespace nsw {

/// One `nsys stats` report asked for, with its ":arg" arguments.
struct ReportRequest
{
    const ReportSpec* spec = nullptr;
    QStringList arguments;
    /// Only the rows that overlap it (nsys's range filter, durations not clipped); inactive = the whole capture.
    FocusRange focus;
    /// The memory reports of exports older than the ENUM tables, with nsys 2022.4's names instead of skipped (the
    /// window's Statistics pane; the CLI stays exact to current nsys).
    bool legacyMemcpyNames = false;
};

/// Reports asked for by name ("cuda_gpu_kern_sum:base", old names too), validated, with the tables and kernel
/// columns they need loaded. The CLI's `stats` and the Statistics pane both go through planReports().
struct StatsPlan
{
    std::vector<ReportRequest> reports;
    LoadOptions load;
};

/// Fails (ErrorKind::Usage) on an unknown report or an argument the report does not take.
Result<StatsPlan> planReports(const QStringList& namesWithArguments);

/// Sets the focus of every report of @p plan.
void setFocus(StatsPlan& plan, const FocusRange& focus);

/// Computes every report of @p plan on @p profile, in order; a report without data comes back with `skipped` set.
/// Stops between reports when @p job is cancelled.
Result<std::vector<ReportTable>> computeReports(
    const StatsPlan& plan, const Profile& profile, const JobContext& job = {});

} // namespace nsw
