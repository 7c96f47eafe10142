// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkattach.h"

#include "core/jobs/background.h"
#include "core/nvlink/nvlinkattachment.h"
#include "core/nvlink/nvlinksetup.h"
#include "core/session/profilesession.h"
#include "widgets/common/filedialogs.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace nsw {

namespace {

struct ReadOutcome
{
    std::vector<NvlinkRecordingEntry> entries;
    QStringList errors;
};

/// A read of recordings, child of the session they are for.
class RecordingRead : public QObject
{
public:
    using QObject::QObject;
    JobSlot job { this };
};

/// Export choice (when several) and one GPU per recording (with a checkbox to leave it out).
class RecordingChoiceDialog : public QDialog
{
public:
    RecordingChoiceDialog(const QStringList& exports, const QString& defaultExport,
        const std::vector<RecordingChoice>& recordings, QWidget* parent)
        : QDialog(parent)
        , m_exports(new QComboBox(this))
        , m_table(new QTableWidget(int(recordings.size()), 2, this))
    {
        setWindowTitle(tr("NVLink recordings"));
        auto* layout = new QVBoxLayout(this);
        auto* note = new QLabel(tr("An NVF1 recording does not say which GPU it is of. Choose the GPU (the CUDA "
                                   "device in the export) of each recording."),
            this);
        note->setWordWrap(true);
        layout->addWidget(note);
        if (exports.size() > 1) {
            auto* form = new QFormLayout;
            for (const QString& e : exports)
                m_exports->addItem(QFileInfo(e).fileName(), e);
            m_exports->setCurrentIndex(std::max(0, int(exports.indexOf(defaultExport))));
            form->addRow(tr("Export:"), m_exports);
            layout->addLayout(form);
        } else {
            m_exports->addItem(QString(), exports.value(0));
            m_exports->hide();
        }
        m_table->setHorizontalHeaderLabels({ tr("Recording"), tr("GPU") });
        m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
        m_table->verticalHeader()->hide();
        for (std::size_t i = 0; i < recordings.size(); ++i) {
            auto* item = new QTableWidgetItem(QFileInfo(recordings[i].path).fileName());
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Checked);
            item->setData(Qt::UserRole, recordings[i].path);
            m_table->setItem(int(i), 0, item);
            auto* gpu = new QSpinBox(m_table);
            gpu->setRange(0, 255);
            gpu->setValue(recordings[i].gpu);
            m_table->setCellWidget(int(i), 1, gpu);
        }
        layout->addWidget(m_table, 1);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
        layout->addWidget(buttons);
        connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
        connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
        resize(520, 320);
    }

    QString exportPath() const { return m_exports->currentData().toString(); }
    std::vector<RecordingChoice> recordings() const
    {
        std::vector<RecordingChoice> out;
        for (int r = 0; r < m_table->rowCount(); ++r)
            if (m_table->item(r, 0)->checkState() == Qt::Checked)
                out.push_back({ m_table->item(r, 0)->data(Qt::UserRole).toString(),
                    static_cast<QSpinBox*>(m_table->cellWidget(r, 1))->value() });
        return out;
    }

private:
    QComboBox* m_exports;
    QTableWidget* m_table;
};

} // namespace

