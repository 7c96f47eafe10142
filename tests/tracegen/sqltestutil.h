// SPDX-License-Identifier: GPL-3.0-or-later
// Plain-SQL helpers for the tracegen tests: results come straight from SQLite, independent of the generator.
#pragma once

#include <QByteArray>
#include <QString>
#include <QTest>
#include <QVariantList>
#include <sqlite3.h>

namespace nsw::tracegen::test {

class Db
{
public:
    explicit Db(const QString& path, bool readOnly = true)
    {
        const QByteArray uri = QByteArray("file:") + path.toUtf8() + (readOnly ? "?mode=ro" : "");
        if (sqlite3_open_v2(uri.constData(), &m_db,
                (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_URI, nullptr)
            != SQLITE_OK) {
            qWarning("cannot open %s", qPrintable(path));
            sqlite3_close(m_db);
            m_db = nullptr;
        }
    }
    ~Db() { sqlite3_close(m_db); }
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;

    bool isOpen() const { return m_db != nullptr; }

    QList<QVariantList> rows(const QString& sql) const
    {
        QList<QVariantList> out;
        sqlite3_stmt* st = nullptr;
        const QByteArray u = sql.toUtf8();
        if (sqlite3_prepare_v2(m_db, u.constData(), int(u.size()), &st, nullptr) != SQLITE_OK) {
            qWarning("SQL error: %s in %s", sqlite3_errmsg(m_db), u.constData());
            return out;
        }
        while (sqlite3_step(st) == SQLITE_ROW) {
            QVariantList row;
            for (int i = 0; i < sqlite3_column_count(st); ++i) {
                switch (sqlite3_column_type(st, i)) {
                case SQLITE_NULL:
                    row.append(QVariant());
                    break;
                case SQLITE_INTEGER:
                    row.append(qint64(sqlite3_column_int64(st, i)));
                    break;
                case SQLITE_FLOAT:
                    row.append(sqlite3_column_double(st, i));
                    break;
                default:
                    row.append(QString::fromUtf8(
                        reinterpret_cast<const char*>(sqlite3_column_text(st, i)), sqlite3_column_bytes(st, i)));
                }
            }
            out.append(row);
        }
        sqlite3_finalize(st);
        return out;
    }

    QVariant value(const QString& sql) const
    {
        const auto r = rows(sql);
        return r.isEmpty() || r.first().isEmpty() ? QVariant() : r.first().first();
    }
    qint64 integer(const QString& sql) const { return value(sql).toLongLong(); }

    QStringList column(const QString& sql) const
    {
        QStringList out;
        for (const QVariantList& r : rows(sql))
            out.append(r.value(0).toString());
        return out;
    }

    /// PRAGMA table_info as "name|type|notnull|pk" strings.
    QStringList tableInfo(const QString& table) const
    {
        QStringList out;
        for (const QVariantList& r : rows(QStringLiteral("PRAGMA table_info(\"%1\")").arg(table)))
            out.append(
                QStringLiteral("%1|%2|%3|%4").arg(r[1].toString(), r[2].toString(), r[3].toString(), r[5].toString()));
        return out;
    }

    QStringList tables() const
    {
        return column(QStringLiteral("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"));
    }

private:
    sqlite3* m_db = nullptr;
};

} // namespace nsw::tracegen::test
