// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"

#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <vector>

namespace nsw {

/// NVLink recorders to run alongside `nsys profile` (the CCL-Bench NVF1 recorder, or any program that writes an
/// NVF1 file and stops on Ctrl+C): one per GPU, started before nsys and stopped once nsys ends.
struct NvlinkRecorderRequest
{
    /// The recorder's command line; {out} becomes the recording's path, {gpu} the GPU's index:
    /// "utilization --gpu {gpu} --interval-ms 1 --out {out} --quiet". Empty: nothing is recorded.
    QString command;
    QList<int> gpus { 0 }; ///< NVML indices, one recorder each; more than one needs {gpu} in the command
};

/// A file a recorder wrote (whether it is an NVF1 recording is core/nvlink's to say: usableRecordings()).
struct RecorderFile
{
    QString path;
    int gpu = 0;
};

/// What the recorders left: the file of each GPU whose recorder wrote one, and what went wrong with the others.
struct NvlinkRecorded
{
    std::vector<RecorderFile> files;
    QStringList warnings;
};

/// "<folder>/<name>.nvlink-gpu<G>.bin": beside the report, named so that a trace folder's scan finds its GPU.
QString nvlinkRecordingPath(const QString& folder, const QString& reportName, int gpu);

/// "0,1,3" or "0-3" as GPU indices (below 64); empty on anything else.
QList<int> parseGpuList(const QString& text);

/// The command line with {gpu} and {out} filled in, split as a shell would (quotes, no expansion).
QStringList nvlinkRecorderCommand(const NvlinkRecorderRequest& request, int gpu, const QString& out);

/// Checks the command before anything runs: it parses, names {out}, names {gpu} when several GPUs are recorded, its
/// program exists; the GPUs are distinct and not negative; no recording would overwrite a file.
Status validateNvlinkRecorders(
    const NvlinkRecorderRequest& request, const QString& folder, const QString& reportName, const QStringList& env);

/// The recorders of one profiling run, on the thread that starts them. Destroying it kills any still running.
class NvlinkRecorders
{
public:
    NvlinkRecorders();
    ~NvlinkRecorders();
    NvlinkRecorders(const NvlinkRecorders&) = delete;
    NvlinkRecorders& operator=(const NvlinkRecorders&) = delete;

    /// Starts a recorder per GPU and waits (up to 5 s) until each has created its file. A recorder that cannot start
    /// or ends before creating its file fails the run, with its output; the others are stopped.
    Status start(const NvlinkRecorderRequest& request, const QString& folder, const QString& reportName,
        const QProcessEnvironment& environment, const JobContext& context,
        const std::function<void(const QString&)>& log);
    /// Ctrl+C to each recorder (killed when it has not ended 5 s later); then the files they wrote.
    NvlinkRecorded stop();
    /// Kills the recorders and removes what they wrote (a cancelled run).
    void discard();

private:
    struct Recorder;
    std::vector<std::unique_ptr<Recorder>> m_recorders;
};

} // namespace nsw