void attachNvlinkRecordings(ProfileSession* session, std::vector<RecordingChoice> recordings, QWidget* parent,
    std::function<void(const QStringList& errors, const QStringList& warnings)> done)
{
    if (!session || recordings.empty())
        return;
    QPointer<QWidget> parentGuard(parent);
    // The read belongs to the session: closing the profile cancels it (the job slot dies with its holder).
    auto* holder = new RecordingRead(session);
    holder->job.run<ReadOutcome>(
        [recordings](const JobContext& job) -> Result<ReadOutcome> {
            ReadOutcome out;
            for (const RecordingChoice& c : recordings) {
                if (job.isCancelled())
                    return Result<ReadOutcome>::cancelled();
                Nvf1ReadResult r = readNvf1File(c.path, c.gpu);
                if (!r.recording)
                    out.errors.append(r.error);
                else
                    out.entries.push_back({ std::move(r.recording), c.gpu });
            }
            return out;
        },
        [session, holder, parentGuard, done](Result<ReadOutcome> read) {
            holder->deleteLater();
            ReadOutcome out = read ? std::move(*read) : ReadOutcome { {}, { read.errorMessage() } };
            QStringList warnings;
            if (!out.entries.empty()) {
                const auto current = session->attachment<NvlinkAttachment>(nvlinkAttachmentKey());
                auto next = std::make_shared<NvlinkAttachment>(current ? *current : NvlinkAttachment());
                const ProfilePtr profile = session->profile();
                for (NvlinkRecordingEntry& e : out.entries) {
                    NvlinkSetupRequest request;
                    request.source = { e.recording, nullptr, e.gpu };
                    request.exportInfo = profile.get();
                    request.capture = captureSpanOf(*profile);
                    request.offsetNs = next->clockOffsetNs;
                    request.recordingPath = e.recording->path;
                    request.exportPath = profile->meta.filePath;
                    if (const Result<NvlinkSetup> setup = setUpNvlinkSource(request);
                        setup && !setup->anotherSessionWarning.isEmpty())
                        warnings.append(setup->anotherSessionWarning
                            + QObject::tr(" The NVLink pane can align its start with the capture start."));
                    auto& list = next->recordings;
                    list.erase(
                        std::remove_if(list.begin(), list.end(),
                            [&](const NvlinkRecordingEntry& o) { return o.recording->path == e.recording->path; }),
                        list.end());
                    list.push_back(std::move(e));
                }
                session->setAttachment(nvlinkAttachmentKey(), next);
            }
            if (done)
                done(out.errors, warnings);
            else if (!out.errors.isEmpty() || !warnings.isEmpty())
                QMessageBox::warning(
                    parentGuard, QObject::tr("NVLink recording"), (out.errors + warnings).join(QStringLiteral("\n\n")));
        });
}

void attachNvlinkRecordingInteractively(ProfileSession* session, QWidget* parent)
{
    if (!session) {
        QMessageBox::information(parent, QObject::tr("Attach NVLink recording"),
            QObject::tr("Open the export the recording belongs to first."));
        return;
    }
    // Recordings usually sit beside their export: start there rather than in the last folder.
    const QStringList files = askOpenFileNames(parent, QObject::tr("Attach NVLink recordings"),
        QObject::tr("NVF1 NVLink recordings (*.bin);;All files (*)"), QFileInfo(session->path()).absolutePath());
    if (files.isEmpty())
        return;
    std::vector<RecordingChoice> choices;
    QStringList errors;
    for (const QString& f : files) {
        const QString problem = checkNvf1Header(f);
        if (!problem.isEmpty()) {
            errors.append(problem);
            continue;
        }
        choices.push_back({ f, std::max(0, suggestGpuFromFileName(f)) });
    }
    if (!errors.isEmpty())
        QMessageBox::warning(parent, QObject::tr("NVLink recording"), errors.join(QLatin1Char('\n')));
    if (choices.empty())
        return;
    RecordingChoiceDialog dialog({ session->path() }, session->path(), choices, parent);
    if (dialog.exec() != QDialog::Accepted)
        return;
    attachNvlinkRecordings(session, dialog.recordings(), parent);
}

TraceFolderPlan planTraceFolder(const QString& folder, QWidget* parent)
{
    TraceFolderPlan plan;
    const TraceFolder t = scanTraceFolder(folder);
    if (t.recordings.empty() || t.exports.isEmpty())
        return plan;
    plan.exportPath = defaultExport(t);
    const bool clear = defaultRecordingChoices(t, plan.recordings);
    if (clear && !plan.exportPath.isEmpty()) {
        plan.outcome = TraceFolderPlan::Ready;
        return plan;
    }
    RecordingChoiceDialog dialog(t.exports, plan.exportPath, plan.recordings, parent);
    if (dialog.exec() != QDialog::Accepted) {
        plan.outcome = TraceFolderPlan::Cancelled;
        return plan;
    }
    plan.exportPath = dialog.exportPath();
    plan.recordings = dialog.recordings();
    plan.outcome = TraceFolderPlan::Ready;
    return plan;
}

} // namespace nsw
