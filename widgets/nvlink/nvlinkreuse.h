// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/nvlinkattachment.h"
#include "core/nvlink/nvlinkpeaksrun.h"

#include <map>
#include <memory>

namespace nsw {

/// What one NVLink computation of a profile builds that the next one can reuse: the kernel overlap index per GPU and
/// the plot index per series. Each series entry keeps its series' owner alive, so that no other series can take its
/// address while it is cached.
class NvlinkReuse
{
public:
    /// Forgets everything (another profile).
    void clear();
    /// Forgets the series no longer in @p attachment (may be null).
    void dropDetached(const NvlinkAttachment* attachment);
    /// Fills the request's reusable indexes (kernels of its GPU, plot index of its series).
    void offer(NvlinkPeaksRequest& request) const;
    /// Keeps the indexes @p result built for @p request.
    void keep(const NvlinkPeaksRequest& request, const NvlinkPeaksResult& result);

private:
    struct CachedMaxIndex
    {
        std::shared_ptr<const void> owner;
        std::shared_ptr<const SeriesMaxIndex> index;
    };
    std::map<int, std::shared_ptr<const KernelOverlapIndex>> m_kernelIndexes;
    std::map<const ThroughputSeries*, CachedMaxIndex> m_maxIndexes;
};

} // namespace nsw
