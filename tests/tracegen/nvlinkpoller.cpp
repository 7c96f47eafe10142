// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkpoller.h"

namespace nsw::tracegen {

NvlinkPoller::NvlinkPoller(Nvf1Writer& writer, int links, qint64 utcEpochNs, qint64 monotonicAtZeroNs,
    std::uint64_t seed, qint64 counterResetAtPoll)
    : m_writer(writer)
    , m_links(links)
    , m_utcEpochNs(utcEpochNs)
    , m_monotonicAtZero(monotonicAtZeroNs)
    , m_resetAt(counterResetAtPoll)
    , m_rng(seed ^ 0x4E564631ULL)
    , m_tx(std::size_t(links), 0)
    , m_rx(std::size_t(links), 0)
{
    // Counters start from whatever the driver accumulated before the recorder started.
    for (int l = 0; l < links; ++l) {
        m_tx[std::size_t(l)] = std::uint64_t(m_rng.range(1000000, 90000000));
        m_rx[std::size_t(l)] = m_tx[std::size_t(l)] + std::uint64_t(m_rng.range(0, 4096));
        m_linkWeight.push_back(int(m_rng.range(780, 960)));
    }
}

void NvlinkPoller::poll(qint64 tNs, double ncclBusy)
{
    if (m_polls == m_resetAt) {
        std::fill(m_tx.begin(), m_tx.end(), 0);
        std::fill(m_rx.begin(), m_rx.end(), 0);
    }
    const qint64 latencyUs = m_rng.range(8, 40);
    Nvf1Record r;
    r.hostTsNs = std::uint64_t(m_monotonicAtZero + tNs + latencyUs * 1000);
    r.timestampUs = m_utcEpochNs / 1000 + tNs / 1000; // as the CCL-Bench tools align: utcEpochNs // 1000 + t
    r.latencyUs = latencyUs;
    for (int l = 0; l < m_links; ++l) {
        const auto li = std::size_t(l);
        auto step = [&](int permille) {
            const double load = ncclBusy * kLinkKiBPerMs * m_linkWeight[li] / 1000.0 * permille / 1000.0;
            return std::uint64_t(load) + std::uint64_t(m_rng.range(0, 24)); // protocol chatter when idle
        };
        m_tx[li] += step(int(m_rng.range(900, 1000)));
        m_rx[li] += step(int(m_rng.range(900, 1000)));
        r.scopeId = std::uint32_t(l);
        r.fieldId = kNvf1FieldTx;
        r.value = m_tx[li];
        m_writer.write(r);
        r.fieldId = kNvf1FieldRx;
        r.value = m_rx[li];
        m_writer.write(r);
    }
    ++m_polls;
}

} // namespace nsw::tracegen
