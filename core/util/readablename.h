// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw {

/// An identifier as a person reads it, for headers and labels whose value shows its own unit: "gpu_busy_ns" →
/// "GPU busy", "idle_pct" → "Idle", "launch_storm_min_kernels" → "Launch storm minimum kernels" (a last word that
/// is a unit, ns, us, ms or pct, is dropped; GPU, NCCL, NVTX, API, PID, CPU in capitals).
QString readableName(const QString& identifier);

} // namespace nsw
