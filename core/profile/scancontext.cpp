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

std::int32_t ScanContext::stringId(sqlite3_stmt* st, int column)
{
    if (sqlite3_column_type(st, column) == SQLITE_NULL)
        return kNoString;
    const std::int64_t id = sqlite3_column_int64(st, column);
    if (id < 0 || id > std::numeric_limits<std::int32_t>::max()) {
        if (warnings.isEmpty())
            warnings.append(QStringLiteral("%1: string id %2 out of range, shown as no name").arg(table).arg(id));
        return kNoString;
    }
    if (id > maxStringId)
        maxStringId = id;
    return std::int32_t(id);
}

QString ScanContext::rowRangeCondition() const
{
    if (endRowId <= firstRowId)
        return {};
    return QStringLiteral("rowid >= %1 AND rowid < %2").arg(firstRowId).arg(endRowId);
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
