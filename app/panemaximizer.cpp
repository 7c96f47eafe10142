// SPDX-License-Identifier: GPL-3.0-or-later
#include "panemaximizer.h"

#include "app/panekeys.h"
#include "widgets/shell/docktitlebar.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>

namespace nsw {

PaneMaximizer::PaneMaximizer(QMainWindow* window)
    : QObject(window)
    , m_window(window)
    , m_action(new QAction(tr("Ma&ximise Pane"), window))
{
    m_action->setObjectName(QStringLiteral("maximisePane"));
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    m_action->setToolTip(tr("The pane you work in alone in the window; again to restore the layout"));
    connect(m_action, &QAction::triggered, this, [this]() {
        if (m_dock)
            restore();
        else if (m_current && m_current->isVisible() && !m_current->visibleRegion().isEmpty())
            maximise(m_current);
    });
}

void PaneMaximizer::adopt(QDockWidget* dock)
{
    auto* bar = new DockTitleBar(dock);
    dock->setTitleBarWidget(bar);
    connect(bar, &DockTitleBar::maximiseToggled, this, [this, dock]() { toggle(dock); });
    m_docks.push_back(dock);
}

void PaneMaximizer::toggle(QDockWidget* dock)
{
    if (m_dock == dock)
        restore();
    else
        maximise(dock);
}

void PaneMaximizer::maximise(QDockWidget* dock)
{
    restore();
    m_saved = m_window->saveState();
    m_dock = dock;
    for (QDockWidget* d : m_docks)
        if (d != dock)
            d->hide();
    dock->setFloating(false);
    showAndRaise(dock);
    updateTitleBars();
    Q_EMIT changed(dock);
}

void PaneMaximizer::restore()
{
    if (!m_dock)
        return;
    m_dock = nullptr;
    m_window->restoreState(m_saved);
    m_saved.clear();
    updateTitleBars();
    Q_EMIT changed(nullptr);
}

void PaneMaximizer::show(QDockWidget* dock)
{
    if (m_dock && m_dock != dock)
        restore();
    showAndRaise(dock);
}

void PaneMaximizer::updateTitleBars()
{
    m_action->setText(m_dock ? tr("Restore La&yout") : tr("Ma&ximise Pane"));
    for (QDockWidget* d : m_docks)
        if (auto* bar = qobject_cast<DockTitleBar*>(d->titleBarWidget()))
            bar->setMaximised(d == m_dock);
}

} // namespace nsw
