// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <algorithm>

namespace nsw {

/// The count, sum, least and greatest of values added one at a time (durations in ns, or sizes in bytes).
struct Tally
{
    qint64 count = 0;
    qint64 total = 0;
    qint64 min = 0; ///< 0 while empty
    qint64 max = 0;

    void add(qint64 value)
    {
        min = count == 0 ? value : std::min(min, value);
        max = count == 0 ? value : std::max(max, value);
        ++count;
        total += value;
    }
    void add(const Tally& other)
    {
        if (other.count == 0)
            return;
        min = count == 0 ? other.min : std::min(min, other.min);
        max = count == 0 ? other.max : std::max(max, other.max);
        count += other.count;
        total += other.total;
    }
    double average() const { return count > 0 ? double(total) / double(count) : 0.0; }
};

} // namespace nsw
