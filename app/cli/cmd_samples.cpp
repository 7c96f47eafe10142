// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/clifocus.h"
#include "app/cli/commands.h"
#include "core/diagnostics/samplesrun.h"
#include "core/models/samplemodels.h"
#include "core/util/csv.h"

namespace nsw::cli {

namespace {

enum class View
{
    Flat,
    TopDown,
    BottomUp
};

/// What `samples` was asked for, checked before the (possibly long) load.
struct SamplesCommand
{
    QString trace;
    View view = View::Flat;
    QString viewName;
    QString format;
    QString output;
    std::optional<int> tid;
    std::optional<int> pid;
    bool duringGpuIdle = false;
    int gpu = -1;
    CommandFocusText focusText;
};

QString samplesSemantics()
{
    return QStringLiteral("samples taken inside it");
}

std::optional<int> parseNumber(const QString& text, const QString& option)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < 0) {
        printError(QStringLiteral("%1 takes a number >= 0, not '%2'").arg(option, text));
        return std::nullopt;
    }
    return v;
}

/// "gpu-idle" or "gpu-idle:GPU".
bool parseDuring(const QString& text, SamplesCommand& c)
{
    const QString prefix = QStringLiteral("gpu-idle");
    if (text == prefix) {
        c.duringGpuIdle = true;
        return true;
    }
    if (text.startsWith(prefix + QLatin1Char(':'))) {
        const std::optional<int> gpu = parseNumber(text.mid(prefix.size() + 1), QStringLiteral("--during gpu-idle:"));
        c.duringGpuIdle = gpu.has_value();
        c.gpu = gpu.value_or(-1);
        return gpu.has_value();
    }
    printError(QStringLiteral("--during must be gpu-idle or gpu-idle:GPU, not '%1'").arg(text));
    return false;
}

std::optional<SamplesCommand> parseSamplesCommand(const QStringList& args, int* exitCode)
{
    QCommandLineParser parser;
    addTraceArgument(parser, QStringLiteral("An nsys SQLite export with CPU samples."));
    const QCommandLineOption view = option("view",
        QStringLiteral("flat (default: functions with self and total samples), top-down (call tree from the "
                       "outermost frames) or bottom-up (the functions that were running, their callers below)."),
        "view", "flat");
    const QCommandLineOption thread = option("thread", QStringLiteral("Only the samples of thread TID."), "TID");
    const QCommandLineOption process = option("process", QStringLiteral("Only the samples of process PID."), "PID");
    const QCommandLineOption during = option("during",
        QStringLiteral("gpu-idle: only samples of the threads that launch a GPU's work, taken while that GPU sat in "
                       "an idle gap (gpu-idle:GPU for one GPU)."),
        "when");
    const QCommandLineOption format
        = formatOption(QStringLiteral("md (default), csv, json or collapsed (folded stacks for flame-graph tools)."),
            QStringLiteral("md"));
    const QCommandLineOption output = outputOption();
    parser.addOptions({ view, thread, process, during, format, output });
    const FocusOptions focusOptions(QStringLiteral("Only the samples taken inside it."));
    focusOptions.addTo(parser);
    const std::optional<QString> trace = parseTraceArguments(parser, args, commandHelp("samples"), exitCode);
    if (!trace)
        return std::nullopt;
    *exitCode = ExitUsage;
    SamplesCommand c;
    c.trace = *trace;
    c.format = parser.value(format);
    c.output = parser.value(output);
    c.viewName = parser.value(view);
    if (!checkFormat(c.format,
            { QStringLiteral("md"), QStringLiteral("csv"), QStringLiteral("json"), QStringLiteral("collapsed") }))
        return std::nullopt;
    if (c.viewName == QLatin1String("flat"))
        c.view = View::Flat;
    else if (c.viewName == QLatin1String("top-down"))
        c.view = View::TopDown;
    else if (c.viewName == QLatin1String("bottom-up"))
        c.view = View::BottomUp;
    else {
        printError(QStringLiteral("--view must be flat, top-down or bottom-up, not '%1'").arg(c.viewName));
        return std::nullopt;
    }
    if (parser.isSet(thread) && parser.isSet(process)) {
        printError(QStringLiteral("--thread and --process cannot be combined"));
        return std::nullopt;
    }
    if (parser.isSet(thread) && !(c.tid = parseNumber(parser.value(thread), QStringLiteral("--thread"))))
        return std::nullopt;
    if (parser.isSet(process) && !(c.pid = parseNumber(parser.value(process), QStringLiteral("--process"))))
        return std::nullopt;
    if (parser.isSet(during) && !parseDuring(parser.value(during), c))
        return std::nullopt;
    if (!focusOptions.read(parser, c.focusText))
        return std::nullopt;
    *exitCode = ExitOk;
    return c;
}

