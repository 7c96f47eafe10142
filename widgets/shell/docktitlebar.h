// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QDockWidget;
class QLabel;
class QToolButton;

namespace nsw {

/// A pane's title bar: its title, then Maximise (the pane alone in the window; again: the layout back), Float and
/// Close, as the window's own buttons look. Drags and double-clicks go to the dock as on the native title bar.
class DockTitleBar : public QWidget
{
    Q_OBJECT
public:
    explicit DockTitleBar(QDockWidget* dock);
    /// The Maximise button shows Restore while @p maximised.
    void setMaximised(bool maximised);
    QToolButton* maximiseButton() const { return m_maximise; }

Q_SIGNALS:
    void maximiseToggled();

private:
    QDockWidget* m_dock;
    QLabel* m_title;
    QToolButton* m_maximise;
};

} // namespace nsw
