// SPDX-License-Identifier: GPL-3.0-or-later
#include "scancontext.h"

#include "core/profile/scanloop.h"

namespace nsw {

std::int32_t InlineTexts::add(std::string_view utf8)
{
    const auto found = m_index.find(utf8);
    if (found != m_index.end())
        return encode(found->second);
    const auto index = std::int32_t(m_texts.size());
    m_texts.emplace_back(utf8);
    m_index.emplace(m_texts.back(), index);
    return encode(index);
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

} // namespace nsw
