// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/clifocus.h"
#include "app/cli/commands.h"
#include "core/reports/reportregistry.h"
#include "core/reports/statsrun.h"
#include "core/stats/reportformat.h"
#include "core/stats/reports.h"

#include <cstdio>

namespace nsw::cli {

namespace {

/// What `stats` was asked for, checked before the load.
struct StatsCommand
{
    QString trace;
    QString format; ///< csv, table or json
    QString output;
    CommandFocusText focusText;
    StatsPlan plan;
};

QString reportListHelp()
{
    QString list;
    for (const ReportSpec& s : reportSpecs())
        list
            += QStringLiteral("\n  %1%2")
                   .arg(s.name,
                       s.arguments.isEmpty() ? QString()
                                             : QStringLiteral("[:")
                               + s.arguments.join(QStringLiteral("|:")).replace(QLatin1String("="), QLatin1String("=N"))
                               + QLatin1Char(']'));
    return list;
}

std::optional<StatsCommand> parseStatsCommand(const QStringList& args, int* exitCode)
{
    QCommandLineParser parser;
    addTraceArgument(parser);
    const QCommandLineOption report(QStringList { QStringLiteral("r"), QStringLiteral("report") },
        QStringLiteral("Reports to run, comma separated:") + reportListHelp(), QStringLiteral("reports"));
    const QCommandLineOption format = formatOption(
        QStringLiteral("csv (nsys stats --format csv, identical), table (default) or json."), QStringLiteral("table"));
    const QCommandLineOption output
        = outputOption(QStringLiteral("Write to FILE instead of stdout (several reports go one after the other)."));
    parser.addOptions({ report, format, output });
    const FocusOptions focusOptions(QStringLiteral("Reports count the rows that overlap it, durations not clipped."));
    focusOptions.addTo(parser);
    const std::optional<QString> trace = parseTraceArguments(parser, args, commandHelp("stats"), exitCode);
    if (!trace)
        return std::nullopt;
    *exitCode = ExitUsage;
    StatsCommand c;
    c.trace = *trace;
    c.output = parser.value(output);
    c.format = parser.value(format);
    if (c.format == QLatin1String("column"))
        c.format = QStringLiteral("table");
    if (!checkFormat(c.format, { QStringLiteral("csv"), QStringLiteral("table"), QStringLiteral("json") }))
        return std::nullopt;
    if (!parser.isSet(report)) {
        printError(QStringLiteral("no report given; use -r REPORT (see stats --help)"));
        return std::nullopt;
    }
    if (!focusOptions.read(parser, c.focusText))
        return std::nullopt;
    Result<StatsPlan> plan = planReports(parser.value(report).split(QLatin1Char(','), Qt::SkipEmptyParts));
    if (!plan) {
        const bool unknown = plan.errorMessage().startsWith(QLatin1String("unknown report"));
        printError(plan.errorMessage() + (unknown ? QStringLiteral(" (see stats --help)") : QString()));
        return std::nullopt;
    }
    c.plan = std::move(*plan);
    *exitCode = ExitOk;
    return c;
}

/// nsys stats prints "SKIPPED: FILE does not contain …" on stdout; JSON on stdout must stay one document, so there
/// the message goes to stderr.
void printSkipped(const StatsCommand& c, const QString& why)
{
    const bool jsonOnStdout
        = c.format == QLatin1String("json") && (c.output.isEmpty() || c.output == QLatin1String("-"));
    std::FILE* stream = jsonOnStdout ? stderr : stdout;
    std::fprintf(stream, "SKIPPED: %s\n\n", why.toUtf8().constData());
    std::fflush(stream);
}

/// Writes the reports that were produced, one after the other, in the asked format.
int writeReports(const StatsCommand& c, const ResolvedFocus& focus, const std::vector<const ReportTable*>& produced)
{
    const bool toFile = !c.output.isEmpty() && c.output != QLatin1String("-");
    if (c.format == QLatin1String("csv"))
        printFocusLine(focus, overlapSemantics());
    // Written table by table and line by line: a trace report's millions of rows never sit in one string.
    const auto write = [&](QIODevice& out) {
        auto put = [&out](const QString& text) {
            const QByteArray utf8 = text.toUtf8();
            return out.write(utf8) == utf8.size();
        };
        if (c.format == QLatin1String("json")) {
            nlohmann::ordered_json json = nlohmann::ordered_json::array();
            for (std::size_t i = 0; i < produced.size(); ++i) {
                json.push_back(reportJsonShell(*produced[i], i));
                if (focus.range.isActive())
                    json.back()["focus"] = focusJson(focus, overlapSemantics());
                addWarningsMember(json.back());
            }
            return writeJsonDocument(c.plan.reports.size() == 1 ? json[0] : json, produced, out);
        }
        if (c.format == QLatin1String("table") && focus.range.isActive()
            && !put(focusLine(focus, overlapSemantics()) + QLatin1Char('\n')))
            return false;
        for (std::size_t i = 0; i < produced.size(); ++i) {
            const ReportTable& table = *produced[i];
            // As `nsys stats -q`: a CSV block is followed by a blank line on the console; files hold the blocks only.
            if (c.format == QLatin1String("csv")) {
                if ((i > 0 && toFile && !put(QStringLiteral("\n"))) || !writeReportCsv(table, out)
                    || (!toFile && !put(QStringLiteral("\n"))))
                    return false;
            } else if (!put(QStringLiteral("\n ** %1 (%2):\n\n").arg(table.title, table.name))
                || !writeReportText(table, out) || !put(QStringLiteral("\n"))) {
                return false;
            }
        }
        return true;
    };
    return writeCommandOutputWith(c.output, write);
}

/// runStats with its command line read.
int runStatsCommand(StatsCommand& command)
{
    int exitCode = ExitOk;
    const std::optional<FocusedProfile> loaded
        = loadFocusedProfile(command.trace, command.plan.load, command.focusText, &exitCode);
    if (!loaded)
        return exitCode;
    setFocus(command.plan, loaded->focus.range);
    const Result<std::vector<ReportTable>> tables = computeReports(command.plan, *loaded->profile);
    if (!tables) {
        printError(tables.errorMessage());
        return exitCodeOf(tables.error());
    }
    std::vector<const ReportTable*> produced;
    for (const ReportTable& table : tables.value()) {
        if (!table.skipped.isEmpty())
            printSkipped(command, table.skipped);
        else
            produced.push_back(&table);
    }
    // As nsys stats: a report without its data is skipped with a message, not an error (exit 0 even when all were).
    if (produced.empty())
        return ExitOk;
    return writeReports(command, loaded->focus, produced);
}

} // namespace

int runStats(const QStringList& args)
{
    return runParsed(args, parseStatsCommand, runStatsCommand);
}

} // namespace nsw::cli
