// SPDX-License-Identifier: GPL-3.0-or-later
// One function per headless command, each in its own cmd_<name>.cpp.
#pragma once

#include <QStringList>

namespace nsw::cli {

int runInfo(const QStringList& args);
int runStats(const QStringList& args);
int runNvtx(const QStringList& args);
int runCategories(const QStringList& args);
int runNvlink(const QStringList& args);
int runCompare(const QStringList& args);
int runAnalyze(const QStringList& args);
int runExport(const QStringList& args);
int runIterations(const QStringList& args);
int runMfu(const QStringList& args);
int runProfile(const QStringList& args);
int runReport(const QStringList& args);
int runFindings(const QStringList& args);
int runSamples(const QStringList& args);
int runRanks(const QStringList& args);
int runSummarize(const QStringList& args);
int runCache(const QStringList& args);

} // namespace nsw::cli
