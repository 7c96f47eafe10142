// SPDX-License-Identifier: GPL-3.0-or-later
// Output of the CCL-Bench NVLink tools (analyze_nvlink_throughput.py, correlate_nsys_nvlink.py, tools/main.py),
// reproduced key for key and value for value so that scripts reading their JSON keep working.
#pragma once

#include "core/nvlink/clockalignment.h"
#include "core/nvlink/kernelspans.h"
#include "core/nvlink/nvlinkanalysis.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

namespace nsw {

using OrderedJson = nlohmann::ordered_json;

/// Python's json.dumps(value, indent=@p indent): ", "/": " separators, ensure_ascii escapes (\uXXXX, lower-case
/// hex), floats as repr() ("1779782390176752.5", "1e-05"), NaN/Infinity. No trailing newline.
std::string pythonJsonDumps(const OrderedJson& value, int indent = 2);

/// "YYYY-MM-DDTHH:MM:SS.mmmZ" of epoch µs, as datetime.utcfromtimestamp(us / 1e6) then strftime and [:-3].
QString cclTimestampIso(qint64 wallUs);

/// max_throughput: {max_throughput_gbps, link_id, direction, timestamp_us, interval_duration_us, interval_bytes}.
OrderedJson cclMaxThroughput(const std::vector<const ThroughputSeries*>& series);
/// avg_throughput: {avg_throughput_gbps, total_duration_us, num_intervals, num_active_intervals}.
OrderedJson cclAvgThroughput(const std::vector<const ThroughputSeries*>& series);
/// total_communication: {total_bytes = (rx + tx) // 2, total_gb, rx_bytes, tx_bytes}, or only the first two when a
/// direction was filtered.
OrderedJson cclTotalCommunication(const std::vector<const ThroughputSeries*>& series, bool directionFiltered);

struct CclPeakOptions
{
    std::size_t top = 1;
    bool ncclOnly = false;
    /// GB/s per percent of peak, to report nsys GPU-metric series (percent of peak) in GB/s; NaN = unknown.
    double gbpsPerPercent = std::numeric_limits<double>::quiet_NaN();
};

/// One peak interval {start_us, end_us, duration_us, throughput_gbps, bytes_transferred, link_id, direction,
/// timestamp_iso}; link_id is null for sums over links.
OrderedJson cclInterval(const ThroughputSeries& series, std::size_t interval, const ClockAlignment& alignment,
    const CclPeakOptions& options = {});

/// The kernels overlapping [startUs, endUs) (NVML wall µs) as correlate_nsys_nvlink.py lists them: kernel times
/// anchor + ns / 1000 in doubles, overlap clipped, sorted by overlap (longest first, stable over start order).
/// @p integralBounds: the bounds are the tool's integer µs (NVF1), so a fully covered interval's overlap is an int.
OrderedJson cclKernelsInInterval(const KernelOverlapIndex& kernels, const ClockAlignment& alignment, double startUs,
    double endUs, bool integralBounds, bool ncclOnly);

/// peak_kernels: {peak_interval, kernels, num_kernels, num_nccl_kernels} when top == 1, else
/// {peaks: [{interval, kernels, num_kernels, num_nccl_kernels}], num_peaks}. @p peaks are topIntervals() of
/// @p series; with none, the tool's {"peak_interval": null, "kernels": [], "error": ...}.
OrderedJson cclPeakKernels(const std::vector<const ThroughputSeries*>& series, const std::vector<IntervalRef>& peaks,
    const KernelOverlapIndex& kernels, const ClockAlignment& alignment, const CclPeakOptions& options);
/// The tool's error objects ("No NVLink intervals found after filtering", "No kernels found for GPU 0"...).
OrderedJson cclPeakError(const QString& message);

} // namespace nsw
