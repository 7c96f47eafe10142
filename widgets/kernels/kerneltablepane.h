// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"
#include "core/models/kernelinstancemodel.h"
#include "core/session/workbench.h"
#include "core/stats/kernelindex.h"
#include "widgets/common/sessionpane.h"

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;
class QTableView;
class QToolButton;

namespace nsw {

class DurationBinsModel;
class DurationHistogramChart;
class FilterBar;
class KernelLaneMenus;
class KernelSummaryModel;
class SortFilterProxy;

/// Kernel summary (nsys cuda_gpu_kern_sum plus p90/p99 and the groups of multimodal kernels, optionally split per
/// device) with name, device, process and stream filters; the selected kernel's executions are listed below, beside
/// their duration histogram, whose brushed bins filter the list.
class KernelTablePane : public SessionPane
{
    Q_OBJECT
public:
    explicit KernelTablePane(Workbench* workbench, QWidget* parent = nullptr);
    ~KernelTablePane() override;

    bool isComputing() const override { return m_indexJob.isBusy() || m_focusJob.isBusy(); }
    QAbstractItemView* exportableView() const override;

    // For tests and linked selection.
    QTableView* summaryView() const { return m_summaryView; }
    QTableView* instanceView() const { return m_instanceView; }
    FilterBar* filterBar() const { return m_filterBar; }
    SortFilterProxy* summaryProxy() const { return m_proxy; }
    void setNameMode(KernelNameMode mode);
    void setSplitByDevice(bool split);
    void setDeviceAllowed(int device, bool allowed);
    bool selectKernelByName(const QString& name);
    /// The summary line under the table (totals of the rows it shows, and the focus when one is set) and the note on
    /// filters a linked selection cleared.
    QLabel* summaryLabel() const { return m_summaryLabel; }
    QLabel* notice() const { return m_notice; }
    /// Selects one execution (a Profile::kernels row) and its kernel, e.g. picked in the NVLink pane.
    void selectKernelInstance(ProfileSession* target, quint32 kernelRow);
    /// The selected kernel's duration histogram, and the "Durations X – Y (clear)" line of its brushed bins.
    DurationHistogramChart* histogramChart() const { return m_histogramChart; }
    QLabel* brushLabel() const { return m_brushLabel; }
    QLabel* instancesLabel() const { return m_instancesLabel; }
    /// The histogram's bins as a table (what "Bins as CSV" writes).
    const DurationBinsModel* binsModel() const { return m_binsModel; }
    /// Lists only the executions of bins first..last, as dragging across them does.
    void brushBins(int firstBin, int lastBin);
    void clearBrush();

protected:
    void sessionChanged(ProfileSession* session) override;
    void sessionFocusChanged() override;
    void wholeSessionArrived() override;

private:
    void setUpControls();
    void setUpTables();
    void layOut();
    void connectControls();
    void connectWorkbench();
    /// Shows the session's index for the chosen name mode, building it off the GUI thread when needed.
    void useIndexOfCurrentMode();
    /// The mask of the kernels overlapping the session's focus, computed off the GUI thread (kept with the session).
    void updateFocusRows();
    void recompute();
    void showInstancesOfCurrentRow();
    /// The histogram of the listed executions (rows ascending by duration), and the brush again when it was on the
    /// same kernel.
    void showHistogram(const KernelGroupStats& stats, const std::vector<std::uint32_t>& rowsByDuration);
    void updateInstancesLabel();
    void onKernelSelection(const KernelSelection& selection);
    void updateSummaryLine();
    /// Selects an execution listed under the current kernel; false when it is not listed.
    bool selectListedInstance(quint32 kernelRow);
    /// A kernel selected in another pane that the filters hide: clears the filters that hide it (the external
    /// selection, the lane menus, the name filter, in that order, each only when needed), selects it and says so in
    /// the notice. Never silent: the notice also says when the kernel is not in the table at all.
    bool revealHiddenKernel(const QString& name, std::optional<quint32> kernelRow);
    KernelFilter currentFilter() const;

    std::shared_ptr<const KernelIndex> m_index;
    FilterBar* m_filterBar;
    QComboBox* m_nameMode;
    QCheckBox* m_splitByDevice;
    KernelLaneMenus* m_lanes;
    QWidget* m_selectionBanner;
    QToolButton* m_showAll = nullptr; ///< on the selection banner
    QLabel* m_selectionLabel;
    QLabel* m_notice;
    QLabel* m_summaryLabel;
    QLabel* m_instancesLabel;
    KernelSummaryModel* m_model;
    SortFilterProxy* m_proxy;
    QTableView* m_summaryView;
    KernelInstanceModel* m_instances;
    QTableView* m_instanceView;
    DurationHistogramChart* m_histogramChart;
    DurationBinsModel* m_binsModel;
    QLabel* m_brushLabel;
    /// The brushed durations and the kernel row (group and device) they were brushed on.
    struct Brush
    {
        int group = -1;
        std::int32_t device = -1;
        KernelInstanceModel::DurationRange range;
    };
    std::optional<Brush> m_brush;
    QString m_listedName; ///< the kernel whose executions are listed
    KernelSelection m_externalSelection;
    JobSlot m_indexJob; ///< the kernel index of another name mode being built; a newer choice cancels it
    JobSlot m_focusJob; ///< the focus mask being computed; a newer focus cancels it
    std::shared_ptr<const std::vector<char>> m_focusRows; ///< null: no focus
    FocusRange m_focus; ///< the focus m_focusRows stands for
};

} // namespace nsw
