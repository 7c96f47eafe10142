// SPDX-License-Identifier: GPL-3.0-or-later
#include "exporttargets.h"

#include "widgets/common/pane.h"

#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <algorithm>
#include <qcustomplot.h>

namespace nsw {

namespace {
/// Shown and not behind another tab: a dock tabbed behind another stays isVisible(), with nothing of it on screen.
bool isOnScreen(const QWidget* w)
{
    return w->isVisible() && !w->visibleRegion().isEmpty();
}
} // namespace

ExportTargets::ExportTargets(QObject* parent)
    : QObject(parent)
{
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        for (QWidget* w = now; w; w = w->parentWidget())
            if (auto* p = qobject_cast<Pane*>(w)) {
                m_lastFocusedPane = p;
                Q_EMIT paneFocused(p);
                if (QCustomPlot* plot = p->exportablePlot(); plot && isOnScreen(plot))
                    m_lastSeenPlot = plot;
                return;
            }
    });
}

void ExportTargets::add(Pane* pane, QDockWidget* dock)
{
    m_panes.push_back(pane);
    QCustomPlot* plot = pane->exportablePlot();
    if (!plot)
        return;
    plot->installEventFilter(this);
    // A tab brought to the front is not shown anew (tabbed docks stay "visible" behind their tab): its signal is.
    connect(dock, &QDockWidget::visibilityChanged, this, [this, plot](bool visible) {
        if (visible)
            m_lastSeenPlot = plot;
    });
}

bool ExportTargets::eventFilter(QObject* watched, QEvent* event)
{
    switch (event->type()) {
    case QEvent::Show:
    case QEvent::MouseButtonPress:
    case QEvent::Wheel:
        if (auto* plot = qobject_cast<QCustomPlot*>(watched))
            m_lastSeenPlot = plot;
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

Pane* ExportTargets::activePane() const
{
    if (m_lastFocusedPane && isOnScreen(m_lastFocusedPane))
        return m_lastFocusedPane;
    for (Pane* p : m_panes)
        if (isOnScreen(p) && (p->exportableView() || p->exportablePlot()))
            return p;
    return nullptr;
}

QCustomPlot* ExportTargets::plotToExport() const
{
    if (m_lastSeenPlot && isOnScreen(m_lastSeenPlot))
        return m_lastSeenPlot;
    for (Pane* p : m_panes)
        if (QCustomPlot* plot = p->exportablePlot(); plot && isOnScreen(plot))
            return plot;
    return nullptr;
}

Pane* ExportTargets::paneOf(const QCustomPlot* plot) const
{
    const auto owner = std::find_if(
        m_panes.begin(), m_panes.end(), [plot](const Pane* p) { return plot && p->exportablePlot() == plot; });
    return owner == m_panes.end() ? nullptr : *owner;
}

} // namespace nsw
