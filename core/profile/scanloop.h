// SPDX-License-Identifier: GPL-3.0-or-later
// Private to core: the hot row loop over the native SQLite handle.
#pragma once

#include "core/profile/scancontext.h"
#include "core/sqlite/sqlitedb.h"

#include <sqlite3.h>

namespace nsw {

/// Steps through all rows of @p sql calling rowFn(stmt) for each, counting progress and honouring cancel.
/// Returns false (with ctx.error set, naming the file and table) on an SQLite error.
template <typename RowFn> bool scanRows(const SqliteDb& db, const QString& sql, ScanContext& ctx, RowFn&& rowFn)
{
    sqlite3_stmt* st = nullptr;
    const QByteArray utf8 = sql.toUtf8();
    if (sqlite3_prepare_v2(db.handle(), utf8.constData(), int(utf8.size()), &st, nullptr) != SQLITE_OK) {
        ctx.error = QStringLiteral("%1: cannot read %2: %3").arg(db.path(), ctx.table, db.lastError());
        sqlite3_finalize(st);
        return false;
    }
    qint64 rows = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        rowFn(st);
        if ((++rows & 0x3FFF) == 0) {
            ctx.rowsRead.store(rows, std::memory_order_relaxed);
            if (ctx.cancelled())
                break;
        }
    }
    ctx.rowsRead.store(rows, std::memory_order_relaxed);
    const bool ok = rc == SQLITE_ROW || rc == SQLITE_DONE;
    if (!ok) {
        const QString reason = QString::fromUtf8(sqlite3_errmsg(db.handle()));
        const bool corrupt = rc == SQLITE_CORRUPT || (rc & 0xFF) == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
        ctx.error = corrupt
            ? QStringLiteral("%1: truncated or corrupt SQLite file (%2) while reading %3 at row %4")
                  .arg(db.path(), reason, ctx.table)
                  .arg(rows)
            : QStringLiteral("%1: error reading %2 at row %3: %4").arg(db.path(), ctx.table).arg(rows).arg(reason);
    }
    sqlite3_finalize(st);
    return ok;
}

inline bool columnIsNull(sqlite3_stmt* st, int column)
{
    return sqlite3_column_type(st, column) == SQLITE_NULL;
}

} // namespace nsw
