// SPDX-License-Identifier: GPL-3.0-or-later
#include "timemodes.h"

#include <algorithm>
#include <numeric>

namespace nsw {

QString timeModeName(TimeMode mode)
{
    switch (mode) {
    case TimeMode::Sum:
        return QStringLiteral("sum");
    case TimeMode::Busy:
        return QStringLiteral("busy");
    case TimeMode::Exclusive:
        return QStringLiteral("exclusive");
    case TimeMode::Global:
        return QStringLiteral("g2g");
    }
    return {};
}

std::optional<TimeMode> parseTimeMode(const QString& name)
{
    for (const TimeMode m : kAllTimeModes)
        if (timeModeName(m) == name)
            return m;
    return std::nullopt;
}

QString timeModeDescription(TimeMode mode)
{
    switch (mode) {
    case TimeMode::Sum:
        return QStringLiteral("sum: summed durations (as nsys stats; overlaps count twice)");
    case TimeMode::Busy:
        return QStringLiteral("busy: per category, time with at least one of its rows running, per device, summed");
    case TimeMode::Exclusive:
        return QStringLiteral("exclusive: per device, overlaps credited to the row that started first");
    case TimeMode::Global:
        return QStringLiteral("g2g: over all GPUs together, overlaps credited to the row that started first "
                              "(gputrc2graph)");
    }
    return {};
}

std::vector<TimeNs> GroupTimes::perGroup() const
{
    std::vector<TimeNs> sums(groupCount, 0);
    for (std::size_t d = 0; d < deviceCount; ++d)
        for (std::size_t g = 0; g < groupCount; ++g)
            sums[g] += time[d * groupCount + g];
    return sums;
}

TimeNs GroupTimes::total() const
{
    return std::accumulate(time.begin(), time.end(), TimeNs(0));
}

GroupTimes computeGroupTimes(
    const IntervalColumns& rows, std::size_t deviceCount, std::size_t groupCount, TimeMode mode)
{
    if (mode == TimeMode::Sum)
        return computeGroupTimes(
            rows, DeviceOrder { {}, std::vector<std::size_t>(deviceCount + 1, 0) }, groupCount, mode);
    return computeGroupTimes(rows, sortByDeviceAndStart(rows, deviceCount), groupCount, mode);
}

} // namespace nsw
