// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLoggingCategory>

// One category per area ("nsw.load", ...), warnings shown by default; QT_LOGGING_RULES="nsw.*.debug=true" shows
// the rest (stage timings, superseded jobs, fallbacks).
Q_DECLARE_LOGGING_CATEGORY(lcLoad)
Q_DECLARE_LOGGING_CATEGORY(lcJobs)
Q_DECLARE_LOGGING_CATEGORY(lcSqlite)
Q_DECLARE_LOGGING_CATEGORY(lcAnalysis)
Q_DECLARE_LOGGING_CATEGORY(lcCli)
