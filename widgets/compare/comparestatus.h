// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The words above the Compare pane's chart and table: the chart's subtitle and the status lines.

#include <QStringList>
#include <cstddef>

namespace nsw {

class CompareController;

/// "baseline a.sqlite · rules E / M, mode · per second of capture".
QString compareSubtitle(const CompareController& controller);

struct CompareStatusText
{
    QStringList lines;
    bool warn = false; ///< a line is a warning
    qsizetype modeLine = -1; ///< the "Mode: ..." line, when there is one

    /// The lines as one line, the headline first: the mode is the line's least news.
    QString oneLine() const;
};
/// What to do next (open or choose profiles), progress, warnings, the headline of the changes, the mode and the focus.
CompareStatusText compareStatusOf(const CompareController& controller, std::size_t openSessions);

} // namespace nsw
