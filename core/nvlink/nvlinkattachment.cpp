// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkattachment.h"

#include <set>

namespace nsw {

QString nvlinkGpuModel(const Profile& profile, int gpu, const GpuMetricsNvlink* metrics)
{
    for (const GpuInfo& g : profile.gpus)
        if (g.cudaDevice == gpu && !g.name.isEmpty())
            return g.name;
    for (const GpuInfo& g : profile.gpus)
        if (g.id == gpu && !g.name.isEmpty())
            return g.name;
    std::set<QString> models;
    for (const GpuInfo& g : profile.gpus)
        if (!g.name.isEmpty())
            models.insert(g.name);
    if (models.size() == 1)
        return *models.begin();
    if (metrics) {
        const auto it = metrics->chips.find(gpu);
        if (it != metrics->chips.end())
            return it->second;
    }
    return {};
}

} // namespace nsw
