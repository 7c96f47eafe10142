// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"
#include "core/profile/focusrange.h"
#include "core/ranks/ranksresult.h"
#include "widgets/common/pane.h"

#include <QStringList>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace nsw {

class CollectiveSkewModel;
class RankHeatmap;
class RankMatrixModel;
class RankTableModel;
class SortFilterProxy;

/// The ranks of a distributed run (issue 34), from exports, rank summaries or folders of them (`ranks` in the
/// window): a heat map rank × iteration of the chosen metric, and below it the findings, a table per rank and the
/// collectives' arrival skew. Clicking a cell asks to open that rank's export focused on that iteration.
class RanksPane : public Pane
{
    Q_OBJECT
public:
    explicit RanksPane(Workbench* workbench, QWidget* parent = nullptr);

    /// The table of the tab shown (Ranks or Collectives); the heat map's matrix on the Findings tab.
    QAbstractItemView* exportableView() const override;
    QCustomPlot* exportablePlot() const override;
    QString exportBaseName() const override { return QStringLiteral("ranks"); }

    /// Analyses @p inputs (exports, summaries, folders) with the marker in the edit field; empty clears the pane.
    void setInputs(const QStringList& inputs);
    const QStringList& inputs() const { return m_inputs; }
    const std::shared_ptr<const RanksResult>& result() const { return m_result; }
    bool isComputing() const override { return m_job.isBusy(); }
    /// Asks for exports and summaries (or a folder of them); empty when cancelled.
    QStringList askForInputs(bool folder);

    // For tests and scripting.
    RankHeatmap* heatmap() const { return m_heatmap; }
    QComboBox* metricBox() const { return m_metric; }
    QLineEdit* markerEdit() const { return m_marker; }
    QLabel* message() const { return m_message; }
    QTabWidget* tabs() const { return m_tabs; }
    QTableView* rankView() const { return m_rankView; }
    QTableView* collectiveView() const { return m_collectiveView; }
    QTextBrowser* findingsView() const { return m_findings; }
    /// What a click on that cell asks for (the rank's export and the iteration's range on its clock).
    void activateCell(int row, int iteration);

Q_SIGNALS:
    /// Open @p exportPath (if it is not open) and focus every pane on @p range, the iteration of a rank.
    void openRankRequested(const QString& exportPath, const nsw::FocusRange& range);
    /// A new result (or a message) is shown; tests wait on it.
    void ranksShown();

private:
    void openInputs(bool folder);
    void recompute();
    void showResult(std::shared_ptr<const RanksResult> result, const QString& error);
    RankMetric chosenMetric() const;

    QStringList m_inputs;
    std::shared_ptr<const RanksResult> m_result;
    QLineEdit* m_marker;
    QComboBox* m_metric;
    QLabel* m_message;
    RankHeatmap* m_heatmap;
    QTabWidget* m_tabs;
    QTextBrowser* m_findings;
    RankTableModel* m_rankModel;
    SortFilterProxy* m_rankProxy;
    QTableView* m_rankView;
    CollectiveSkewModel* m_collectiveModel;
    SortFilterProxy* m_collectiveProxy;
    QTableView* m_collectiveView;
    RankMatrixModel* m_matrix; ///< the heat map's values as a table: its CSV
    JobSlot m_job;
};

} // namespace nsw
