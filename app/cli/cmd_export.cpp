// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/clifocus.h"
#include "app/cli/commands.h"
#include "core/timeline/perfettoexport.h"

namespace nsw::cli {

int runExport(const QStringList& args)
{
    QCommandLineParser parser;
    addTraceArgument(parser);
    const QCommandLineOption format
        = formatOption(QStringLiteral("perfetto: Chrome trace JSON for ui.perfetto.dev and chrome://tracing."),
            QStringLiteral("perfetto"));
    const QCommandLineOption output = outputOption();
    parser.addOptions({ format, output });
    const FocusOptions focusOptions(QStringLiteral("Only the events that overlap it are written, whole."));
    focusOptions.addTo(parser);
    int exitCode = ExitOk;
    const std::optional<QString> trace = parseTraceArguments(parser, args, commandHelp("export"), &exitCode);
    if (!trace)
        return exitCode;
    if (!checkFormat(parser.value(format), { QStringLiteral("perfetto") }))
        return ExitUsage;
    CommandFocusText focusText;
    if (!focusOptions.read(parser, focusText))
        return ExitUsage;
    PerfettoExportRequest request;
    request.profile = loadProfile(*trace, LoadOptions {}, &exitCode);
    if (!request.profile)
        return exitCode;
    const std::optional<ResolvedFocus> focus = resolveCommandFocus(request.profile, focusText, *trace, &exitCode);
    if (!focus)
        return exitCode;
    request.focus = focus->range;
    printFocusLine(*focus, overlapSemantics());
    QString error;
    const auto write = [&](QIODevice& out) {
        const Result<PerfettoExportSummary> result = writePerfettoTrace(request, out);
        if (!result)
            error = result.errorMessage();
        return result.ok();
    };
    if (const QString e = writeOutputWith(parser.value(output), write); !e.isEmpty()) {
        printError(error.isEmpty() ? e : error);
        return ExitInput;
    }
    return ExitOk;
}

} // namespace nsw::cli
