// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpukey.h"

namespace nsw {

int GpuKeyOfRow::operator()(ProcessIndex process, int ordinal)
{
    const std::pair<ProcessIndex, int> pair { process, ordinal };
    if (m_haveLast && pair == m_lastPair)
        return m_lastKey;
    auto it = m_keyOf.find(pair);
    if (it == m_keyOf.end())
        it = m_keyOf.emplace(pair, m_profile.gpuKey(process, ordinal)).first;
    m_haveLast = true;
    m_lastPair = pair;
    m_lastKey = it->second;
    return m_lastKey;
}

} // namespace nsw
