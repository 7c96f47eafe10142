// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace nsw {

/// Index into a Profile's StringPool; -1 means "no string".
using StringRef = std::int32_t;
inline constexpr StringRef kNoString = -1;

/// Deduplicated strings of one profile. Equal texts share one index, so grouping by name is grouping by index
/// (even when the export's StringIds holds the same text under two ids).
class StringPool
{
public:
    StringRef intern(const QString& text);
    const QString& at(StringRef ref) const { return ref >= 0 ? m_strings[size_t(ref)] : m_empty; }
    StringRef find(const QString& text) const { return m_index.value(text, kNoString); }
    std::size_t size() const { return m_strings.size(); }
    std::size_t memoryBytes() const;
    /// Every text, by index.
    const std::vector<QString>& texts() const { return m_strings; }
    /// A pool holding @p texts at indices 0..n-1; nothing when two are equal (a pool holds each text once, so that
    /// grouping by index is grouping by text).
    static std::optional<StringPool> fromDistinct(std::vector<QString> texts);

private:
    std::vector<QString> m_strings;
    QHash<QString, StringRef> m_index;
    QString m_empty;
};

} // namespace nsw
