// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"
#include "core/nvtx/nvtxtree.h"
#include "widgets/common/sessionpane.h"

#include <QPointer>
#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;
class QSpinBox;
class QTableView;
class QToolButton;
class QTreeView;

namespace nsw {

class DurationBinsModel;
class DurationHistogramChart;
class FilterBar;
class KeyColumns;
class NvtxFlatModel;
class NvtxTreeModel;
class ProfileSession;
class SortFilterProxy;

/// The NVTX range tree of the current profile with the GPU time of the kernels launched inside each range.
/// Selecting a range filters the kernel table to its kernels; a kernel selected elsewhere highlights the ranges
/// that contain it. The tree is built off the GUI thread.
class NvtxPane : public SessionPane
{
    Q_OBJECT
public:
    explicit NvtxPane(Workbench* workbench, QWidget* parent = nullptr);
    ~NvtxPane() override;

    bool isComputing() const override { return m_job.isBusy(); }
    /// The tree flattened with depth and path (a hidden table), so that File → Export → CSV writes all of it.
    QAbstractItemView* exportableView() const override;

    // For tests.
    QTreeView* view() const { return m_view; }
    /// The duration histogram of the selected range's instances (or kernel leaf's executions).
    DurationHistogramChart* histogramChart() const { return m_histogram; }
    NvtxTreeModel* model() const { return m_model; }
    SortFilterProxy* proxy() const { return m_proxy; }
    FilterBar* filterBar() const { return m_filter; }
    QComboBox* groupingSelector() const { return m_grouping; }
    QCheckBox* normalizeBox() const { return m_normalize; }
    QLabel* coverageLabel() const { return m_coverage; }
    QSpinBox* coverageThreshold() const { return m_threshold; }
    bool coverageWarningShown() const;
    /// Selects the node (through the proxy) as a click would.
    void selectNode(std::int32_t node);
    QString exportMarkdown(const QString& fileName) const;
    /// The context menu of a row of the view (a proxy index): "Focus on this range" for ranges. The caller owns it.
    QMenu* contextMenuFor(const QModelIndex& index);

Q_SIGNALS:
    /// A tree was built and shown (tests wait on it).
    void treeShown();
    /// "Focus on this range": the first instance of the chosen aggregated range (or the one instance it has).
    void focusRequested(const nsw::FocusRange& range);

protected:
    void sessionChanged(ProfileSession*) override { rebuild(); }
    void sessionFocusChanged() override { rebuild(); }
    void wholeSessionArrived() override { rebuild(); }

private:
    /// The constructor's parts: the grouping, normalization and threshold controls with their saved values; the
    /// Export menu; the tree and flat views; the layout; what the controls and the workbench change.
    void setUpControls();
    void setUpExportMenu();
    void setUpViews();
    void layOut();
    void connectSignals(Workbench* workbench);
    void rebuild();
    void showTree(std::shared_ptr<const NvtxTree> tree);
    void updateCoverage();
    void sortByTheTimeThereIs();
    void onCurrentNodeChanged();
    void showHistogramOf(std::int32_t node);
    void highlight(const std::vector<std::int32_t>& nodes);
    NvtxTreeOptions currentOptions() const;

    std::shared_ptr<const NvtxTree> m_tree;
    bool m_sortedByCpuForLackOfGpu = false; ///< sortByTheTimeThereIs() chose the CPU column
    FilterBar* m_filter;
    QComboBox* m_grouping;
    QCheckBox* m_normalize;
    QToolButton* m_export;
    QLabel* m_coverage;
    QSpinBox* m_threshold;
    QLabel* m_message;
    NvtxTreeModel* m_model;
    SortFilterProxy* m_proxy;
    QTreeView* m_view;
    KeyColumns* m_keyColumns = nullptr;
    NvtxFlatModel* m_flat;
    QTableView* m_flatView;
    DurationHistogramChart* m_histogram;
    DurationBinsModel* m_bins;
    JobSlot m_job; ///< the tree being built; a newer request cancels it
    QPointer<ProfileSession> m_selectionSession; ///< whose kernel table this pane filtered, if any
};

} // namespace nsw
