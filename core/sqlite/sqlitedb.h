// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <atomic>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_mutex;
struct sqlite3_stmt;
class QSqlQuery;

namespace nsw {

struct ColumnInfo
{
    QString name;
    QString declaredType;
};

/// How statements reach the file. Qt SQL always opens it; the hot scans drive the plugin's `sqlite3*` through the
/// SQLite library the project links, which is sound only when the QSQLITE plugin uses that same library.
enum class SqliteAccess
{
    Native, ///< the plugin's handle through the linked libsqlite3 (fast)
    QtSql, ///< QSqlQuery only (slower, correct whatever SQLite the plugin carries)
};

/// The storage class of a value, as sqlite3_column_type() gives it.
enum class SqlType
{
    Integer = 1,
    Float = 2,
    Text = 3,
    Blob = 4,
    Null = 5,
};

/// One read-only connection to an SQLite file, opened through Qt SQL (QSQLITE). Nothing is ever written next to
/// the user's file: `immutable=1` when no -wal or -journal file exists; a WAL file with its -shm is read with
/// `readonly_shm=1`; a -journal means another process may be writing, so the file is opened read-only with locks
/// and refused as "in use" when it is locked.
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
    SqliteAccess access() const { return m_access; }
    /// One line for `info --load`: the access path and why.
    const QString& accessDescription() const { return m_accessDescription; }
    /// How the file was opened ("immutable", "immutable, read around the page cache", "read-only (WAL)",
    /// "read-only (locked)").
    const QString& openMode() const { return m_openMode; }
    /// The driver's native handle for hot loops; null on the QtSql access path.
    sqlite3* handle() const { return m_handle; }
    const QSqlDatabase& database() const { return m_db; }
    /// Long statements stop (SQLITE_INTERRUPT) once @p token is cancelled (native access only; QtSql stops between
    /// rows). The token must outlive the statements, or be reset with nullptr.
    void setInterruptToken(const CancelToken* token);

    /// Real tables (views excluded: an export has none, and a view can make any query loop forever).
    QStringList tables() const;
    QStringList views() const;
    bool hasTable(const QString& table) const;
    std::vector<ColumnInfo> columns(const QString& table) const;
    bool hasColumn(const QString& table, const QString& column) const;
    /// Upper bound of the row count that costs O(log n): max(rowid), or 0 for an empty or missing table.
    qint64 estimatedRows(const QString& table) const;
    /// The most rows a reader reserves up front: max(rowid) of a damaged file can be 2^62.
    static constexpr qint64 kMaxReservedRows = qint64(1) << 24;
    /// estimatedRows() capped at kMaxReservedRows, for reserve().
    std::size_t reservableRows(const QString& table) const
    {
        return std::size_t(std::clamp<qint64>(estimatedRows(table), 0, kMaxReservedRows));
    }
    /// [min(rowid), max(rowid)] in O(log n); {0, -1} for an empty or missing table.
    std::pair<qint64, qint64> rowIdRange(const QString& table) const;
    /// Exact count(*) (walks the table), or -1 when the table is missing; sets @p error on an SQLite error.
    qint64 countRows(const QString& table, QString* error = nullptr) const;
    /// Runs @p sql and returns the first column of the first row, or an empty string.
    QString scalarText(const QString& sql) const;
    QString lastError() const;

private:
    SqliteDb() = default;
    bool openConnection(const QString& uri, QString* error);
    void closeConnection();
    /// Adds how the export VFS reads the file (around the page cache) to openMode().
    void describeReadMode();
    void chooseAccess();
    void readSchema() const;

    QString m_path;
    QString m_connectionName;
    QSqlDatabase m_db;
    sqlite3* m_handle = nullptr;
    SqliteAccess m_access = SqliteAccess::Native;
    QString m_accessDescription;
    QString m_openMode;
    mutable bool m_schemaRead = false;
    mutable QStringList m_tables;
    mutable QStringList m_views;
};

/// A prepared statement on a SqliteDb: the native sqlite3_stmt, or a forward-only QSqlQuery on the QtSql path.
class Statement
{
public:
    Statement(const SqliteDb& db, const QString& sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool isValid() const { return m_stmt != nullptr || m_query != nullptr; }
    const QString& error() const { return m_error; }
    /// SQLite's result code of the last failure (extended code on the native path), 0 when none.
    int errorCode() const { return m_errorCode; }
    /// The native statement; null on the QtSql path.
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
    /// An integer column's storage class and value (as int64() reads it: NULL 0, text by its leading digits, a real
    /// truncated) in one call into SQLite, for scans of millions of rows. Hold a ConnectionLock while calling it.
    struct IntCell
    {
        SqlType type;
        qint64 value;
    };
    IntCell intCell(int column) const;
    double real(int column) const;
    bool isNull(int column) const;
    SqlType type(int column) const;
    /// Raw bytes of a text column (not NUL-terminated view); valid until the next step().
    std::string_view bytes(int column) const;
    /// Lenient UTF-8: invalid sequences become U+FFFD rather than failing.
    QString text(int column) const;

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
    std::unique_ptr<QSqlQuery> m_query;
    std::vector<qint64> m_bindings;
    bool m_executed = false;
    mutable QByteArray m_bytes;
    QString m_error;
    int m_errorCode = 0;
};

/// Holds a connection's own mutex (if SQLite gave it one) for the length of a scan, so that the values
/// Statement::intCell() reads without taking it per call are "protected" in SQLite's terms.
class ConnectionLock
{
public:
    explicit ConnectionLock(const SqliteDb& db);
    ~ConnectionLock();
    ConnectionLock(const ConnectionLock&) = delete;
    ConnectionLock& operator=(const ConnectionLock&) = delete;

private:
    sqlite3_mutex* m_mutex = nullptr;
};

QString quoteIdentifier(const QString& identifier);

} // namespace nsw
