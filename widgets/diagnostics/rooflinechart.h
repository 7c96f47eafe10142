// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/mfu.h"
#include "widgets/common/chart.h"

namespace nsw {

/// The roofline of one GPU (issue 36 §3), from MfuResult::roofline: FLOPs per byte against TFLOP/s per GPU, both on
/// log scales; the roof (the memory slope up to the ridge, then the peak), the ridge, and the achieved points: one
/// per iteration (the same intensity, their speeds apart) and one per NVTX range with bytes, each range labelled. A
/// point's tooltip gives its numbers. Labelled where drawn, without a legend box (it would cover a docked chart).
/// Without a point it says so in the chart.
class RooflineChart : public Chart
{
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);

    /// Draws @p roofline; @p title names the GPU and precision ("H100 SXM, bf16").
    void setRoofline(const MfuRoofline& roofline, const QString& title);
    /// Draws the roofline of an MFU result, titled with its GPU and precision (the MFU tab and `mfu --png`).
    void setResult(const MfuResult& result);
    /// Nothing to draw: @p message in the middle.
    void clearRoofline(const QString& message);

    const MfuRoofline& roofline() const { return m_roofline; }
    /// The line above the chart, as drawn.
    QString titleText() const;
    /// The message drawn in the chart ("No achieved point: …"), empty when there are points.
    QString messageText() const;
    /// The tooltip of point @p index of roofline().points: its label, intensity, speed and how far below the roof.
    QString pointToolTip(int index) const;
    /// The labels drawn on the chart: the roof's bandwidth and peak, the ridge, the iterations, each range.
    QStringList labelTexts() const;
    /// Where point @p index is drawn, in widget pixels.
    QPointF pixelOfPoint(int index) const;

protected:
    void updateLayout() override;

private:
    QCPItemText* addLabel(double key, double value, Qt::Alignment alignment, const QColor& color, const QString& text);
    /// Where a label beside a mark at @p key goes: right of it left of @p split (a share of the keys' decades), else
    /// left of it.
    Qt::Alignment besideAlignment(double key, double split = 0.5) const;
    void drawRoof(const QCPRange& keys);
    void drawPoints();
    void placeSlopeLabel();
    void keepSideLabelsInside();
    void onMove(QMouseEvent* event);

    MfuRoofline m_roofline;
    QCPTextElement* m_title;
    QCPGraph* m_roof;
    QCPGraph* m_iterations;
    QCPGraph* m_ranges;
    QCPItemText* m_message = nullptr;
    QCPItemText* m_slopeLabel = nullptr; ///< the bandwidth, along the slope
    std::vector<QCPItemText*> m_sideLabels; ///< beside a mark: the iterations', each range's
};

} // namespace nsw
