// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/focus/focusresolve.h"
#include "core/profile/loadtypes.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <nlohmann/json.hpp>
#include <optional>

namespace nsw::cli {

/// --range START:END and --nvtx RANGE[@DOMAIN][/INDEX]: what stats, nvtx, categories, analyze, compare and export
/// focus on (issue 16; README "Focus range").
struct FocusOptions
{
    QCommandLineOption range;
    QCommandLineOption nvtx;

    /// @p semantics completes the help: what the command keeps ("events that overlap it, durations not clipped").
    explicit FocusOptions(const QString& semantics);
    void addTo(QCommandLineParser& parser) const;
    FocusText textOf(const QCommandLineParser& parser) const;
};

/// Checks the typed focus before any load (malformed text, both options); prints the error. False on error.
bool checkFocusText(const FocusText& text);
/// Adds the NVTX table to @p load when the focus names an NVTX range.
void addFocusLoad(const FocusText& text, LoadOptions& load);

/// resolveFocus() for a command: prints the error (naming @p path) and sets @p exitCode on failure.
std::optional<ResolvedFocus> resolveCommandFocus(
    const Profile& profile, const FocusText& text, const QString& path, int* exitCode);

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
