// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "categorychart.h"
#include "core/categories/timemodes.h"
#include "widgets/common/pane.h"

#include <QPointer>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTableView;
class QToolButton;

namespace nsw {

class CategoryController;
class CategoryTableModel;
class RuleEditorDialog;
class SortFilterProxy;

/// Kernel categories of every open profile as stacked bars (gputrc2graph's chart, live): rules per engine/model,
/// time mode, one bar per profile or per GPU, an optional CPU (non-GPU) segment, a table of the numbers, exports,
/// and the rule editor. Clicking a segment shows that category's kernels in the kernel table.
class CategoriesPane : public Pane
{
    Q_OBJECT
public:
    /// Shows @p controller (the window's; it outlives the pane).
    explicit CategoriesPane(CategoryController* controller, QWidget* parent = nullptr);
    /// A pane on its own (tests, benchmarks), with a controller of its own.
    explicit CategoriesPane(Workbench* workbench, QWidget* parent = nullptr);
    ~CategoriesPane() override;

    bool isComputing() const override;
    QAbstractItemView* exportableView() const override;
    QCustomPlot* exportablePlot() const override;
    QString exportBaseName() const override;

    CategoryController* controller() const { return m_controller; }
    CategoryChart* chart() const { return m_chart; }
    QTableView* tableView() const { return m_tableView; }
    void setTimeMode(TimeMode mode);
    /// Shows the kernels of one segment (a table row of one bar) in the kernel table.
    void selectSegment(int bar, int row);
    /// Writes `Profile,Category,Instances,Time (ns),Share (%)` / gputrc2graph's result.csv; returns an error.
    QString exportCategoriesCsv(const QString& path) const;
    QString exportMappingCsv(const QString& path) const;
    /// Opens (or raises) the rule editor.
    RuleEditorDialog* openEditor();
    QString statusText() const;

Q_SIGNALS:
    /// The chart and table show the latest results.
    void chartUpdated();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refillRuleSelectors();
    void syncOptions();
    void showResults();
    void updateWallEntry();

    CategoryController* m_controller;
    QComboBox* m_engine;
    QComboBox* m_model;
    QComboBox* m_mode;
    QComboBox* m_bars;
    QComboBox* m_wallSource;
    QDoubleSpinBox* m_wall;
    QToolButton* m_export;
    QLabel* m_status;
    CategoryChart* m_chart;
    CategoryTableModel* m_tableModel;
    SortFilterProxy* m_proxy;
    QTableView* m_tableView;
    QPointer<RuleEditorDialog> m_editor;
};

} // namespace nsw
