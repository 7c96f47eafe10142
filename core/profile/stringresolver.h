// SPDX-License-Identifier: GPL-3.0-or-later
// Private to the loader: turns raw StringIds ids and inline texts into StringPool indices.
#pragma once

#include "core/profile/indexcolumn.h"
#include "core/profile/stringpool.h"

#include <QString>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace nsw {

class SqliteDb;

/// Only ids that rows reference are fetched (StringIds can hold millions of strings). Texts are decoded as
/// lenient UTF-8 and deduplicated by value.
class StringResolver
{
public:
    StringResolver(const SqliteDb& db, StringPool& pool, std::int64_t maxId);

    void need(std::int32_t id);
    void needColumn(const IndexColumn<std::int32_t>& column);
    /// Fetches every needed id; returns false with @p error set when StringIds cannot be read.
    bool resolve(QString* error);
    StringRef ref(std::int32_t id) const;
    /// Interns inline texts; returns their pool indices in order.
    std::vector<StringRef> internTexts(const std::vector<std::string>& utf8Texts);
    /// Rewrites a column of StringIds ids into pool indices (kNoString stays kNoString), narrow again when the ids
    /// were not but the pool indices are.
    void remapColumn(IndexColumn<std::int32_t>& column) const;
    /// The pool index of a raw name value: a StringIds id, an inline text (< kNoString) or kNoString.
    StringRef refOfRaw(std::int32_t raw, const std::vector<StringRef>& inlineRefs) const;
    std::int64_t missingIds() const { return m_missing; }

private:
    static constexpr StringRef kUnneeded = -2;
    static constexpr StringRef kNeeded = -3;
    void setRef(std::int32_t id, StringRef ref);

    const SqliteDb& m_db;
    StringPool& m_pool;
    bool m_dense;
    std::vector<StringRef> m_denseRefs;
    std::unordered_map<std::int32_t, StringRef> m_sparseRefs;
    std::vector<std::int32_t> m_neededIds; ///< in first-need order; sorted before fetching
    std::int64_t m_neededCount = 0;
    std::int64_t m_missing = 0;
};

} // namespace nsw
