// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportquery.h"

#include "core/stats/reportchecks.h"

namespace nsw {

QString readExportRows(
    const Profile& profile, const QString& table, const QString& sql, const std::function<void(const Statement&)>& row)
{
    if (profile.meta.filePath.isEmpty())
        return QStringLiteral("the profile has no export file to read %1 from").arg(table);
    QString error;
    const std::unique_ptr<SqliteDb> db = SqliteDb::open(profile.meta.filePath, &error);
    if (!db)
        return error;
    Statement statement(*db, sql);
    if (!statement.isValid())
        return QStringLiteral("%1: %2: %3").arg(reportFileName(profile), table, statement.error());
    for (;;) {
        switch (statement.step()) {
        case Statement::Step::Row:
            row(statement);
            continue;
        case Statement::Step::Done:
            return {};
        case Statement::Step::Error:
            return QStringLiteral("%1: %2: %3").arg(reportFileName(profile), table, statement.error());
        }
    }
}

} // namespace nsw
