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

std::optional<StringPool> StringPool::fromDistinct(std::vector<QString> texts)
{
    StringPool pool;
    pool.m_index.reserve(qsizetype(texts.size()));
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const qsizetype before = pool.m_index.size();
        pool.m_index.insert(texts[i], StringRef(i));
        if (pool.m_index.size() == before)
            return std::nullopt;
    }
    pool.m_strings = std::move(texts);
    return pool;
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
