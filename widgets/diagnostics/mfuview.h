// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/mfu.h"
#include "core/jobs/background.h"

#include <QPointer>
#include <QWidget>
#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QSplitter;
class QTableView;
class QTextBrowser;

namespace nsw {

class DiagnosticsTableModel;
class MfuDialog;
class ProfileSession;
class RooflineChart;
class SplitterShare;
class Workbench;

/// The Findings pane's MFU tab (issue 36 §3): what the MFU needs until the user gives the model's FLOPs (MfuDialog),
/// then the result of computeMfu() -- the one the `mfu` command prints -- for the whole current profile: the summary,
/// MFU and achieved TFLOP/s per iteration and per NVTX range, the roofline, the peak with its source and every
/// assumption. The last
/// inputs apply to the next current profile as well (a before/after pair is the same model).
class MfuView : public QWidget
{
    Q_OBJECT
public:
    explicit MfuView(Workbench* workbench, QWidget* parent = nullptr);

    /// Asks for the inputs (the dialog keeps the last ones), then computes.
    void askForInputs();
    /// Computes for @p request on the current profile (its profile is set here).
    void run(MfuRequest request);
    /// The last result, or null (no inputs yet, computing, failed).
    const std::shared_ptr<const MfuResult>& result() const { return m_result; }
    bool isComputing() const { return m_job.isBusy(); }
    /// The inputs, kept between runs (askForInputs() shows it).
    MfuDialog* dialog() const { return m_dialog; }
    /// The GPU, what the roofline lacks (no bytes, no bandwidth) and every assumption of the result; without one, what
    /// the MFU needs and the peak it would use.
    QTextBrowser* details() const { return m_details; }
    /// The table a CSV export writes: per iteration when there are iterations, else per range.
    QTableView* exportableView() const;

    // For tests.
    QLabel* headline() const { return m_headline; }
    /// The result's warnings (an MFU above 100 %) under the headline; hidden without one.
    QLabel* warning() const { return m_warning; }
    QTableView* iterationsView() const { return m_iterationsView; }
    QTableView* rangesView() const { return m_rangesView; }
    /// The roofline of the result (File → Export → PNG writes it).
    RooflineChart* rooflineChart() const { return m_roofline; }

Q_SIGNALS:
    /// A result or an error is shown; tests wait on it.
    void resultShown();

private:
    void setSession(ProfileSession* session);
    void compute();
    void showResult(std::shared_ptr<const MfuResult> result, const QString& error);
    void showRoofline();
    QString inputsHtml() const;

    QPointer<ProfileSession> m_session;
    std::optional<MfuRequest> m_request; ///< the last inputs, without a profile
    std::shared_ptr<const MfuResult> m_result;
    MfuDialog* m_dialog;
    DiagnosticsTableModel* m_iterations;
    QTableView* m_iterationsView;
    DiagnosticsTableModel* m_ranges;
    QTableView* m_rangesView;
    QSplitter* m_tables;
    RooflineChart* m_roofline;
    SplitterShare* m_tablesShare = nullptr;
    QLabel* m_headline;
    QLabel* m_warning;
    QPushButton* m_inputsButton;
    QTextBrowser* m_details;
    JobSlot m_job;
};

} // namespace nsw
