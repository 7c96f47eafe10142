// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventcolors.h"

namespace nsw {

void EventColors::setProvider(Provider provider)
{
    m_provider = std::move(provider);
    clear();
}

QColor EventColors::colorForName(const QString& name)
{
    const size_t hash = qHash(name, 0);
    // Hues spread by the hash, saturation and value in a band that keeps black or white text readable.
    const int hue = int(hash % 360);
    const int saturation = 120 + int((hash >> 9) % 80);
    const int value = 170 + int((hash >> 17) % 60);
    return QColor::fromHsv(hue, saturation, value);
}

QColor EventColors::memOpColor(std::uint8_t copyKind)
{
    switch (copyKind) {
    case 1: // host to device
        return QColor(46, 160, 67);
    case 2: // device to host
        return QColor(214, 69, 65);
    case 8: // device to device
        return QColor(222, 165, 34);
    case 10: // peer to peer
        return QColor(155, 89, 182);
    case MemOpTable::kMemset:
        return QColor(93, 109, 126);
    default:
        return QColor(160, 120, 90);
    }
}

QColor EventColors::colorOf(const Profile& profile, EventRef event)
{
    if (m_provider) {
        const QColor c = m_provider(profile, event);
        if (c.isValid())
            return c;
    }
    if (event.table == EventTable::MemOp)
        return memOpColor(profile.memops.copyKind[event.row]);
    // API calls and OS calls share their name pool with kernels; key them apart so a table can get its own tint.
    const qint64 key = eventNameKey(profile, event) * 8 + qint64(event.table);
    if (key == m_lastKey && m_lastColor.isValid())
        return m_lastColor;
    m_lastKey = key;
    const auto it = m_byName.constFind(key);
    if (it != m_byName.constEnd())
        return m_lastColor = *it;
    m_lastColor = colorForName(eventName(profile, event));
    m_byName.insert(key, m_lastColor);
    return m_lastColor;
}

} // namespace nsw
