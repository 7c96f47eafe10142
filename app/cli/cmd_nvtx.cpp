// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/clifocus.h"
#include "app/cli/commands.h"
#include "core/models/modelroles.h"
#include "core/models/nvtxflatmodel.h"
#include "core/nvtx/nvtxexport.h"
#include "core/nvtx/nvtxphases.h"
#include "core/util/csv.h"

namespace nsw::cli {

namespace {

QString phasesCsv(const NvtxTree& tree, const std::vector<NvtxPhaseRow>& phases)
{
    QString text = csvLine({ QStringLiteral("phase"), QStringLiteral("instances"), QStringLiteral("cpu_ns"),
        QStringLiteral("gpu_ns"), QStringLiteral("kernels"), QStringLiteral("gpu_pct") });
    for (const NvtxPhaseRow& p : phases) {
        const double pct = tree.coverage.totalNs > 0 ? 100.0 * double(p.gpuTime) / double(tree.coverage.totalNs) : 0.0;
        text += csvLine({ p.phase, QString::number(p.instances), QString::number(p.cpuTime), QString::number(p.gpuTime),
            QString::number(p.kernels), QString::number(pct) });
    }
    return text;
}

/// What `nvtx` was asked for, checked before the (possibly long) load.
struct NvtxCommand
{
    QString trace;
    QString format;
    QString output;
    NvtxTreeOptions options;
    CommandFocusText focusText;
    NvtxPhaseMap phases;
};

std::optional<NvtxCommand> parseNvtxCommand(const QStringList& args, int* exitCode)
{
    QCommandLineParser parser;
    addTraceArgument(parser);
    const QCommandLineOption format
        = formatOption(QStringLiteral("markdown (default), json or csv (the tree flattened with depth and path)."),
            QStringLiteral("markdown"));
    const QCommandLineOption phaseMap = option("phase-map",
        QStringLiteral("JSON {\"phase\": [\"pattern\", ...]}: substring (case-insensitive) or \"re:\" regex; the "
                       "first phase that matches a range wins. Adds time per phase."),
        "file");
    const QCommandLineOption normalize
        = option("normalize", QStringLiteral("Aggregate names that differ only by numbers (op_id = #)."));
    const QCommandLineOption group = option("group",
        QStringLiteral("thread (default: a tree per process and thread), process (threads merged) or merged (one "
                       "tree)."),
        "grouping", "thread");
    const QCommandLineOption output = outputOption();
    parser.addOptions({ format, phaseMap, normalize, group, output });
    const FocusOptions focusOptions(
        QStringLiteral("The tree holds the ranges that overlap it, their GPU work projected as usual."));
    focusOptions.addTo(parser);
    const std::optional<QString> trace = parseTraceArguments(parser, args, commandHelp("nvtx"), exitCode);
    if (!trace)
        return std::nullopt;
    *exitCode = ExitUsage;
    NvtxCommand c;
    c.trace = *trace;
    c.format = parser.value(format);
    c.output = parser.value(output);
    if (!checkFormat(c.format, { QStringLiteral("markdown"), QStringLiteral("json"), QStringLiteral("csv") }))
        return std::nullopt;
    c.options.normalizeNames = parser.isSet(normalize);
    const QString grouping = parser.value(group);
    if (grouping == QLatin1String("thread"))
        c.options.grouping = NvtxGrouping::ByThread;
    else if (grouping == QLatin1String("process"))
        c.options.grouping = NvtxGrouping::ByProcess;
    else if (grouping == QLatin1String("merged"))
        c.options.grouping = NvtxGrouping::Merged;
    else {
        printError(QStringLiteral("--group must be thread, process or merged, not '%1'").arg(grouping));
        return std::nullopt;
    }
    if (!focusOptions.read(parser, c.focusText))
        return std::nullopt;
    if (parser.isSet(phaseMap)) {
        QString error;
        c.phases = NvtxPhaseMap::load(parser.value(phaseMap), &error);
        if (!error.isEmpty()) {
            printError(error);
            *exitCode = ExitInput;
            return std::nullopt;
        }
    }
    *exitCode = ExitOk;
    return c;
}

/// Writes @p tree in the asked format (with the phases when a phase map was given) to stdout or the output file.
int writeNvtxTree(const NvtxCommand& c, const ResolvedFocus& focus, const std::shared_ptr<const NvtxTree>& tree)
{
    const Profile& profile = *tree->profile;
    std::vector<NvtxPhaseRow> phaseRows;
    if (!c.phases.isEmpty()) {
        QStringList phaseWarnings;
        phaseRows = nvtxPhaseTimes(*tree, c.phases, &phaseWarnings);
        for (const QString& w : std::as_const(phaseWarnings))
            printWarning(QStringLiteral("%1: %2").arg(profile.displayName(), w));
    }
    const std::vector<NvtxPhaseRow>* phasePtr = c.phases.isEmpty() ? nullptr : &phaseRows;

    NvtxFlatModel model; // the CSV's rows, made only for that format
    const bool focused = focus.range.isActive();
    nlohmann::ordered_json jsonContext = nlohmann::ordered_json::object();
    if (focused)
        jsonContext["focus"] = focusJson(focus, nvtxSemantics());
    if (const NvtxFolding folded = nvtxFoldedBelow(*tree); folded.nodes > 0)
        printWarning(
            QStringLiteral("%1: the NVTX tree is %2 levels deeper than the %3 the output shows: %4 nodes below "
                           "that depth are folded into their ancestors")
                .arg(profile.displayName())
                .arg(folded.levels)
                .arg(kMaxExportedNvtxDepth)
                .arg(folded.nodes));
    addWarningsMember(jsonContext);
    const QByteArray focusHeader = (focusLine(focus, nvtxSemantics()) + QStringLiteral("\n\n")).toUtf8();
    if (c.format == QLatin1String("csv"))
        printFocusLine(focus, nvtxSemantics());
    const auto write = [&](QIODevice& out) {
        if (c.format == QLatin1String("json"))
            return writeNvtxTreeJson(*tree, phasePtr, out, &jsonContext);
        if (c.format == QLatin1String("markdown"))
            return (!focused || out.write(focusHeader) == focusHeader.size())
                && writeNvtxTreeMarkdown(*tree, phasePtr, out);
        model.setTree(tree);
        if (!writeModelCsv(model, out, RawValueRole))
            return false;
        if (!phasePtr)
            return true;
        const QByteArray phaseCsv = (QStringLiteral("\n") + phasesCsv(*tree, phaseRows)).toUtf8();
        return out.write(phaseCsv) == phaseCsv.size();
    };
    return writeCommandOutputWith(c.output, write);
}

/// runNvtx with its command line read.
int runNvtxCommand(const NvtxCommand& command)
{
    int exitCode = ExitOk;
    LoadOptions load;
    load.parts = LoadNvtx | LoadCudaApi | LoadKernels | LoadMemOps;
    const std::optional<FocusedProfile> loaded = loadFocusedProfile(command.trace, load, command.focusText, &exitCode);
    if (!loaded)
        return exitCode;
    const FocusRange& focus = loaded->focus.range;
    const Result<std::shared_ptr<const NvtxTree>> built
        = computeNvtxTree({ loaded->profile, command.options, focus, nullptr });
    if (!built) {
        printError(built.errorMessage());
        return exitCodeOf(built.error());
    }
    const std::shared_ptr<const NvtxTree>& tree = *built;
    if (tree->ranges == 0) {
        const QString& file = loaded->profile->meta.filePath;
        printError(focus.isActive()
                ? QStringLiteral("%1 has no NVTX ranges overlapping the focus (%2)").arg(file, focus.label)
                : QStringLiteral("%1 has no NVTX ranges").arg(file));
        return ExitNoData;
    }
    return writeNvtxTree(command, loaded->focus, tree);
}

} // namespace

int runNvtx(const QStringList& args)
{
    return runParsed(args, parseNvtxCommand, runNvtxCommand);
}

} // namespace nsw::cli
