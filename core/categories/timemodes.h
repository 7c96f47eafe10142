// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace nsw {

/// How GPU time is counted when rows overlap. Charts and exports always say which one they use.
enum class TimeMode : std::uint8_t
{
    Sum, ///< sum of durations (nsys stats, HTA)
    Busy, ///< per group, the union of its rows on each device, summed over devices
    Exclusive, ///< per device, rows by start; each is credited with the part past the running end (sums to busy time)
    Global ///< "g2g": the same sweep over all devices together, as gputrc2graph.py computes it
};

inline constexpr TimeMode kAllTimeModes[] = { TimeMode::Sum, TimeMode::Busy, TimeMode::Exclusive, TimeMode::Global };

/// "sum", "busy", "exclusive", "g2g".
QString timeModeName(TimeMode mode);
std::optional<TimeMode> parseTimeMode(const QString& name);
/// One line for chart axes and exports, e.g. "exclusive GPU time (per device, overlaps credited to the row that
/// started first)".
QString timeModeDescription(TimeMode mode);

/// Rows to measure, as parallel columns. device and group are dense indexes (0..deviceCount-1, 0..groupCount-1).
struct IntervalColumns
{
    std::vector<TimeNs> start;
    std::vector<TimeNs> end;
    std::vector<std::uint32_t> device;
    std::vector<std::uint32_t> group;
    std::size_t size() const { return start.size(); }
    TimeNs startOf(std::size_t i) const { return start[i]; }
    TimeNs endOf(std::size_t i) const { return end[i]; }
    std::uint32_t deviceOf(std::size_t i) const { return device[i]; }
    std::uint32_t groupOf(std::size_t i) const { return group[i]; }
};

/// Time per (device, group) in one mode: index device * groupCount + group.
struct GroupTimes
{
    std::size_t deviceCount = 0;
    std::size_t groupCount = 0;
    std::vector<TimeNs> time;
    std::vector<std::int64_t> count;
    TimeNs at(std::size_t device, std::size_t group) const { return time[device * groupCount + group]; }
    /// Summed over devices.
    std::vector<TimeNs> perGroup() const;
    TimeNs total() const;
};

/// The time-mode computation (also used by the comparison). Rows may come in any order; ties on start are broken
/// by device, then row index, so the result is deterministic. A row whose end is before its start counts as empty.
/// For Exclusive and Global the per-group times add up to the union of all rows (per device, resp. overall);
/// Global attributes each row's credit to the row's own device.
GroupTimes computeGroupTimes(
    const IntervalColumns& rows, std::size_t deviceCount, std::size_t groupCount, TimeMode mode);

/// Row indexes sorted by (device, start, index), with the first position of each device (deviceCount + 1 entries).
struct DeviceOrder
{
    std::vector<std::uint32_t> order;
    std::vector<std::size_t> deviceBegin;
};

// The functions below take any rows that answer size(), startOf(i), endOf(i), deviceOf(i) and groupOf(i), as
// IntervalColumns does: the category timeline reads a profile's kernels and memory operations in place through them
// (a copy of every row's times, device and name took 96 MB on the 4M-kernel export). timemodes_impl.h defines them.

template <typename Rows> DeviceOrder sortByDeviceAndStart(const Rows& rows, std::size_t deviceCount);
/// Calls @p visit(row) for every row by (start, device, index) over all devices: a streaming merge of the per-device
/// runs of @p byDevice, without an order of its own.
template <typename Rows, typename Visit>
void forEachByStart(const Rows& rows, const DeviceOrder& byDevice, Visit&& visit);
/// computeGroupTimes() with the per-device order already made.
template <typename Rows>
GroupTimes computeGroupTimes(const Rows& rows, const DeviceOrder& byDevice, std::size_t groupCount, TimeMode mode);

} // namespace nsw

#include "core/categories/timemodes_impl.h"
