// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/focus/focusresolve.h"
#include "core/profile/loadtypes.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <nlohmann/json.hpp>
#include <optional>

namespace nsw::cli {

/// What was typed on a command line: --range or --nvtx (resolved in core), or --iteration N|median (resolved here
/// with the iteration detection, a module core/focus must not depend on).
struct CommandFocusText
{
    FocusText text;
    QString iteration;
    bool isEmpty() const { return text.isEmpty() && iteration.isEmpty(); }
};

/// --range START:END, --nvtx RANGE[@DOMAIN][/INDEX] and --iteration N|median: what stats, nvtx, categories,
/// analyze, compare and export focus on (issue 16; README "Focus range").
struct FocusOptions
{
    QCommandLineOption range;
    QCommandLineOption nvtx;
    QCommandLineOption iteration;

    /// @p semantics completes the help: what the command keeps ("events that overlap it, durations not clipped").
    explicit FocusOptions(const QString& semantics);
    void addTo(QCommandLineParser& parser) const;
    CommandFocusText textOf(const QCommandLineParser& parser) const;
    /// textOf() into @p text; false when checkFocusText() refuses it (the error printed).
    bool read(const QCommandLineParser& parser, CommandFocusText& text) const;
};

/// Checks the typed focus before any load (malformed text, both options); prints the error. False on error.
bool checkFocusText(const CommandFocusText& text);
/// Adds the NVTX table to @p load when the focus names an NVTX range, and what the iteration detection reads for
/// --iteration.
void addFocusLoad(const CommandFocusText& text, LoadOptions& load);

/// resolveFocus(), or the iteration's range for --iteration (the detected iterations of `nsys-workbench iterations`:
/// index as listed there, or the median one).
Result<ResolvedFocus> resolveCommandFocus(const ProfilePtr& profile, const CommandFocusText& text);
/// The same for a command: prints the error (naming @p path) and sets @p exitCode on failure.
std::optional<ResolvedFocus> resolveCommandFocus(
    const ProfilePtr& profile, const CommandFocusText& text, const QString& path, int* exitCode);

/// A loaded profile and the focus its command asked for (inactive when none).
struct FocusedProfile
{
    ProfilePtr profile;
    ResolvedFocus focus;
};
/// Loads @p trace with @p load plus what the focus needs (addFocusLoad), then resolves the focus. Prints the error and
/// sets @p exitCode on failure.
std::optional<FocusedProfile> loadFocusedProfile(
    const QString& trace, LoadOptions load, const CommandFocusText& text, int* exitCode);

/// One input of `compare`: a trace, optionally as "TRACE#iter=N|median" (that profile focused on one iteration, as
/// --iteration takes it).
struct TraceEntry
{
    QString label; ///< as typed: names the entry in the output
    QString path; ///< the file to load
    QString iteration; ///< "" without the suffix
};
/// Splits the "#iter=" suffix off @p text (a file that exists under the whole name keeps it). Prints the error and
/// returns nothing for a bad iteration.
std::optional<TraceEntry> parseTraceEntry(const QString& text);

/// "focus: ProfilerStep#12 (instance 3 of 40), 412 ms (3.2 % of the capture); <semantics>"; empty when inactive.
QString focusLine(const ResolvedFocus& focus, const QString& semantics);
/// The same facts for JSON outputs: label, start_ns, end_ns (events' clock), duration_ns, capture_share_pct,
/// semantics.
nlohmann::ordered_json focusJson(const ResolvedFocus& focus, const QString& semantics);
/// The line on stderr, for outputs that stay pure data (CSV, traces); nothing when inactive.
void printFocusLine(const ResolvedFocus& focus, const QString& semantics);

/// What each pipeline keeps, in the words of the focus line.
QString overlapSemantics(); ///< stats, analyze, export, compare by kernel
QString nvtxSemantics();
QString categorySemantics(bool clipped);

} // namespace nsw::cli
