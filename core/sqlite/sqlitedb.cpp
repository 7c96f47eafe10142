// SPDX-License-Identifier: GPL-3.0-or-later
#include "sqlitedb.h"

#include "exportvfs.h"

#include <QAtomicInteger>
#include <QFile>
#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>
#include <cstdlib>
#include <mutex>
#include <sqlite3.h>
#include <sys/stat.h>

namespace nsw {

namespace {
QAtomicInteger<quint64> s_connectionCounter;

/// How to open one file so that nothing is created next to it.
struct OpenPlan
{
    QString parameters;
    QString mode;
    QString error;
    bool rollbackJournal = false; ///< a -journal file lies beside the file: opened with locks
    bool immutable = false; ///< nothing writes the file: the export VFS may read it around the page cache
};

/// Size of a file named by raw bytes, or -1 when it does not exist.
qint64 sizeOf(const QByteArray& path)
{
    struct stat st;
    return ::stat(path.constData(), &st) == 0 ? qint64(st.st_size) : -1;
}

OpenPlan planOpen(const QString& path)
{
    // A FIFO or a device would block SQLite's first read forever (or read a device): every opener is refused here,
    // not only those that ran checkFileBeforeOpen first.
    if (const QFileInfo info(path); info.exists() && !info.isFile())
        return { {}, {}, QStringLiteral("%1: not a regular file").arg(path) };
    // SQLite looks for the -wal and -journal files next to the file a symlink points to: so do we.
    const QByteArray encoded = QFile::encodeName(path);
    char* resolved = ::realpath(encoded.constData(), nullptr);
    const QByteArray real = resolved ? QByteArray(resolved) : encoded;
    std::free(resolved);
    if (sizeOf(real + "-wal") > 0) {
        // immutable=1 would ignore the log (half the data); plain read-only would create the -shm file.
        if (sizeOf(real + "-shm") < 0)
            return { {}, {},
                QStringLiteral("%1: has a write-ahead log (%1-wal) that was never checkpointed, and no -shm file; "
                               "reading it would create a file next to the trace. Checkpoint it first "
                               "(sqlite3 FILE 'PRAGMA wal_checkpoint;') or open a copy of both files")
                    .arg(path) };
        return { QStringLiteral("mode=ro&readonly_shm=1"), QStringLiteral("read-only (WAL)"), {} };
    }
    if (sizeOf(real + "-journal") > 0) // a writer may be active: take locks, so its pages are never read
        return { QStringLiteral("mode=ro"), QStringLiteral("read-only (rollback journal present)"), {}, true };
    // immutable=1: SQLite takes no locks and never creates -journal/-wal/-shm files next to the trace.
    return { QStringLiteral("mode=ro&immutable=1"), QStringLiteral("immutable"), {}, false, true };
}

QString sqliteUri(const QString& absolutePath, const QString& parameters)
{
    // Percent-encoded from the file system's bytes, so that any file name reaches SQLite unchanged.
    const QByteArray encoded = QFile::encodeName(absolutePath).toPercentEncoding("/");
    return QStringLiteral("file:") + QString::fromLatin1(encoded) + QLatin1Char('?') + parameters;
}

/// Library settings that SQLite takes only before it initialises, i.e. before the first open or VFS lookup.
void configureSqliteOnce()
{
    // Debian's SQLite counts every allocation under one global mutex (SQLITE_DEFAULT_MEMSTATUS): the parallel scans
    // spent a tenth of their time locking it. Refused and harmless when the driver carries its own SQLite that
    // initialised already.
    static std::once_flag configured;
    std::call_once(configured, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

int progressHandler(void* token)
{
    return static_cast<const CancelToken*>(token)->isCancelled() ? 1 : 0;
}

bool isBusy(int code)
{
    return (code & 0xFF) == SQLITE_BUSY || (code & 0xFF) == SQLITE_LOCKED;
}

int qtErrorCode(const QSqlError& e)
{
    bool ok = false;
    const int code = e.nativeErrorCode().toInt(&ok);
    return ok ? code : SQLITE_ERROR;
}
} // namespace

std::unique_ptr<SqliteDb> SqliteDb::open(const QString& path, QString* error)
{
    QString ignored;
    QString& message = error ? *error : ignored;
    configureSqliteOnce();
    const QFileInfo info(path);
    const QString absolute = info.absoluteFilePath();
    const OpenPlan plan = planOpen(absolute);
    if (!plan.error.isEmpty()) {
        message = plan.error;
        return nullptr;
    }
    std::unique_ptr<SqliteDb> db(new SqliteDb);
    db->m_path = path;
    db->m_openMode = plan.mode;
    const bool readDirect
        = plan.immutable && exportvfs::modeFor(info.size()) == exportvfs::ReadMode::Direct && exportvfs::name();
    // The export VFS lives in the linked SQLite: a QSQLITE plugin with its own library does not know it, and the
    // plain open below says why the file cannot be read, if it cannot.
    const bool throughVfs = readDirect
        && db->openConnection(
            sqliteUri(absolute, plan.parameters + QStringLiteral("&vfs=") + QLatin1String(exportvfs::name())),
            &message);
    if (!throughVfs) {
        db->closeConnection();
        if (!db->openConnection(sqliteUri(absolute, plan.parameters), &message))
            return nullptr;
    }
    db->chooseAccess();
    db->describeReadMode();
    // Read the schema now: this is where "file is not a database", truncation of page 1 and locks surface.
    Statement st(*db, QStringLiteral("SELECT count(*) FROM sqlite_master"));
    if (!st.isValid() || st.step() != Statement::Step::Row) {
        if (isBusy(st.errorCode()))
            message = QStringLiteral("%1: in use by another process (a writer holds its lock); try again when it is "
                                     "done")
                          .arg(path);
        else if (plan.rollbackJournal && (st.errorCode() & 0xFF) == SQLITE_READONLY)
            // A hot journal: SQLite would roll the writer's unfinished transaction back, writing next to the trace.
            message = QStringLiteral("%1: has a rollback journal (%1-journal) left by a writer that did not finish; "
                                     "reading it would roll that back, writing next to the trace. Open it once with "
                                     "sqlite3 (which rolls it back), or open a copy of both files")
                          .arg(path);
        else
            message = QStringLiteral("%1: not a readable SQLite database (%2)").arg(path, st.error());
        return nullptr;
    }
    return db;
}

bool SqliteDb::openConnection(const QString& uri, QString* error)
{
    // Qt SQL sets up its driver table on first use behind an unlocked static flag, then qAddPostRoutine: two exports
    // opened at once for the first time (`compare A B`, the window's parallel loads) can, by our reading of its source,
    // register its cleanup twice, and at exit the second run re-registers itself forever. `compare` was seen twice
    // spinning in Qt SQL's post routine after its output; the race was never forced. The first use happens once,
    // here, while concurrent openers wait.
    static std::once_flag qtSqlReady;
    std::call_once(qtSqlReady, [] { QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")); });
    m_connectionName = QStringLiteral("nsw-sqlite-%1").arg(s_connectionCounter.fetchAndAddRelaxed(1));
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    if (!m_db.isValid()) {
        *error = QStringLiteral("%1: the Qt SQLite driver (QSQLITE) is not available").arg(m_path);
        return false;
    }
    // A locked file fails at once ("in use") instead of waiting for QSQLITE's default 5 s.
    m_db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI;QSQLITE_BUSY_TIMEOUT=0"));
    m_db.setDatabaseName(uri);
    if (!m_db.open()) {
        *error = QStringLiteral("%1: cannot open as SQLite: %2").arg(m_path, m_db.lastError().text());
        return false;
    }
    return true;
}

void SqliteDb::chooseAccess()
{
    const QString linkedVersion = QString::fromUtf8(sqlite3_libversion());
    const QString linked = linkedVersion + QLatin1Char(' ') + QString::fromUtf8(sqlite3_sourceid());
    QString plugin;
    {
        QSqlQuery q(m_db);
        if (q.exec(QStringLiteral("SELECT sqlite_version(), sqlite_source_id()")) && q.next())
            plugin = q.value(0).toString() + QLatin1Char(' ') + q.value(1).toString();
    }
    const QVariant handle = m_db.driver()->handle();
    sqlite3* native = nullptr;
    if (handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0)
        native = *static_cast<sqlite3* const*>(handle.data());
    m_access = SqliteAccess::QtSql;
    if (qgetenv("NSW_SQLITE_ACCESS") == "qtsql") {
        m_accessDescription = QStringLiteral("Qt SQL queries (NSW_SQLITE_ACCESS=qtsql); SQLite %1").arg(linkedVersion);
    } else if (plugin != linked) {
        m_accessDescription = QStringLiteral("Qt SQL queries: the QSQLITE plugin's SQLite (%1) is not the linked "
                                             "library (%2), so its handle is not used directly (slower, correct)")
                                  .arg(plugin.isEmpty() ? QStringLiteral("unknown") : plugin, linked);
    } else if (!native) {
        m_accessDescription = QStringLiteral("Qt SQL queries: the QSQLITE plugin gave no native handle");
    } else {
        m_access = SqliteAccess::Native;
        m_handle = native;
        m_accessDescription
            = QStringLiteral("native handle (SQLite %1, the same library as the QSQLITE plugin)").arg(linkedVersion);
    }
}

SqliteDb::~SqliteDb()
{
    if (m_handle)
        sqlite3_progress_handler(m_handle, 0, nullptr, nullptr);
    m_handle = nullptr;
    closeConnection();
}

void SqliteDb::closeConnection()
{
    if (m_db.isValid())
        m_db.close();
    m_db = QSqlDatabase();
    if (!m_connectionName.isEmpty())
        QSqlDatabase::removeDatabase(m_connectionName);
    m_connectionName.clear();
}

void SqliteDb::describeReadMode()
{
    // Only through the native handle: our SQLite must not be handed another library's connection.
    if (exportvfs::modeOf(m_handle) == exportvfs::ReadMode::Direct)
        m_openMode += QStringLiteral(", read around the page cache");
}

void SqliteDb::setInterruptToken(const CancelToken* token)
{
    if (!m_handle)
        return;
    if (token)
        sqlite3_progress_handler(m_handle, 4096, progressHandler, const_cast<CancelToken*>(token));
    else
        sqlite3_progress_handler(m_handle, 0, nullptr, nullptr);
}

void SqliteDb::readSchema() const
{
    if (m_schemaRead)
        return;
    m_schemaRead = true;
    Statement st(*this, QStringLiteral("SELECT type, name FROM sqlite_master WHERE type IN ('table','view')"));
    while (st.step() == Statement::Step::Row)
        (st.text(0) == QLatin1String("view") ? m_views : m_tables).append(st.text(1));
}

QStringList SqliteDb::tables() const
{
    readSchema();
    return m_tables;
}

QStringList SqliteDb::views() const
{
    readSchema();
    return m_views;
}

bool SqliteDb::hasTable(const QString& table) const
{
    readSchema();
    return m_tables.contains(table);
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

qint64 SqliteDb::countRows(const QString& table, QString* error) const
{
    if (!hasTable(table))
        return -1;
    Statement st(*this, QStringLiteral("SELECT count(*) FROM %1").arg(quoteIdentifier(table)));
    if (st.isValid() && st.step() == Statement::Step::Row)
        return st.int64(0);
    if (error)
        *error = QStringLiteral("%1: cannot count the rows of %2: %3").arg(m_path, table, st.error());
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
    if (m_handle)
        return QString::fromUtf8(sqlite3_errmsg(m_handle));
    return m_db.lastError().text();
}

Statement::Statement(const SqliteDb& db, const QString& sql)
    : m_db(db.handle())
{
    if (db.access() == SqliteAccess::QtSql || !m_db) {
        m_db = nullptr;
        m_query = std::make_unique<QSqlQuery>(db.database());
        m_query->setForwardOnly(true);
        if (!m_query->prepare(sql)) {
            m_error = m_query->lastError().text();
            m_errorCode = qtErrorCode(m_query->lastError());
            m_query.reset();
        }
        return;
    }
    const QByteArray utf8 = sql.toUtf8();
    const int rc = sqlite3_prepare_v2(m_db, utf8.constData(), int(utf8.size()), &m_stmt, nullptr);
    if (rc != SQLITE_OK) {
        m_error = QString::fromUtf8(sqlite3_errmsg(m_db));
        m_errorCode = sqlite3_extended_errcode(m_db);
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
    if (m_query) {
        if (!m_executed) {
            for (std::size_t i = 0; i < m_bindings.size(); ++i)
                m_query->bindValue(int(i), m_bindings[i]);
            m_executed = true;
            if (!m_query->exec()) {
                m_error = m_query->lastError().text();
                m_errorCode = qtErrorCode(m_query->lastError());
                return Step::Error;
            }
        }
        if (m_query->next())
            return Step::Row;
        if (!m_query->lastError().isValid())
            return Step::Done;
        m_error = m_query->lastError().text();
        m_errorCode = qtErrorCode(m_query->lastError());
        return Step::Error;
    }
    if (!m_stmt)
        return Step::Error;
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return Step::Row;
    if (rc == SQLITE_DONE)
        return Step::Done;
    m_error = QString::fromUtf8(sqlite3_errmsg(m_db));
    m_errorCode = sqlite3_extended_errcode(m_db);
    return Step::Error;
}

void Statement::reset()
{
    if (m_query) {
        m_query->finish();
        m_executed = false;
        return;
    }
    sqlite3_reset(m_stmt);
}

void Statement::bindInt64(int index1Based, qint64 value)
{
    if (m_query) {
        if (m_bindings.size() < std::size_t(index1Based))
            m_bindings.resize(std::size_t(index1Based));
        m_bindings[std::size_t(index1Based - 1)] = value;
        return;
    }
    sqlite3_bind_int64(m_stmt, index1Based, value);
}

qint64 Statement::int64(int column) const
{
    if (!m_query)
        return sqlite3_column_int64(m_stmt, column);
    const QVariant v = m_query->value(column);
    // As sqlite3_column_int64: a real is truncated, not rounded.
    return v.typeId() == QMetaType::Double ? qint64(v.toDouble()) : v.toLongLong();
}

Statement::IntCell Statement::intCell(int column) const
{
    if (m_query) {
        const SqlType t = type(column);
        return { t, t == SqlType::Null ? 0 : int64(column) };
    }
    sqlite3_value* value = sqlite3_column_value(m_stmt, column);
    return { SqlType(sqlite3_value_type(value)), sqlite3_value_int64(value) };
}

ConnectionLock::ConnectionLock(const SqliteDb& db)
    : m_mutex(db.handle() ? sqlite3_db_mutex(db.handle()) : nullptr)
{
    sqlite3_mutex_enter(m_mutex); // a no-op on a null mutex
}

ConnectionLock::~ConnectionLock()
{
    sqlite3_mutex_leave(m_mutex);
}

double Statement::real(int column) const
{
    return m_query ? m_query->value(column).toDouble() : sqlite3_column_double(m_stmt, column);
}

bool Statement::isNull(int column) const
{
    return type(column) == SqlType::Null;
}

SqlType Statement::type(int column) const
{
    if (!m_query)
        return SqlType(sqlite3_column_type(m_stmt, column));
    const QVariant v = m_query->value(column);
    if (v.isNull())
        return SqlType::Null;
    switch (v.typeId()) {
    case QMetaType::LongLong:
    case QMetaType::Int:
    case QMetaType::ULongLong:
    case QMetaType::UInt:
        return SqlType::Integer;
    case QMetaType::Double:
        return SqlType::Float;
    case QMetaType::QByteArray:
        return SqlType::Blob;
    default:
        return SqlType::Text;
    }
}

std::string_view Statement::bytes(int column) const
{
    if (m_query) {
        const QVariant v = m_query->value(column);
        m_bytes = v.typeId() == QMetaType::QByteArray ? v.toByteArray() : v.toString().toUtf8();
        return v.isNull() ? std::string_view() : std::string_view(m_bytes.constData(), std::size_t(m_bytes.size()));
    }
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    const int size = sqlite3_column_bytes(m_stmt, column);
    return data ? std::string_view(data, size_t(size)) : std::string_view();
}

QString Statement::text(int column) const
{
    if (m_query && type(column) == SqlType::Text)
        return m_query->value(column).toString();
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
