// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <map>
#include <utility>

namespace nsw {

/// Profile::gpuKey of kernel and memory-operation rows, for passes over millions of them: consecutive rows mostly
/// share their GPU, and each distinct (process, ordinal) pair is looked up once.
class GpuKeyOfRow
{
public:
    explicit GpuKeyOfRow(const Profile& p)
        : m_profile(p)
    { }

    int operator()(ProcessIndex process, int ordinal);
    int operator()(const GpuActivityColumns& t, std::size_t row)
    {
        // A load of fewer columns (the `stats` command) leaves process and device empty.
        return (*this)(row < t.process.size() ? t.process[row] : kNoIndex, row < t.device.size() ? t.device[row] : 0);
    }

    /// Every (process, ordinal) pair met so far, with its key.
    const std::map<std::pair<ProcessIndex, int>, int>& seen() const { return m_keyOf; }

private:
    const Profile& m_profile;
    std::map<std::pair<ProcessIndex, int>, int> m_keyOf;
    bool m_haveLast = false; ///< the ordinal of a damaged row is -1, a key like any other
    std::pair<ProcessIndex, int> m_lastPair;
    int m_lastKey = 0;
};

} // namespace nsw
