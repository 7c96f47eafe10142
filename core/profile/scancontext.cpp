// SPDX-License-Identifier: GPL-3.0-or-later
#include "scancontext.h"

#include "core/profile/scanloop.h"

#include <algorithm>

namespace nsw {

std::int32_t InlineTexts::add(std::string_view utf8)
{
    if (2 * (m_texts.size() + 1) > m_slots.size())
        grow();
    const std::size_t hash = std::hash<std::string_view>()(utf8);
    const std::size_t mask = m_slots.size() - 1;
    std::size_t slot = hash & mask;
    for (; m_slots[slot] >= 0; slot = (slot + 1) & mask) {
        const auto index = std::size_t(m_slots[slot]);
        if (m_hashes[index] == hash && m_texts[index] == utf8)
            return encode(std::int32_t(index));
    }
    const auto index = std::int32_t(m_texts.size());
    m_texts.emplace_back(utf8);
    m_hashes.push_back(hash);
    m_slots[slot] = index;
    return encode(index);
}

void InlineTexts::grow()
{
    const std::size_t size = std::max<std::size_t>(64, m_slots.size() * 2);
    m_slots.assign(size, -1);
    for (std::size_t i = 0; i < m_texts.size(); ++i) {
        std::size_t slot = m_hashes[i] & (size - 1);
        while (m_slots[slot] >= 0)
            slot = (slot + 1) & (size - 1);
        m_slots[slot] = std::int32_t(i);
    }
}

std::int32_t ScanContext::stringId(std::int64_t id)
{
    if (id < 0 || id > std::numeric_limits<std::int32_t>::max()) {
        ++badIds;
        return kNoString;
    }
    if (id > maxStringId)
        maxStringId = id;
    return std::int32_t(id);
}

QString scanErrorMessage(const SqliteDb& db, const ScanContext& ctx, const Statement& st, qint64 rows)
{
    const int code = st.errorCode() & 0xFF;
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
        return QStringLiteral("%1: truncated or corrupt SQLite file (%2) while reading %3 at row %4")
            .arg(db.path(), st.error(), ctx.table)
            .arg(rows);
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
        return QStringLiteral("%1: in use by another process (locked while reading %2)").arg(db.path(), ctx.table);
    return QStringLiteral("%1: error reading %2 at row %3: %4").arg(db.path(), ctx.table).arg(rows).arg(st.error());
}

QString ScanContext::rowRangeCondition() const
{
    QStringList terms;
    if (lowerRowId)
        terms.append(QStringLiteral("rowid >= %1").arg(*lowerRowId));
    if (upperRowId)
        terms.append(QStringLiteral("rowid < %1").arg(*upperRowId));
    return terms.join(QStringLiteral(" AND "));
}

ColumnSelect::ColumnSelect(const SqliteDb& db, const QString& table)
    : m_table(table)
{
    for (const ColumnInfo& c : db.columns(table))
        m_available.append(c.name);
}

int ColumnSelect::add(const QString& column)
{
    m_expressions.append(has(column) ? quoteIdentifier(column) : QStringLiteral("NULL"));
    return int(m_expressions.size()) - 1;
}

bool ColumnSelect::has(const QString& column) const
{
    return m_available.contains(column);
}

QString ColumnSelect::sql(const QString& where) const
{
    QString s = QStringLiteral("SELECT ") + m_expressions.join(QStringLiteral(", ")) + QStringLiteral(" FROM ")
        + quoteIdentifier(m_table);
    if (!where.isEmpty())
        s += QStringLiteral(" WHERE ") + where;
    return s;
}

std::size_t expectedRows(const ScanContext& ctx)
{
    return std::size_t(std::max<qint64>(ctx.estimatedRows, 0));
}

bool requireColumns(
    const ColumnSelect& s, ScanContext& ctx, const QString& path, std::initializer_list<const char*> names)
{
    for (const char* n : names) {
        if (!s.has(QLatin1String(n))) {
            ctx.error = QStringLiteral("%1: %2 has no column %3; not the table nsys writes")
                            .arg(path, ctx.table, QLatin1String(n));
            return false;
        }
    }
    return true;
}

} // namespace nsw
