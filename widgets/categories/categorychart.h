// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorytable.h"

#include <qcustomplot.h>

namespace nsw {

/// Stacked category bars (one QCPBars per category, chained with moveAbove), legend in its own column (top of the
/// stack first), value labels on segments large enough to hold one, the total above each bar, the time mode in the
/// title and the axis. Used by the categories pane and by `nsys-workbench categories --png`.
class CategoryChart : public QCustomPlot
{
    Q_OBJECT
public:
    explicit CategoryChart(QWidget* parent = nullptr);

    /// Replaces the chart's content. @p subtitle names the rules (e.g. "vllm / llama").
    void setTable(const CategoryTable& table, const QString& subtitle);
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

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    double scaled(TimeNs ns) const { return double(ns) / m_unitNs; }
    void fitTickLabels();

    CategoryTable m_table;
    QCPTextElement* m_title;
    QCPTextElement* m_subtitle;
    QCPItemRect* m_highlight = nullptr;
    double m_unitNs = 1e6;
    QString m_unit;
};

} // namespace nsw
