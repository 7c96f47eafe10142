// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"
#include "core/stats/reporttable.h"

namespace nsw {

/// What every report checks and says the way nsys does: its "does not contain" messages name the file as nsys
/// opened it (an absolute path), and an empty result is "No data available.".
bool profileHasTable(const Profile& profile, const char* table);
QString reportFileName(const Profile& profile);
ReportTable skippedReport(const QString& name, const QString& title, const QString& message);
QString noDataMessage();

} // namespace nsw
