// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/commands.h"
#include "core/models/modelroles.h"
#include "core/models/rankmatrixmodel.h"
#include "core/ranks/ranksexport.h"
#include "core/ranks/ranksrun.h"
#include "core/util/csv.h"

namespace nsw::cli {

namespace {

/// Prints each input's reading warnings and each problem, in input order.
void printProblems(const RanksResult& result)
{
    for (const auto& file : result.files)
        for (const QString& w : file->warnings)
            printWarning(w);
    for (const RankProblem& p : result.problems)
        printWarning(p.message);
}

} // namespace

int runRanks(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("inputs"),
        QStringLiteral("Exports (one per rank, per node, or one holding every rank), reports, rank summaries "
                       "(summarize), or folders of them."),
        QStringLiteral("INPUT..."));
    const QCommandLineOption marker = rankIterationMarkerOption();
    const QCommandLineOption metric = option("metric",
        QStringLiteral("What the rank × iteration table shows (md and csv): %1 (default: time). Bubble is the idle "
                       "share of the iteration in %.")
            .arg(rankMetricNames().join(QStringLiteral(", "))),
        "metric", "time");
    const QCommandLineOption format = formatOption(
        QStringLiteral("md (default: findings, problems, a table per rank, the metric per rank × iteration, the "
                       "collectives with the largest skew), csv (the metric per rank × iteration, raw values) or "
                       "json (everything)."),
        QStringLiteral("md"));
    const QCommandLineOption output = outputOption();
    parser.addOptions({ marker, metric, format, output });
    int exitCode = ExitOk;
    if (!parseArguments(parser, args, commandHelp("ranks"), &exitCode))
        return exitCode;
    if (parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("ranks takes at least one INPUT (see ranks --help)"));
        return ExitUsage;
    }
    const QString fmt = parser.value(format);
    if (!checkFormat(fmt, { QStringLiteral("md"), QStringLiteral("csv"), QStringLiteral("json") }))
        return ExitUsage;
    const std::optional<RankMetric> chosen = rankMetricFromName(parser.value(metric));
    if (!chosen) {
        printError(QStringLiteral("--metric must be one of %1, not '%2'")
                       .arg(rankMetricNames().join(QStringLiteral(", ")), parser.value(metric)));
        return ExitUsage;
    }
    if (parser.isSet(marker) && parser.value(marker).trimmed().isEmpty()) {
        printError(QStringLiteral("--iteration-marker needs a name"));
        return ExitUsage;
    }
    std::vector<RankProblem> ignored;
    noteInputs(expandRankInputs(parser.positionalArguments(), ignored));
    if (const QString e = checkOutputPath(parser.value(output)); !e.isEmpty()) {
        printError(e);
        return ExitUsage;
    }

    Result<RanksResult> result = computeRanks({ parser.positionalArguments(), parser.value(marker) });
    if (!result) {
        printError(result.errorMessage());
        return result.error().kind == ErrorKind::NoData ? ExitNoData : ExitInput;
    }
    printProblems(*result);
    QString text;
    if (fmt == QLatin1String("json")) {
        nlohmann::ordered_json j = ranksJson(*result, *chosen);
        addWarningsMember(j);
        text = QString::fromStdString(j.dump(2)) + QLatin1Char('\n');
    } else if (fmt == QLatin1String("md")) {
        text = ranksMarkdown(*result, *chosen);
    } else {
        RankMatrixModel model;
        model.setResult(std::make_shared<const RanksResult>(std::move(*result)), *chosen);
        text = modelCsv(model, RawValueRole);
    }
    return writeCommandOutput(text, parser.value(output));
}

} // namespace nsw::cli
