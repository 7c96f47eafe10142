// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <vector>

class QCustomPlot;
class QDockWidget;

namespace nsw {

class Pane;

/// What File → Export writes: the table of the pane the user works in, the chart the user last looked at.
class ExportTargets : public QObject
{
    Q_OBJECT
public:
    explicit ExportTargets(QObject* parent = nullptr);

    /// Follows @p pane, shown in @p dock: its focus, and when its chart is shown, clicked or scrolled.
    void add(Pane* pane, QDockWidget* dock);
    /// The pane last focused while it is on screen, else the first pane on screen with a table or a chart.
    Pane* activePane() const;
    /// The chart last looked at while it is on screen, else the first chart on screen; nullptr when none is.
    QCustomPlot* plotToExport() const;
    /// The pane that shows @p plot.
    Pane* paneOf(const QCustomPlot* plot) const;

Q_SIGNALS:
    void paneFocused(nsw::Pane* pane);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    std::vector<Pane*> m_panes;
    Pane* m_lastFocusedPane = nullptr;
    QPointer<QCustomPlot> m_lastSeenPlot;
};

} // namespace nsw
