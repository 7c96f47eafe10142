// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"
#include "core/nsys/profilerun.h"
#include "core/nvlink/tracefolder.h"

#include <QDialog>
#include <map>
#include <memory>
#include <vector>

class QCheckBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace nsw {

/// Profile → Profile Application…: what to run and trace, then `nsys profile` with its output streamed into a log,
/// a Stop button (Ctrl+C to the application: nsys still writes the report) and, once the report exists,
/// reportReady() so that the window opens it. Not modal: the window stays usable while the application runs.
class ProfileDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ProfileDialog(QWidget* parent = nullptr);
    ~ProfileDialog() override;

    /// The request the form describes (also what a test fills in).
    ProfileRequest request() const;
    void setRequest(const ProfileRequest& request);
    bool isRunning() const;
    /// Everything nsys printed so far.
    QString logText() const;

public Q_SLOTS:
    void start();
    /// First press: Ctrl+C to the application; second: kill nsys and the application.
    void stop();

Q_SIGNALS:
    /// @p recordings: the NVLink recordings made alongside, to attach to the report's profile.
    void reportReady(const QString& reportPath, const std::vector<nsw::RecordingChoice>& recordings);

protected:
    void reject() override;

private:
    struct LogBuffer;
    void finish(const Result<ProfileOutcome>& outcome);
    void drainLog();
    void setRunning(bool running);
    void remember() const;
    /// "<application>-<date>-<time>" as the report's name.
    void suggestName();

    QLineEdit* m_program;
    QLineEdit* m_arguments;
    QLineEdit* m_workingFolder;
    QPlainTextEdit* m_environment;
    std::map<QString, QCheckBox*> m_trace;
    QCheckBox* m_sampleCpu;
    QDoubleSpinBox* m_delay;
    QDoubleSpinBox* m_duration;
    QLineEdit* m_outputFolder;
    QLineEdit* m_outputName;
    QLineEdit* m_recorder;
    QLineEdit* m_recorderGpus;
    QPlainTextEdit* m_log;
    QLabel* m_status;
    QPushButton* m_start;
    QPushButton* m_stop;
    QTimer* m_logTimer;
    std::shared_ptr<LogBuffer> m_buffer;
    CancelToken m_stopToken;
    bool m_stopRequested = false;
    bool m_nameEdited = false;
    JobSlot m_job;
};

} // namespace nsw
