// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"
#include "core/sqlite/sqlitedb.h"

#include <QString>
#include <functional>

namespace nsw {

/// Reads what a report needs beyond the loaded profile (side tables such as the unified memory page faults, or the
/// NVTX rowids) straight from the export the profile was loaded from, read-only and opened as the loader opens it.
/// Calls @p row for every result row of @p sql. Returns an empty string, or an error naming the file and @p table.
QString readExportRows(
    const Profile& profile, const QString& table, const QString& sql, const std::function<void(const Statement&)>& row);

} // namespace nsw
