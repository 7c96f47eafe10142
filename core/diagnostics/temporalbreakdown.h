// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/deviceunions.h"

namespace nsw {

/// Where one GPU's window went (HTA's temporal breakdown): every instant counted once, as compute when a non-NCCL
/// kernel runs, else communication when an NCCL kernel runs, else memory when a memcpy/memset runs, else idle. The
/// four add up to the window.
struct DeviceTimeBreakdown
{
    int device = -1;
    TimeNs spanNs = 0;
    TimeNs computeNs = 0;
    TimeNs communicationNs = 0;
    TimeNs memoryNs = 0;
    TimeNs idleNs = 0;
};

std::vector<DeviceTimeBreakdown> computeTemporalBreakdown(const AnalysisContext& context, const JobContext& job = {});
/// One device's breakdown from its unions (runDiagnostics shares them with the overlap).
DeviceTimeBreakdown deviceTimeBreakdown(const AnalysisContext& context, int device, const DeviceUnions& unions);

} // namespace nsw
