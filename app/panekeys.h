// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QKeySequence>
#include <functional>

class QAction;
class QDockWidget;
class QString;

namespace nsw {

/// The key of the @p number-th pane (1-based), in the order a person looks for them: Ctrl+1…Ctrl+9, Ctrl+0 for the
/// tenth, then Alt+1…Alt+9. Empty beyond the nineteenth.
QKeySequence paneShortcut(int number);
/// The pane number @p key belongs to (the inverse of paneShortcut()), or a number after all of them for any other key:
/// the View menu lists the panes in this order.
int paneNumberOf(const QKeySequence& key);
/// What a pane's key does: shows @p dock, brings it to the front of its tab group and gives its pane the keyboard
/// focus. It never hides a pane, whether it is in front or behind another tab.
void showAndRaise(QDockWidget* dock);
/// The View menu's entry for @p dock (@p title with its mnemonic) with @p key: @p show when triggered (showAndRaise(),
/// after restoring a maximised layout).
QAction* addShowAction(QDockWidget* dock, const QString& title, const QKeySequence& key, std::function<void()> show);
/// The action addShowAction() gave @p dock.
QAction* showActionOf(const QDockWidget* dock);

} // namespace nsw
