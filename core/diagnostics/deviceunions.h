// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/profile/intervals.h"

#include <functional>

namespace nsw {

/// Per device, the unions of its compute (non-NCCL) kernels, NCCL kernels and memory operations that overlap the
/// focus, clipped to the window.
struct DeviceUnions
{
    IntervalUnion compute;
    IntervalUnion nccl;
    IntervalUnion memory;
};

/// Calls @p visit(device, unions) for each device with kernels or memory operations that overlap the focus, in
/// ascending device order. One device's unions are built at a time and freed before the next device's: the 4M-kernel
/// export's operations of every device at once took 85 MB.
void forEachDeviceUnions(const AnalysisContext& context, const JobContext& job,
    const std::function<void(int device, const DeviceUnions& unions)>& visit);

} // namespace nsw
