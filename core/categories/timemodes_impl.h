// SPDX-License-Identifier: GPL-3.0-or-later
// The templates declared in timemodes.h (included at its end).
#pragma once

#include "core/util/mergeruns.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

namespace nsw {

template <typename Rows> DeviceOrder sortByDeviceAndStart(const Rows& rows, std::size_t deviceCount)
{
    DeviceOrder result;
    result.deviceBegin.assign(deviceCount + 1, 0);
    for (std::size_t i = 0; i < rows.size(); ++i)
        ++result.deviceBegin[rows.deviceOf(i) + 1];
    std::partial_sum(result.deviceBegin.begin(), result.deviceBegin.end(), result.deviceBegin.begin());
    result.order.resize(rows.size());
    std::vector<std::size_t> fill(result.deviceBegin.begin(), result.deviceBegin.end() - 1);
    for (std::size_t i = 0; i < rows.size(); ++i)
        result.order[fill[rows.deviceOf(i)]++] = std::uint32_t(i);

    // Within a device the rows are in index order; exports list each table (nearly) by start, so the bucket is a
    // few ascending runs. Merging runs pairwise is stable, which keeps the index order on equal starts.
    const auto byStart = [&](std::uint32_t a, std::uint32_t b) { return rows.startOf(a) < rows.startOf(b); };
    for (std::size_t d = 0; d < deviceCount; ++d) {
        auto first = result.order.begin() + std::ptrdiff_t(result.deviceBegin[d]);
        auto last = result.order.begin() + std::ptrdiff_t(result.deviceBegin[d + 1]);
        std::vector<std::ptrdiff_t> runs { 0 };
        for (auto it = first + (first == last ? 0 : 1); it < last; ++it)
            if (byStart(*it, *(it - 1)))
                runs.push_back(it - first);
        if (runs.size() > 256) {
            std::stable_sort(first, last, byStart);
            continue;
        }
        runs.push_back(last - first);
        while (runs.size() > 2) {
            std::vector<std::ptrdiff_t> merged { 0 };
            for (std::size_t r = 0; r + 1 < runs.size(); r += 2) {
                if (r + 2 < runs.size()) {
                    std::inplace_merge(first + runs[r], first + runs[r + 1], first + runs[r + 2], byStart);
                    merged.push_back(runs[r + 2]);
                } else {
                    merged.push_back(runs[r + 1]);
                }
            }
            runs = std::move(merged);
        }
    }
    return result;
}

template <typename Rows, typename Visit>
void forEachByStart(const Rows& rows, const DeviceOrder& byDevice, Visit&& visit)
{
    // Each device's rows are in start order: merged by (start, device), and rows of one device come in index order,
    // so ties end up by index.
    std::vector<PositionRun> devices;
    for (std::size_t d = 0; d + 1 < byDevice.deviceBegin.size(); ++d)
        devices.push_back({ byDevice.deviceBegin[d], byDevice.deviceBegin[d + 1] });
    forEachMerged(
        std::span<const PositionRun>(devices), [&](std::size_t p) { return rows.startOf(byDevice.order[p]); },
        [&](std::size_t p, TimeNs) { visit(byDevice.order[p]); });
}

template <typename Rows>
GroupTimes computeGroupTimes(const Rows& rows, const DeviceOrder& byDevice, std::size_t groupCount, TimeMode mode)
{
    const std::size_t deviceCount = byDevice.deviceBegin.size() - 1;
    GroupTimes result;
    result.deviceCount = deviceCount;
    result.groupCount = groupCount;
    result.time.assign(deviceCount * groupCount, 0);
    result.count.assign(deviceCount * groupCount, 0);
    const auto endOf = [&](std::size_t i) { return std::max(rows.endOf(i), rows.startOf(i)); };
    const auto slotOf = [&](std::size_t i) { return rows.deviceOf(i) * groupCount + rows.groupOf(i); };
    for (std::size_t i = 0; i < rows.size(); ++i)
        ++result.count[slotOf(i)];
    constexpr TimeNs kNever = std::numeric_limits<TimeNs>::min();

    switch (mode) {
    case TimeMode::Sum:
        for (std::size_t i = 0; i < rows.size(); ++i)
            result.time[slotOf(i)] += endOf(i) - rows.startOf(i);
        break;
    case TimeMode::Global: {
        TimeNs running = kNever;
        forEachByStart(rows, byDevice, [&](std::uint32_t i) {
            const TimeNs e = endOf(i);
            if (e > running) {
                result.time[slotOf(i)] += e - std::max(rows.startOf(i), running);
                running = e;
            }
        });
        break;
    }
    case TimeMode::Busy:
    case TimeMode::Exclusive: {
        const bool busy = mode == TimeMode::Busy;
        std::vector<TimeNs> running(busy ? groupCount : 1);
        for (std::size_t d = 0; d < deviceCount; ++d) {
            std::fill(running.begin(), running.end(), kNever);
            for (std::size_t p = byDevice.deviceBegin[d]; p < byDevice.deviceBegin[d + 1]; ++p) {
                const std::uint32_t i = byDevice.order[p];
                const std::uint32_t g = rows.groupOf(i);
                TimeNs& r = running[busy ? g : 0];
                const TimeNs e = endOf(i);
                if (e > r) {
                    result.time[d * groupCount + g] += e - std::max(rows.startOf(i), r);
                    r = e;
                }
            }
        }
        break;
    }
    }
    return result;
}

} // namespace nsw
