// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/cpusamples.h"

namespace nsw {

QString CpuSamples::stateLabel(std::uint8_t id) const
{
    const auto it = stateLabels.find(id);
    return it != stateLabels.end() ? it->second : QStringLiteral("state %1").arg(id);
}

std::size_t CpuSamples::memoryBytes() const
{
    return time.memoryBytes() + thread.memoryBytes() + cpu.capacity() * sizeof(std::int16_t) + state.capacity()
        + stackBegin.capacity() * sizeof(std::uint32_t) + frames.memoryBytes()
        + functions.symbol.capacity() * sizeof(StringRef) * 2 + functions.flags.capacity();
}

} // namespace nsw
