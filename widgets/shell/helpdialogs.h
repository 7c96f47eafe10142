// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

class QDialog;
class QMenu;
class QWidget;

namespace nsw {

/// A Markdown table of every action with a shortcut in @p menus (submenus included, in menu order), then the keys
/// of the views (tables, timeline) that are not menu actions.
QString shortcutsMarkdown(const QList<QMenu*>& menus);
/// Shows @p markdown in a non-modal dialog (a document viewer, links open in the browser), deleted when closed.
QDialog* showMarkdownDialog(QWidget* parent, const QString& title, const QString& markdown);

} // namespace nsw
