// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QDockWidget>
#include <QObject>
#include <QPointer>
#include <vector>

class QAction;
class QMainWindow;

namespace nsw {

/// Maximise one pane (View → Maximise Pane, Ctrl+M, or its title bar's button): every other pane steps aside and
/// the pane has the window; the same again, or any pane's key, brings the layout back as it was.
class PaneMaximizer : public QObject
{
    Q_OBJECT
public:
    explicit PaneMaximizer(QMainWindow* window);
    /// Gives @p dock the title bar with the Maximise button (DockTitleBar).
    void adopt(QDockWidget* dock);
    QDockWidget* maximised() const { return m_dock; }
    /// Maximises @p dock, or restores the layout when it is the maximised one.
    void toggle(QDockWidget* dock);
    /// The layout as it was before the pane was maximised (nothing when none is).
    void restore();
    /// What a pane's key does: restores the layout if another pane is maximised, then shows and raises @p dock.
    void show(QDockWidget* dock);
    /// View → Maximise Pane: toggles the pane the user works in (@p current, when on screen).
    QAction* action() const { return m_action; }
    void setCurrentDock(QDockWidget* dock) { m_current = dock; }

Q_SIGNALS:
    void changed(QDockWidget* maximised);

private:
    void maximise(QDockWidget* dock);
    void updateTitleBars();

    QMainWindow* m_window;
    QAction* m_action;
    std::vector<QDockWidget*> m_docks;
    QPointer<QDockWidget> m_dock; ///< the maximised pane's dock
    QPointer<QDockWidget> m_current; ///< the dock of the pane last focused
    QByteArray m_saved;
};

} // namespace nsw
