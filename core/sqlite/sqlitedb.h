// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace nsw {

struct ColumnInfo
{
    QString name;
    QString declaredType;
};

/// One read-only connection to an SQLite file, opened through Qt SQL (QSQLITE) with `mode=ro&immutable=1`,
/// so that nothing (no lock, journal, WAL or SHM file) is ever written next to the user's file.
/// A connection belongs to the thread that opened it; open one per worker thread.
class SqliteDb
{
public:
    /// Opens @p path read-only. Returns nullptr and sets @p error (naming the file) on failure.
    static std::unique_ptr<SqliteDb> open(const QString& path, QString* error);
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    const QString& path() const { return m_path; }
    /// The driver's native handle, for hot loops.
    sqlite3* handle() const { return m_handle; }

    QStringList tables() const;
    bool hasTable(const QString& table) const;
    std::vector<ColumnInfo> columns(const QString& table) const;
    bool hasColumn(const QString& table, const QString& column) const;
    /// Upper bound of the row count that costs O(log n): max(rowid), or 0 for an empty or missing table.
    qint64 estimatedRows(const QString& table) const;
    /// [min(rowid), max(rowid)] in O(log n); {0, -1} for an empty or missing table.
    std::pair<qint64, qint64> rowIdRange(const QString& table) const;
    /// Exact count(*) (walks the table), or -1 when the table is missing.
    qint64 countRows(const QString& table) const;
    /// Runs @p sql and returns the first column of the first row, or an empty string.
    QString scalarText(const QString& sql) const;
    QString lastError() const;

private:
    SqliteDb() = default;
    QString m_path;
    QString m_connectionName;
    QSqlDatabase m_db;
    sqlite3* m_handle = nullptr;
    mutable QStringList m_tables;
};

/// Thin RAII wrapper over a prepared statement on a SqliteDb's native handle.
class Statement
{
public:
    Statement(const SqliteDb& db, const QString& sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool isValid() const { return m_stmt != nullptr; }
    const QString& error() const { return m_error; }
    sqlite3_stmt* handle() const { return m_stmt; }

    enum class Step
    {
        Row,
        Done,
        Error
    };
    Step step();
    void reset();
    void bindInt64(int index1Based, qint64 value);

    qint64 int64(int column) const;
    double real(int column) const;
    bool isNull(int column) const;
    /// Raw bytes of a text column (not NUL-terminated view); valid until the next step().
    std::string_view bytes(int column) const;
    /// Lenient UTF-8: invalid sequences become U+FFFD rather than failing.
    QString text(int column) const;

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
    QString m_error;
};

QString quoteIdentifier(const QString& identifier);

} // namespace nsw
