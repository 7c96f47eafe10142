// SPDX-License-Identifier: GPL-3.0-or-later
// The overlap fixture shared by tst_overlap and tst_temporalbreakdown, device 0 (pid 100), window [0, 600]:
//   compute A [0, 100] stream 7, NCCL N1 [50, 150] stream 9, memcpy [120, 320] stream 3,
//   compute B [300, 400] stream 7, NCCL N2 [500, 600] stream 7 (shares the compute stream).
// C = 200, N = 200, C ∩ N = [50, 100] = 50; memory outside kernels [150, 300] = 150.
// Device 1 has one compute kernel [0, 600] (no NCCL, no memory).
#pragma once

#include "profilebuilder.h"

namespace nsw::test {

inline ProfilePtr overlapFixture()
{
    ProfileBuilder b;
    const ProcessIndex p = b.process(100);
    const ThreadIndex t = b.thread(p, 101);
    b.kernel(t, 0, 1, 0, 100, QStringLiteral("gemm_A"), 0, 7);
    b.kernel(t, 0, 1, 50, 150, QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), 0, 9);
    b.memOp(t, 0, 1, 120, 320, 1, 1000, 0, 3);
    b.kernel(t, 0, 1, 300, 400, QStringLiteral("gemm_B"), 0, 7);
    b.kernel(t, 0, 1, 500, 600, QStringLiteral("ncclKernel_AllGather_RING_LL"), 0, 7);
    b.kernel(t, 0, 1, 0, 600, QStringLiteral("long"), 1, 7);
    return b.build();
}

} // namespace nsw::test
