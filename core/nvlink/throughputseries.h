// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profile/profile.h"

#include <QString>
#include <cstdint>
#include <vector>

namespace nsw {

enum class LinkDirection : std::uint8_t
{
    Tx,
    Rx
};
/// "TX" / "RX", as the ccl-bench tools name directions.
QString directionLabel(LinkDirection direction);

enum class ThroughputUnit : std::uint8_t
{
    GBps, ///< bytes per interval are known (NVML counters): decimal GB/s
    PercentOfPeak ///< nsys GPU metrics: percent of the link bandwidth
};

/// link value of a series that covers every link of the GPU.
inline constexpr int kAllLinks = -1;

/// One NVLink throughput series, whatever its source (NVF1 counters or nsys GPU_METRICS): the samples of one GPU,
/// one link (or all links) and one direction. Interval i spans [time[i], time[i+1]). Times are ns relative to the
/// series' own origin; a ClockAlignment gives the shift onto the export's session timeline.
struct ThroughputSeries
{
    int gpu = -1; ///< NVML index for NVF1 (as chosen by the user), nsys GPU id for GPU_METRICS
    int link = kAllLinks;
    LinkDirection direction = LinkDirection::Tx;
    ThroughputUnit unit = ThroughputUnit::GBps;
    /// Wall-clock µs (NVML timestamps) of time 0; only meaningful for NVF1 series.
    qint64 originUs = 0;
    std::vector<TimeNs> time; ///< sample points, non-decreasing
    std::vector<qint64> bytes; ///< GBps: bytes moved in interval i
    std::vector<float> percent; ///< PercentOfPeak: value of interval i
    std::vector<std::uint32_t> resets; ///< intervals whose counter went backwards (counted as 0 bytes)

    std::size_t intervalCount() const { return time.size() < 2 ? 0 : time.size() - 1; }
    TimeNs duration(std::size_t i) const { return time[i + 1] - time[i]; }
    /// Wall-clock µs of sample i (exact for NVF1, whose times are whole µs).
    qint64 wallUs(std::size_t i) const { return originUs + time[i] / 1000; }
    /// GB/s of interval i computed exactly as the ccl-bench tools do (bytes × 1e6 / µs / 1e9); 0 for empty intervals.
    double gbps(std::size_t i) const
    {
        const TimeNs d = duration(i);
        return d <= 0 ? 0.0 : double(bytes[i]) * 1e6 / (double(d) / 1000.0) / 1e9;
    }
    /// The value in the series' own unit (GB/s or percent).
    double value(std::size_t i) const { return unit == ThroughputUnit::GBps ? gbps(i) : double(percent[i]); }
    QString label() const;
    std::size_t memoryBytes() const;
};

} // namespace nsw
