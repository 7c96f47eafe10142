// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparison.h"
#include "widgets/common/chart.h"
#include "widgets/common/plotexport.h"

#include <map>
#include <optional>
#include <set>

namespace nsw {

/// What the comparison chart stacks: per profile, the top-level keys that partition its GPU time.
struct CompareStack
{
    QStringList segments; ///< keys (bottom first), then "other" / "(outside NVTX ranges)" when needed
    QStringList keys; ///< per segment: the comparison key, empty for the synthetic segments
    std::vector<std::uint32_t> colors; ///< per segment, 0xAARRGGBB
    std::vector<std::vector<double>> values; ///< [segment][profile], normalized like the table
};
/// Categories all; kernels and NVTX ranges the @p maxSegments largest, the rest as "other"; NVTX adds the kernel
/// time outside every range.
CompareStack makeCompareStack(const Comparison& comparison, int maxSegments = 10);
/// Keys by |delta|, largest first, at most @p count, leaving out unchanged zero deltas.
std::vector<std::size_t> topChanges(const Comparison& comparison, int count = 12);

/// Two charts, one image: one stacked bar per profile (same colours as the categories pane for categories), and the
/// largest changes against the baseline as horizontal bars (red: more time, green: less), beside the stack when the
/// chart is wide, below it when it is tall, left out (the subtitle says so) when it is neither. Used by the compare
/// pane and by `nsys-workbench compare --png`.
class CompareChart : public Chart, public ExportLayout
{
    Q_OBJECT
public:
    explicit CompareChart(QWidget* parent = nullptr);

    void setComparison(const Comparison& comparison, const QString& subtitle);
    /// Exported, the bars carry their profiles' whole names (on screen shortened, whole in the tooltip).
    void setExporting(bool exporting) override;
    const CompareStack& stack() const { return m_stack; }
    /// Keys of the change bars, top bar first.
    const QStringList& changeKeys() const { return m_changeKeys; }

    enum class Arrangement
    {
        SideBySide,
        Below,
        StackOnly,
    };
    Arrangement arrangement() const { return m_arrangement; }
    QCPAxisRect* stackRect() const { return m_stackRect; }
    QCPAxisRect* changeRect() const { return m_changeRect; }
    QString subtitle() const { return m_subtitle->text(); }

Q_SIGNALS:
    /// A segment or a change bar was clicked.
    void keyClicked(const QString& key);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void updateLayout() override;

private:
    bool m_exporting = false;
    std::optional<std::pair<Comparison, QString>> m_shown; ///< what setComparison() was given, for setExporting()
    double stackTotal(std::size_t profile) const;
    void plotStacks(const Comparison& c, std::size_t n, const QStringList& profileLabels);
    void plotChanges(const Comparison& c, std::size_t n, const QStringList& profileLabels);
    QCPBars* addChangeBars(const QString& name, std::uint32_t color);
    void plotChangesAgainstOne(
        const Comparison& c, const std::vector<std::size_t>& changes, std::size_t compared, double unitNs);
    void plotChangesOfEach(const Comparison& c, const std::vector<std::size_t>& changes,
        const std::vector<std::size_t>& compared, const QStringList& profileLabels, double unitNs);
    void onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex);
    /// Sets the change axis so that the bars and the percentage labels beside the zero line fit in its pixels.
    void fitChangeRange();
    /// Sets the stack axis so that the total above the tallest stack fits under the axis rect's top.
    void fitStackRange();
    /// Places the change bars for the chart's size (see the class comment).
    void arrange();
    /// Shows or hides the change bars for the arrangement, with the subtitle.
    void showChanges();

    QCPTextElement* m_title;
    QCPTextElement* m_subtitle;
    QCPAxisRect* m_stackRect;
    QCPAxisRect* m_changeRect;
    QCPLayoutGrid* m_body; ///< the stack with its legend; the change bars beside or below it
    Arrangement m_arrangement = Arrangement::SideBySide;
    QString m_subtitleText;
    QSize m_shownFor; ///< the viewport size showChanges() last fitted the subtitle to
    bool m_changeLegend = false; ///< the change bars are named in the legend (several compared profiles)
    QCPLegend* m_legend;
    CompareStack m_stack;
    QStringList m_changeKeys;
    std::map<QCPAbstractPlottable*, QString> m_segmentKey;
    std::set<QCPAbstractPlottable*> m_changeBars;
    double m_changeLo = 0; ///< smallest and largest change, in the axis unit
    double m_changeHi = 0;
    double m_stackTop = 0; ///< the tallest stack, in the axis unit
    int m_labelPixels = 0; ///< widest percentage label (0: no labels)
};

} // namespace nsw
