// SPDX-License-Identifier: GPL-3.0-or-later
#include "docklayout.h"

#include <QDockWidget>
#include <QGuiApplication>
#include <QLayout>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <algorithm>

namespace nsw {

namespace {
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
// 3: timeline row on top, tables in the middle, charts as tabs on the right. 4: Ranks among the tables (five chart tabs
// had their titles elided at 1366x768).
constexpr int kLayoutVersion = 4;
} // namespace

DockLayout::DockLayout(QMainWindow* window)
    : m_window(window)
{ }

QDockWidget* DockLayout::front(PaneGroup group) const
{
    const auto it = m_groupFront.find(group);
    return it == m_groupFront.end() ? nullptr : it->second;
}

void DockLayout::place(QDockWidget* dock, PaneGroup group)
{
    // Panes of one group share a tab group; the first one added stays in front.
    if (QDockWidget* first = front(group)) {
        m_window->tabifyDockWidget(first, dock);
        first->raise();
        return;
    }
    m_groupFront[group] = dock;
    QDockWidget* tables = front(PaneGroup::Tables);
    if (group == PaneGroup::Charts && tables) {
        // The charts' column, right of the tables. (Splitting a dock that is already tabbed would add a tab instead,
        // hence createPanes() adds the first chart before the second table.)
        m_window->splitDockWidget(tables, dock, Qt::Horizontal);
    } else {
        const Qt::DockWidgetArea area = group == PaneGroup::Top ? Qt::TopDockWidgetArea
            : group == PaneGroup::Navigator                     ? Qt::LeftDockWidgetArea
                                                                : Qt::RightDockWidgetArea;
        m_window->addDockWidget(area, dock, area == Qt::TopDockWidgetArea ? Qt::Horizontal : Qt::Vertical);
    }
}

void DockLayout::raiseFronts()
{
    for (const auto& [group, front] : m_groupFront)
        front->raise();
}

void DockLayout::sizeDefaultGeometry()
{
    // As much room as maximised, still a window the user can move.
    const QScreen* s = m_window->screen() ? m_window->screen() : QGuiApplication::primaryScreen();
    if (!s) {
        m_window->resize(1400, 900);
        return;
    }
    const QRect available = s->availableGeometry();
    const QSize size(available.width() * 9 / 10, available.height() * 9 / 10);
    m_window->setGeometry(QStyle::alignedRect(Qt::LeftToRight, Qt::AlignCenter, size, available));
}

void DockLayout::sizeDefaultLayout()
{
    // Shares of the window: the timeline a third of its height at least (at 200 px it showed only the GPU rows); NVTX
    // tree 25 %, tables 45 %, charts 30 % of the width.
    // The docks must have their places for this window size first (a restored state is laid out lazily).
    m_window->layout()->activate();
    QList<QDockWidget*> columns;
    QList<int> widths;
    const std::pair<PaneGroup, int> shares[]
        = { { PaneGroup::Navigator, 25 }, { PaneGroup::Tables, 45 }, { PaneGroup::Charts, 30 } };
    for (const auto& [group, percent] : shares)
        if (QDockWidget* d = front(group)) {
            columns.append(d);
            widths.append(m_window->width() * percent / 100);
        }
    m_window->resizeDocks(columns, widths, Qt::Horizontal);
    // Both rows get a height: with the start page hidden nothing else takes the spare height, which would otherwise
    // be shared out and give the timeline half the window.
    QDockWidget* top = front(PaneGroup::Top);
    QDockWidget* tables = front(PaneGroup::Tables);
    if (top && tables) {
        const int rows = m_window->statusBar()->geometry().top() - top->geometry().top();
        const int timeline = std::min(rows / 2, m_window->height() / 3 + 4);
        m_window->resizeDocks({ top, tables }, { timeline, rows - timeline }, Qt::Vertical);
    }
}

QByteArray DockLayout::state() const
{
    return m_window->saveState(kLayoutVersion);
}

bool DockLayout::restoreState(const QByteArray& state)
{
    return m_window->restoreState(state, kLayoutVersion);
}

void DockLayout::save(const QByteArray& state) const
{
    QSettings settings;
    settings.setValue(kGeometryKey, m_window->saveGeometry());
    settings.setValue(kStateKey, state);
}

bool DockLayout::restoreSaved()
{
    QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    const QByteArray state = settings.value(kStateKey).toByteArray();
    return !geometry.isEmpty() && !state.isEmpty() && m_window->restoreGeometry(geometry) && restoreState(state);
}

} // namespace nsw
