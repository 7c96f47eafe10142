// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnostics.h"
#include "core/jobs/background.h"
#include "widgets/common/sessionpane.h"

#include <map>
#include <memory>

class QAction;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace nsw {

class DiagnosticsTableModel;
class FindingsModel;
class MfuView;
class ProfileSession;
class SortFilterProxy;

/// What the pane's analysis job hands to the GUI thread: the diagnostics and their tables, formatted.
struct AnalysedDiagnostics
{
    DiagnosticsResult result;
    std::vector<DiagnosticsTable> tables;
};

/// The diagnostics of the current profile (issue 15): findings ranked by the GPU time they cost, each with its
/// numbers, recommendation and evidence (its kernels shown in the Kernels pane, its time range or NVTX range made the
/// focus), and every analysis table as a sortable sub-tab. Computed off the GUI thread when shown; follows the
/// profile's focus.
class FindingsPane : public SessionPane
{
    Q_OBJECT
public:
    explicit FindingsPane(Workbench* workbench, QWidget* parent = nullptr);

    bool isComputing() const override;
    QAbstractItemView* exportableView() const override;
    QCustomPlot* exportablePlot() const override;
    QString exportBaseName() const override;

    const Thresholds& thresholds() const { return m_thresholds; }
    void setThresholds(const Thresholds& thresholds);
    /// The last result, or null (none yet, computing, failed).
    const std::shared_ptr<const DiagnosticsResult>& result() const { return m_result; }
    void recompute();
    /// The report folder of the last result (as `report --out DIR`).
    Status writeReport(const QString& dir) const;
    /// Asks for a folder and writes the report into it (the pane's Export menu, File → Export → Report).
    void exportReportInteractively();

    // For tests.
    QLabel* message() const { return m_message; }
    QTableView* findingsView() const { return m_findingsView; }
    QTextBrowser* detail() const { return m_detail; }
    QTabWidget* tabs() const { return m_tabs; }
    QPushButton* showKernelsButton() const { return m_showKernels; }
    QPushButton* focusRangeButton() const { return m_focusRange; }
    MfuView* mfuView() const { return m_mfu; }
    /// Selects the finding with @p id (e.g. "gpu_idle"); false when there is none.
    bool selectFinding(const QString& id);

Q_SIGNALS:
    /// A result (or a message) is shown; tests wait on it.
    void resultShown();
    /// The user asked to focus every pane on a finding's time range.
    void focusRequested(const nsw::FocusRange& range);

protected:
    void refresh() override { recompute(); }
    void sessionChanged(ProfileSession* session) override;
    void wholeSessionArrived() override { refreshWhenShown(); }
    void sessionFocusChanged() override { sessionChanged(session()); }

private:
    void showResult(std::shared_ptr<const DiagnosticsResult> result, const QString& message);
    /// Shows a gap table row's time in the other panes (Workbench::selectTimeRange).
    void selectGap(const QModelIndex& row);
    /// The analysis tables besides the findings (their models made on first sight).
    void showTables(std::vector<DiagnosticsTable> tables);
    void showFinding(int index);
    const Finding* currentFinding() const;
    void showEvidenceKernels();
    void focusOnEvidence();
    void editThresholds();

    Thresholds m_thresholds;
    QString m_warnings; ///< the warnings of the analyses shown (kept when only the findings are computed again)
    QLabel* m_message;
    QTabWidget* m_tabs;
    FindingsModel* m_findings;
    SortFilterProxy* m_findingsProxy;
    QTableView* m_findingsView;
    QTextBrowser* m_detail;
    QPushButton* m_showKernels;
    QPushButton* m_focusRange;
    MfuView* m_mfu; ///< the MFU tab, second
    QAction* m_exportReport = nullptr;
    std::map<QString, DiagnosticsTableModel*> m_tableModels; ///< by table id; their views are tabs
    std::shared_ptr<const DiagnosticsResult> m_result;
    JobSlot m_job;
};

} // namespace nsw
