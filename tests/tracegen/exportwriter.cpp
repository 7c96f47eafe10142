// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportwriter.h"

#include <QFile>
#include <algorithm>
#include <sqlite3.h>
#include <stdexcept>

namespace nsw::tracegen {

namespace {

[[noreturn]] void fail(const QString& what)
{
    throw std::runtime_error(what.toStdString());
}

void check(sqlite3* db, int rc, const char* what)
{
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
        fail(QStringLiteral("%1: %2").arg(QLatin1String(what), QString::fromUtf8(sqlite3_errmsg(db))));
}

void execSql(sqlite3* db, const QByteArray& sql)
{
    char* err = nullptr;
    if (sqlite3_exec(db, sql.constData(), nullptr, nullptr, &err) != SQLITE_OK) {
        const QString msg = QString::fromUtf8(err ? err : "unknown error");
        sqlite3_free(err);
        fail(QStringLiteral("%1 (in: %2)").arg(msg, QString::fromUtf8(sql.left(200))));
    }
}

QString defaultLiteral(const ColumnSchema& c)
{
    if (c.type.compare(QLatin1String("TEXT"), Qt::CaseInsensitive) == 0)
        return QStringLiteral("''");
    if (c.type.compare(QLatin1String("REAL"), Qt::CaseInsensitive) == 0)
        return QStringLiteral("0.0");
    return QStringLiteral("0");
}

QString sqlLiteral(const Value& v)
{
    return std::visit(
        [](const auto& x) -> QString {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                return QStringLiteral("NULL");
            else if constexpr (std::is_same_v<T, qint64>)
                return QString::number(x);
            else if constexpr (std::is_same_v<T, double>)
                return QString::number(x, 'g', 17);
            else
                return QLatin1Char('\'') + QString(x).replace(QLatin1Char('\''), QStringLiteral("''"))
                    + QLatin1Char('\'');
        },
        v.data());
}

} // namespace

void Inserter::setInt(int pos, qint64 v)
{
    if (const int i = m_slot[std::size_t(pos)]; i >= 0) {
        Cell& c = m_row[std::size_t(i)];
        c.type = Cell::Int;
        c.i = v;
    }
}

void Inserter::setDouble(int pos, double v)
{
    if (const int i = m_slot[std::size_t(pos)]; i >= 0) {
        Cell& c = m_row[std::size_t(i)];
        c.type = Cell::Real;
        c.d = v;
    }
}

void Inserter::setText(int pos, const QString& v)
{
    const QByteArray u = v.toUtf8();
    setUtf8(pos, u.constData(), int(u.size()));
}

void Inserter::setUtf8(int pos, const char* data, int size)
{
    if (const int i = m_slot[std::size_t(pos)]; i >= 0) {
        Cell& c = m_row[std::size_t(i)];
        c.type = Cell::Text;
        c.text.assign(data, std::size_t(size));
    }
}

void Inserter::setNull(int pos)
{
    if (const int i = m_slot[std::size_t(pos)]; i >= 0)
        m_row[std::size_t(i)].type = Cell::Null;
}

void Inserter::bindRow(sqlite3_stmt* st, int firstParam, const Cell* row) const
{
    for (std::size_t i = 0; i < m_row.size(); ++i) {
        const Cell& c = row[i];
        const int p = firstParam + int(i);
        switch (c.type) {
        case Cell::Null:
            sqlite3_bind_null(st, p);
            break;
        case Cell::Int:
            sqlite3_bind_int64(st, p, c.i);
            break;
        case Cell::Real:
            sqlite3_bind_double(st, p, c.d);
            break;
        case Cell::Text:
            sqlite3_bind_text(st, p, c.text.data(), int(c.text.size()), SQLITE_STATIC);
            break;
        }
    }
}

void Inserter::step(sqlite3_stmt* st)
{
    const int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        fail(QStringLiteral("insert into %1: %2")
                 .arg(m_table, QString::fromUtf8(sqlite3_errmsg(sqlite3_db_handle(st)))));
}

void Inserter::insert()
{
    if (m_batchRows <= 1) {
        bindRow(m_rowStmt, 1, m_row.data());
        step(m_rowStmt);
        return;
    }
    const std::size_t width = m_row.size();
    const std::size_t at = std::size_t(m_pendingRows) * width;
    for (std::size_t i = 0; i < width; ++i) {
        const Cell& from = m_row[i];
        Cell& to = m_pending[at + i];
        to.type = from.type;
        to.i = from.i;
        to.d = from.d;
        if (from.type == Cell::Text)
            to.text.assign(from.text);
    }
    if (++m_pendingRows == m_batchRows) {
        for (int r = 0; r < m_batchRows; ++r)
            bindRow(m_batchStmt, 1 + r * int(width), m_pending.data() + std::size_t(r) * width);
        m_pendingRows = 0;
        step(m_batchStmt);
    }
}

void Inserter::flush()
{
    const std::size_t width = m_row.size();
    const int rows = m_pendingRows;
    m_pendingRows = 0;
    for (int r = 0; r < rows; ++r) {
        bindRow(m_rowStmt, 1, m_pending.data() + std::size_t(r) * width);
        step(m_rowStmt);
    }
}

ExportWriter::ExportWriter(const QString& path, const QString& version, CreateTables create)
    : m_path(path)
    , m_schema(SchemaCatalog::find(version))
{
    if (!m_schema)
        fail(QStringLiteral("unknown nsys schema version '%1' (known: %2)")
                 .arg(version, SchemaCatalog::versions().join(QLatin1String(", "))));
    if (QFile::exists(path) && !QFile::remove(path))
        fail(QStringLiteral("cannot overwrite %1").arg(path));
    const int rc = sqlite3_open_v2(QFile::encodeName(path).constData(), &m_db,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const QString msg = QString::fromUtf8(m_db ? sqlite3_errmsg(m_db) : "out of memory");
        sqlite3_close(m_db);
        m_db = nullptr;
        fail(QStringLiteral("cannot create %1: %2").arg(path, msg));
    }
    // The file is scratch output: no journal, no fsync, one transaction.
    execSql(m_db,
        "PRAGMA page_size=4096; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
        "PRAGMA locking_mode=EXCLUSIVE; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16384; BEGIN");
    createTable(QStringLiteral("StringIds"));
    if (create == CreateTables::All) {
        for (const TableSchema& t : m_schema->tables)
            createTable(t.name);
    }
}

ExportWriter::~ExportWriter()
{
    try {
        finish();
    } catch (...) { }
}

bool ExportWriter::hasColumn(QStringView table, QStringView column) const
{
    const TableSchema* t = m_schema->table(table);
    return t && t->columnIndex(column) >= 0;
}

const TableSchema& ExportWriter::tableSchema(const QString& table) const
{
    const TableSchema* t = m_schema->table(table);
    if (!t)
        fail(QStringLiteral("nsys %1 exports have no table %2").arg(m_schema->version, table));
    return *t;
}

void ExportWriter::createTable(const QString& table)
{
    if (!m_db)
        fail(QStringLiteral("%1 is already finished").arg(m_path));
    if (m_created.contains(table))
        return;
    const TableSchema& t = tableSchema(table);
    execSql(m_db, t.sql.toUtf8());
    m_created.insert(table, true);
    if (!t.rows.isEmpty()) {
        QStringList cols;
        for (const ColumnSchema& c : t.columns)
            cols.append(c.name);
        Inserter& ins = prepare(table, cols);
        for (const QVariantList& row : t.rows) {
            for (int i = 0; i < row.size(); ++i) {
                const QVariant& v = row.at(i);
                if (v.isNull())
                    ins.setNull(i);
                else if (v.typeId() == QMetaType::QString)
                    ins.setText(i, v.toString());
                else if (v.typeId() == QMetaType::Double && v.toDouble() != double(v.toLongLong()))
                    ins.setDouble(i, v.toDouble());
                else
                    ins.set(i, v.toLongLong());
            }
            ins.insert();
        }
    }
}

sqlite3_stmt* ExportWriter::compile(const QString& sql)
{
    sqlite3_stmt* st = nullptr;
    const QByteArray u = sql.toUtf8();
    check(m_db, sqlite3_prepare_v3(m_db, u.constData(), int(u.size()), SQLITE_PREPARE_PERSISTENT, &st, nullptr),
        "prepare insert");
    return st;
}

Inserter& ExportWriter::prepare(
    const QString& table, const QStringList& columns, MissingColumns missing, int batchRows, const Fields& constants)
{
    createTable(table);
    const TableSchema& t = tableSchema(table);
    auto ins = std::make_unique<Inserter>();
    ins->m_table = table;
    QStringList names, values;
    ins->m_slot.assign(std::size_t(columns.size()), -1);
    for (qsizetype i = 0; i < columns.size(); ++i) {
        if (t.columnIndex(columns.at(i)) < 0) {
            if (missing == MissingColumns::Fail)
                fail(QStringLiteral("nsys %1 table %2 has no column %3").arg(m_schema->version, t.name, columns.at(i)));
            continue;
        }
        if (names.contains(columns.at(i)))
            fail(QStringLiteral("column %1 given twice for %2").arg(columns.at(i), t.name));
        ins->m_slot[std::size_t(i)] = int(names.size());
        names.append(columns.at(i));
        values.append(QStringLiteral("?"));
    }
    ins->m_row.resize(std::size_t(names.size()));
    for (const Field& f : constants) {
        if (t.columnIndex(f.name) < 0) {
            if (missing == MissingColumns::Fail)
                fail(QStringLiteral("nsys %1 table %2 has no column %3").arg(m_schema->version, t.name, f.name));
            continue;
        }
        if (names.contains(f.name))
            fail(QStringLiteral("column %1 given twice for %2").arg(f.name, t.name));
        names.append(f.name);
        values.append(sqlLiteral(f.value));
    }
    for (const ColumnSchema& c : t.columns) {
        if (c.notNull && !names.contains(c.name)) {
            names.append(c.name);
            values.append(defaultLiteral(c));
        }
    }
    const QString head
        = QStringLiteral("INSERT INTO %1 (\"%2\") VALUES ").arg(t.name, names.join(QLatin1String("\", \"")));
    const QString tuple = QLatin1Char('(') + values.join(QLatin1String(", ")) + QLatin1Char(')');
    if (names.isEmpty()) {
        ins->m_rowStmt = compile(QStringLiteral("INSERT INTO %1 DEFAULT VALUES").arg(t.name));
        batchRows = 1;
    } else {
        ins->m_rowStmt = compile(head + tuple);
    }
    // Stay far below SQLite's bound-parameter limit.
    ins->m_batchRows = ins->m_row.empty() ? 1 : std::clamp(batchRows, 1, 8000 / int(ins->m_row.size()));
    if (ins->m_batchRows > 1) {
        QStringList tuples(ins->m_batchRows, tuple);
        ins->m_batchStmt = compile(head + tuples.join(QLatin1String(", ")));
        ins->m_pending.resize(std::size_t(ins->m_batchRows) * ins->m_row.size());
    }
    m_inserters.push_back(std::move(ins));
    return *m_inserters.back();
}

qint64 ExportWriter::string(const QString& value)
{
    if (const auto it = m_strings.constFind(value); it != m_strings.constEnd())
        return *it;
    if (!m_stringInsert)
        m_stringInsert = &prepare(QStringLiteral("StringIds"), { QStringLiteral("id"), QStringLiteral("value") });
    const qint64 id = m_strings.size() + 1;
    m_stringInsert->set(0, id);
    m_stringInsert->setText(1, value);
    m_stringInsert->insert();
    m_strings.insert(value, id);
    return id;
}

void ExportWriter::insert(const QString& table, const Fields& fields)
{
    QStringList cols;
    cols.reserve(qsizetype(fields.size()));
    for (const Field& f : fields)
        cols.append(f.name);
    const QString key = table + QLatin1Char('|') + cols.join(QLatin1Char(','));
    auto it = m_insertCache.find(key);
    if (it == m_insertCache.end())
        it = m_insertCache.emplace(key, &prepare(table, cols, MissingColumns::Fail, 1)).first;
    Inserter& ins = *it->second;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const int pos = int(i);
        std::visit(
            [&](const auto& v) {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, std::monostate>)
                    ins.setNull(pos);
                else if constexpr (std::is_same_v<T, qint64>)
                    ins.set(pos, v);
                else if constexpr (std::is_same_v<T, double>)
                    ins.setDouble(pos, v);
                else
                    ins.setText(pos, v);
            },
            fields[i].value.data());
    }
    ins.insert();
}

void ExportWriter::exec(const QString& sql)
{
    if (!m_db)
        fail(QStringLiteral("%1 is already finished").arg(m_path));
    for (auto& ins : m_inserters)
        ins->flush();
    execSql(m_db, sql.toUtf8());
}

void ExportWriter::flush()
{
    for (auto& ins : m_inserters)
        ins->flush();
}

void ExportWriter::finish()
{
    if (!m_db)
        return;
    for (auto& ins : m_inserters)
        ins->flush();
    for (auto& ins : m_inserters) {
        sqlite3_finalize(ins->m_rowStmt);
        sqlite3_finalize(ins->m_batchStmt);
    }
    m_inserters.clear();
    m_insertCache.clear();
    m_stringInsert = nullptr;
    sqlite3* db = m_db;
    m_db = nullptr;
    char* err = nullptr;
    const int rc = sqlite3_exec(db, "COMMIT", nullptr, nullptr, &err);
    const QString msg = QString::fromUtf8(err ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
    if (rc != SQLITE_OK)
        fail(QStringLiteral("commit %1: %2").arg(m_path, msg));
}

} // namespace nsw::tracegen
