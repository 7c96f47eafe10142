// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/nsys/nvlinkrecorders.h"

#include <QString>
#include <QStringList>
#include <functional>

namespace nsw {

/// `nsys profile` of one application, as Profile → Profile Application… and `nsys-workbench profile` ask for it.
struct ProfileRequest
{
    QString program; ///< a path, or a name looked up on PATH
    QStringList arguments;
    QString workingDirectory; ///< empty: the current one
    QStringList environment; ///< NAME=VALUE pairs added to the workbench's own environment
    QStringList trace = defaultTrace(); ///< nsys --trace values
    double delaySeconds = 0; ///< --delay, 0: none
    double durationSeconds = 0; ///< --duration, 0: until the application exits
    /// CPU sampling and context switches (nsys's defaults) are off unless asked for: the workbench reads GPU and
    /// API activity, and nsys's sampler hangs on machines without perf events (virtual machines).
    bool sampleCpu = false;
    QString outputFolder;
    QString outputName; ///< the report's base name, without .nsys-rep
    NvlinkRecorderRequest nvlink; ///< recorders run alongside; their recordings go beside the report

    static QStringList defaultTrace()
    {
        return { QStringLiteral("cuda"), QStringLiteral("nvtx"), QStringLiteral("osrt") };
    }
    /// The values --trace accepts that the workbench offers.
    static QStringList knownTrace();
    /// <folder>/<name>.nsys-rep
    QString reportPath() const;
};

struct ProfileOutcome
{
    QString reportPath; ///< the .nsys-rep nsys (or the workbench's import of its .qdstrm) wrote
    int applicationExitCode = 0; ///< nsys's exit code (it passes the application's on)
    NvlinkRecorded nvlink; ///< the recordings made alongside, for the report's profile
};

/// The arguments given to nsys for @p request (shown in the log before the run).
QStringList nsysProfileArguments(const ProfileRequest& request);

/// Checks what can be checked before nsys runs: the program exists and can run, the output folder exists and is
/// writable, the name is a plain file name, the report does not exist yet, the trace values are known, the NVLink
/// recorder command is usable.
Status validateProfileRequest(const ProfileRequest& request);

/// Runs `nsys profile` and waits for it; nsys's output goes to @p onLog as it comes. When the nsys in use cannot
/// find its importer (Debian's package) and leaves a .qdstrm, QdstrmImporter is run here. NVLink recorders, when
/// asked for, run from before nsys starts until it ends (a recorder that fails later is a warning). Cancelling @p stop
/// ends the application the way Ctrl+C does (nsys still writes the report); cancelling @p context kills everything.
Result<ProfileOutcome> profileApplication(const ProfileRequest& request, const JobContext& context,
    const std::function<void(const QString& text)>& onLog, const CancelToken& stop);

} // namespace nsw
