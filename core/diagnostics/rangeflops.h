// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"

#include <QString>
#include <vector>

namespace nsw {

/// FLOPs (and optionally bytes moved) of one instance of NVTX ranges: the exact name, or with "re:" a regular
/// expression the whole name matches.
struct RangeFlops
{
    QString pattern;
    double flops = 0;
    double bytes = 0; ///< 0: no roofline point for it
};

/// What is wrong with @p range ("FLOPs must be a number > 0", "not a valid regular expression"), or empty.
QString rangeFlopsProblem(const RangeFlops& range);

/// A per-range file: JSON {"name": flops, "re:pattern": {"flops": F, "bytes": B}, ...} (an object's keys in name order,
/// as JSON objects keep them). Input errors name the file.
Result<std::vector<RangeFlops>> loadRangeFlops(const QString& path);
/// Writes @p ranges as the file loadRangeFlops() reads, atomically (the old file stays whole until the new one is
/// complete). Refuses a target that is not a regular file (a device, a FIFO, a folder), an existing file that is not
/// such a file (a trace, a rule file), a range twice, and a range rangeFlopsProblem() finds wrong; errors name the
/// file.
Status saveRangeFlops(const QString& path, const std::vector<RangeFlops>& ranges);

} // namespace nsw
