// SPDX-License-Identifier: GPL-3.0-or-later
#include "profilerun.h"

#include "core/nsys/nsystool.h"
#include "core/nsys/processrun.h"
#include "core/nsys/reportexport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QStandardPaths>

namespace nsw {

namespace {
using Outcome = Result<ProfileOutcome>;

QString seconds(double s)
{
    return QString::number(s, 'g', 10);
}

/// The program as the system would find it, looking in the request's own PATH when it sets one.
QString resolveProgram(const ProfileRequest& request)
{
    return findExecutable(request.program, request.workingDirectory, request.environment);
}
} // namespace

QStringList ProfileRequest::knownTrace()
{
    return { QStringLiteral("cuda"), QStringLiteral("nvtx"), QStringLiteral("osrt"), QStringLiteral("cublas"),
        QStringLiteral("cudnn"), QStringLiteral("nccl"), QStringLiteral("cusparse"), QStringLiteral("mpi"),
        QStringLiteral("ucx"), QStringLiteral("opengl"), QStringLiteral("vulkan"), QStringLiteral("oshmem"),
        QStringLiteral("openacc"), QStringLiteral("openmp"), QStringLiteral("nvvideo"), QStringLiteral("none") };
}

QString ProfileRequest::reportPath() const
{
    return QDir(outputFolder).filePath(outputName + QStringLiteral(".nsys-rep"));
}

QStringList nsysProfileArguments(const ProfileRequest& request)
{
    QStringList args { QStringLiteral("profile"), QStringLiteral("--trace=") + request.trace.join(QLatin1Char(',')) };
    if (!request.sampleCpu)
        args << QStringLiteral("--sample=none") << QStringLiteral("--cpuctxsw=none");
    if (request.delaySeconds > 0)
        args << QStringLiteral("--delay=") + seconds(request.delaySeconds);
    if (request.durationSeconds > 0)
        args << QStringLiteral("--duration=") + seconds(request.durationSeconds);
    args << QStringLiteral("--output=") + QDir(request.outputFolder).filePath(request.outputName);
    args << request.program << request.arguments;
    return args;
}

Status validateProfileRequest(const ProfileRequest& request)
{
    const auto usage = [](const QString& message) { return Status::failure(ErrorKind::Usage, message); };
    if (request.program.trimmed().isEmpty())
        return usage(QStringLiteral("no application to profile was given"));
    if (!request.workingDirectory.isEmpty() && !QFileInfo(request.workingDirectory).isDir())
        return usage(QStringLiteral("%1: the working folder does not exist").arg(request.workingDirectory));
    if (resolveProgram(request).isEmpty())
        return usage(request.program.contains(QLatin1Char('/'))
                ? QStringLiteral("%1: no such executable file").arg(request.program)
                : QStringLiteral("%1: no such program on PATH").arg(request.program));
    for (const QString& pair : request.environment)
        if (pair.indexOf(QLatin1Char('=')) < 1)
            return usage(QStringLiteral("environment entry '%1' is not NAME=VALUE").arg(pair));
    if (request.trace.isEmpty())
        return usage(QStringLiteral("nothing to trace: choose at least one of %1")
                         .arg(ProfileRequest::knownTrace().join(QStringLiteral(", "))));
    for (const QString& t : request.trace)
        if (!ProfileRequest::knownTrace().contains(t))
            return usage(QStringLiteral("unknown trace '%1' (known: %2)")
                             .arg(t, ProfileRequest::knownTrace().join(QStringLiteral(", "))));
    if (request.delaySeconds < 0 || request.durationSeconds < 0)
        return usage(QStringLiteral("delay and duration are seconds, 0 or more"));
    const QFileInfo folder(request.outputFolder);
    if (!folder.isDir())
        return usage(QStringLiteral("%1: the output folder does not exist").arg(request.outputFolder));
    if (!folder.isWritable())
        return usage(QStringLiteral("%1: the output folder is not writable").arg(request.outputFolder));
    if (request.outputName.isEmpty() || request.outputName.contains(QLatin1Char('/'))
        || request.outputName.startsWith(QLatin1Char('.')))
        return usage(
            QStringLiteral("'%1' is not a report name (a plain file name without a folder)").arg(request.outputName));
    if (Status recorders
        = validateNvlinkRecorders(request.nvlink, request.outputFolder, request.outputName, request.environment);
        !recorders)
        return recorders;
    for (const QString& existing :
        { request.reportPath(), QDir(request.outputFolder).filePath(request.outputName + QStringLiteral(".qdstrm")) })
        if (QFileInfo::exists(existing))
            return usage(QStringLiteral("%1 exists already; choose another name").arg(existing));
    return success();
}

Outcome profileApplication(const ProfileRequest& request, const JobContext& context,
    const std::function<void(const QString& text)>& onLog, const CancelToken& stop)
{
    if (Status valid = validateProfileRequest(request); !valid)
        return valid.failureAs<ProfileOutcome>();
    Result<NsysTool> tool = findNsys();
    if (!tool)
        return Outcome::failure(ErrorKind::Input, QStringLiteral("profiling needs nsys: ") + tool.errorMessage());
    const auto log = [&](const QString& text) {
        if (onLog)
            onLog(text);
    };

    ProcessRequest run;
    run.program = tool->path;
    run.arguments = nsysProfileArguments(request);
    run.workingDirectory = request.workingDirectory;
    for (const QString& pair : request.environment) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        run.environment.insert(pair.left(eq), pair.mid(eq + 1));
    }
    NvlinkRecorders recorders;
    if (!request.nvlink.command.trimmed().isEmpty())
        if (Status started
            = recorders.start(request.nvlink, request.outputFolder, request.outputName, run.environment, context, log);
            !started) {
            recorders.discard();
            return started.failureAs<ProfileOutcome>();
        }
    log(QStringLiteral("$ %1 %2\n").arg(tool->path, run.arguments.join(QLatin1Char(' '))));
    context.report(QStringLiteral("Profiling %1").arg(QFileInfo(request.program).fileName()));
    const ProcessOutcome profiled = runProcess(run, context, log, &stop);
    if (profiled.cancelled || !profiled.started)
        recorders.discard();
    if (profiled.cancelled)
        return Outcome::cancelled(QStringLiteral("profiling %1 cancelled").arg(request.program));
    if (!profiled.started)
        return Outcome::failure(ErrorKind::Input, profiled.startError);

    const QString stream = QDir(request.outputFolder).filePath(request.outputName + QStringLiteral(".qdstrm"));
    const auto noReport = [&] {
        return Outcome::failure(ErrorKind::Input,
            QStringLiteral("nsys profile of %1 wrote no report (%2); its output ends: %3")
                .arg(request.program, profiled.endDescription(run.timeoutSeconds),
                    profiled.outputTail.right(400).trimmed()));
    };
    if (!QFileInfo::exists(request.reportPath()) && !QFileInfo::exists(stream)) {
        // Recordings without a report to go with them would only block running the same command again.
        recorders.discard();
        return noReport();
    }
    ProfileOutcome outcome { request.reportPath(), profiled.exitCode, recorders.stop() };
    if (!QFileInfo::exists(outcome.reportPath)) {
        if (Status s = importCapture(*tool, stream, outcome.reportPath, context, log); !s)
            return s.failureAs<ProfileOutcome>();
        QFile::remove(stream); // as nsys does once its own import succeeded
        if (!QFileInfo::exists(outcome.reportPath))
            return noReport();
    }
    return outcome;
}

} // namespace nsw
