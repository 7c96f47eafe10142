// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/clifocus.h"
#include "app/cli/commands.h"
#include "core/analysis/analysisformat.h"
#include "core/analysis/analysisrun.h"

namespace nsw::cli {

namespace {

QString ruleHelp()
{
    QString text;
    for (const RuleSpec& s : ruleSpecs()) {
        QString options = QStringLiteral("rows, start, end, nvtx");
        for (const QString& o : s.extraOptions)
            options += QStringLiteral(", ") + o;
        text += QStringLiteral("\n  %1 (%2): %3; options %4").arg(s.name, s.oldName, s.title, options);
    }
    return text;
}

QString formatRules(const AnalysisResult& result, const QString& format, bool toFile, int* produced,
    const nlohmann::ordered_json* focus)
{
    QString text;
    nlohmann::ordered_json json = nlohmann::ordered_json::array();
    for (const RuleTable& table : result.rules) {
        if (!table.skipped.isEmpty()) {
            printError(QStringLiteral("SKIPPED: %1").arg(table.skipped));
            if (format == QLatin1String("json"))
                json.push_back(ruleToJson(table));
            continue;
        }
        ++*produced;
        if (format == QLatin1String("json")) {
            json.push_back(ruleToJson(table));
            if (focus)
                json.back()["focus"] = *focus;
            addWarningsMember(json.back());
        } else if (format == QLatin1String("csv")) {
            const QString csv = ruleToCsv(table);
            if (csv.isEmpty())
                continue;
            if (!text.isEmpty() && toFile)
                text += QLatin1Char('\n');
            text += csv + (toFile ? QString() : QStringLiteral("\n"));
        } else {
            text += ruleToText(table);
        }
    }
    if (format == QLatin1String("json"))
        text = QString::fromStdString((json.size() == 1 ? json[0] : json).dump(2)) + QLatin1Char('\n');
    return text;
}

} // namespace

int runAnalyze(const QStringList& args)
{
    QCommandLineParser parser;
    addTraceArgument(parser);
    const QCommandLineOption rule(QStringList { QStringLiteral("r"), QStringLiteral("rule") },
        QStringLiteral("Rules to run, RULE[:opt=val...] comma separated (default: all). gap in ms (500), threshold "
                       "in % (50), chunks 1..1000 (30), rows (50), start/end in ns, nvtx=range[@domain]:")
            + ruleHelp(),
        QStringLiteral("rules"));
    const QCommandLineOption format = formatOption(
        QStringLiteral("text (default: as nsys analyze prints it), csv (nsys analyze --format csv) or json."),
        QStringLiteral("text"));
    const QCommandLineOption output = outputOption();
    parser.addOptions({ rule, format, output });
    const FocusOptions focusOptions(
        QStringLiteral("The window of every rule without its own start/end/nvtx: rows that overlap it, as nsys's "
                       "filter (with --nvtx also the range's thread, or process for a start/end range)."));
    focusOptions.addTo(parser);
    int exitCode = ExitOk;
    const std::optional<QString> trace = parseTraceArguments(parser, args, commandHelp("analyze"), &exitCode);
    if (!trace)
        return exitCode;
    QString fmt = parser.value(format);
    if (fmt == QLatin1String("column") || fmt == QLatin1String("table"))
        fmt = QStringLiteral("text");
    if (!checkFormat(fmt, { QStringLiteral("text"), QStringLiteral("csv"), QStringLiteral("json") }))
        return ExitUsage;
    const Result<std::vector<RuleRequest>> rules
        = planRules(parser.value(rule).split(QLatin1Char(','), Qt::SkipEmptyParts));
    if (!rules) {
        printError(rules.errorMessage() + QStringLiteral(" (see analyze --help)"));
        return ExitUsage;
    }
    CommandFocusText focusText;
    if (!focusOptions.read(parser, focusText))
        return ExitUsage;
    AnalysisRequest request { *trace, rules.value(), {}, {} };
    ResolvedFocus focus;
    if (!focusText.isEmpty()) {
        // Only what resolving the focus needs: the metadata, and the NVTX table for --nvtx.
        LoadOptions load;
        load.parts = 0;
        const std::optional<FocusedProfile> loaded = loadFocusedProfile(*trace, load, focusText, &exitCode);
        if (!loaded)
            return exitCode;
        focus = loaded->focus;
        request.focus = focus.range;
        request.focusGlobalTid = focus.nvtxGlobalTid;
    }
    const Result<AnalysisResult> result = computeAnalysis(request);
    if (!result) {
        printError(result.errorMessage());
        return exitCodeOf(result.error());
    }
    printLoadWarnings(request.path, result->warnings);
    const QString outFile = parser.value(output);
    int produced = 0;
    const bool focused = request.focus.isActive();
    const nlohmann::ordered_json focusObject
        = focused ? focusJson(focus, overlapSemantics()) : nlohmann::ordered_json();
    QString text = formatRules(
        *result, fmt, !outFile.isEmpty() && outFile != QLatin1String("-"), &produced, focused ? &focusObject : nullptr);
    if (focused && fmt == QLatin1String("csv"))
        printFocusLine(focus, overlapSemantics());
    else if (focused && fmt == QLatin1String("text"))
        text.prepend(focusLine(focus, overlapSemantics()) + QLatin1Char('\n'));
    if (produced == 0)
        return ExitNoData;
    return writeCommandOutput(text, outFile);
}

} // namespace nsw::cli
