// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

namespace nsw::cli {

/// Exit codes of every command (documented in the README).
enum ExitCode : int
{
    ExitOk = 0,
    ExitUsage = 1, ///< bad arguments
    ExitInput = 2, ///< a file could not be read or is not what it should be
    ExitRegression = 3, ///< compare --fail-above: a key regressed more than allowed
    ExitNoData = 4, ///< the input has none of the data the command needs
};

struct Command
{
    QString name;
    QString summary;
    std::function<int(const QStringList& args)> run; ///< args start with the command name
};

/// Every headless command; each lives in its own cmd_<name>.cpp and is listed in cli.cpp.
const std::vector<Command>& commands();
bool isCommand(const QString& name);
int run(const QStringList& args);
/// The command draws charts: it needs a QApplication (main() then creates one on the offscreen platform).
bool needsGui(const QStringList& args);
int printTopLevelHelp();
int printVersion();

} // namespace nsw::cli
