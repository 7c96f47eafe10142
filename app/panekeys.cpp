// SPDX-License-Identifier: GPL-3.0-or-later
#include "panekeys.h"

#include <QAction>
#include <QDockWidget>

namespace nsw {

namespace {
constexpr int kPaneKeys = 19;
}

QKeySequence paneShortcut(int number)
{
    if (number >= 1 && number <= 9)
        return QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + number));
    if (number == 10)
        return QKeySequence(Qt::CTRL | Qt::Key_0);
    if (number > 10 && number <= kPaneKeys)
        return QKeySequence(Qt::ALT | Qt::Key(Qt::Key_0 + number - 10));
    return {};
}

int paneNumberOf(const QKeySequence& key)
{
    for (int n = 1; n <= kPaneKeys; ++n)
        if (!key.isEmpty() && paneShortcut(n) == key)
            return n;
    return kPaneKeys + 1;
}

void showAndRaise(QDockWidget* dock)
{
    dock->show();
    dock->raise();
    if (QWidget* pane = dock->widget())
        pane->setFocus(Qt::ShortcutFocusReason);
}

QAction* addShowAction(QDockWidget* dock, const QString& title, const QKeySequence& key, std::function<void()> show)
{
    // Not the dock's toggle action: toggling would close a pane shown behind another tab. The title bar closes one.
    auto* action = new QAction(title, dock);
    action->setObjectName(QStringLiteral("showPane"));
    action->setShortcut(key);
    QObject::connect(action, &QAction::triggered, dock, std::move(show));
    return action;
}

QAction* showActionOf(const QDockWidget* dock)
{
    return dock->findChild<QAction*>(QStringLiteral("showPane"), Qt::FindDirectChildrenOnly);
}

} // namespace nsw
