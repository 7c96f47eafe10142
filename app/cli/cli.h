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
    /// True when these arguments need the widgets (e.g. rendering a chart to PNG): main() then creates a
    /// QApplication on the offscreen platform instead of a QCoreApplication.
    std::function<bool(const QStringList& args)> wantsGui = {};
};

/// Every headless command; each lives in its own cmd_<name>.cpp and is listed in cli.cpp.
const std::vector<Command>& commands();
bool isCommand(const QString& name);
/// Whether the command line (command first) needs a QApplication.
bool commandWantsGui(const QStringList& args);
int run(const QStringList& args);
int printTopLevelHelp();
int printVersion();

} // namespace nsw::cli
