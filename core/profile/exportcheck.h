// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw {

class SqliteDb;

/// Checks that can be made before SQLite opens the file: exists, is a regular readable file, not empty,
/// starts with the SQLite magic, and is not shorter than its header says. Returns an empty string when
/// fine, else a one-line message naming the file and the problem.
QString checkFileBeforeOpen(const QString& path);

/// Checks that an open SQLite database is an Nsight Systems export. Empty string when it is.
QString checkIsNsysExport(const SqliteDb& db);

} // namespace nsw
