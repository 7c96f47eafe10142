// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"
#include "core/jobs/result.h"
#include "core/profile/loadtypes.h"
#include "core/profile/scantask.h"

#include <QString>
#include <functional>
#include <optional>
#include <vector>

namespace nsw {

/// Where a load is: @p stage ("Reading kernels 1.2M/4.0M") and @p fraction 0..1 of the scans' share of the load.
using ScanProgress = std::function<void(const QString& stage, double fraction)>;

/// Reads every task on `options.threads` workers (NSW_LOAD_THREADS, else one per core; never more than the tasks),
/// each with its own read-only connection to @p path, largest chunks first. @p stop stops them all: the caller's
/// cancel, or the first scan that fails (which cancels it). Progress goes to @p report on the calling thread from
/// 0.03 to 0.90. Returns the first failure: an exception a worker threw, a connection that did not open, a scan's
/// error in table order; none when every task was read. (After a cancel the caller reports the cancel instead.)
std::optional<Error> runScans(const QString& path, const std::vector<ScanTask*>& tasks, const LoadOptions& options,
    CancelToken& stop, const ScanProgress& report);

} // namespace nsw
