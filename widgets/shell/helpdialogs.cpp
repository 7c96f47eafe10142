// SPDX-License-Identifier: GPL-3.0-or-later
#include "helpdialogs.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QMenu>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace nsw {

namespace {
void collectShortcuts(const QMenu* menu, const QString& path, QStringList& rows)
{
    for (const QAction* a : menu->actions()) {
        QString text = a->text();
        text.remove(QLatin1Char('&'));
        if (a->menu())
            collectShortcuts(a->menu(), path + text + QStringLiteral(" → "), rows);
        else if (!a->shortcut().isEmpty())
            rows.append(
                QStringLiteral("| %1%2 | %3 |").arg(path, text, a->shortcut().toString(QKeySequence::NativeText)));
    }
}
} // namespace

QString shortcutsMarkdown(const QList<QMenu*>& menus)
{
    QStringList rows { QObject::tr("| Action | Shortcut |"), QStringLiteral("|---|---|") };
    for (const QMenu* m : menus) {
        QString title = m->title();
        title.remove(QLatin1Char('&'));
        collectShortcuts(m, title + QStringLiteral(" → "), rows);
    }
    const QStringList viewKeys {
        QObject::tr("| Tables: copy the selected rows | %1 |")
            .arg(QKeySequence(QKeySequence::Copy).toString(QKeySequence::NativeText)),
        QObject::tr("| Timeline: zoom in / out | W / S, or the wheel |"),
        QObject::tr("| Timeline: pan left / right | A / D, or drag |"),
        QObject::tr("| Timeline: fit everything | F |"),
        QObject::tr("| Timeline: back / forward through previous views | Alt+Left / Alt+Right, or the mouse's side "
                    "buttons |"),
        QObject::tr("| Timeline: find by name | Ctrl+F, then Enter / Shift+Enter (or F3 / Shift+F3) |"),
    };
    return QObject::tr("## Keyboard shortcuts\n\n") + (rows + viewKeys).join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QDialog* showMarkdownDialog(QWidget* parent, const QString& title, const QString& markdown)
{
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto* text = new QTextBrowser(dialog);
    text->setOpenExternalLinks(true);
    text->setMarkdown(markdown);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(760, 640);
    dialog->show();
    return dialog;
}

} // namespace nsw
