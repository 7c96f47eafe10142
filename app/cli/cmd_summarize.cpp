// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/commands.h"
#include "core/ranks/ranksrun.h"
#include "core/ranks/summaryfile.h"

namespace nsw::cli {

int runSummarize(const QStringList& args)
{
    QCommandLineParser parser;
    addTraceArgument(parser, QStringLiteral("An export (or a report) of one or more ranks."));
    const QCommandLineOption marker = rankIterationMarkerOption();
    const QCommandLineOption output
        = outputOption(QStringLiteral("The summary to write (required; by convention FILE.%1).")
                           .arg(QLatin1String(kRankSummarySuffix)));
    parser.addOptions({ marker, output });
    int exitCode = ExitOk;
    const std::optional<QString> trace
        = parseTraceArguments(parser, args, commandHelp("summarize").arg(kRankSummaryVersion), &exitCode);
    if (!trace)
        return exitCode;
    if (!parser.isSet(output) || parser.value(output).isEmpty() || parser.value(output) == QLatin1String("-")) {
        printError(QStringLiteral("summarize needs -o FILE (the summary is binary)"));
        return ExitUsage;
    }
    if (parser.isSet(marker) && parser.value(marker).trimmed().isEmpty()) {
        printError(QStringLiteral("--iteration-marker needs a name"));
        return ExitUsage;
    }
    if (isRankSummaryFile(*trace)) {
        printError(QStringLiteral("%1: already a rank summary").arg(*trace));
        return ExitUsage;
    }
    Result<RankFile> file = summarizeTrace({ *trace, parser.value(marker) });
    if (!file) {
        printError(file.errorMessage());
        return file.error().kind == ErrorKind::NoData ? ExitNoData : ExitInput;
    }
    for (const QString& w : file->warnings)
        printWarning(w);
    const QByteArray bytes = encodeRankSummary(*file);
    return writeCommandOutputWith(
        parser.value(output), [&bytes](QIODevice& out) { return out.write(bytes) == bytes.size(); });
}

} // namespace nsw::cli
