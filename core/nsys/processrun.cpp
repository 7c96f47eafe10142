// SPDX-License-Identifier: GPL-3.0-or-later
#include "processrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace nsw {

namespace {
constexpr qsizetype kTailBytes = 64 * 1024;
constexpr int kPollMilliseconds = 50;
} // namespace

void runInOwnProcessGroup(QProcess& process)
{
    process.setChildProcessModifier([] {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    });
}

void signalProcessGroup(const QProcess& process, int signal)
{
    if (const qint64 pid = process.processId(); pid > 0)
        ::kill(-pid_t(pid), signal);
}

QString ProcessOutcome::endDescription(int timeoutSeconds) const
{
    if (!started)
        return startError;
    if (cancelled)
        return QStringLiteral("cancelled");
    if (timedOut)
        return QStringLiteral("timed out after %1 s").arg(timeoutSeconds);
    if (crashed)
        return QStringLiteral("crashed");
    return QStringLiteral("exit code %1").arg(exitCode);
}

QString findExecutable(const QString& program, const QString& workingDirectory, const QStringList& environment)
{
    if (program.contains(QLatin1Char('/'))) {
        const QFileInfo file(QDir(workingDirectory).filePath(program));
        return file.isFile() && file.isExecutable() ? file.absoluteFilePath() : QString();
    }
    QStringList paths;
    for (const QString& pair : environment)
        if (pair.startsWith(QLatin1String("PATH=")))
            paths = pair.mid(5).split(QLatin1Char(':'), Qt::SkipEmptyParts);
    return QStandardPaths::findExecutable(program, paths);
}

double lastPercentIn(const QString& chunk)
{
    static const QRegularExpression percent(QStringLiteral("(\\d{1,3})%"));
    double last = -1;
    for (auto it = percent.globalMatch(chunk); it.hasNext();) {
        const int value = it.next().captured(1).toInt();
        if (value <= 100)
            last = value / 100.0;
    }
    return last;
}

ProcessOutcome runProcess(const ProcessRequest& request, const JobContext& context,
    const std::function<void(const QString& chunk)>& onOutput, const CancelToken* interrupt)
{
    ProcessOutcome outcome;
    QProcess process;
    process.setProgram(request.program);
    process.setArguments(request.arguments);
    process.setProcessEnvironment(request.environment);
    if (!request.workingDirectory.isEmpty())
        process.setWorkingDirectory(request.workingDirectory);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardInputFile(QProcess::nullDevice());
    // A cancel must reach the helpers it starts (nsys's agent keeps running otherwise).
    runInOwnProcessGroup(process);
    process.start();
    if (!process.waitForStarted(10'000)) {
        outcome.startError = QStringLiteral("%1 could not be started: %2").arg(request.program, process.errorString());
        return outcome;
    }
    outcome.started = true;

    QString tail;
    const auto drain = [&] {
        const QByteArray bytes = process.readAll();
        if (bytes.isEmpty())
            return;
        const QString chunk = QString::fromLocal8Bit(bytes);
        tail += chunk;
        if (tail.size() > kTailBytes)
            tail = tail.right(kTailBytes);
        if (onOutput)
            onOutput(chunk);
    };
    QElapsedTimer clock;
    clock.start();
    bool interrupted = false;
    while (!process.waitForFinished(kPollMilliseconds)) {
        drain();
        if (process.state() == QProcess::NotRunning)
            break;
        if (context.isCancelled()) {
            outcome.cancelled = true;
            break;
        }
        if (request.timeoutSeconds > 0 && clock.elapsed() > qint64(request.timeoutSeconds) * 1000) {
            outcome.timedOut = true;
            break;
        }
        if (interrupt && !interrupted && interrupt->isCancelled()) {
            interrupted = true;
            signalProcessGroup(process, SIGINT);
        }
    }
    if (outcome.cancelled || outcome.timedOut) {
        signalProcessGroup(process, SIGKILL);
        process.kill();
        process.waitForFinished(5'000);
    }
    drain();
    outcome.outputTail = tail;
    outcome.crashed = process.exitStatus() == QProcess::CrashExit && !outcome.cancelled && !outcome.timedOut;
    outcome.exitCode = process.exitCode();
    return outcome;
}

} // namespace nsw
