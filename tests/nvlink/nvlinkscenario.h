// SPDX-License-Identifier: GPL-3.0-or-later
// The hand-worked NVLink scenario shared by the NVLink tests. Every expected number follows from these values:
//
// NVF1 recording, two links, six polls 1 ms apart from kT0 (NVML wall µs). Deltas per interval (KiB):
//   link 0 TX: 100, 0, 1000, 0, 0     link 0 RX: 0, 50, 0, 0, 500
//   link 1 TX: 0, 0, 2000, 0, 0       link 1 RX: 10, 10, 10, 10, 10
// Session start utcEpochNs = (kT0 − 10 ms) × 1000 + 123 ns → anchor kT0 − 10,000 µs; recording interval i spans
// session ns [(10 + i) ms, (11 + i) ms).
// Peaks: link 1 TX interval 2 (2,048,000 B / 1 ms = 2.048 GB/s), link 0 TX interval 2 (1.024), link 0 RX interval 4
// (0.512). Summed over links, TX interval 2 = 3000 KiB = 3.072 GB/s.
// Kernels on device 0 (session ns):
//   persistentKernel        0 .. 100,000,000    (covers every interval)
//   ncclDevKernel_AllReduce 11,500,000 .. 13,500,000 (stream 13; covers interval 2)
//   gemm_kernel             12,250,000 .. 12,750,000 (half of interval 2)
//   elementwise_kernel      12,900,000 .. 13,200,000 (last 100 µs of interval 2)
//   before_kernel           11,000,000 .. 12,000,000 (ends where interval 2 starts: no overlap)
//   ncclKernel_SendRecv     14,500,000 .. 16,000,000 (stream 13; second half of interval 4)
// and on device 1: ncclDevKernel_Other 12,000,000 .. 13,000,000.
#pragma once

#include "nvf1bytes.h"
#include "profilebuilder.h"

namespace nsw::test {

constexpr std::int64_t kScenarioT0 = 1700000000000000; // 2023-11-14T22:13:20Z
constexpr qint64 kScenarioSessionStartUtcNs = (kScenarioT0 - 10000) * 1000 + 123;

/// A recording of another NVML session (15 days later): the scenario's recording shifted by this much starts at
/// 1,309,077.770 s of the capture (shift + 10 ms), and overlaps none of it.
constexpr std::int64_t kAnotherSessionShiftUs = 1309077760000;

/// The scenario's recording; @p shiftUs moves every NVML timestamp (a recording of another session).
inline QByteArray scenarioRecording(std::int64_t shiftUs = 0)
{
    Nvf1Builder b;
    const std::uint64_t l0tx[] = { 0, 100, 100, 1100, 1100, 1100 };
    const std::uint64_t l0rx[] = { 0, 0, 50, 50, 50, 550 };
    const std::uint64_t l1tx[] = { 0, 0, 0, 2000, 2000, 2000 };
    const std::uint64_t l1rx[] = { 0, 10, 20, 30, 40, 50 };
    for (int p = 0; p < 6; ++p)
        b.poll(kScenarioT0 + shiftUs + p * 1000, { { l0tx[p], l0rx[p] }, { l1tx[p], l1rx[p] } });
    return b.bytes;
}

inline ProfilePtr scenarioProfile(const QString& fileName = QStringLiteral("scenario.sqlite"))
{
    ProfileBuilder b;
    const ProcessIndex p = b.process(100, QStringLiteral("python"));
    b.kernelWithoutApi(p, 0, 100000000, QStringLiteral("persistentKernel"), 0, 7, 1);
    b.kernelWithoutApi(p, 11500000, 13500000, QStringLiteral("ncclDevKernel_AllReduce"), 0, 13, 2);
    b.kernelWithoutApi(p, 12250000, 12750000, QStringLiteral("gemm_kernel"), 0, 7, 3);
    b.kernelWithoutApi(p, 12900000, 13200000, QStringLiteral("elementwise_kernel"), 0, 7, 4);
    b.kernelWithoutApi(p, 11000000, 12000000, QStringLiteral("before_kernel"), 0, 7, 5);
    b.kernelWithoutApi(p, 14500000, 16000000, QStringLiteral("ncclKernel_SendRecv"), 0, 13, 6);
    b.kernelWithoutApi(p, 12000000, 13000000, QStringLiteral("ncclDevKernel_Other"), 1, 13, 7);
    b.gpu(0, QStringLiteral("NVIDIA A100-SXM4-40GB"), 0);
    b.gpu(1, QStringLiteral("NVIDIA A100-SXM4-40GB"), 1);
    b.profile().meta.sessionStartUtcNs = kScenarioSessionStartUtcNs;
    return b.build(fileName);
}

} // namespace nsw::test
