// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QCPLayerable;
class QIODevice;
class QImage;
class QCustomPlot;
class QWidget;

namespace nsw {

struct PngExportOptions
{
    int width = 0; ///< pixels at scale 1; 0 = the widget's size
    int height = 0;
    double scale = 1.0; ///< re-renders at scale × size (HiDPI / print quality), not a stretch
    int dpi = 96; ///< written into the PNG
    bool transparent = false;
};

/// A chart whose on-screen labels lean on tooltips (profile names shortened to "…before…") lays itself out for a
/// picture while exported: renderPlotImage() calls setExporting(true) before it draws, setExporting(false) after.
class ExportLayout
{
public:
    virtual ~ExportLayout() = default;
    virtual void setExporting(bool exporting) = 0;
};

/// Marks @p layerable (a selection box, a hover highlight) as part of the screen only: exports never show it.
void markScreenOnly(QCPLayerable* layerable);

/// The one helper every chart export goes through: deselects, hides what markScreenOnly() marked, renders at the asked
/// size and scale (on the GUI thread: QCustomPlot draws with widgets' fonts), the DPI written into the image. A null
/// image when the chart has no size.
QImage renderPlotImage(QCustomPlot& plot, const PngExportOptions& options = {});
/// Writes @p image as PNG into @p out; an error message or "". Safe off the GUI thread.
QString writePng(const QImage& image, QIODevice& out);
/// renderPlotImage() written to @p fileName now (headless exports, tests). Returns an empty string on success, else
/// the error (naming the file).
QString savePlotPng(QCustomPlot& plot, const QString& fileName, const PngExportOptions& options = {});

/// Asks for a file name, size and DPI, then saves; returns false when cancelled or failed (errors are shown).
bool exportPlotInteractively(QCustomPlot& plot, const QString& suggestedName, QWidget* parent);

} // namespace nsw
