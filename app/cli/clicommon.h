// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/cli.h"
#include "core/jobs/result.h"
#include "core/profile/loadtypes.h"
#include "core/util/cachesettings.h"

#include <QCommandLineParser>
#include <QIODevice>
#include <QSize>
#include <QString>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>

class QCustomPlot;

namespace nsw::cli {

/// The command line (without the program) as QStrings. An argument that is not valid in the local encoding (a
/// Latin-1 file name on a UTF-8 system) but names an existing file becomes a symlink to that file with a name Qt
/// can hold, in a folder that lives as long as the process: Qt's paths are QStrings, so the name would otherwise
/// read as "no such file".
QStringList decodeArguments(int argc, char** argv);

/// One line on stderr: "nsys-workbench: <message>".
void printError(const QString& message);
/// "nsys-workbench: warning: <message>" on stderr; the message is also kept for the JSON outputs' "warnings".
void printWarning(const QString& message);
/// Adds "warnings" (every printWarning() of this command, in order) to a JSON output object, when there was any:
/// damage tolerated while reading (rows skipped, ids out of range, defaults used) travels with the numbers.
void addWarningsMember(nlohmann::ordered_json& object);
/// Forgets the warnings of an earlier command (the CLI runs one command per process; tests run several).
void clearWarnings();
void writeStdout(const QString& text);
/// Writes @p text to @p file atomically, or to stdout when @p file is empty or "-". Returns an error or "".
QString writeOutput(const QString& text, const QString& file);
/// Streams to @p file atomically, or to stdout, through @p write (false when it failed). Returns an error or "".
QString writeOutputWith(const QString& file, const std::function<bool(QIODevice&)>& write);

/// writeOutput() for a command: ExitOk, or ExitInput after printing the error.
int writeCommandOutput(const QString& text, const QString& file);
/// writeOutputWith() for a command: ExitOk, or ExitInput after printing the error.
int writeCommandOutputWith(const QString& file, const std::function<bool(QIODevice&)>& write);

/// The positional TRACE of a command that reads one export.
void addTraceArgument(QCommandLineParser& parser, const QString& help = QStringLiteral("An nsys SQLite export."));
/// The one positional argument, or nothing after printing "<command> takes exactly one TRACE (see <command> --help)".
std::optional<QString> singleTrace(const QCommandLineParser& parser, const QString& command);
/// -f/--format; @p help names the formats and the default, @p defaultFormat.
QCommandLineOption formatOption(const QString& help, const QString& defaultFormat);
/// --@p name, with @p help; it takes a value shown as @p valueName when one is given, @p defaultValue when not set.
QCommandLineOption option(
    const char* name, const QString& help, const char* valueName = nullptr, const char* defaultValue = nullptr);
/// --iteration-marker NAME of ranks and summarize (a summary keeps the marker it was made with).
QCommandLineOption rankIterationMarkerOption();
/// -o/--output FILE.
QCommandLineOption outputOption(const QString& help = QStringLiteral("Write to FILE instead of stdout."));

/// Whether a command line asks for a chart (--png FILE or --png=FILE): rendering one needs the GUI platform.
bool asksForPng(const QStringList& args);

/// "WIDTHxHEIGHT" (each at least 100) of --png-size; prints the error and returns nothing when malformed.
std::optional<QSize> parsePngSize(const QString& text);

/// Whether --format's @p value is one of @p allowed; prints "--format must be a, b or c, not 'x'" when not.
bool checkFormat(const QString& value, const QStringList& allowed);

/// Whether --png can be honoured: charts are widgets, drawn only under the QApplication that nsys-workbench starts
/// when asksForPng(). Prints the error when not.
bool checkPngAvailable();

/// Renders @p chart at @p size to the PNG @p file (savePlotPng); prints the error. ExitInput on failure, else ExitOk.
int writeChartPng(QCustomPlot& chart, const QString& file, QSize size);

/// Sets @p exitCode to ExitUsage and returns false: the end of an option parser that has printed what is wrong.
bool usageError(int* exitCode);

/// The --help description of @p command: resources/cli/COMMAND.txt (through Qt's resources), "%1"... for arg().
QString commandHelp(const char* command);

/// Parses a command's arguments; on --help prints help and sets @p exitCode to 0, on error prints the error and
/// sets it to ExitUsage. Returns true when the command should go on.
bool parseArguments(QCommandLineParser& parser, const QStringList& args, const QString& description, int* exitCode);
/// parseArguments() for a command that reads one export, and that export (singleTrace(); @p exitCode ExitUsage when
/// there is not exactly one). Nothing when the command stops here.
std::optional<QString> parseTraceArguments(
    QCommandLineParser& parser, const QStringList& args, const QString& description, int* exitCode);

/// A command in two steps: @p parse reads the command line into the command's own options (nothing: the command
/// stops with the exit code it set, 0 after --help), @p run does the work with them.
template <typename Command, typename Run>
int runParsed(const QStringList& args, std::optional<Command> (*parse)(const QStringList&, int*), Run run)
{
    int exitCode = ExitOk;
    std::optional<Command> command = parse(args, &exitCode);
    return command ? run(*command) : exitCode;
}

/// The caches of this command: the environment's (NSYS_WORKBENCH_CACHE_DIR, NSYS_WORKBENCH_CACHE_MAX_MB), else the
/// limit set in the window's Nsight Systems Settings; profiles off with --no-cache (parseArguments()).
CacheSettings& cacheSettings();
/// ProfileLoader::load through the profile cache of cacheSettings() (core/profilecache/profilecache.h); a note
/// about the cache (an entry dropped) goes to stderr, a write that fails is reported by finishCacheWrites().
LoadResult loadThroughCache(const QString& path, const LoadOptions& options);
/// Collects a profile cache write that failed, for finishCacheWrites() to print.
std::function<void(const Status&)> cacheWriteFailed();
/// "nsys-workbench: note: ..." on stderr for a load's cacheNote (an entry dropped), when there is one.
void printCacheNote(const QString& note);
/// Waits for the profile cache writes the command started; prints a warning for each that failed.
void finishCacheWrites();

/// Loads an export for a command (headless, through the profile cache); prints the error and sets @p exitCode on
/// failure, and prints the load's warnings on stderr.
ProfilePtr loadProfile(const QString& path, const LoadOptions& options, int* exitCode);
/// One "nsys-workbench: warning: FILE: ..." line on stderr per warning of loading @p path.
void printLoadWarnings(const QString& path, const QStringList& warnings);

/// Remembers every file a command line reads (every argument naming an existing file, except the values of
/// output options), so that no output can overwrite one of them.
void noteInputs(const QStringList& args);
/// Refuses an output path that exists and is not a regular file (a device, FIFO or directory: written through,
/// or replaced by an atomic save) or that is one of the inputs. Returns an error naming the file, or "".
QString checkOutputPath(const QString& file);
/// checkOutputPath() for every output option of a command line (-o, --output, --png, --mapping).
QString checkOutputArguments(const QStringList& args);

} // namespace nsw::cli
