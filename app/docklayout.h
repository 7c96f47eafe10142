// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <map>

class QDockWidget;
class QMainWindow;

namespace nsw {

/// Where a pane goes in the default layout (Nsight Systems' arrangement): a timeline across the top, the tables
/// below it (the NVTX tree beside the kernel and statistics tables), the charts as tabs on the right.
enum class PaneGroup
{
    Top, ///< full width, above everything else (the timeline)
    Navigator, ///< left column (the NVTX tree)
    Tables, ///< middle column, tabbed (Kernels, Statistics)
    Charts, ///< right column, tabbed (Categories, NVLink, Compare)
};

/// The main window's docks: their places by group, the default sizes, and the layout saved between sessions.
class DockLayout
{
public:
    explicit DockLayout(QMainWindow* window);

    /// Puts @p dock in @p group's place: tabbed onto the group's first dock, or a new column or row.
    void place(QDockWidget* dock, PaneGroup group);
    /// Brings the first dock of each group to the front of its tabs.
    void raiseFronts();
    /// The window at 90 % of its screen, centred.
    void sizeDefaultGeometry();
    /// The default shares of the window for the groups' columns and rows.
    void sizeDefaultLayout();

    /// The docks' state (QMainWindow::saveState) in this layout's version.
    QByteArray state() const;
    bool restoreState(const QByteArray& state);
    /// Saves the window's geometry and @p state in the settings.
    void save(const QByteArray& state) const;
    /// The geometry and state save() saved; false when there are none or they do not fit.
    bool restoreSaved();

private:
    QDockWidget* front(PaneGroup group) const;

    QMainWindow* m_window;
    std::map<PaneGroup, QDockWidget*> m_groupFront; ///< the first dock of each group; the others tab onto it
};

} // namespace nsw
