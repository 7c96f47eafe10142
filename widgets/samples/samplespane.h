// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/samplesrun.h"
#include "core/jobs/background.h"
#include "core/samples/samplesexport.h"
#include "core/samples/samplestates.h"
#include "widgets/common/sessionpane.h"

#include <memory>

class QComboBox;
class QLabel;
class QScrollArea;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QToolButton;
class QTreeView;

namespace nsw {

class FilterBar;
class FlameGraphView;
class SampleFlatModel;
class SampleTreeModel;
class SortFilterProxy;
class ThreadStateView;

/// What the Samples pane shows for one request: the counted samples and every view of them, built off the GUI thread.
struct SamplesView
{
    SamplesResult result;
    std::shared_ptr<const std::vector<SampleTreeRow>> topDown;
    std::vector<SampleTreeRow> bottomUp;
    ThreadStateBins states;
};

/// The CPU samples of the current profile (nsys profile -s cpu): a flat function list, top-down and bottom-up trees,
/// a flame graph and the thread states over time, for all threads, a process or a thread, following the focus and
/// the linked selection (a range dragged on the timeline or an idle gap picked in the Findings pane shows the samples
/// inside it, and so does an NVTX range picked in the NVTX tree), optionally only the samples taken while the GPUs were
/// idle. Selecting a function marks its samples on
/// the timeline's thread rows. An export without samples says so in place of the views.
class SamplesPane : public SessionPane
{
    Q_OBJECT
public:
    explicit SamplesPane(Workbench* workbench, QWidget* parent = nullptr);
    ~SamplesPane() override;

    QAbstractItemView* exportableView() const override;

    // For tests.
    QComboBox* scopeSelector() const { return m_scope; }
    QComboBox* duringSelector() const { return m_during; }
    FilterBar* searchBar() const { return m_search; }
    QTabWidget* tabs() const { return m_tabs; }
    QTableView* flatView() const { return m_flatView; }
    QTreeView* topDownView() const { return m_topDownView; }
    QTreeView* bottomUpView() const { return m_bottomUpView; }
    FlameGraphView* flameGraph() const { return m_flame; }
    ThreadStateView* threadStates() const { return m_states; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* placeholder() const { return m_placeholder; }
    QToolButton* clearSelectionButton() const { return m_clearSelection; }
    SampleFlatModel* flatModel() const { return m_flatModel; }
    const SamplesView* shown() const { return m_view.get(); }
    /// The stretch of time the linked selection limits the samples to (inactive: none).
    const FocusRange& selection() const { return m_selection; }
    void setSelection(const FocusRange& selection);

Q_SIGNALS:
    /// A request's views are shown (tests wait on it).
    void viewsShown();

protected:
    void refresh() override;
    void sessionChanged(ProfileSession* session) override;
    void sessionFocusChanged() override { setSelection({}); }
    void wholeSessionArrived() override;

private:
    void setUpControls();
    void setUpViews();
    void layOut();
    void connectSignals(Workbench* workbench);
    /// Lists the processes and threads with samples, and the GPUs (keeps the choice when it still exists).
    void fillSelectors();
    SamplesRequest currentRequest() const;
    void showView(std::shared_ptr<const SamplesView> view);
    void showMessage(const QString& text);
    void updateStatus();
    void onSearch(const QString& text, bool regex);
    /// Marks the samples of @p function on the timeline (through the workbench).
    void selectFunction(std::int32_t function);

    FocusRange m_selection;
    QComboBox* m_scope;
    QComboBox* m_during;
    FilterBar* m_search;
    QToolButton* m_clearSelection;
    QToolButton* m_export;
    QLabel* m_status;
    QLabel* m_placeholder;
    QStackedWidget* m_stack;
    QTabWidget* m_tabs;
    SampleFlatModel* m_flatModel;
    SortFilterProxy* m_flatProxy;
    QTableView* m_flatView;
    SampleTreeModel* m_topDownModel;
    SortFilterProxy* m_topDownProxy;
    QTreeView* m_topDownView;
    SampleTreeModel* m_bottomUpModel;
    SortFilterProxy* m_bottomUpProxy;
    QTreeView* m_bottomUpView;
    QScrollArea* m_flameArea;
    FlameGraphView* m_flame;
    QScrollArea* m_statesArea;
    ThreadStateView* m_states;
    std::shared_ptr<const SamplesView> m_view;
    JobSlot m_job;
    JobSlot m_gpuKeysJob; ///< the GPUs of the "While GPU N is idle" choices
};

/// Counts the samples of @p request and builds every view of them (@p bins thread-state bins over the focus, the
/// selection or the samples' span).
Result<std::shared_ptr<const SamplesView>> buildSamplesView(
    const SamplesRequest& request, int bins, const JobContext& job);

} // namespace nsw
