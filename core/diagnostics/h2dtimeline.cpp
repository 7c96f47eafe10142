// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/h2dtimeline.h"

#include <algorithm>

namespace nsw {

namespace {

/// The smallest of 1, 2, 5 x 10^k at least @p minimum.
TimeNs roundWidth(TimeNs minimum)
{
    for (TimeNs decade = 1;; decade *= 10)
        for (TimeNs step : { 1, 2, 5 })
            if (step * decade >= minimum)
                return step * decade;
}

bool toDevice(std::uint8_t copyKind)
{
    return copyKind == 1 || copyKind == 3 || copyKind == 11;
}

} // namespace

H2dTimeline computeH2dTimeline(const AnalysisContext& c, int maxBins, const JobContext& job)
{
    H2dTimeline out;
    if (c.windowEnd <= c.windowStart || maxBins < 1)
        return out;
    const Profile& p = *c.profile;
    out.binNs = roundWidth((c.windowDuration() + maxBins - 1) / maxBins);
    for (TimeNs s = c.windowStart; s < c.windowEnd; s += out.binNs) {
        H2dBin& bin = out.bins.emplace_back();
        bin.start = s;
        bin.end = std::min(s + out.binNs, c.windowEnd);
    }
    c.forEachKernel([&](std::size_t i) {
        const TimeNs s = std::max(p.kernels.start[i], c.windowStart);
        out.firstKernel = out.firstKernel == kNoTime ? s : std::min(out.firstKernel, s);
    });
    if (job.isCancelled())
        return out;
    const MemOpTable& m = p.memops;
    c.forEachMemOp([&](std::size_t i) {
        const std::uint8_t kind = i < m.copyKind.size() ? m.copyKind[i] : MemOpTable::kMemset;
        if (!toDevice(kind) || m.start[i] < c.windowStart || m.start[i] >= c.windowEnd)
            return;
        const qint64 bytes = i < m.bytes.size() ? m.bytes[i] : 0;
        H2dBin& bin = out.bins[std::size_t((m.start[i] - c.windowStart) / out.binNs)];
        bin.copies.add(bytes);
        bin.migrationBytes += MemOpTable::isPageMigration(kind) ? bytes : 0;
        const bool initial = out.firstKernel == kNoTime || m.start[i] < out.firstKernel;
        (initial ? out.initial : out.steady).add(bytes);
    });
    out.steadyNs = out.firstKernel == kNoTime ? 0 : c.windowEnd - out.firstKernel;
    return out;
}

} // namespace nsw
