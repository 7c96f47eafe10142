// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/loadtypes.h"

#include <QCommandLineParser>
#include <QIODevice>
#include <QSize>
#include <QString>
#include <functional>
#include <optional>

namespace nsw::cli {

/// One line on stderr: "nsys-workbench: <message>".
void printError(const QString& message);
void writeStdout(const QString& text);
/// Writes @p text to @p file atomically, or to stdout when @p file is empty or "-". Returns an error or "".
QString writeOutput(const QString& text, const QString& file);
/// Streams to @p file atomically, or to stdout, through @p write (false when it failed). Returns an error or "".
QString writeOutputWith(const QString& file, const std::function<bool(QIODevice&)>& write);

/// Whether a command line asks for a chart (--png FILE or --png=FILE): rendering one needs the GUI platform.
bool asksForPng(const QStringList& args);

/// "WIDTHxHEIGHT" (each at least 100) of --png-size; prints the error and returns nothing when malformed.
std::optional<QSize> parsePngSize(const QString& text);

/// Whether --format's @p value is one of @p allowed; prints "--format must be a, b or c, not 'x'" when not.
bool checkFormat(const QString& value, const QStringList& allowed);

/// Whether --png can be honoured: charts are widgets, drawn only under the QApplication that nsys-workbench starts
/// when asksForPng(). Prints the error when not.
bool checkPngAvailable();

/// Parses a command's arguments; on --help prints help and sets @p exitCode to 0, on error prints the error and
/// sets it to ExitUsage. Returns true when the command should go on.
bool parseArguments(QCommandLineParser& parser, const QStringList& args, const QString& description, int* exitCode);

/// Loads an export for a command (headless); prints the error and sets @p exitCode on failure.
ProfilePtr loadProfile(const QString& path, const LoadOptions& options, int* exitCode);

} // namespace nsw::cli
