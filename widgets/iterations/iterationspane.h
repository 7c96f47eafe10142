// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"
#include "core/profile/focusrange.h"
#include "widgets/common/sessionpane.h"

#include <memory>

class QLabel;
class QLineEdit;
class QTableView;
class QToolButton;

namespace nsw {

class IterationTableModel;
class IterationsChart;
class ProfileSession;
class SortFilterProxy;
struct IterationTable;

/// The iterations of the current profile (read-only): a table (index, marker, start, duration, GPU busy, idle,
/// kernels, top kernel, outlier) and a chart of the durations over the run. The marker is found automatically or
/// typed; a guess from GPU idle gaps says so above the table. Activating a row asks to focus on that iteration;
/// Compare (button or context menu) adds the selected or the median iteration to the Compare pane.
class IterationsPane : public SessionPane
{
    Q_OBJECT
public:
    explicit IterationsPane(Workbench* workbench, QWidget* parent = nullptr);

    bool isComputing() const override { return m_job.isBusy(); }
    QAbstractItemView* exportableView() const override;
    QCustomPlot* exportablePlot() const override;
    QString exportBaseName() const override;

    // For tests and scripting.
    QTableView* view() const { return m_view; }
    QToolButton* compareButton() const { return m_compare; }
    IterationsChart* chart() const { return m_chart; }
    QLabel* message() const { return m_message; }
    QLineEdit* markerEdit() const { return m_marker; }
    /// Recomputes with the marker in the edit field (empty: automatic).
    void recompute();

Q_SIGNALS:
    /// The user activated an iteration (double click or Enter on a row): focus every pane on it.
    void focusRequested(const nsw::FocusRange& range);
    /// "Compare" on an iteration (or the median one): add it to the Compare pane as an entry of its own.
    void compareRequested(nsw::ProfileSession* session, const nsw::FocusRange& range);
    /// A new table (or a message) is shown; tests wait on it.
    void iterationsShown();

protected:
    void refresh() override { recompute(); }
    void sessionChanged(ProfileSession* session) override;
    void wholeSessionArrived() override { refreshWhenShown(); }

private:
    void showTable(std::shared_ptr<const IterationTable> table, const QString& message, bool guess);
    void onActivated(const QModelIndex& index);
    void selectIteration(int index);
    /// The current row's iteration (or the median one) as a Compare entry.
    void requestCompare(bool median);

    QLineEdit* m_marker;
    QLabel* m_message;
    IterationTableModel* m_model;
    SortFilterProxy* m_proxy;
    QTableView* m_view;
    IterationsChart* m_chart;
    QToolButton* m_compare;
    JobSlot m_job;
};

} // namespace nsw
