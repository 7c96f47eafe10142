// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/profile/intervals.h"

#include <map>

namespace nsw {

/// Per device, the unions of its compute (non-NCCL) kernels, NCCL kernels and memory operations that overlap the
/// focus, clipped to the window.
struct DeviceUnions
{
    IntervalUnion compute;
    IntervalUnion nccl;
    IntervalUnion memory;
};

std::map<int, DeviceUnions> deviceUnions(const AnalysisContext& context, const JobContext& job = {});

} // namespace nsw