/// The thread or process the command names, as a scope; prints the error when the profile has none with samples.
std::optional<SampleScope> resolveScope(const SamplesCommand& c, const Profile& p)
{
    if (!c.tid && !c.pid)
        return SampleScope {};
    const bool byThread = c.tid.has_value();
    const int wanted = byThread ? *c.tid : *c.pid;
    std::vector<std::int32_t> matches;
    if (byThread) {
        for (std::size_t t = 0; t < p.threads.size(); ++t)
            if (p.threads[t].tid == wanted)
                matches.push_back(std::int32_t(t));
    } else {
        for (std::size_t i = 0; i < p.processes.size(); ++i)
            if (p.processes[i].pid == wanted)
                matches.push_back(std::int32_t(i));
    }
    const QString what = byThread ? QStringLiteral("thread %1").arg(wanted) : QStringLiteral("process %1").arg(wanted);
    if (matches.empty()) {
        printError(QStringLiteral("%1 has no %2").arg(p.meta.filePath, what));
        return std::nullopt;
    }
    if (matches.size() > 1) {
        printError(QStringLiteral("%1: %2 names %3 %4 (on different hosts); not supported")
                       .arg(p.meta.filePath, what)
                       .arg(matches.size())
                       .arg(byThread ? QStringLiteral("threads") : QStringLiteral("processes")));
        return std::nullopt;
    }
    return SampleScope { byThread ? SampleScope::Kind::Thread : SampleScope::Kind::Process, matches.front() };
}

QString heading(const SamplesCommand& c, const SamplesResult& r)
{
    return QStringLiteral("# CPU samples: %1\n\n%2 samples of %3 (%4 view)")
        .arg(r.profile->displayName())
        .arg(r.counts.samples)
        .arg(r.description, c.viewName);
}

int writeSamples(const SamplesCommand& c, const ResolvedFocus& focus, const SamplesResult& r)
{
    const Profile& p = *r.profile;
    const qint64 n = r.counts.samples;
    std::vector<SampleTreeRow> rows;
    if (c.view == View::TopDown)
        rows = topDownRows(p, *r.tree, r.counts);
    else if (c.view == View::BottomUp)
        rows = bottomUpRows(p, *r.bottomUp);
    if (n == 0)
        printWarning(QStringLiteral("%1: no samples of %2").arg(p.displayName(), r.description));
    const bool focused = focus.range.isActive();
    if (c.format == QLatin1String("csv") || c.format == QLatin1String("collapsed"))
        printFocusLine(focus, samplesSemantics());
    QString text;
    if (c.format == QLatin1String("collapsed")) {
        text = sampleCollapsed(p, *r.tree, r.counts);
    } else if (c.format == QLatin1String("csv")) {
        if (c.view == View::Flat) {
            SampleFlatModel model;
            model.setFunctions(r.profile, r.functions, n);
            text = modelCsv(model, CsvTextRole);
        } else {
            text = sampleTreeCsv(p, rows, n);
        }
    } else if (c.format == QLatin1String("json")) {
        nlohmann::ordered_json j;
        j["file"] = p.meta.filePath.toStdString();
        j["view"] = c.viewName.toStdString();
        j["selection"] = r.description.toStdString();
        j["samples"] = n;
        j["profile_samples"] = qint64(p.cpuSamples.size());
        if (focused)
            j["focus"] = focusJson(focus, samplesSemantics());
        if (c.duringGpuIdle) {
            j["idle_gaps"] = r.idleGaps;
            j["idle_ns"] = r.idleNs;
        }
        j[c.view == View::Flat ? "functions" : "nodes"]
            = c.view == View::Flat ? sampleFlatJson(p, r.functions, n) : sampleTreeJson(p, rows, n);
        addWarningsMember(j);
        text = QString::fromStdString(j.dump(2)) + QLatin1Char('\n');
    } else {
        const QString head
            = heading(c, r) + (focused ? QStringLiteral("; ") + focusLine(focus, samplesSemantics()) : QString());
        text
            = c.view == View::Flat ? sampleFlatMarkdown(p, r.functions, n, head) : sampleTreeMarkdown(p, rows, n, head);
    }
    return writeCommandOutput(text, c.output);
}

/// runSamples with its command line read.
int runSamplesCommand(const SamplesCommand& command)
{
    int exitCode = ExitOk;
    LoadOptions load;
    load.parts = LoadCpuSamples;
    if (command.duringGpuIdle) {
        load.parts |= LoadKernels | LoadMemOps | LoadCudaApi;
        load.kernelColumns = KernelDemangledName | KernelShortName | KernelPlacement;
    }
    const std::optional<FocusedProfile> loaded = loadFocusedProfile(command.trace, load, command.focusText, &exitCode);
    if (!loaded)
        return exitCode;
    const std::optional<SampleScope> scope = resolveScope(command, *loaded->profile);
    if (!scope)
        return ExitNoData;
    SamplesRequest request;
    request.profile = loaded->profile;
    request.focus = loaded->focus.range;
    request.scope = *scope;
    request.duringGpuIdle = command.duringGpuIdle;
    request.gpu = command.gpu;
    request.bottomUp = command.view == View::BottomUp;
    const Result<SamplesResult> result = computeSamples(request);
    if (!result) {
        printError(result.errorMessage());
        return result.error().kind == ErrorKind::Usage ? ExitUsage : ExitNoData;
    }
    return writeSamples(command, loaded->focus, *result);
}

} // namespace

int runSamples(const QStringList& args)
{
    return runParsed(args, parseSamplesCommand, runSamplesCommand);
}

} // namespace nsw::cli
