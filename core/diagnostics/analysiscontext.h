// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnosticstypes.h"
#include "core/jobs/jobcontext.h"

#include <vector>

namespace nsw {

/// What the diagnostics analyses share, computed once per request: the window they look at, which GPU each kernel
/// and memory operation ran on, which kernels are NCCL's, and what each CUDA API name is.
struct AnalysisContext
{
    ProfilePtr profile;
    FocusRange focus; ///< inactive: the whole capture
    /// The window occupancy measures are clipped to: the focus when active, else the capture span.
    TimeNs windowStart = 0;
    TimeNs windowEnd = 0;
    std::vector<DiagnosticsDevice> devices; ///< by key, ascending
    std::vector<int> kernelDevice; ///< per kernel row: DiagnosticsDevice::key
    std::vector<int> memOpDevice; ///< per memory operation row
    /// Per kernel row: 1 when its demangled (or short) name contains "nccl", case-insensitive.
    std::vector<char> kernelIsNccl;
    /// Per kernel row: 1 when it overlaps the focus (FocusRange::overlaps; all 1 without a focus).
    std::vector<char> kernelInFocus;
    std::vector<char> memOpInFocus;
    /// Per CUDA API row: its ApiKind flags.
    std::vector<std::uint8_t> apiKind;

    TimeNs windowDuration() const { return windowEnd - windowStart; }
    const QString& deviceLabel(int key) const;
    /// The kernel's demangled name (its short name when the demangled one is missing).
    const QString& kernelName(std::size_t row) const;
    StringRef kernelNameRef(std::size_t row) const;
    bool apiInFocus(std::size_t row) const;
};

/// What a CUDA API call does, from its name (runtime `cuda*` and driver `cu*`, version suffixes such as `_v3020`
/// ignored).
enum ApiKind : std::uint8_t
{
    ApiSync = 1, ///< blocks the host on the GPU: device/stream/event/context synchronize, blocking memcpy/memset
    ApiWait = 2, ///< cudaStreamWaitEvent / cuStreamWaitEvent (a GPU-side wait; counted with the sync calls)
    ApiMemory = 4, ///< memcpy or memset, async or not
    ApiLaunch = 8, ///< kernel or graph launch
};
std::uint8_t apiKindOf(const QString& name);

/// Builds the context; a cancelled @p job leaves it partly filled (callers check the token).
AnalysisContext makeAnalysisContext(
    const ProfilePtr& profile, const FocusRange& focus = {}, const JobContext& job = {});

} // namespace nsw
