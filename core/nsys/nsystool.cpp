// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsystool.h"

#include "core/nsys/processrun.h"
#include "core/util/coresettings.h"

#include <QCollator>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <algorithm>

namespace nsw {

namespace {
constexpr int kDefaultTimeoutSeconds = 1800;

/// Sub-folders of @p parent matching @p pattern, newest version first ("2025.3.1" before "2024.6.2").
QStringList newestFirst(const QString& parent, const QString& pattern)
{
    QStringList names = QDir(parent).entryList({ pattern }, QDir::Dirs | QDir::NoDotAndDotDot);
    QCollator collator;
    collator.setNumericMode(true);
    std::sort(
        names.begin(), names.end(), [&](const QString& a, const QString& b) { return collator.compare(a, b) > 0; });
    for (QString& n : names)
        n = parent + QLatin1Char('/') + n;
    return names;
}

/// QdstrmImporter sits in host-linux-* beside the bin folder of nsys. Each step of nsys's symlink chain is tried:
/// Debian links /usr/bin/nsys to /usr/lib/nsight-systems/bin/nsys (where host-linux-x64 is), which links on into
/// the target package's folder (where it is not).
QString importerNextTo(const QString& nsysPath)
{
    QString step = QFileInfo(nsysPath).absoluteFilePath();
    for (int hops = 0; hops < 16 && !step.isEmpty(); ++hops) {
        const QFileInfo info(step);
        QDir root = info.dir();
        if (root.cdUp())
            for (const QString& host : root.entryList({ QStringLiteral("host-linux-*") }, QDir::Dirs)) {
                const QString candidate = root.filePath(host + QStringLiteral("/QdstrmImporter"));
                if (QFileInfo(candidate).isExecutable())
                    return candidate;
            }
        step = info.isSymLink() ? info.symLinkTarget() : QString();
    }
    return {};
}
} // namespace

QStringList nsysCandidates()
{
    QStringList candidates;
    const QString fromEnvironment = qEnvironmentVariable("NSYS_WORKBENCH_NSYS");
    if (!fromEnvironment.isEmpty())
        candidates << fromEnvironment;
    const QString configured = coreSettings().nsysPath;
    if (!configured.isEmpty())
        candidates << configured;
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("nsys"));
    if (!onPath.isEmpty())
        candidates << onPath;
    for (const QString& install : newestFirst(QStringLiteral("/opt/nvidia/nsight-systems"), QStringLiteral("*")))
        candidates << install + QStringLiteral("/bin/nsys");
    candidates << QStringLiteral("/usr/local/cuda/bin/nsys");
    for (const QString& cuda : newestFirst(QStringLiteral("/usr/local"), QStringLiteral("cuda-*")))
        candidates << cuda + QStringLiteral("/bin/nsys");
    candidates.removeDuplicates();
    return candidates;
}

QString parseNsysVersion(const QString& versionOutput)
{
    static const QRegularExpression version(QStringLiteral("version\\s+(\\d{4}\\.\\d+(?:\\.\\d+)*)"));
    return version.match(versionOutput).captured(1);
}

Result<NsysTool> findNsys()
{
    const QStringList candidates = nsysCandidates();
    QStringList tried;
    for (const QString& path : candidates) {
        const QFileInfo info(path);
        if (!info.isFile() || !info.isExecutable()) {
            // Only the places the user named are worth listing when they hold nothing.
            if (path == qEnvironmentVariable("NSYS_WORKBENCH_NSYS") || path == coreSettings().nsysPath)
                tried << QStringLiteral("%1 (not an executable file)").arg(path);
            continue;
        }
        ProcessRequest request;
        request.program = path;
        request.arguments = { QStringLiteral("--version") };
        request.timeoutSeconds = 30;
        const ProcessOutcome run = runProcess(request, JobContext());
        if (!run.succeeded()) {
            tried << QStringLiteral("%1 (--version: %2)").arg(path, run.endDescription(request.timeoutSeconds));
            continue;
        }
        return NsysTool { path, parseNsysVersion(run.outputTail), importerNextTo(path) };
    }
    const QString where = tried.isEmpty()
        ? QStringLiteral("none on PATH, in /opt/nvidia/nsight-systems or /usr/local/cuda*")
        : QStringLiteral("tried %1").arg(tried.join(QStringLiteral(", ")));
    return Result<NsysTool>::failure(ErrorKind::NoData,
        QStringLiteral("no usable Nsight Systems `nsys` found (%1). Install Nsight Systems (NVIDIA's installer, the "
                       "CUDA toolkit, or Debian's `nsight-systems` from the non-free component) or set its path in "
                       "Preferences or NSYS_WORKBENCH_NSYS")
            .arg(where));
}

int nsysTimeoutSeconds()
{
    bool ok = false;
    const int fromEnvironment = qEnvironmentVariableIntValue("NSYS_WORKBENCH_NSYS_TIMEOUT", &ok);
    if (ok && fromEnvironment > 0)
        return fromEnvironment;
    const int configured = coreSettings().nsysTimeoutSeconds;
    return configured > 0 ? configured : kDefaultTimeoutSeconds;
}

} // namespace nsw
