// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw {

// The words for damage a reader of an export read past: the loader and the readers that go to the file themselves
// (nvlink's kernels at the peaks) say it the same way.

inline QString skippedRowsWarning(const QString& table, qint64 rows)
{
    return QStringLiteral(
        "%1: %2 rows skipped (start or end missing, not an integer, implausible, or end before start)")
        .arg(table)
        .arg(rows);
}

inline QString unknownIdsWarning(const QString& table, qint64 ids)
{
    return QStringLiteral("%1: %2 ids out of range or not integers, shown as unknown").arg(table).arg(ids);
}

/// For readers that keep nsys's SQL semantics (analyze's rules): the damaged rows were read, not skipped.
inline QString readAsSqlWarning(const QString& table, qint64 rows)
{
    return QStringLiteral("%1: %2 rows hold values nsys does not write (start or end missing, or text, a fraction or "
                          "a blob where nsys writes an integer); the rules read them as nsys analyze's SQL does")
        .arg(table)
        .arg(rows);
}

inline QString missingStringsWarning(qint64 ids)
{
    return QStringLiteral("%1 string ids are missing from StringIds (trimmed export?)").arg(ids);
}

} // namespace nsw
