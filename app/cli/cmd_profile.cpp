// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/commands.h"
#include "core/nsys/profilerun.h"
#include "core/nvlink/tracefolder.h"
#include "core/reports/statsrun.h"
#include "core/reports/topkernels.h"
#include "core/stats/reportformat.h"
#include "widgets/kernels/topkernelschart.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <csignal>

namespace nsw::cli {

namespace {
constexpr int kTopKernels = 10;

/// Ctrl+C reaches the workbench only (nsys runs in a process group of its own): it is passed on as a stop, so nsys
/// ends the application and still writes its report.
CancelToken* s_stop = nullptr;
extern "C" void onInterrupt(int)
{
    if (s_stop)
        s_stop->cancel(); // a lock-free atomic store: safe in a signal handler
}

/// -o NAME as nsys takes it: a base name or a path, with or without .nsys-rep.
void splitOutput(const QString& output, const QString& program, ProfileRequest& request)
{
    QString name = output;
    if (name.isEmpty())
        name
            = QFileInfo(program).fileName() + QDateTime::currentDateTime().toString(QStringLiteral("-yyyyMMdd-HHmmss"));
    if (name.endsWith(QLatin1String(".nsys-rep")))
        name.chop(9);
    const QFileInfo info(name);
    request.outputFolder = info.absolutePath();
    request.outputName = info.fileName();
}

/// The kernel summary of the new report, or, without kernels, what it did trace.
int printSummary(const QString& report, const QString& png, const QSize& pngSize)
{
    const QStringList reports { QStringLiteral("cuda_gpu_kern_sum"), QStringLiteral("nvtx_sum"),
        QStringLiteral("osrt_sum") };
    Result<StatsPlan> plan = planReports(reports);
    if (!plan) {
        printError(plan.errorMessage());
        return ExitUsage;
    }
    int exitCode = ExitOk;
    const ProfilePtr profile = loadProfile(report, plan->load, &exitCode);
    if (!profile)
        return exitCode;
    const Result<std::vector<ReportTable>> tables = computeReports(*plan, *profile);
    if (!tables) {
        printError(tables.errorMessage());
        return ExitInput;
    }
    QString text = QStringLiteral("Report: %1\n").arg(report);
    std::vector<TopKernel> top;
    for (const ReportTable& table : tables.value()) {
        if (table.name == QLatin1String("cuda_gpu_kern_sum")) {
            top = topKernels(table, kTopKernels);
            if (top.empty()) {
                text += QStringLiteral("\nNo CUDA kernels were traced.\n");
                continue;
            }
        } else if (!top.empty() || !table.skipped.isEmpty() || table.rows.empty()) {
            continue; // with kernels, their summary is the answer; without, what else was traced
        }
        text += QStringLiteral("\n ** %1 (%2):\n\n").arg(table.title, table.name) + reportToText(table);
    }
    writeStdout(text);
    if (png.isEmpty())
        return ExitOk;
    if (!checkPngAvailable())
        return ExitUsage;
    TopKernelsChart chart;
    chart.resize(pngSize);
    chart.setKernels(top, QStringLiteral("Top kernels by GPU time — %1").arg(QFileInfo(report).fileName()));
    return writeChartPng(chart, png, pngSize);
}

/// What `profile` was asked for: the nsys request, checked, and where the summary's chart goes.
struct ProfileCommand
{
    ProfileRequest request;
    QString png;
    QSize pngSize;
};

std::optional<ProfileCommand> parseProfileCommand(const QStringList& args, int* exitCode)
{
    // Everything after "--" is the application's: QCommandLineParser would read its options as ours.
    const qsizetype separator = args.indexOf(QStringLiteral("--"));
    const QStringList own = separator < 0 ? args : args.mid(0, separator);
    const QStringList application = separator < 0 ? QStringList() : args.mid(separator + 1);

    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("command"),
        QStringLiteral("The application and its arguments, after --."), QStringLiteral("-- COMMAND [ARGS...]"));
    const QCommandLineOption trace(QStringList { QStringLiteral("t"), QStringLiteral("trace") },
        QStringLiteral("What nsys traces, comma separated (%1; default %2).")
            .arg(ProfileRequest::knownTrace().join(QStringLiteral(", ")),
                ProfileRequest::defaultTrace().join(QLatin1Char(','))),
        QStringLiteral("list"), ProfileRequest::defaultTrace().join(QLatin1Char(',')));
    const QCommandLineOption delay = option("delay", QStringLiteral("Start collecting after S seconds."), "S", "0");
    const QCommandLineOption duration
        = option("duration", QStringLiteral("Stop after S seconds (default: when the application exits)."), "S", "0");
    const QCommandLineOption sampleCpu = option("sample-cpu",
        QStringLiteral("Also sample CPU call stacks and context switches (off by default: slow, and nsys hangs "
                       "where perf events are unavailable)."));
    const QCommandLineOption output(QStringList { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("The report's name or path, as nsys -o (default COMMAND-DATE-TIME in the current folder)."),
        QStringLiteral("name"));
    const QCommandLineOption png = option("png", QStringLiteral("Also draw the top kernels into FILE."), "file");
    const QCommandLineOption pngSize
        = option("png-size", QStringLiteral("PNG size in pixels (1200x600)."), "WxH", "1200x600");
    const QCommandLineOption recorder = option("nvlink-recorder",
        QStringLiteral("Also record NVLink throughput while nsys profiles: the recorder's command line, with {out} for "
                       "the recording's path (NAME.nvlink-gpuG.bin beside the report) and {gpu} for the GPU, e.g. "
                       "'utilization --gpu {gpu} --interval-ms 1 --out {out} --quiet'. Stopped with Ctrl+C when nsys "
                       "ends."),
        "command");
    const QCommandLineOption recorderGpus = option("nvlink-gpus",
        QStringLiteral("The GPUs to record, one recorder each: 0, 0-3 or 0,2 (default 0)."), "list", "0");
    parser.addOptions({ trace, delay, duration, sampleCpu, output, png, pngSize, recorder, recorderGpus });
    if (!parseArguments(parser, own, commandHelp("profile"), exitCode))
        return std::nullopt;
    *exitCode = ExitUsage;
    const QStringList command = parser.positionalArguments() + application;
    if (command.isEmpty()) {
        printError(QStringLiteral("profile needs the application to run: profile [OPTIONS] -- COMMAND [ARGS...]"));
        return std::nullopt;
    }
    const std::optional<QSize> size = parsePngSize(parser.value(pngSize));
    if (!size)
        return std::nullopt;

    ProfileCommand c;
    c.png = parser.value(png);
    c.pngSize = *size;
    ProfileRequest& request = c.request;
    request.program = command.first();
    request.arguments = command.mid(1);
    request.trace = parser.value(trace).split(QLatin1Char(','), Qt::SkipEmptyParts);
    bool delayOk = false;
    bool durationOk = false;
    request.delaySeconds = parser.value(delay).toDouble(&delayOk);
    request.durationSeconds = parser.value(duration).toDouble(&durationOk);
    if (!delayOk || !durationOk) {
        printError(QStringLiteral("--delay and --duration take seconds (a number)"));
        return std::nullopt;
    }
    request.sampleCpu = parser.isSet(sampleCpu);
    request.nvlink.command = parser.value(recorder);
    request.nvlink.gpus = parseGpuList(parser.value(recorderGpus));
    splitOutput(parser.value(output), request.program, request);
    if (Status valid = validateProfileRequest(request); !valid) {
        printError(valid.errorMessage());
        return std::nullopt;
    }
    *exitCode = ExitOk;
    return c;
}

/// After nsys: the application's exit code, the NVLink recordings and the kernel summary of the report.
int reportProfiled(const ProfileCommand& c, const ProfileOutcome& profiled)
{
    if (profiled.applicationExitCode != 0)
        printError(QStringLiteral("warning: %1 exited with code %2; its report is shown all the same")
                       .arg(c.request.program)
                       .arg(profiled.applicationExitCode));
    QStringList warnings;
    const std::vector<RecordingChoice> recorded = usableRecordings(profiled.nvlink, &warnings);
    for (const QString& warning : warnings)
        printError(QStringLiteral("warning: ") + warning);
    const int summarised = printSummary(profiled.reportPath, c.png, c.pngSize);
    QString recordings;
    for (const RecordingChoice& r : recorded)
        recordings += QStringLiteral(
            "NVLink recording of GPU %1: %2 (nsys-workbench nvlink %2 --sqlite %3 --gpu %1 --metric all)\n")
                          .arg(r.gpu)
                          .arg(r.path, profiled.reportPath);
    if (!recordings.isEmpty())
        writeStdout(QLatin1Char('\n') + recordings);
    return summarised;
}

/// runProfile with its command line read.
int runProfileCommand(const ProfileCommand& command)
{
    CancelToken stop;
    s_stop = &stop;
    const auto previous = std::signal(SIGINT, onInterrupt);
    const Result<ProfileOutcome> profiled = profileApplication(
        command.request, JobContext(), [](const QString& text) { std::fputs(text.toLocal8Bit().constData(), stderr); },
        stop);
    std::signal(SIGINT, previous);
    s_stop = nullptr;
    if (!profiled) {
        printError(profiled.errorMessage());
        return profiled.error().kind == ErrorKind::Usage ? ExitUsage : ExitInput;
    }
    return reportProfiled(command, *profiled);
}

} // namespace

int runProfile(const QStringList& args)
{
    return runParsed(args, parseProfileCommand, runProfileCommand);
}

} // namespace nsw::cli
