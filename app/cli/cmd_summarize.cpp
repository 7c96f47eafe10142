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
    parser.addPositionalArgument(QStringLiteral("trace"),
        QStringLiteral("An export (or a report) of one or more ranks."), QStringLiteral("TRACE"));
    const QCommandLineOption marker(QStringLiteral("iteration-marker"),
        QStringLiteral("The NVTX range of one iteration, as ranks --iteration-marker takes it (ranks refuses a "
                       "summary made with another marker than it is asked for). Default: automatic."),
        QStringLiteral("name"));
    const QCommandLineOption output(QStringList { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("The summary to write (required; by convention FILE.%1).")
            .arg(QLatin1String(kRankSummarySuffix)),
        QStringLiteral("file"));
    parser.addOptions({ marker, output });
    int exitCode = ExitOk;
    if (!parseArguments(parser, args,
            QStringLiteral("Writes what `ranks` needs of an export's ranks into a small summary file (format "
                           "version %1, see docs/rank-summary.md): ranks, iterations and their breakdown, every NCCL "
                           "kernel's start and end, kernel sums per name. `ranks` over summaries gives the same "
                           "output as over the exports. Meant to run next to the data, e.g. as a Slurm job array "
                           "(packaging/slurm/summarize.sbatch). Exits 4 when the export has no rank (no kernels).")
                .arg(kRankSummaryVersion),
            &exitCode))
        return exitCode;
    if (parser.positionalArguments().size() != 1) {
        printError(QStringLiteral("summarize takes exactly one TRACE (see summarize --help)"));
        return ExitUsage;
    }
    if (!parser.isSet(output) || parser.value(output).isEmpty() || parser.value(output) == QLatin1String("-")) {
        printError(QStringLiteral("summarize needs -o FILE (the summary is binary)"));
        return ExitUsage;
    }
    if (parser.isSet(marker) && parser.value(marker).trimmed().isEmpty()) {
        printError(QStringLiteral("--iteration-marker needs a name"));
        return ExitUsage;
    }
    const QString trace = parser.positionalArguments().first();
    if (isRankSummaryFile(trace)) {
        printError(QStringLiteral("%1: already a rank summary").arg(trace));
        return ExitUsage;
    }
    Result<RankFile> file = summarizeTrace({ trace, parser.value(marker) });
    if (!file) {
        printError(file.errorMessage());
        return file.error().kind == ErrorKind::NoData ? ExitNoData : ExitInput;
    }
    for (const QString& w : file->warnings)
        printWarning(w);
    const QByteArray bytes = encodeRankSummary(*file);
    const QString e
        = writeOutputWith(parser.value(output), [&bytes](QIODevice& out) { return out.write(bytes) == bytes.size(); });
    if (!e.isEmpty()) {
        printError(e);
        return ExitInput;
    }
    return ExitOk;
}

} // namespace nsw::cli
