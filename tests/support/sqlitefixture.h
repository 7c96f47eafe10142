// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

struct sqlite3;

namespace nsw::test {

/// Writes a hand-made SQLite file with plain SQL, for fixtures whose every row the test chooses.
class SqliteFixture
{
public:
    explicit SqliteFixture(const QString& path);
    ~SqliteFixture();
    SqliteFixture(const SqliteFixture&) = delete;
    SqliteFixture& operator=(const SqliteFixture&) = delete;

    /// Runs one or more statements; fails the test (QFAIL through a returned false) on error.
    bool exec(const QString& sql);
    QString lastError() const { return m_error; }
    void close();

private:
    sqlite3* m_db = nullptr;
    QString m_error;
};

/// Runs @p sql on an existing file (to damage a generated export, say); the error, empty on success.
QString execOnFile(const QString& path, const QString& sql);

/// Runs a query on a file (read-only) and returns rows of text cells; for independent checks in tests.
QList<QStringList> queryRows(const QString& path, const QString& sql);

} // namespace nsw::test
