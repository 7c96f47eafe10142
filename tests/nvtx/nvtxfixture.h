// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QSqlDatabase>
#include <QString>

namespace nsw::test {

/// The hand-worked profile of the NVTX tests (every expected number in the tests is derived from this layout):
///
/// process A (pid 100, domain 5 "NCCL", domain 7 without a create event), process B (pid 200)
/// thread T1 (A, tid 101):
///   R1  step_1      [1000, 2000]
///     R2  forward     [1100, 1500]
///       R3  layer_1     [1150, 1250]
///         R11 domain 7 "x" [1155, 1158]       K1  api [1156,1157]  k_x        [2000,2100]
///                                             K2  api [1200,1210]  gemm       [2100,2300]
///                                             M1  api [1220,1230]  memcpy     [2300,2320]
///       R4  layer_2     [1260, 1400]          K3  api [1300,1310]  gemm       [2300,2350]
///                                             K4  api [1450,1460]  relu       [2350,2400]   (in forward)
///     R5  NCCL:ncclAllReduce [1600, 1700]     K5  api [1650,1660]  nccl_allreduce [2400,2700]
///                                             K6  api [1800,1810]  optimizer  [2700,2750]   (in step_1)
///   mark "marker" at 1120
///   R6  step_2      [3000, 4000]
///     R7  forward     [3100, 3500]
///       R8  layer_1     [3150, 3260]          K7  api [3200,3210]  gemm       [4100,4300]
///                                             K8  api [3600,3610]  optimizer  [4300,4310]   (in step_2)
///   R9  async_io start/end [5000, 5600], ends on T2   K9 api [5100,5110] copy_kernel [5200,5300]
///                                             K10 api [6000,6010]  stray      [6100,6200]   (no range)
///   R10 tail        [7000, unterminated]      K11 api [7100,7110]  final      [7200,7400]
///   mark "end" at 8000 (so the table's maximum timestamp is 8000)
/// thread T2 (A, tid 102):
///   R12 worker      [1000, 1300]              K12 api [1100,1110]  k_worker   [1500,1600]
///                                             K13 api [1400,1410]  late       [1600,1650]   (no range on T2)
/// thread T3 (B, tid 201), correlation ids restart at 1 (the same ids as in A):
///   R13 step_1      [1000, 2000]              K14 api [1500,1510]  gemm       [1600,1900]
///                                             K15 no api           orphan     [3000,3100]
ProfilePtr nvtxFixture();

/// Opens a real export read-only for independent SQL checks (a connection named after the file).
QSqlDatabase openReadOnly(const QString& path);

} // namespace nsw::test
