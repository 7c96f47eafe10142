// SPDX-License-Identifier: GPL-3.0-or-later
#include "sqlitefixture.h"

#include <QFile>
#include <sqlite3.h>

namespace nsw::test {

SqliteFixture::SqliteFixture(const QString& path)
{
    QFile::remove(path);
    if (sqlite3_open(path.toUtf8().constData(), &m_db) != SQLITE_OK)
        m_error = QString::fromUtf8(sqlite3_errmsg(m_db));
}

SqliteFixture::~SqliteFixture()
{
    close();
}

void SqliteFixture::close()
{
    if (m_db)
        sqlite3_close(m_db);
    m_db = nullptr;
}

bool SqliteFixture::exec(const QString& sql)
{
    char* message = nullptr;
    if (sqlite3_exec(m_db, sql.toUtf8().constData(), nullptr, nullptr, &message) != SQLITE_OK) {
        m_error = QString::fromUtf8(message);
        sqlite3_free(message);
        return false;
    }
    return true;
}

QString execOnFile(const QString& path, const QString& sql)
{
    sqlite3* db = nullptr;
    QString error;
    char* message = nullptr;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
        error = QString::fromUtf8(sqlite3_errmsg(db));
    else if (sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, &message) != SQLITE_OK)
        error = QString::fromUtf8(message);
    sqlite3_free(message);
    sqlite3_close(db);
    return error;
}

QList<QStringList> queryRows(const QString& path, const QString& sql)
{
    QList<QStringList> rows;
    sqlite3* db = nullptr;
    const QByteArray uri = QByteArrayLiteral("file:") + path.toUtf8() + QByteArrayLiteral("?mode=ro&immutable=1");
    if (sqlite3_open_v2(uri.constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return rows;
    }
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &st, nullptr) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            QStringList row;
            for (int c = 0; c < sqlite3_column_count(st); ++c) {
                const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
                row.append(text ? QString::fromUtf8(text, sqlite3_column_bytes(st, c)) : QString());
            }
            rows.append(row);
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rows;
}

} // namespace nsw::test
