// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <functional>

namespace nsw {

/// One external program to run to its end (nsys, QdstrmImporter, the user's application).
struct ProcessRequest
{
    QString program;
    QStringList arguments;
    QString workingDirectory; ///< empty: the current one
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    int timeoutSeconds = 0; ///< 0: none
};

struct ProcessOutcome
{
    bool started = false;
    QString startError; ///< why it did not start
    bool cancelled = false;
    bool timedOut = false;
    bool crashed = false; ///< ended by a signal
    int exitCode = -1;
    QString outputTail; ///< the last 64 KiB of stdout and stderr, merged

    bool succeeded() const { return started && !cancelled && !timedOut && !crashed && exitCode == 0; }
    /// "exit code 3", "crashed", "timed out after 30 s", "cancelled" (for messages).
    QString endDescription(int timeoutSeconds) const;
};

/// Runs @p request on the calling thread (no event loop needed) and waits for it. Output is passed to @p onOutput as
/// it arrives (in chunks, with "\r" progress bars as the program wrote them). The program runs in a process group
/// of its own: cancelling (through @p context) or a timeout kills the whole group, so helper processes it started
/// (nsys's agent) do not outlive it; a cancelled run returns within ~100 ms. Cancelling @p interrupt instead asks
/// the group to stop the way Ctrl+C does (SIGINT, once): nsys profile then ends the application and still writes
/// its report.
ProcessOutcome runProcess(const ProcessRequest& request, const JobContext& context,
    const std::function<void(const QString& chunk)>& onOutput = {}, const CancelToken* interrupt = nullptr);

/// Makes @p process start in a process group of its own (so that a signal to the group reaches the helpers it starts)
/// that is killed with the workbench (the forking thread must live as long as the process: it waits for it).
void runInOwnProcessGroup(QProcess& process);
/// Sends @p signal to the process group of @p process (started with runInOwnProcessGroup); nothing before it started.
void signalProcessGroup(const QProcess& process, int signal);

/// @p program as the system would run it: a path (relative to @p workingDirectory) to an executable file, or a name
/// looked up on the PATH that @p environment (NAME=VALUE pairs) sets, else on the workbench's. Empty when none.
QString findExecutable(const QString& program, const QString& workingDirectory, const QStringList& environment);

/// The last "NN%" in @p chunk as 0..1, or -1 (nsys's and QdstrmImporter's progress bars).
double lastPercentIn(const QString& chunk);

} // namespace nsw
