// SPDX-License-Identifier: GPL-3.0-or-later
#include "sqlitedb.h"

#include <QAtomicInteger>
#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QUrl>
#include <QVariant>
#include <sqlite3.h>

namespace nsw {

namespace {
QAtomicInteger<quint64> s_connectionCounter;

QString sqliteUri(const QString& absolutePath)
{
    // immutable=1: SQLite takes no locks and never creates -journal/-wal/-shm files next to the trace.
    const QByteArray encoded = QUrl::toPercentEncoding(absolutePath, "/");
    return QStringLiteral("file:") + QString::fromLatin1(encoded) + QStringLiteral("?mode=ro&immutable=1");
}
} // namespace

std::unique_ptr<SqliteDb> SqliteDb::open(const QString& path, QString* error)
{
    std::unique_ptr<SqliteDb> db(new SqliteDb);
    db->m_path = path;
    db->m_connectionName = QStringLiteral("nsw-sqlite-%1").arg(s_connectionCounter.fetchAndAddRelaxed(1));
    db->m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), db->m_connectionName);
    if (!db->m_db.isValid()) {
        if (error)
            *error = QStringLiteral("%1: the Qt SQLite driver (QSQLITE) is not available").arg(path);
        return nullptr;
    }
    db->m_db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"));
    db->m_db.setDatabaseName(sqliteUri(QFileInfo(path).absoluteFilePath()));
    if (!db->m_db.open()) {
        if (error)
            *error = QStringLiteral("%1: cannot open as SQLite: %2").arg(path, db->m_db.lastError().text());
        return nullptr;
    }
    const QVariant handle = db->m_db.driver()->handle();
    if (handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0)
        db->m_handle = *static_cast<sqlite3* const*>(handle.data());
    if (!db->m_handle) {
        if (error)
            *error = QStringLiteral("%1: the SQLite driver gave no native handle").arg(path);
        return nullptr;
    }
    // Read the schema now: this is where "file is not a database" and truncation of page 1 surface.
    char* message = nullptr;
    const int rc = sqlite3_exec(db->m_handle, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        if (error)
            *error = QStringLiteral("%1: not a readable SQLite database (%2)")
                         .arg(path, QString::fromUtf8(message ? message : sqlite3_errstr(rc)));
        sqlite3_free(message);
        return nullptr;
    }
    return db;
}

SqliteDb::~SqliteDb()
{
    m_handle = nullptr;
    if (m_db.isValid())
        m_db.close();
    m_db = QSqlDatabase();
    if (!m_connectionName.isEmpty())
        QSqlDatabase::removeDatabase(m_connectionName);
}

QStringList SqliteDb::tables() const
{
    if (m_tables.isEmpty()) {
        Statement st(*this, QStringLiteral("SELECT name FROM sqlite_master WHERE type IN ('table','view')"));
        while (st.step() == Statement::Step::Row)
            m_tables.append(st.text(0));
    }
    return m_tables;
}

bool SqliteDb::hasTable(const QString& table) const
{
    return tables().contains(table);
}

std::vector<ColumnInfo> SqliteDb::columns(const QString& table) const
{
    std::vector<ColumnInfo> result;
    if (!hasTable(table))
        return result;
    Statement st(*this, QStringLiteral("PRAGMA table_info(%1)").arg(quoteIdentifier(table)));
    while (st.step() == Statement::Step::Row)
        result.push_back({ st.text(1), st.text(2) });
    return result;
}

bool SqliteDb::hasColumn(const QString& table, const QString& column) const
{
    for (const ColumnInfo& c : columns(table))
        if (c.name == column)
            return true;
    return false;
}

qint64 SqliteDb::estimatedRows(const QString& table) const
{
    if (!hasTable(table))
        return 0;
    Statement st(*this, QStringLiteral("SELECT max(rowid) FROM %1").arg(quoteIdentifier(table)));
    if (st.isValid() && st.step() == Statement::Step::Row && !st.isNull(0))
        return st.int64(0);
    return 0;
}

std::pair<qint64, qint64> SqliteDb::rowIdRange(const QString& table) const
{
    if (!hasTable(table))
        return { 0, -1 };
    // Two statements: SQLite answers min() or max() from the b-tree edge only when it is the query's sole aggregate.
    Statement first(*this, QStringLiteral("SELECT min(rowid) FROM %1").arg(quoteIdentifier(table)));
    if (!first.isValid() || first.step() != Statement::Step::Row || first.isNull(0))
        return { 0, -1 };
    return { first.int64(0), estimatedRows(table) };
}

qint64 SqliteDb::countRows(const QString& table) const
{
    if (!hasTable(table))
        return -1;
    Statement st(*this, QStringLiteral("SELECT count(*) FROM %1").arg(quoteIdentifier(table)));
    if (st.isValid() && st.step() == Statement::Step::Row)
        return st.int64(0);
    return -1;
}

QString SqliteDb::scalarText(const QString& sql) const
{
    Statement st(*this, sql);
    if (st.isValid() && st.step() == Statement::Step::Row && !st.isNull(0))
        return st.text(0);
    return {};
}

QString SqliteDb::lastError() const
{
    return m_handle ? QString::fromUtf8(sqlite3_errmsg(m_handle)) : QString();
}

Statement::Statement(const SqliteDb& db, const QString& sql)
    : m_db(db.handle())
{
    const QByteArray utf8 = sql.toUtf8();
    if (sqlite3_prepare_v2(m_db, utf8.constData(), int(utf8.size()), &m_stmt, nullptr) != SQLITE_OK) {
        m_error = QString::fromUtf8(sqlite3_errmsg(m_db));
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
    }
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

Statement::Step Statement::step()
{
    if (!m_stmt)
        return Step::Error;
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return Step::Row;
    if (rc == SQLITE_DONE)
        return Step::Done;
    m_error = QString::fromUtf8(sqlite3_errmsg(m_db));
    return Step::Error;
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
}

void Statement::bindInt64(int index1Based, qint64 value)
{
    sqlite3_bind_int64(m_stmt, index1Based, value);
}

qint64 Statement::int64(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

double Statement::real(int column) const
{
    return sqlite3_column_double(m_stmt, column);
}

bool Statement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::string_view Statement::bytes(int column) const
{
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    const int size = sqlite3_column_bytes(m_stmt, column);
    return data ? std::string_view(data, size_t(size)) : std::string_view();
}

QString Statement::text(int column) const
{
    const std::string_view b = bytes(column);
    return QString::fromUtf8(b.data(), qsizetype(b.size()));
}

QString quoteIdentifier(const QString& identifier)
{
    QString escaped = identifier;
    escaped.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

} // namespace nsw
