// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/clidiagnostics.h"

#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "core/categories/rulelibrary.h"

namespace nsw::cli {

DiagnosticsOptions::DiagnosticsOptions()
    : threshold(QStringLiteral("threshold"),
        QStringLiteral("Override a finding threshold, name=value (repeatable). Thresholds:\n") + thresholdHelp(),
        QStringLiteral("name=value"))
    , marker(QStringLiteral("marker"),
          QStringLiteral("The NVTX range that marks one iteration, for the iteration outlier check (as "
                         "`iterations --marker`). Default: automatic."),
          QStringLiteral("name"))
    , phaseMap(QStringLiteral("phase-map"),
          QStringLiteral("A phase map JSON ({\"prefill\": [\"prefill\", \"re:^ctx_\"], ...}): the phases of "
                         "nvtx_phases and phase dominance. Default: the NVTX ranges under the iteration marker, else "
                         "the outermost ones, by name."),
          QStringLiteral("file"))
    , nvtxCoverage(QStringLiteral("nvtx-coverage-warn-threshold"),
          QStringLiteral("NVTX coverage (%) below which the report warns; the same as --threshold "
                         "nvtx_coverage_pct=X."),
          QStringLiteral("percent"))
    , focus(QStringLiteral("Every analysis looks at the events that overlap it; occupancy (idle, overlap, time "
                           "breakdown) is clipped to it."))
{ }

void DiagnosticsOptions::addTo(QCommandLineParser& parser) const
{
    parser.addOptions({ threshold, marker, phaseMap, nvtxCoverage });
    focus.addTo(parser);
}

QString DiagnosticsOptions::thresholdHelp()
{
    QString text;
    for (const ThresholdSpec& s : thresholdSpecs())
        text += QStringLiteral("  %1 (%2 %3): %4\n").arg(s.name).arg(s.defaultValue).arg(s.unit, s.description);
    return text;
}

std::optional<DiagnosticsResult> runCommandDiagnostics(
    const QCommandLineParser& parser, const DiagnosticsOptions& options, const QString& trace, int* exitCode)
{
    DiagnosticsRequest request;
    for (const QString& assignment : parser.values(options.threshold)) {
        if (const Status s = request.thresholds.parseAssignment(assignment); !s) {
            printError(s.errorMessage());
            *exitCode = ExitUsage;
            return std::nullopt;
        }
    }
    if (parser.isSet(options.nvtxCoverage)) {
        bool ok = false;
        const double value = parser.value(options.nvtxCoverage).toDouble(&ok);
        const Status s = ok ? request.thresholds.set(QStringLiteral("nvtx_coverage_pct"), value)
                            : Status::failure(ErrorKind::Usage,
                                QStringLiteral("--nvtx-coverage-warn-threshold must be a number, not '%1'")
                                    .arg(parser.value(options.nvtxCoverage)));
        if (!s) {
            printError(s.errorMessage());
            *exitCode = ExitUsage;
            return std::nullopt;
        }
    }
    if (parser.isSet(options.marker) && parser.value(options.marker).trimmed().isEmpty()) {
        printError(QStringLiteral("--marker needs a name"));
        *exitCode = ExitUsage;
        return std::nullopt;
    }
    request.iterationMarker = parser.value(options.marker);
    if (parser.isSet(options.phaseMap)) {
        QString error;
        request.phaseMap = NvtxPhaseMap::load(parser.value(options.phaseMap), &error);
        if (!error.isEmpty()) {
            printError(error);
            *exitCode = ExitInput;
            return std::nullopt;
        }
    }
    CommandFocusText focusText;
    if (!options.focus.read(parser, focusText)) {
        *exitCode = ExitUsage;
        return std::nullopt;
    }

    const ProfilePtr profile = loadProfile(trace, diagnosticsLoadOptions(), exitCode);
    if (!profile)
        return std::nullopt;
    if (!focusText.isEmpty()) {
        const std::optional<ResolvedFocus> focus = resolveCommandFocus(profile, focusText, trace, exitCode);
        if (!focus)
            return std::nullopt;
        request.focus = focus->range;
    }
    request.profile = profile;
    request.tensorCoreRules = tensorCoreRulesOf(RuleLibrary::loadDefault()); // the user's edits of them, if any
    Result<DiagnosticsResult> result = runDiagnostics(request);
    for (const QString& w : result.warnings())
        printWarning(QStringLiteral("%1: %2").arg(profile->displayName(), w));
    if (!result) {
        printError(result.errorMessage());
        *exitCode = exitCodeOf(result.error());
        return std::nullopt;
    }
    return std::move(*result);
}

} // namespace nsw::cli
