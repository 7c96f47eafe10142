// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QCPLayerable;
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

/// Marks @p layerable (a selection box, a hover highlight) as part of the screen only: exports never show it.
void markScreenOnly(QCPLayerable* layerable);

/// The one helper every chart export goes through: deselects, hides what markScreenOnly() marked, renders at the asked
/// size and scale, checks the result. Returns an empty string on success, else the error (naming the file).
QString savePlotPng(QCustomPlot& plot, const QString& fileName, const PngExportOptions& options = {});

/// Asks for a file name, size and DPI, then saves; returns false when cancelled or failed (errors are shown).
bool exportPlotInteractively(QCustomPlot& plot, const QString& suggestedName, QWidget* parent);

} // namespace nsw
