// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"

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
    ExitOutOfMemory = 5, ///< not enough memory (to load the export: the message says about how much it needs)
    ExitBusy = 6, ///< the export is in use: a writer holds it, or left a journal (try again once it is done)
    ExitTool = 7, ///< a report (.nsys-rep, .qdstrm) could not be exported: no nsys, too old, or nsys failed
    ExitInternal = 8, ///< an internal error (a bug: please report it with the message)
};

/// The exit code of a failed request's error kind (Usage 1, Input 2, NoData 4, OutOfMemory 5, Busy 6, Tool 7,
/// Internal 8).
int exitCodeOf(const Error& error);

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
