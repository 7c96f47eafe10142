// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorytable.h"
#include "widgets/common/chart.h"
#include "widgets/common/plotexport.h"

namespace nsw {

/// Stacked category bars (one QCPBars per category, chained with moveAbove), legend in its own column (top of the
/// stack first), value labels on segments large enough to hold one, the total at the end of each bar, the time mode
/// in the title and the axis. Bars stand upright while their labels fit side by side on one line; otherwise they lie
/// horizontally, one label per row (elided to at most a third of the width), so the plot keeps most of the pane.
/// Used by the categories pane and by `nsys-workbench categories --png`.
class CategoryChart : public Chart, public ExportLayout
{
    Q_OBJECT
public:
    explicit CategoryChart(QWidget* parent = nullptr);

    /// Replaces the chart's content. @p subtitle names the rules (e.g. "vllm / llama").
    void setTable(const CategoryTable& table, const QString& subtitle);
    /// Exported, the bars carry their profiles' whole names (on screen shortened, whole in the tooltip).
    void setExporting(bool exporting) override;
    const CategoryTable& table() const { return m_table; }

    struct Hit
    {
        int bar = -1;
        int row = -1; ///< row of the table (category), -1 = none
    };
    /// The segment under a widget position.
    Hit hitTest(const QPointF& pos) const;
    /// Outlines a segment (or nothing with {-1, -1}).
    void highlight(Hit hit);
    /// "gemm: 12.3 ms (45.6 % of run_a.sqlite), 1,234 instances".
    QString describe(Hit hit) const;
    /// What the chart says when the table has no bars at all (set before setTable; the pane knows why).
    void setEmptyText(const QString& text) { m_emptyText = text; }
    /// The text shown instead of bars when there is no time to stack ("" when bars are drawn).
    /// Why the chart is empty (unwrapped), or empty when it shows bars.
    QString placeholderText() const { return m_placeholder ? m_placeholderText : QString(); }
    /// The title and subtitle as drawn (elided to the chart's width).
    QString shownTitle() const { return m_title->text(); }
    QString shownSubtitle() const { return m_subtitle->text(); }
    /// Bars lie horizontally (labels on the left axis).
    bool isHorizontal() const { return m_horizontal; }
    /// The axis along which the bars are laid out (their labels), and the time axis.
    QCPAxis* barAxis() const { return m_horizontal ? yAxis : xAxis; }
    QCPAxis* timeAxis() const { return m_horizontal ? xAxis : yAxis; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void updateLayout() override;

private:
    bool m_exporting = false;
    Hit m_highlighted; ///< what highlight() outlines, kept across an export's relayout
    double scaled(TimeNs ns) const { return double(ns) / m_unitNs; }
    /// Chooses the orientation and the legend's columns for the current size; rebuilds when the orientation changes.
    void fitToSize();
    bool labelsFitSideBySide() const;
    /// The width horizontal bar labels are shortened to: a third of what the legend leaves.
    int labelRoom() const;
    void fitLegend();
    void rebuild();
    /// The time unit for bars up to @p maxTotal: s, ms, µs or ns.
    void chooseUnit(TimeNs maxTotal);
    /// One QCPBars per category, stacked bottom-up in table order.
    void addStackedBars();
    void setUpAxes(TimeNs maxTotal);
    /// Says why there are no bars instead of drawing bars of "0.00 ns".
    void showPlaceholder();
    /// The value labels on the segments (shown where they fit, see showLabelsThatFit) and each bar's total.
    void addValueLabels();
    /// Hides the value labels of segments too short for their text (after each layout).
    void showLabelsThatFit();
    /// The time axis' range: the longest bar and its total label, read whole.
    void fitTimeRange();
    /// Plot coordinates of (bar position, time value) in the current orientation.
    QPointF at(double bar, double value) const { return m_horizontal ? QPointF(value, bar) : QPointF(bar, value); }

    CategoryTable m_table;
    QCPTextElement* m_title;
    QCPTextElement* m_subtitle;
    QString m_titleText; ///< before eliding to the chart's width
    QString m_subtitleText;
    QString m_rulesName;
    QCPItemRect* m_highlight = nullptr;
    QCPItemText* m_placeholder = nullptr;
    QString m_placeholderText;
    QString m_emptyText = tr("No kernel or memory time to show.");
    struct SegmentLabel
    {
        QCPItemText* item;
        double length; ///< the segment's length in the chart's time unit
    };
    std::vector<SegmentLabel> m_segmentLabels;
    std::vector<std::pair<QCPItemText*, double>> m_totalLabels; ///< each bar's total label and its value

    bool m_horizontal = false;
    QCPLayoutGrid* m_side = nullptr; ///< the legend's column beside the plot
    QCPLayoutGrid* m_below = nullptr; ///< the legend's row below the plot (narrow charts)
    enum class LegendPlace
    {
        Side,
        Below,
        Hidden,
    };
    LegendPlace m_legendPlace = LegendPlace::Side;
    int m_legendWidth = 0; ///< pixels the legend takes beside the plot
    int m_labelRoomBuilt = 0; ///< labelRoom() when the bar labels were last made
    double m_unitNs = 1e6;
    QString m_unit;
};

} // namespace nsw
