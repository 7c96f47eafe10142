// SPDX-License-Identifier: GPL-3.0-or-later
#include "stringresolver.h"

#include "core/profile/scancontext.h"
#include "core/sqlite/sqlitedb.h"

#include <algorithm>

namespace nsw {

namespace {
constexpr std::int64_t kMaxDenseIds = std::int64_t(1) << 24;
}

StringResolver::StringResolver(const SqliteDb& db, StringPool& pool, std::int64_t maxId)
    : m_db(db)
    , m_pool(pool)
    , m_dense(maxId < kMaxDenseIds)
{
    if (m_dense)
        m_denseRefs.assign(std::size_t(std::max<std::int64_t>(maxId + 1, 0)), kUnneeded);
}

void StringResolver::need(std::int32_t id)
{
    if (id < 0)
        return;
    if (m_dense) {
        StringRef& r = m_denseRefs[std::size_t(id)];
        if (r == kUnneeded) {
            r = kNeeded;
            ++m_neededCount;
            m_neededIds.push_back(id);
        }
    } else if (m_sparseRefs.try_emplace(id, kNeeded).second) {
        ++m_neededCount;
        m_neededIds.push_back(id);
    }
}

void StringResolver::needColumn(const IndexColumn<std::int32_t>& column)
{
    std::int32_t last = kNoString;
    for (const std::int32_t id : column) {
        if (id != last) {
            need(id);
            last = id;
        }
    }
}

void StringResolver::setRef(std::int32_t id, StringRef ref)
{
    if (m_dense)
        m_denseRefs[std::size_t(id)] = ref;
    else
        m_sparseRefs[id] = ref;
}

StringRef StringResolver::ref(std::int32_t id) const
{
    if (id < 0)
        return kNoString;
    if (m_dense)
        return std::size_t(id) < m_denseRefs.size() ? m_denseRefs[std::size_t(id)] : kNoString;
    const auto it = m_sparseRefs.find(id);
    return it != m_sparseRefs.end() ? it->second : kNoString;
}

bool StringResolver::resolve(QString* error)
{
    if (m_neededCount == 0)
        return true;
    std::sort(m_neededIds.begin(), m_neededIds.end());
    const QString table = QStringLiteral("StringIds");
    if (m_db.hasTable(table)) {
        // A full scan beats point lookups once a sizeable part of the table is needed.
        const bool scanAll = m_neededCount * 16 > m_db.estimatedRows(table);
        auto isNeeded = [this](std::int64_t id) {
            if (id < 0 || id > std::numeric_limits<std::int32_t>::max())
                return false;
            if (m_dense)
                return std::size_t(id) < m_denseRefs.size() && m_denseRefs[std::size_t(id)] == kNeeded;
            const auto it = m_sparseRefs.find(std::int32_t(id));
            return it != m_sparseRefs.end() && it->second == kNeeded;
        };
        auto take = [&](std::int64_t id, const Statement& st, int column) {
            if (isNeeded(id))
                setRef(std::int32_t(id), m_pool.intern(st.text(column)));
        };
        if (scanAll) {
            Statement st(m_db, QStringLiteral("SELECT id, value FROM StringIds"));
            Statement::Step step;
            while ((step = st.step()) == Statement::Step::Row)
                take(st.int64(0), st, 1);
            if (step == Statement::Step::Error) {
                *error = QStringLiteral("%1: cannot read StringIds: %2").arg(m_db.path(), st.error());
                return false;
            }
        } else {
            Statement st(m_db, QStringLiteral("SELECT value FROM StringIds WHERE id = ?1"));
            auto lookup = [&](std::int32_t id) {
                st.reset();
                st.bindInt64(1, id);
                const Statement::Step step = st.step();
                if (step == Statement::Step::Row)
                    setRef(id, m_pool.intern(st.text(0)));
                return step != Statement::Step::Error;
            };
            // Ascending id order, so that pool indices follow StringIds order (reports rely on it for ties).
            for (const std::int32_t id : m_neededIds) {
                if (!lookup(id)) {
                    *error = QStringLiteral("%1: cannot read StringIds: %2").arg(m_db.path(), st.error());
                    return false;
                }
            }
        }
    }
    // Ids that StringIds does not hold (trimmed files) get a visible placeholder rather than an empty name.
    auto placeholder = [this](std::int32_t id) {
        ++m_missing;
        return m_pool.intern(QStringLiteral("[missing string %1]").arg(id));
    };
    m_missing = 0;
    for (const std::int32_t id : m_neededIds)
        if (ref(id) == kNeeded)
            setRef(id, placeholder(id));
    return true;
}

std::vector<StringRef> StringResolver::internTexts(const std::vector<std::string>& utf8Texts)
{
    std::vector<StringRef> refs;
    refs.reserve(utf8Texts.size());
    for (const std::string& t : utf8Texts)
        refs.push_back(m_pool.intern(QString::fromUtf8(t.data(), qsizetype(t.size()))));
    return refs;
}

void StringResolver::remapColumn(IndexColumn<std::int32_t>& column) const
{
    std::int32_t lastRaw = kNoString;
    StringRef lastRef = kNoString;
    column.transform([&](std::int32_t v) {
        if (v != lastRaw) {
            lastRaw = v;
            lastRef = v >= 0 ? ref(v) : v;
        }
        return lastRef;
    });
    column.compact();
}

StringRef StringResolver::refOfRaw(std::int32_t raw, const std::vector<StringRef>& inlineRefs) const
{
    if (raw >= 0)
        return ref(raw);
    if (raw < kNoString)
        return inlineRefs[std::size_t(InlineTexts::decode(raw))];
    return raw;
}

} // namespace nsw
