// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkrecorders.h"

#include "core/nsys/processrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <csignal>
#include <set>

namespace nsw {

namespace {
constexpr int kStartSeconds = 5;
constexpr int kStopSeconds = 5;
constexpr int kPollMilliseconds = 50;

const QString kOut = QStringLiteral("{out}");
const QString kGpu = QStringLiteral("{gpu}");
} // namespace

struct NvlinkRecorders::Recorder
{
    int gpu = 0;
    QString path; ///< the recording
    QProcess process;
    QTemporaryFile output; ///< what the recorder prints

    /// The last lines it printed, for messages.
    QString outputTail() const
    {
        QFile file(output.fileName());
        if (!file.open(QIODevice::ReadOnly))
            return {};
        file.seek(std::max<qint64>(0, file.size() - 400));
        const QString text = QString::fromLocal8Bit(file.readAll()).simplified();
        return text.isEmpty() ? QStringLiteral("no output") : text;
    }
    QString ending() const
    {
        return process.exitStatus() == QProcess::CrashExit ? QStringLiteral("crashed")
                                                           : QStringLiteral("exit code %1").arg(process.exitCode());
    }
    void kill()
    {
        if (process.state() == QProcess::NotRunning)
            return;
        signalProcessGroup(process, SIGKILL);
        process.kill();
        process.waitForFinished(kStopSeconds * 1000);
    }
};

QString nvlinkRecordingPath(const QString& folder, const QString& reportName, int gpu)
{
    return QDir(folder).filePath(QStringLiteral("%1.nvlink-gpu%2.bin").arg(reportName).arg(gpu));
}

QList<int> parseGpuList(const QString& text)
{
    constexpr int kMostGpus = 64; // more than any node holds: "0-999" is a typo, not 1000 recorders
    static const QRegularExpression range(QStringLiteral("^(\\d{1,3})(?:-(\\d{1,3}))?$"));
    QList<int> gpus;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch m = range.match(part.trimmed());
        if (!m.hasMatch())
            return {};
        const int first = m.captured(1).toInt();
        const int last = m.captured(2).isEmpty() ? first : m.captured(2).toInt();
        if (last < first || last >= kMostGpus)
            return {};
        for (int g = first; g <= last; ++g)
            gpus.append(g);
    }
    return gpus;
}

QStringList nvlinkRecorderCommand(const NvlinkRecorderRequest& request, int gpu, const QString& out)
{
    QStringList words = QProcess::splitCommand(request.command);
    for (QString& w : words)
        w.replace(kGpu, QString::number(gpu)).replace(kOut, out);
    return words;
}

Status validateNvlinkRecorders(
    const NvlinkRecorderRequest& request, const QString& folder, const QString& reportName, const QStringList& env)
{
    const auto usage = [](const QString& message) {
        return Status::failure(ErrorKind::Usage, QStringLiteral("NVLink recorder: ") + message);
    };
    if (request.command.trimmed().isEmpty())
        return success();
    const QStringList words = QProcess::splitCommand(request.command);
    if (words.isEmpty())
        return usage(QStringLiteral("the command '%1' does not parse").arg(request.command));
    if (!request.command.contains(kOut))
        return usage(QStringLiteral("the command names no {out}, the recording's path"));
    if (request.gpus.isEmpty())
        return usage(QStringLiteral("no GPU to record (GPUs are given as 0, 0-3 or 0,2, indices below 64)"));
    if (request.gpus.size() > 1 && !request.command.contains(kGpu))
        return usage(QStringLiteral("%1 GPUs are recorded, but the command names no {gpu}").arg(request.gpus.size()));
    const std::set<int> distinct(request.gpus.begin(), request.gpus.end());
    if (distinct.size() != std::size_t(request.gpus.size()) || *distinct.begin() < 0)
        return usage(QStringLiteral("the GPUs are indices, each once"));
    if (findExecutable(words.first(), QString(), env).isEmpty())
        return usage(QStringLiteral("%1: no such program").arg(words.first()));
    for (const int gpu : request.gpus)
        if (const QString path = nvlinkRecordingPath(folder, reportName, gpu); QFileInfo::exists(path))
            return usage(QStringLiteral("%1 exists already; choose another report name").arg(path));
    return success();
}

NvlinkRecorders::NvlinkRecorders() = default;

NvlinkRecorders::~NvlinkRecorders()
{
    for (const auto& r : m_recorders)
        r->kill();
}

