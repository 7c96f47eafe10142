// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/clidiagnostics.h"
#include "app/cli/commands.h"
#include "core/diagnostics/diagnosticsexport.h"
#include "core/diagnostics/reportfiles.h"
#include "core/util/numberformat.h"
#include "widgets/diagnostics/reportcharts.h"

#include <QDir>
#include <QFileInfo>
#include <map>

namespace nsw::cli {

int runReport(const QStringList& args)
{
    QCommandLineParser parser;
    addTraceArgument(parser, QStringLiteral("An nsys SQLite export (or report)."));
    const QCommandLineOption out = option("out",
        QStringLiteral("The folder to write into (created when missing): report.md, report.json, report.html and "
                       "tables/*.csv."),
        "dir");
    const QCommandLineOption noCharts = option(
        "no-charts", QStringLiteral("Leave the charts out (no rendering): report.html then holds the tables only."));
    parser.addOptions({ out, noCharts });
    const DiagnosticsOptions options;
    options.addTo(parser);
    int exitCode = ExitOk;
    const std::optional<QString> trace = parseTraceArguments(parser, args, commandHelp("report"), &exitCode);
    if (!trace)
        return exitCode;
    const QString dir = parser.value(out);
    if (dir.isEmpty()) {
        printError(QStringLiteral("report needs --out DIR (see report --help)"));
        return ExitUsage;
    }
    if (const QString e = checkOutputPath(dir); !e.isEmpty() && !QFileInfo(dir).isDir()) {
        printError(e);
        return ExitUsage;
    }
    const QFileInfo dirInfo(dir);
    if (dirInfo.exists() && !dirInfo.isDir()) {
        printError(QStringLiteral("%1: not a directory; refusing to write the report into it").arg(dir));
        return ExitUsage;
    }

    const std::optional<DiagnosticsResult> result = runCommandDiagnostics(parser, options, *trace, &exitCode);
    if (!result)
        return exitCode;

    std::map<QString, QByteArray> charts;
    if (!parser.isSet(noCharts)) {
        charts = renderReportCharts(*result);
        if (charts.empty() && !result->temporal.empty())
            printError(QStringLiteral("warning: charts need the widgets (run through nsys-workbench); report.html "
                                      "holds the tables only"));
    }
    // The same writer as the Findings pane's Export → Report; the command's inputs are refused as outputs too.
    if (const Status written = writeReportFolder(*result, dir, charts, checkOutputPath); !written) {
        printError(written.errorMessage());
        return exitCodeOf(written.error());
    }
    writeStdout(
        QStringLiteral("%1, %2 not run for missing data; report in %3\n")
            .arg(countOf(qint64(result->findings.size()), QStringLiteral("finding"), QStringLiteral("findings")))
            .arg(countOf(qint64(result->skipped.size()), QStringLiteral("check"), QStringLiteral("checks")))
            .arg(QDir::toNativeSeparators(dir)));
    return ExitOk;
}

int runFindings(const QStringList& args)
{
    QCommandLineParser parser;
    addTraceArgument(parser, QStringLiteral("An nsys SQLite export (or report)."));
    const QCommandLineOption format
        = formatOption(QStringLiteral("text (default) or json (the same as report.json)."), QStringLiteral("text"));
    const QCommandLineOption output = outputOption();
    const QCommandLineOption table = option("table",
        QStringLiteral("Print one of report's tables instead of the findings (text, csv or json), by its id: "
                       "stream_concurrency, longest_kernels, h2d_over_time, h2d_load_phases, launch_percentiles, "
                       "tensor_cores, non_tensor_core_kernels, what_if, nccl_skew, gpu_idle_gaps... (the names of "
                       "report's tables/*.csv)."),
        "id");
    parser.addOptions({ format, output, table });
    const DiagnosticsOptions options;
    options.addTo(parser);
    int exitCode = ExitOk;
    const std::optional<QString> trace = parseTraceArguments(parser, args, commandHelp("findings"), &exitCode);
    if (!trace)
        return exitCode;
    const QString fmt = parser.value(format);
    const bool oneTable = parser.isSet(table);
    if (!checkFormat(fmt,
            oneTable ? QStringList { QStringLiteral("text"), QStringLiteral("csv"), QStringLiteral("json") }
                     : QStringList { QStringLiteral("text"), QStringLiteral("json") }))
        return ExitUsage;
    const std::optional<DiagnosticsResult> result = runCommandDiagnostics(parser, options, *trace, &exitCode);
    if (!result)
        return exitCode;
    QString text;
    if (oneTable) {
        QStringList ids;
        for (const DiagnosticsTable& t : diagnosticsTables(*result)) {
            ids << t.id;
            if (t.id != parser.value(table))
                continue;
            text = fmt == QLatin1String("csv") ? diagnosticsTableCsv(t)
                : fmt == QLatin1String("json")
                ? QString::fromStdString(diagnosticsTableJson(t).dump(2)) + QLatin1Char('\n')
                : diagnosticsTableText(t);
        }
        if (text.isEmpty()) {
            printError(
                QStringLiteral("no table '%1' (tables: %2)").arg(parser.value(table), ids.join(QStringLiteral(", "))));
            return ExitUsage;
        }
    } else if (fmt == QLatin1String("json")) {
        nlohmann::ordered_json j = diagnosticsJson(*result);
        addWarningsMember(j);
        text = QString::fromStdString(j.dump(2)) + QLatin1Char('\n');
    } else {
        text = findingsText(*result);
    }
    return writeCommandOutput(text, parser.value(output));
}

} // namespace nsw::cli
