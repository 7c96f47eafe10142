// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiledialog.h"

#include "core/nvlink/tracefolder.h"
#include "widgets/common/filedialogs.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <mutex>

namespace nsw {

namespace {
const QString kSettingsGroup = QStringLiteral("profileDialog");
const QStringList kOfferedTrace { QStringLiteral("cuda"), QStringLiteral("nvtx"), QStringLiteral("osrt"),
    QStringLiteral("cublas"), QStringLiteral("cudnn"), QStringLiteral("nccl"), QStringLiteral("mpi") };

QWidget* withBrowse(QLineEdit* edit, QWidget* parent, const std::function<void()>& browse)
{
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    auto* button = new QToolButton(row);
    button->setText(QObject::tr("Browse…"));
    QObject::connect(button, &QToolButton::clicked, row, browse);
    layout->addWidget(button);
    return row;
}
} // namespace

/// nsys's output, appended on the run's thread and shown by a timer on the GUI thread.
struct ProfileDialog::LogBuffer
{
    std::mutex mutex;
    QString pending;
};

ProfileDialog::ProfileDialog(QWidget* parent)
    : QDialog(parent)
    , m_program(new QLineEdit(this))
    , m_arguments(new QLineEdit(this))
    , m_workingFolder(new QLineEdit(this))
    , m_environment(new QPlainTextEdit(this))
    , m_sampleCpu(new QCheckBox(tr("Sample CPU call stacks and context switches"), this))
    , m_delay(new QDoubleSpinBox(this))
    , m_duration(new QDoubleSpinBox(this))
    , m_outputFolder(new QLineEdit(this))
    , m_outputName(new QLineEdit(this))
    , m_recorder(new QLineEdit(this))
    , m_recorderGpus(new QLineEdit(this))
    , m_log(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_start(new QPushButton(tr("&Profile"), this))
    , m_stop(new QPushButton(tr("&Stop"), this))
    , m_logTimer(new QTimer(this))
    , m_job(this)
{
    setWindowTitle(tr("Profile Application"));
    setObjectName(QStringLiteral("profileDialog"));
    auto* form = new QFormLayout;
    m_program->setObjectName(QStringLiteral("program"));
    m_program->setPlaceholderText(tr("./my_cuda_app or python"));
    form->addRow(tr("&Command:"), withBrowse(m_program, this, [this] {
        const QString file = askOpenFileName(this, tr("Application to profile"), tr("All files (*)"));
        if (!file.isEmpty())
            m_program->setText(file);
    }));
    m_arguments->setObjectName(QStringLiteral("arguments"));
    m_arguments->setPlaceholderText(tr("arguments, quoted as in a shell"));
    form->addRow(tr("&Arguments:"), m_arguments);
    m_workingFolder->setPlaceholderText(QDir::currentPath());
    form->addRow(tr("&Working folder:"), withBrowse(m_workingFolder, this, [this] {
        const QString folder = askExistingDirectory(this, tr("Working folder"));
        if (!folder.isEmpty())
            m_workingFolder->setText(folder);
    }));
    m_environment->setPlaceholderText(tr("NAME=VALUE, one per line"));
    m_environment->setFixedHeight(fontMetrics().lineSpacing() * 3 + 12);
    form->addRow(tr("&Environment:"), m_environment);

    auto* traceRow = new QWidget(this);
    auto* traceLayout = new QHBoxLayout(traceRow);
    traceLayout->setContentsMargins(0, 0, 0, 0);
    for (const QString& t : kOfferedTrace) {
        auto* box = new QCheckBox(t, traceRow);
        box->setObjectName(QStringLiteral("trace_") + t);
        box->setChecked(ProfileRequest::defaultTrace().contains(t));
        traceLayout->addWidget(box);
        m_trace[t] = box;
    }
    traceLayout->addStretch(1);
    form->addRow(tr("&Trace:"), traceRow);
    form->addRow(QString(), m_sampleCpu);
    for (QDoubleSpinBox* box : { m_delay, m_duration }) {
        box->setRange(0, 24 * 3600);
        box->setDecimals(1);
        box->setSuffix(tr(" s"));
    }
    m_duration->setSpecialValueText(tr("until the application exits"));
    form->addRow(tr("&Delay:"), m_delay);
    form->addRow(tr("D&uration:"), m_duration);
    m_outputFolder->setObjectName(QStringLiteral("outputFolder"));
    form->addRow(tr("Output &folder:"), withBrowse(m_outputFolder, this, [this] {
        const QString folder = askExistingDirectory(this, tr("Folder for the report"));
        if (!folder.isEmpty())
            m_outputFolder->setText(folder);
    }));
    m_outputName->setObjectName(QStringLiteral("outputName"));
    form->addRow(tr("Report &name:"), m_outputName);
    m_recorder->setObjectName(QStringLiteral("nvlinkRecorder"));
    m_recorder->setPlaceholderText(tr("optional: utilization --gpu {gpu} --interval-ms 1 --out {out} --quiet"));
    m_recorder->setToolTip(tr("A program that records NVLink throughput into an NVF1 file while nsys profiles, and "
                              "stops on Ctrl+C. {out} becomes the recording's path (beside the report), {gpu} the GPU "
                              "index; one recorder runs per GPU. The recordings are attached to the report's "
                              "profile."));
    m_recorderGpus->setObjectName(QStringLiteral("nvlinkGpus"));
    m_recorderGpus->setPlaceholderText(tr("0, or 0-3, or 0,2"));
    m_recorderGpus->setMaximumWidth(fontMetrics().horizontalAdvance(QStringLiteral("0,1,2,3,4,5,6,7")) + 16);
    auto* recorderRow = new QWidget(this);
    auto* recorderLayout = new QHBoxLayout(recorderRow);
    recorderLayout->setContentsMargins(0, 0, 0, 0);
    recorderLayout->addWidget(m_recorder, 1);
    auto* gpusLabel = new QLabel(tr("&GPUs:"), recorderRow);
    gpusLabel->setBuddy(m_recorderGpus);
    recorderLayout->addWidget(gpusLabel);
    recorderLayout->addWidget(m_recorderGpus);
    form->addRow(tr("NV&Link recorder:"), recorderRow);

    m_log->setObjectName(QStringLiteral("log"));
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("nsys's output appears here"));
    m_log->setMaximumBlockCount(5000);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(this);
    m_start->setObjectName(QStringLiteral("start"));
    m_stop->setObjectName(QStringLiteral("stop"));
    m_start->setDefault(true);
    buttons->addButton(m_start, QDialogButtonBox::ActionRole);
    buttons->addButton(m_stop, QDialogButtonBox::ActionRole);
    buttons->addButton(QDialogButtonBox::Close);
    connect(m_start, &QPushButton::clicked, this, &ProfileDialog::start);
    connect(m_stop, &QPushButton::clicked, this, &ProfileDialog::stop);
    connect(buttons, &QDialogButtonBox::rejected, this, &ProfileDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_log, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(760, 640);

    m_logTimer->setInterval(100);
    connect(m_logTimer, &QTimer::timeout, this, &ProfileDialog::drainLog);
    setRunning(false);

    // The last request, with a fresh report name.
    QSettings settings;
    settings.beginGroup(kSettingsGroup);
    m_program->setText(settings.value(QStringLiteral("program")).toString());
    m_arguments->setText(settings.value(QStringLiteral("arguments")).toString());
    m_workingFolder->setText(settings.value(QStringLiteral("workingFolder")).toString());
    m_environment->setPlainText(settings.value(QStringLiteral("environment")).toString());
    const QStringList trace = settings.value(QStringLiteral("trace"), ProfileRequest::defaultTrace()).toStringList();
    for (const auto& [name, box] : m_trace)
        box->setChecked(trace.contains(name));
    m_outputFolder->setText(settings.value(QStringLiteral("outputFolder"), lastDialogFolder()).toString());
    m_recorder->setText(settings.value(QStringLiteral("nvlinkRecorder")).toString());
    m_recorderGpus->setText(settings.value(QStringLiteral("nvlinkGpus"), QStringLiteral("0")).toString());
    suggestName();
    // The report is named after the application until the user names it.
    connect(m_outputName, &QLineEdit::textEdited, this, [this] { m_nameEdited = true; });
    connect(m_program, &QLineEdit::textChanged, this, [this] {
        if (!m_nameEdited)
            suggestName();
    });
}

void ProfileDialog::suggestName()
{
    const QString program = m_program->text().trimmed();
    const QString base = program.isEmpty() ? QStringLiteral("report") : QFileInfo(program).fileName();
    m_outputName->setText(base + QDateTime::currentDateTime().toString(QStringLiteral("-yyyyMMdd-HHmmss")));
}

ProfileDialog::~ProfileDialog()
{
    // The run's thread must not outlive what it writes to: killing nsys ends it within ~100 ms.
    m_job.cancel();
}

ProfileRequest ProfileDialog::request() const
{
    ProfileRequest r;
    r.program = m_program->text().trimmed();
    r.arguments = QProcess::splitCommand(m_arguments->text());
    r.workingDirectory = m_workingFolder->text().trimmed();
    for (const QString& line : m_environment->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.trimmed().isEmpty())
            r.environment << line.trimmed();
    r.trace.clear();
    for (const auto& [name, box] : m_trace)
        if (box->isChecked())
            r.trace << name;
    r.sampleCpu = m_sampleCpu->isChecked();
    r.delaySeconds = m_delay->value();
    r.durationSeconds = m_duration->value();
    r.outputFolder = m_outputFolder->text().trimmed();
    r.outputName = m_outputName->text().trimmed();
    r.nvlink.command = m_recorder->text().trimmed();
    r.nvlink.gpus = parseGpuList(m_recorderGpus->text());
    return r;
}

void ProfileDialog::setRequest(const ProfileRequest& r)
{
    m_program->setText(r.program);
    QStringList quoted;
    for (const QString& a : r.arguments)
        quoted << (a.contains(QLatin1Char(' ')) ? QLatin1Char('"') + a + QLatin1Char('"') : a);
    m_arguments->setText(quoted.join(QLatin1Char(' ')));
    m_workingFolder->setText(r.workingDirectory);
    m_environment->setPlainText(r.environment.join(QLatin1Char('\n')));
    for (const auto& [name, box] : m_trace)
        box->setChecked(r.trace.contains(name));
    m_sampleCpu->setChecked(r.sampleCpu);
    m_delay->setValue(r.delaySeconds);
    m_duration->setValue(r.durationSeconds);
    m_outputFolder->setText(r.outputFolder);
    m_outputName->setText(r.outputName);
    m_nameEdited = !r.outputName.isEmpty();
    m_recorder->setText(r.nvlink.command);
    QStringList gpus;
    for (const int g : r.nvlink.gpus)
        gpus << QString::number(g);
    m_recorderGpus->setText(gpus.join(QLatin1Char(',')));
}

bool ProfileDialog::isRunning() const
{
    return m_job.isBusy();
}

QString ProfileDialog::logText() const
{
    return m_log->toPlainText();
}

void ProfileDialog::remember() const
{
    QSettings settings;
    settings.beginGroup(kSettingsGroup);
    settings.setValue(QStringLiteral("program"), m_program->text());
    settings.setValue(QStringLiteral("arguments"), m_arguments->text());
    settings.setValue(QStringLiteral("workingFolder"), m_workingFolder->text());
    settings.setValue(QStringLiteral("environment"), m_environment->toPlainText());
    settings.setValue(QStringLiteral("trace"), request().trace);
    settings.setValue(QStringLiteral("outputFolder"), m_outputFolder->text());
    settings.setValue(QStringLiteral("nvlinkRecorder"), m_recorder->text());
    settings.setValue(QStringLiteral("nvlinkGpus"), m_recorderGpus->text());
}

void ProfileDialog::start()
{
    if (isRunning())
        return;
    const ProfileRequest r = request();
    if (Status valid = validateProfileRequest(r); !valid) {
        m_status->setText(tr("Cannot profile: %1").arg(valid.errorMessage()));
        return;
    }
    remember();
    m_log->clear();
    m_buffer = std::make_shared<LogBuffer>();
    m_stopToken = CancelToken();
    m_stopRequested = false;
    setRunning(true);
    m_status->setText(tr("Profiling %1…").arg(r.program));
    m_logTimer->start();
    std::shared_ptr<LogBuffer> buffer = m_buffer;
    const CancelToken stopToken = m_stopToken;
    m_job.run<ProfileOutcome>(
        [r, buffer, stopToken](const JobContext& context) {
            return profileApplication(
                r, context,
                [buffer](const QString& text) {
                    std::lock_guard lock(buffer->mutex);
                    buffer->pending += text;
                },
                stopToken);
        },
        [this](Result<ProfileOutcome> outcome) { finish(outcome); });
}

void ProfileDialog::stop()
{
    if (!isRunning())
        return;
    if (!m_stopRequested) {
        m_stopRequested = true;
        m_stopToken.cancel();
        m_status->setText(tr("Stopping: the application was sent Ctrl+C; nsys writes what it recorded. Press Stop "
                             "again to kill it."));
        return;
    }
    m_job.cancel();
    drainLog();
    m_logTimer->stop();
    setRunning(false);
    m_status->setText(tr("Killed: nsys and the application were ended; no report was opened."));
}

void ProfileDialog::reject()
{
    if (isRunning()) {
        m_job.cancel();
        m_logTimer->stop();
        setRunning(false);
    }
    QDialog::reject();
}

void ProfileDialog::finish(const Result<ProfileOutcome>& outcome)
{
    drainLog();
    m_logTimer->stop();
    setRunning(false);
    if (!outcome) {
        m_status->setText(tr("Profiling failed: %1").arg(outcome.errorMessage()));
        return;
    }
    QString text = tr("Report written: %1. Opening it…").arg(outcome->reportPath);
    if (outcome->applicationExitCode != 0)
        text.prepend(tr("The application exited with code %1. ").arg(outcome->applicationExitCode));
    QStringList warnings;
    const std::vector<RecordingChoice> recordings = usableRecordings(outcome->nvlink, &warnings);
    if (const std::size_t n = recordings.size(); n > 0)
        text += n == 1 ? tr(" With 1 NVLink recording.") : tr(" With %1 NVLink recordings.").arg(n);
    for (const QString& warning : warnings)
        text += QLatin1Char(' ') + warning + QLatin1Char('.');
    m_status->setText(text);
    // A fresh name for the next run.
    m_nameEdited = false;
    suggestName();
    Q_EMIT reportReady(outcome->reportPath, recordings);
}

void ProfileDialog::drainLog()
{
    if (!m_buffer)
        return;
    QString text;
    {
        std::lock_guard lock(m_buffer->mutex);
        text.swap(m_buffer->pending);
    }
    if (text.isEmpty())
        return;
    // nsys redraws its progress bars with "\r": keep the last state of each line.
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString& line : lines)
        line = line.section(QLatin1Char('\r'), -1);
    if (lines.last().isEmpty())
        lines.removeLast();
    for (const QString& line : lines)
        m_log->appendPlainText(line);
}

void ProfileDialog::setRunning(bool running)
{
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
}

} // namespace nsw
