// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include "app/cli/clicommon.h"
#include "app/cli/commands.h"
#include "core/util/cachesettings.h"

#include <QCoreApplication>

namespace nsw::cli {

int exitCodeOf(const Error& error)
{
    switch (error.kind) {
    case ErrorKind::Usage:
        return ExitUsage;
    case ErrorKind::NoData:
        return ExitNoData;
    case ErrorKind::OutOfMemory:
        return ExitOutOfMemory;
    case ErrorKind::Busy:
        return ExitBusy;
    case ErrorKind::Tool:
        return ExitTool;
    case ErrorKind::Internal:
        return ExitInternal;
    case ErrorKind::Input:
    case ErrorKind::Cancelled:
        break;
    }
    return ExitInput;
}

const std::vector<Command>& commands()
{
    static const std::vector<Command> all = {
        { QStringLiteral("stats"),
            QStringLiteral("nsys stats reports, identical CSV (cuda_gpu_kern_sum, cuda_api_sum...)"), runStats },
        { QStringLiteral("analyze"),
            QStringLiteral(
                "nsys's expert-system rules (nsys analyze): pageable/sync memcpy, sync APIs, GPU gaps, low use"),
            runAnalyze },
        { QStringLiteral("info"),
            QStringLiteral("what an export holds: nsys version, GPUs, processes, row counts, span"), runInfo },
        { QStringLiteral("nvtx"),
            QStringLiteral("NVTX range tree with GPU time projected onto it (markdown, json, csv), phases"), runNvtx },
        { QStringLiteral("categories"),
            QStringLiteral("kernel categories by gputrc2graph regex rules, per time mode (csv/json/table, png)"),
            runCategories, asksForPng },
        { QStringLiteral("nvlink"),
            QStringLiteral("NVLink throughput of an NVF1 recording or GPU metrics, and the kernels at its peaks"),
            runNvlink, asksForPng },
        { QStringLiteral("compare"),
            QStringLiteral("profiles side by side by category, kernel or NVTX path, deltas, CI gate (--fail-above)"),
            runCompare, asksForPng },
        { QStringLiteral("export"),
            QStringLiteral("the timeline as a Chrome trace JSON for Perfetto (--format perfetto [--range A:B])"),
            runExport },
        { QStringLiteral("iterations"),
            QStringLiteral(
                "iterations from an NVTX marker (ProfilerStep#N...) or GPU idle gaps: duration, busy, outliers"),
            runIterations },
        { QStringLiteral("mfu"),
            QStringLiteral("model FLOPs utilization per iteration and NVTX range against the GPU's peak, roofline"),
            runMfu, asksForPng },
        { QStringLiteral("profile"),
            QStringLiteral("run an application under nsys profile, then print its kernel summary (--png: top kernels)"),
            runProfile, asksForPng },
        { QStringLiteral("report"),
            QStringLiteral("findings and diagnostics (idle gaps, overlap, NCCL, launches, sync) to md/json/html/csv"),
            runReport, [](const QStringList& args) { return !args.contains(QStringLiteral("--no-charts")); } },
        { QStringLiteral("findings"), QStringLiteral("the findings of `report` on stdout (text or json)"),
            runFindings },
        { QStringLiteral("samples"),
            QStringLiteral("CPU samples by function: flat, top-down, bottom-up, folded stacks; during GPU idle"),
            runSamples },
        { QStringLiteral("ranks"),
            QStringLiteral(
                "distributed runs: ranks side by side, collectives matched, stragglers and waits (md/csv/json)"),
            runRanks },
        { QStringLiteral("summarize"),
            QStringLiteral("a small per-rank summary of an export for `ranks` (run next to the data, e.g. by Slurm)"),
            runSummarize },
        { QStringLiteral("cache"),
            QStringLiteral("the profile and export caches: list their entries, or clear them (list|clear)"), runCache },
    };
    return all;
}

bool isCommand(const QString& name)
{
    for (const Command& c : commands())
        if (c.name == name)
            return true;
    return false;
}

bool commandWantsGui(const QStringList& args)
{
    for (const Command& c : commands())
        if (c.name == args.value(0))
            return c.wantsGui && c.wantsGui(args);
    return false;
}

int run(const QStringList& args)
{
    for (const Command& c : commands()) {
        if (c.name != args.value(0))
            continue;
        clearWarnings();
        noteInputs(args);
        if (const QString e = checkOutputArguments(args); !e.isEmpty()) {
            printError(e);
            return ExitUsage;
        }
        cacheSettings() = CacheSettings::fromEnvironment(); // --no-cache turns its profiles off
        const int status = c.run(args);
        finishCacheWrites();
        return status;
    }
    printError(QStringLiteral("unknown command '%1' (see --help)").arg(args.value(0)));
    return ExitUsage;
}

int printTopLevelHelp()
{
    QString text
        = QStringLiteral("Usage: nsys-workbench [TRACE...]            open exports or trace folders in the workbench\n"
                         "       nsys-workbench COMMAND [OPTIONS]     run headless (no display needed)\n\n"
                         "Commands:\n");
    for (const Command& c : commands())
        text += QStringLiteral("  %1  %2\n").arg(c.name.leftJustified(11), c.summary);
    text += QStringLiteral(
        "\n`nsys-workbench COMMAND --help` describes each command.\n"
        "Exit codes: 0 ok, 1 bad arguments, 2 unreadable or invalid input, 3 regression over the --fail-above\n"
        "threshold (compare), 4 the input has none of the data the command needs.\n");
    writeStdout(text);
    return ExitOk;
}

int printVersion()
{
    writeStdout(QStringLiteral("nsys-workbench %1\n").arg(QCoreApplication::applicationVersion()));
    return ExitOk;
}

} // namespace nsw::cli
