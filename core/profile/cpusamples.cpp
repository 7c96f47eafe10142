// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/cpusamples.h"

namespace nsw {

QString CpuSamples::stateLabel(std::uint8_t id) const
{
    const auto it = stateLabels.find(id);
    return it != stateLabels.end() ? it->second : QStringLiteral("state %1").arg(id);
}

} // namespace nsw
