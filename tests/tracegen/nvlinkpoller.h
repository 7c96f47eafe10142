// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nvf1writer.h"
#include "random.h"

#include <vector>

namespace nsw::tracegen {

/// Simulates the CCL-Bench recorder polling nvmlDeviceGetFieldValues for TX and RX of every link: cumulative KiB
/// counters that grow at near link speed while NCCL kernels run on the GPU and barely otherwise.
class NvlinkPoller
{
public:
    /// utcEpochNs/monotonicAtZeroNs: wall and monotonic clocks at session time 0.
    NvlinkPoller(Nvf1Writer& writer, int links, qint64 utcEpochNs, qint64 monotonicAtZeroNs, std::uint64_t seed,
        qint64 counterResetAtPoll = -1);

    /// One poll at session time tNs; ncclBusy is the fraction (0..1) of the last interval with NCCL kernels running.
    void poll(qint64 tNs, double ncclBusy);

    qint64 polls() const { return m_polls; }

    /// KiB one link moves per direction in 1 ms at full speed (25 GB/s, H100 NVLink4).
    static constexpr double kLinkKiBPerMs = 25e9 / 1000.0 / 1024.0;

private:
    Nvf1Writer& m_writer;
    int m_links;
    qint64 m_utcEpochNs;
    qint64 m_monotonicAtZero;
    qint64 m_resetAt;
    qint64 m_polls = 0;
    Rng m_rng;
    std::vector<std::uint64_t> m_tx, m_rx;
    std::vector<int> m_linkWeight; // permille of full speed a link reaches under load
};

} // namespace nsw::tracegen
