// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/clifocus.h"
#include "core/diagnostics/diagnostics.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <optional>

namespace nsw::cli {

/// The options `report` and `findings` share: --threshold name=value (repeatable), --marker, --phase-map,
/// --nvtx-coverage-warn-threshold, and the focus options.
struct DiagnosticsOptions
{
    QCommandLineOption threshold;
    QCommandLineOption marker;
    QCommandLineOption phaseMap;
    QCommandLineOption nvtxCoverage;
    FocusOptions focus;

    DiagnosticsOptions();
    void addTo(QCommandLineParser& parser) const;
    /// "  name (default, unit): description" lines for --help.
    static QString thresholdHelp();
};

/// Parses the options, loads @p trace, resolves the focus and runs the diagnostics. Prints errors (naming the file
/// or option) and sets @p exitCode on failure; prints warnings on stderr.
std::optional<DiagnosticsResult> runCommandDiagnostics(
    const QCommandLineParser& parser, const DiagnosticsOptions& options, const QString& trace, int* exitCode);

} // namespace nsw::cli
