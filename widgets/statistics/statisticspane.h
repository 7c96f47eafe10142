// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"
#include "widgets/common/sessionpane.h"

class QComboBox;
class QLabel;
class QTableView;

namespace nsw {

class FilterBar;
class KeyColumns;
class ProfileSession;
class ReportTableModel;
class SortFilterProxy;

/// nsys stats reports of the current profile (CUDA API, memory operations by time and size, OS runtime, kernels),
/// computed off the GUI thread, shown with the same columns nsys prints.
class StatisticsPane : public SessionPane
{
    Q_OBJECT
public:
    explicit StatisticsPane(Workbench* workbench, QWidget* parent = nullptr);

    bool isComputing() const override { return m_job.isBusy(); }
    QAbstractItemView* exportableView() const override;
    QString exportBaseName() const override;

    QComboBox* reportSelector() const { return m_report; }
    ReportTableModel* model() const { return m_model; }

Q_SIGNALS:
    /// The displayed report changed (tests wait on it).
    void reportShown();

protected:
    /// Another profile (or the rest of one) may lack the report shown: then the first with data, until the user picks.
    void sessionChanged(ProfileSession* session) override;
    void sessionFocusChanged() override { refreshWhenShown(); }
    void wholeSessionArrived() override { sessionChanged(session()); }
    /// Computes the chosen report (behind another tab: once its tab is chosen).
    void refresh() override;

private:
    /// Until the user picks a report: a report whose tables the current (whole) profile lacks makes way for the
    /// first one with data (a CPU-only profile opens on osrt_sum, not on an empty cuda_api_sum).
    void showAReportWithData();
    /// The report's Name column first and its key numbers beside it (KeyColumns).
    void showNameAndKeyColumns();
    /// The report m_waitingReport needs a later stage of the current profile's load: says so, with the progress.
    void showWaitingMessage();

    QComboBox* m_report;
    FilterBar* m_filter;
    QLabel* m_message;
    ReportTableModel* m_model;
    SortFilterProxy* m_proxy;
    QTableView* m_view;
    KeyColumns* m_columns = nullptr;
    bool m_reportPicked = false; ///< the user chose a report: it stays, with data or not
    QString m_waitingReport; ///< the report waiting for the rest of a staged load, else empty
    JobSlot m_job; ///< the report being computed; a newer request cancels it
};

} // namespace nsw
