// SPDX-License-Identifier: GPL-3.0-or-later
#include "throughputseries.h"

namespace nsw {

QString directionLabel(LinkDirection direction)
{
    return direction == LinkDirection::Tx ? QStringLiteral("TX") : QStringLiteral("RX");
}

QString ThroughputSeries::label() const
{
    const QString where = link == kAllLinks ? QStringLiteral("all links") : QStringLiteral("link %1").arg(link);
    return QStringLiteral("%1 %2").arg(where, directionLabel(direction));
}

std::size_t ThroughputSeries::memoryBytes() const
{
    return time.capacity() * sizeof(TimeNs) + bytes.capacity() * sizeof(qint64) + percent.capacity() * sizeof(float)
        + resets.capacity() * sizeof(std::uint32_t);
}

} // namespace nsw
