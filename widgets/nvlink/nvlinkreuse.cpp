// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkreuse.h"

#include <set>

namespace nsw {

void NvlinkReuse::clear()
{
    m_kernelIndexes.clear();
    m_maxIndexes.clear();
}

void NvlinkReuse::dropDetached(const NvlinkAttachment* a)
{
    std::set<const ThroughputSeries*> attached;
    if (a) {
        for (const NvlinkRecordingEntry& e : a->recordings)
            for (const auto* list : { &e.recording->links, &e.recording->totals })
                for (const ThroughputSeries& s : *list)
                    attached.insert(&s);
        if (a->gpuMetrics)
            for (const ThroughputSeries& s : a->gpuMetrics->series)
                attached.insert(&s);
    }
    std::erase_if(m_maxIndexes, [&attached](const auto& entry) { return !attached.count(entry.first); });
}

void NvlinkReuse::offer(NvlinkPeaksRequest& request) const
{
    if (const auto k = m_kernelIndexes.find(request.gpu); k != m_kernelIndexes.end())
        request.kernels.index = k->second;
    for (const ThroughputSeries* s : request.series) {
        const auto it = m_maxIndexes.find(s);
        request.reusablePlotIndexes.push_back(it == m_maxIndexes.end() ? nullptr : it->second.index);
    }
}

void NvlinkReuse::keep(const NvlinkPeaksRequest& request, const NvlinkPeaksResult& result)
{
    for (std::size_t i = 0; i < request.series.size(); ++i)
        m_maxIndexes[request.series[i]] = { request.keepAlive, result.plotIndexes[i] };
    m_kernelIndexes[request.gpu] = result.kernels;
}

} // namespace nsw
