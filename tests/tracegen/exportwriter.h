// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "schemacatalog.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>
#include <concepts>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace nsw::tracegen {

/// Serialized GlobalId packing (schema doc §2): TID in bits 0-23, PID in 24-47, host/VM part in 48-63.
constexpr qint64 globalPid(qint64 pid, qint64 host = 1)
{
    return (host << 48) | ((pid & 0xFFFFFF) << 24);
}
constexpr qint64 globalTid(qint64 pid, qint64 tid, qint64 host = 1)
{
    return globalPid(pid, host) | (tid & 0xFFFFFF);
}
constexpr qint64 pidOfGlobalId(qint64 id)
{
    return (id >> 24) & 0xFFFFFF;
}
constexpr qint64 tidOfGlobalId(qint64 id)
{
    return id & 0xFFFFFF;
}

/// A cell value for ExportWriter::insert(): NULL, integer, real or text.
class Value
{
public:
    Value() = default;
    Value(std::nullptr_t) { }
    template <std::integral T>
    Value(T v)
        : m_v(qint64(v))
    { }
    Value(double v)
        : m_v(v)
    { }
    Value(const QString& v)
        : m_v(v)
    { }
    Value(const char* utf8)
        : m_v(QString::fromUtf8(utf8))
    { }

    const std::variant<std::monostate, qint64, double, QString>& data() const { return m_v; }

private:
    std::variant<std::monostate, qint64, double, QString> m_v;
};

struct Field
{
    Field(const char* column, Value v)
        : name(QString::fromLatin1(column))
        , value(std::move(v))
    { }
    Field(const QString& column, Value v)
        : name(column)
        , value(std::move(v))
    { }
    QString name;
    Value value;
};
using Fields = std::vector<Field>;

/// A prepared INSERT for a fixed list of columns. Values persist between insert() calls, so columns that never change
/// need to be set only once. Positions are those of the column list given to ExportWriter::prepare(); a position whose
/// column the version lacks (MissingColumns::Skip) silently ignores what is set. Rows are buffered and written as
/// multi-row INSERTs; constraint errors of buffered rows surface at the next flush.
class Inserter
{
public:
    template <std::integral T> void set(int pos, T v) { setInt(pos, qint64(v)); }
    void setDouble(int pos, double v);
    void setText(int pos, const QString& v);
    void setUtf8(int pos, const char* data, int size);
    void setNull(int pos);
    bool has(int pos) const { return m_slot[std::size_t(pos)] >= 0; }
    void insert();
    void flush();

private:
    friend class ExportWriter;
    struct Cell
    {
        enum Type : std::uint8_t
        {
            Null,
            Int,
            Real,
            Text
        };
        Type type = Null;
        qint64 i = 0;
        double d = 0;
        std::string text;
    };
    void setInt(int pos, qint64 v);
    void bindRow(sqlite3_stmt* st, int firstParam, const Cell* row) const;
    void step(sqlite3_stmt* st);

    sqlite3_stmt* m_batchStmt = nullptr; // m_batchRows rows per statement
    sqlite3_stmt* m_rowStmt = nullptr; // one row
    int m_batchRows = 1;
    std::vector<int> m_slot; // index into m_row per requested column, -1 when skipped
    std::vector<Cell> m_row;
    std::vector<Cell> m_pending; // buffered rows, flattened
    int m_pendingRows = 0;
    QString m_table;
};

/// Writes an Nsight Systems SQLite export with the exact schema of one nsys version (see SchemaCatalog). Everything
/// happens in one transaction on a file opened with journal_mode=OFF and synchronous=OFF; finish() commits. Errors
/// (unknown version, table or column, SQLite failures) throw std::runtime_error.
class ExportWriter
{
public:
    enum class CreateTables
    {
        Lazily,
        All
    };
    enum class MissingColumns
    {
        Fail,
        Skip
    };

    ExportWriter(const QString& path, const QString& version, CreateTables create = CreateTables::Lazily);
    ~ExportWriter();
    ExportWriter(const ExportWriter&) = delete;
    ExportWriter& operator=(const ExportWriter&) = delete;

    const VersionSchema& schema() const { return *m_schema; }
    bool hasTable(QStringView table) const { return m_schema->table(table) != nullptr; }
    bool hasColumn(QStringView table, QStringView column) const;

    /// Creates the table (with the version's own CREATE statement) if it does not exist yet.
    void createTable(const QString& table);

    /// Interns a string into StringIds and returns its id (ids start at 1, in order of first use).
    qint64 string(const QString& value);

    /// Inserts one row; columns not given get NULL when nullable, else 0 (0.0, '' for REAL/TEXT).
    void insert(const QString& table, const Fields& fields);

    /// A fast INSERT for repeated rows of the same shape; unspecified NOT NULL columns get the defaults of insert().
    /// batchRows > 1 buffers rows and writes them with multi-row INSERTs. constants are columns with one fixed value
    /// for every row, written into the statement itself (cheaper than setting them).
    Inserter& prepare(const QString& table, const QStringList& columns, MissingColumns missing = MissingColumns::Fail,
        int batchRows = 64, const Fields& constants = {});

    /// Runs raw SQL in the open transaction (for fixtures that need something unusual).
    void exec(const QString& sql);
    /// Writes every buffered row, so that queries on handle() see them.
    void flush();

    /// Commits and closes the file. Called by the destructor if needed (errors there are swallowed).
    void finish();

    sqlite3* handle() const { return m_db; }
    QString path() const { return m_path; }

private:
    const TableSchema& tableSchema(const QString& table) const;
    sqlite3_stmt* compile(const QString& sql);

    QString m_path;
    const VersionSchema* m_schema = nullptr;
    sqlite3* m_db = nullptr;
    QHash<QString, bool> m_created;
    QHash<QString, qint64> m_strings;
    Inserter* m_stringInsert = nullptr;
    std::vector<std::unique_ptr<Inserter>> m_inserters;
    std::map<QString, Inserter*> m_insertCache; // insert(): one statement per table + column list
};

} // namespace nsw::tracegen
