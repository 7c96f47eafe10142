// SPDX-License-Identifier: GPL-3.0-or-later
#include "logging.h"

Q_LOGGING_CATEGORY(lcLoad, "nsw.load", QtWarningMsg)
Q_LOGGING_CATEGORY(lcJobs, "nsw.jobs", QtWarningMsg)
Q_LOGGING_CATEGORY(lcSqlite, "nsw.sqlite", QtWarningMsg)
Q_LOGGING_CATEGORY(lcAnalysis, "nsw.analysis", QtWarningMsg)
Q_LOGGING_CATEGORY(lcCli, "nsw.cli", QtWarningMsg)
