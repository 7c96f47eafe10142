// SPDX-License-Identifier: GPL-3.0-or-later
// Private to core: the hot row loop, over the native SQLite handle or Qt SQL.
#pragma once

#include "core/profile/scancontext.h"
#include "core/sqlite/sqlitedb.h"

#include <sqlite3.h>

namespace nsw {

/// The current row of a Statement. On the native path every accessor is one inlined sqlite3_column_* call; on the
/// QtSql path it goes through QSqlQuery.
class Row
{
public:
    explicit Row(const Statement& st)
        : m_native(st.handle())
        , m_st(st)
    { }
    qint64 int64(int column) const { return m_native ? sqlite3_column_int64(m_native, column) : m_st.int64(column); }
    SqlType type(int column) const
    {
        return m_native ? SqlType(sqlite3_column_type(m_native, column)) : m_st.type(column);
    }
    bool isNull(int column) const { return type(column) == SqlType::Null; }
    bool isInteger(int column) const { return type(column) == SqlType::Integer; }
    /// Storage class and value in one call into SQLite (scanRows() holds the connection's lock, as it needs).
    Statement::IntCell cell(int column) const
    {
        if (!m_native)
            return m_st.intCell(column);
        sqlite3_value* value = sqlite3_column_value(m_native, column);
        return { SqlType(sqlite3_value_type(value)), sqlite3_value_int64(value) };
    }
    std::string_view bytes(int column) const
    {
        if (!m_native)
            return m_st.bytes(column);
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_native, column));
        return p ? std::string_view(p, std::size_t(sqlite3_column_bytes(m_native, column))) : std::string_view();
    }

private:
    sqlite3_stmt* m_native;
    const Statement& m_st;
};

/// A StringIds id from a name column: NULL is "no name"; a value that is not an integer is counted and unknown.
inline std::int32_t readStringId(ScanContext& ctx, const Row& row, int column)
{
    const Statement::IntCell id = row.cell(column);
    if (id.type == SqlType::Null)
        return kNoString;
    if (id.type != SqlType::Integer) {
        ++ctx.badIds;
        return kNoString;
    }
    return ctx.stringId(id.value);
}

/// The message for a failed scan, naming the file and the table.
QString scanErrorMessage(const SqliteDb& db, const ScanContext& ctx, const Statement& st, qint64 rows);

/// Steps through all rows of @p sql calling rowFn(row) for each, counting progress and honouring cancel.
/// Returns false (with ctx.error set, naming the file and table) on an SQLite error; a cancelled scan returns true
/// with what it read (the loader discards it).
template <typename RowFn> bool scanRows(const SqliteDb& db, const QString& sql, ScanContext& ctx, RowFn&& rowFn)
{
    Statement st(db, sql);
    if (!st.isValid()) {
        ctx.error = QStringLiteral("%1: cannot read %2: %3").arg(db.path(), ctx.table, st.error());
        return false;
    }
    const Row row(st);
    const ConnectionLock hold(db);
    qint64 rows = 0;
    Statement::Step step;
    while ((step = st.step()) == Statement::Step::Row) {
        rowFn(row);
        if ((++rows & 0x3FFF) == 0) {
            ctx.rowsRead.store(rows, std::memory_order_relaxed);
            if (ctx.cancelled())
                break;
        }
    }
    ctx.rowsRead.store(rows, std::memory_order_relaxed);
    if (step != Statement::Step::Error || ctx.cancelled())
        return true;
    ctx.error = scanErrorMessage(db, ctx, st, rows);
    return false;
}

} // namespace nsw
