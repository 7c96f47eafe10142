// SPDX-License-Identifier: GPL-3.0-or-later
#include "stringpool.h"

namespace nsw {

StringRef StringPool::intern(const QString& text)
{
    const auto it = m_index.constFind(text);
    if (it != m_index.constEnd())
        return it.value();
    const auto ref = StringRef(m_strings.size());
    m_strings.push_back(text);
    m_index.insert(text, ref);
    return ref;
}

std::size_t StringPool::memoryBytes() const
{
    std::size_t bytes = m_strings.capacity() * sizeof(QString);
    for (const QString& s : m_strings)
        bytes += std::size_t(s.capacity()) * sizeof(QChar) + 32;
    // The hash shares the strings' data (implicit sharing); count its nodes only.
    bytes += std::size_t(m_index.size()) * (sizeof(QString) + sizeof(StringRef) + 16);
    return bytes;
}

} // namespace nsw