Status NvlinkRecorders::start(const NvlinkRecorderRequest& request, const QString& folder, const QString& reportName,
    const QProcessEnvironment& environment, const JobContext& context, const std::function<void(const QString&)>& log)
{
    for (const int gpu : request.gpus) {
        auto r = std::make_unique<Recorder>();
        r->gpu = gpu;
        r->path = nvlinkRecordingPath(folder, reportName, gpu);
        const QStringList words = nvlinkRecorderCommand(request, gpu, r->path);
        if (!r->output.open())
            return Status::failure(
                ErrorKind::Input, QStringLiteral("NVLink recorder: no temporary file for its output"));
        r->process.setProgram(words.first());
        r->process.setArguments(words.mid(1));
        r->process.setProcessEnvironment(environment);
        r->process.setProcessChannelMode(QProcess::MergedChannels);
        r->process.setStandardInputFile(QProcess::nullDevice());
        r->process.setStandardOutputFile(r->output.fileName());
        runInOwnProcessGroup(r->process); // Ctrl+C for the recorder alone; none outlives the workbench
        log(QStringLiteral("$ %1\n").arg(words.join(QLatin1Char(' '))));
        r->process.start();
        if (!r->process.waitForStarted(10'000))
            return Status::failure(ErrorKind::Input,
                QStringLiteral("NVLink recorder for GPU %1: %2 could not be started: %3")
                    .arg(gpu)
                    .arg(words.first(), r->process.errorString()));
        m_recorders.push_back(std::move(r));
    }

    // The capture should find the recorders recording: wait for their files (NVML's start takes a moment).
    context.report(QStringLiteral("Starting the NVLink recorders"));
    QElapsedTimer clock;
    clock.start();
    for (const auto& r : m_recorders) {
        while (!QFileInfo::exists(r->path)) {
            const bool ended
                = r->process.waitForFinished(kPollMilliseconds) || r->process.state() == QProcess::NotRunning;
            if (ended && !QFileInfo::exists(r->path))
                return Status::failure(ErrorKind::Input,
                    QStringLiteral("NVLink recorder for GPU %1 ended before it wrote %2 (%3): %4")
                        .arg(r->gpu)
                        .arg(r->path, r->ending(), r->outputTail()));
            if (context.isCancelled())
                return Status::cancelled(QStringLiteral("profiling cancelled"));
            if (clock.elapsed() > kStartSeconds * 1000) {
                log(QStringLiteral("NVLink recorder for GPU %1 has not created %2 after %3 s; profiling starts "
                                   "anyway\n")
                        .arg(r->gpu)
                        .arg(r->path)
                        .arg(kStartSeconds));
                break;
            }
        }
    }
    return success();
}

NvlinkRecorded NvlinkRecorders::stop()
{
    NvlinkRecorded recorded;
    std::vector<bool> endedEarly;
    for (const auto& r : m_recorders) {
        endedEarly.push_back(r->process.state() == QProcess::NotRunning || r->process.waitForFinished(0));
        if (!endedEarly.back())
            signalProcessGroup(r->process, SIGINT);
    }
    for (std::size_t i = 0; i < m_recorders.size(); ++i) {
        Recorder* const r = m_recorders[i].get();
        if (endedEarly[i])
            recorded.warnings << QStringLiteral("NVLink recorder for GPU %1 ended before the capture did (%2): %3")
                                     .arg(r->gpu)
                                     .arg(r->ending(), r->outputTail());
        else if (!r->process.waitForFinished(kStopSeconds * 1000)) {
            r->kill();
            recorded.warnings << QStringLiteral("NVLink recorder for GPU %1 did not stop on Ctrl+C within %2 s and "
                                                "was killed; its recording may end with a partial record")
                                     .arg(r->gpu)
                                     .arg(kStopSeconds);
        }
        if (QFileInfo(r->path).isFile())
            recorded.files.push_back({ r->path, r->gpu });
        else
            recorded.warnings << QStringLiteral("NVLink recorder for GPU %1 wrote no %2").arg(r->gpu).arg(r->path);
    }
    m_recorders.clear();
    return recorded;
}

void NvlinkRecorders::discard()
{
    for (const auto& r : m_recorders) {
        r->kill();
        QFile::remove(r->path);
    }
    m_recorders.clear();
}

} // namespace nsw
