// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnosticstypes.h"
#include "core/jobs/jobcontext.h"
#include "core/profile/indexcolumn.h"
#include "core/profile/timezones.h"

#include <memory>
#include <span>
#include <vector>

namespace nsw {

/// What the analyses know of every row whatever the focus, built once per profile (Profile::derived): which GPU
/// each kernel and memory operation ran on, which kernels are NCCL's, and what each CUDA API call does.
struct AnalysisRows
{
    std::vector<DiagnosticsDevice> devices; ///< by key, ascending
    /// Per kernel row: DiagnosticsDevice::key (a byte a row while the keys are small: 4 MB, not 16, for 4M kernels).
    IndexColumn<std::int32_t> kernelDevice;
    IndexColumn<std::int32_t> memOpDevice; ///< per memory operation row
    /// Per kernel row: 1 when its demangled (or short) name contains "nccl", case-insensitive.
    std::vector<char> kernelIsNccl;
    /// Per CUDA API row: its ApiKind flags.
    std::vector<std::uint8_t> apiKind;
};

/// What the diagnostics analyses share, computed once per request: the window they look at, and the profile's
/// AnalysisRows and zone maps, through which each analysis visits only the rows that overlap the focus. The
/// analyses take a context made of a profile (makeAnalysisContext with one; runDiagnostics refuses a request
/// without), so they do not check `profile` for null.
struct AnalysisContext
{
    ProfilePtr profile;
    FocusRange focus; ///< inactive: the whole capture
    /// The window occupancy measures are clipped to: the focus when active, else the capture span.
    TimeNs windowStart = 0;
    TimeNs windowEnd = 0;
    std::span<const DiagnosticsDevice> devices; ///< AnalysisRows::devices
    IndexColumn<std::int32_t> kernelDevice; ///< AnalysisRows::kernelDevice (shares its storage)
    IndexColumn<std::int32_t> memOpDevice;
    std::span<const char> kernelIsNccl;
    std::span<const std::uint8_t> apiKind;
    std::shared_ptr<const AnalysisRows> rows; ///< what the spans above look into
    std::shared_ptr<const ProfileTimeZones> zones;

    TimeNs windowDuration() const { return windowEnd - windowStart; }
    /// The kernel's demangled name (its short name when the demangled one is missing).
    StringRef kernelNameRef(std::size_t row) const;

    /// Calls @p f(row) for each kernel, memory operation or CUDA API call that overlaps the focus (every row when
    /// there is none), in row order.
    template <class F> void forEachKernel(F&& f) const
    {
        zones->kernels.forEachOverlapping(focus, profile->kernels.start, profile->kernels.end, f);
    }
    template <class F> void forEachMemOp(F&& f) const
    {
        zones->memops.forEachOverlapping(focus, profile->memops.start, profile->memops.end, f);
    }
    template <class F> void forEachApiCall(F&& f) const
    {
        zones->cudaApi.forEachOverlapping(focus, profile->cudaApi.start, profile->cudaApi.end, f);
    }
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

/// Builds the context (the profile's AnalysisRows and zone maps on first use); a cancelled @p job leaves it without
/// rows (callers check the token).
AnalysisContext makeAnalysisContext(
    const ProfilePtr& profile, const FocusRange& focus = {}, const JobContext& job = {});

} // namespace nsw
