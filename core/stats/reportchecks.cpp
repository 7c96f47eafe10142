// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportchecks.h"

#include <QFileInfo>

namespace nsw {

bool profileHasTable(const Profile& profile, const char* table)
{
    return profile.meta.tables.contains(QLatin1String(table));
}

QString reportFileName(const Profile& profile)
{
    return QFileInfo(profile.meta.filePath).absoluteFilePath();
}

ReportTable skippedReport(const QString& name, const QString& title, const QString& message)
{
    ReportTable t;
    t.name = name;
    t.title = title;
    t.skipped = message;
    return t;
}

QString noDataMessage()
{
    return QStringLiteral("No data available.");
}

} // namespace nsw
