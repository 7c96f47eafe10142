// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QString>
#include <array>
#include <span>
#include <vector>

namespace nsw {

/// What a thread was doing when it was sampled, in the three words of the thread-state view.
enum class SampleActivity : std::uint8_t
{
    Running, ///< on a CPU, in its own code
    OsRuntime, ///< in an OS runtime call (ENUM_SAMPLING_THREAD_STATE 8, or a running sample inside an OSRT_API call)
    Waiting, ///< any other known state (interruptible, uninterruptible, stopped, waiting...)
    Unknown, ///< state 0 or NULL
};
inline constexpr int kSampleActivityCount = 4;
QString sampleActivityName(SampleActivity activity); ///< "running", "OS runtime", "waiting", "unknown"

/// Per thread, per time bin, the selected samples by activity: the share of each over time.
struct ThreadStateBins
{
    TimeNs start = 0; ///< of the first bin
    TimeNs binNs = 1;
    struct Row
    {
        ThreadIndex thread = kNoIndex;
        qint64 samples = 0;
        std::vector<std::array<std::uint32_t, kSampleActivityCount>> bins;
    };
    std::vector<Row> rows; ///< threads with selected samples, most samples first
};

/// Bins [start, end) into @p bins equal bins (at least 1 ns each) and counts @p rows (CpuSamples rows) in them.
ThreadStateBins threadStateBins(
    const Profile& profile, std::span<const std::uint32_t> rows, TimeNs start, TimeNs end, int bins);

} // namespace nsw
