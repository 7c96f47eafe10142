// SPDX-License-Identifier: GPL-3.0-or-later
// Two hand-worked profiles of the same workload, "before" and "after", with known deltas (all in ns):
//
// before (capture 2 s): NVTX "step" ×2 ([0,1e6), [1e6,2e6)), each with one "layer_N" inside (layer_1, layer_2).
//   gemm<128> 2 × 100,000 (one per layer)   relu 2 × 50,000 (one per layer)
//   old 1 × 40,000 (in step 1, outside its layer)   tail 1 × 10,000 (outside every range)
//   GPU total 350,000 in 6 kernels
// after (capture 4 s): "step" ×3, "layer_1..3" inside.
//   gemm<256> 3 × 150,000 (one per layer)   relu 2 × 50,000 (layers 1, 2)   new 1 × 30,000 (layer 3)
//   tail 1 × 10,000 (outside)   GPU total 590,000 in 7 kernels
// Kernels run one after the other on one stream, so every time mode gives the same category times.
#pragma once

#include "core/categories/rulefile.h"
#include "core/profile/profile.h"

namespace nsw::test {

inline const QString kGemm128 = QStringLiteral("void gemm_kernel<128>(float*)");
inline const QString kGemm256 = QStringLiteral("void gemm_kernel<256>(float*)");
inline const QString kGemmNormalized = QStringLiteral("void gemm_kernel<...>(float*)");
inline const QString kRelu = QStringLiteral("relu_kernel(float*)");
inline const QString kOld = QStringLiteral("old_kernel(int)");
inline const QString kNew = QStringLiteral("new_kernel(int)");
inline const QString kTail = QStringLiteral("tail_kernel(int)");

ProfilePtr beforeProfile();
ProfilePtr afterProfile();

/// {"gemm": "gemm", "relu": "act", ".*": "misc"}: before gemm 200,000 / act 100,000 / misc 50,000; after 450,000 /
/// 100,000 / 40,000.
RuleList fixtureRules();

} // namespace nsw::test
