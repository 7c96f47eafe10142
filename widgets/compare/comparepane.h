// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/common/pane.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QMenu;
class QTableView;
class QToolButton;

namespace nsw {

class KeyColumns;

class CategoryController;
class CompareChart;
class CompareController;
class CompareTableModel;
class ElidedLabel;
class FilterBar;
class OptionsFold;
class ProfileSession;
class SortFilterProxy;

/// Open profiles side by side against a baseline: by kernel category (the categories pane's rules and time mode),
/// kernel name or NVTX path, with deltas and statuses, a table (one column group per profile, totals pinned on top),
/// stacked bars per profile and the largest changes. Selecting a row shows that key's kernels in the other panes.
class ComparePane : public Pane
{
    Q_OBJECT
public:
    /// Shows @p controller (the window's; it outlives the pane). Category keys follow the rules of its category
    /// controller, when it has one.
    explicit ComparePane(CompareController* controller, QWidget* parent = nullptr);
    /// A pane on its own (tests), with a controller of its own; @p categories may be null.
    ComparePane(Workbench* workbench, CategoryController* categories, QWidget* parent = nullptr);
    ~ComparePane() override;

    bool isComputing() const override;
    QAbstractItemView* exportableView() const override;
    QCustomPlot* exportablePlot() const override;
    QString exportBaseName() const override;

    CompareController* controller() const { return m_controller; }
    CompareChart* chart() const { return m_chart; }
    QTableView* tableView() const { return m_table; }
    CompareTableModel* tableModel() const { return m_model; }
    SortFilterProxy* proxy() const { return m_proxy; }
    FilterBar* filterBar() const { return m_filter; }
    QMenu* profilesMenu() const { return m_profilesMenu; }
    QString statusText() const;
    /// A short pane (a docked tab at 1366x768) keeps its rows for the table: the options (values, threshold, noise
    /// floor, name normalization) fold behind an Options button and the status shrinks to one line.
    bool isCompact() const;
    /// Selects the row of @p key (and so its kernels in the other panes); false when the key is not shown.
    bool selectKey(const QString& key);

Q_SIGNALS:
    /// The table and the chart show the latest results.
    void resultsShown();

protected:
    /// The comparison starts computing the first time the pane is seen (not behind another tab).
    void refresh() override;

private:
    void setUpControls();
    void layOut();
    void restoreSettings();
    void connectControls();
    void connectSources(Workbench* workbench, CategoryController* categories);
    void rebuildProfileControls();
    void refillRuleSelectors();
    void syncControls();
    void showStatus();
    void applyControls();
    void showResults();
    void onCurrentRowChanged();
    void applySelection(const QString& key);
    void onKernelNameSelected(ProfileSession* session, const QString& name);

    CompareController* m_controller;
    QToolButton* m_profilesButton;
    QMenu* m_profilesMenu;
    QComboBox* m_baseline;
    QComboBox* m_by;
    QComboBox* m_names;
    QCheckBox* m_normalizeNames;
    QLabel* m_rulesLabel;
    QComboBox* m_engine;
    QComboBox* m_ruleModel;
    QComboBox* m_mode;
    QComboBox* m_normalization;
    QLineEdit* m_marker;
    QDoubleSpinBox* m_threshold;
    QDoubleSpinBox* m_noiseFloor;
    QComboBox* m_statusFilter;
    FilterBar* m_filter;
    QToolButton* m_export;
    OptionsFold* m_fold;
    QWidget* m_valuesField = nullptr;
    QWidget* m_thresholdField = nullptr;
    QWidget* m_noiseFloorField = nullptr;
    QLabel* m_status;
    ElidedLabel* m_statusLine; ///< the status in one line, when compact and nothing to warn about
    bool m_statusWarns = false;
    CompareChart* m_chart;
    CompareTableModel* m_model;
    SortFilterProxy* m_proxy;
    QTableView* m_table;
    KeyColumns* m_columns = nullptr;
    QString m_selectedKey;
    bool m_syncing = false;
    bool m_ownsKernelFilter = false; ///< the kernel table shows our key's kernels (until another pane filters it)
};

} // namespace nsw
