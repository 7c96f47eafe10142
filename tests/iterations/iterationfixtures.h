// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw::test {

/// Hand-made exports for the iteration tests; every expected number is worked out from these layouts.
///
/// writeMarkerFixture: process 100 (threads 101, 102), process 200 (thread 201); GPUs 0 and 1.
///   NVTX on 101: "iteration 1" [100, 200] (a lower-priority marker), ProfilerStep#0 [1000, 2000] with a nested
///   ProfilerStep#0 [1100, 1200], ProfilerStep#1 [2000, 3000], ProfilerStep#2 a start/end range [3000, 4500]
///   started on 101 and ended on 102, ProfilerStep#3 [4500, 5000], ProfilerStep#7 [2000, 3000] in the "NCCL"
///   domain (a library range), ProfilerStep#4 [6000, unterminated].
///   NVTX on 201: ProfilerStep#0 [1000, 1500] (another process with fewer instances).
///   Kernels (device, start, end, name): K9 0 [500, 1000] fill_kernel, K1 0 [1100, 1300] gemm_a, K2 1 [1200, 1400]
///   gemm_b, K3 0 [1900, 2100] gemm_c, K4 0 [3000, 3000] zero, K5 1 [2900, 4600] nccl_allreduce, K6 0 [4000, 4200]
///   gemm_a,
///   K7 0 [4900, 5000] tail, K8 0 [5000, 5100] after; memcpy 0 [2500, 2600].
/// Iterations [1000, 2000), [2000, 3000), [3000, 4500), [4500, 5000); capture start 100.
///   kernels 4 (K9 K1 K2 K3), 2 (K3 K5), 3 (K4 K5 K6), 2 (K5 K7);
///   GPU busy (union over GPUs, clipped) 400, 300, 1500, 200; idle 600, 700, 0, 300;
///   top kernel fill_kernel (500), nccl_allreduce (1700) x3; top category under vllm/llama gemm (600: gemm_a, _b,
///   _c against elementwise 500 for fill_kernel), nccl_and_custom_ar (1700) x3.
void writeMarkerFixture(const QString& path);

/// No NVTX; kernels on GPU 0 in three bursts:
///   [0, 1000] [1050, 2000] [2100, 3000] | [53000, 54000] [54040, 55000] [55060, 56000] | [116000, 117000]
///   [117080, 118000]. Gaps 50 100 50000 40 60 60000 80: the two long ones split (threshold sqrt(50000 x 100)).
/// Iterations [0, 53000), [53000, 116000), [116000, 118000); busy 2850, 2900, 1920; kernels 3, 3, 2.
void writeGapFixture(const QString& path);

/// No NVTX; two bursts on GPU 0: [0, 1000] [1010, 2000] | [100000, 101000] [101010, 102000]. One long gap only:
/// two stretches of work are no repeating pattern, so no guess.
void writeTwoBurstsFixture(const QString& path);

/// Library-only and nested markers on thread 101 of process 100 (domain 5 "NCCL"):
///   step_1 [1000, 2000] in the NCCL domain, "cub::step_2" [1000, 2000], outer_step [3000, 4000] containing
///   outer_step [3100, 3200], "ncclKernel step_3" [5000, 6000]. Two kernels: [1000, 1500] and [3000, 3500].
void writeLibraryFixture(const QString& path);

} // namespace nsw::test
