// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's menus and toolbar.
#include "app/mainwindow.h"
#include "app/panekeys.h"
#include "app/panemaximizer.h"
#include "app/recentfiles.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "widgets/categories/categoriespane.h"
#include "widgets/common/filedialogs.h"
#include "widgets/common/pane.h"
#include "widgets/nvlink/nvlinkattach.h"
#include "widgets/ranks/rankspane.h"
#include "widgets/shell/guidedialog.h"
#include "widgets/shell/helpdialogs.h"
#include "widgets/shell/nsyssettingsdialog.h"
#include "widgets/shell/startpage.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolBar>
#include <algorithm>

namespace nsw {

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openInteractively);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open trace &folder…"), this, [this]() {
        const QString dir = askExistingDirectory(this, tr("Open trace folder"));
        if (!dir.isEmpty())
            openFiles({ dir });
    });
    file->addAction(tr("Open Ran&ks…"), this, [this]() { openRanks(m_ranks->askForInputs(false)); });
    file->addAction(tr("Open Ranks Fol&der…"), this, [this]() { openRanks(m_ranks->askForInputs(true)); });
    file->addAction(tr("Attach &NVLink recording…"), this,
        [this]() { attachNvlinkRecordingInteractively(m_workbench->current(), this); });
    m_recent = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(m_recent, &RecentFiles::changed, m_startPage, &StartPage::setRecentFiles);
    connect(m_recent, &RecentFiles::openRequested, this, [this](const QString& path) { openFiles({ path }); });
    QAction* close = file->addAction(tr("&Close Profile"), this, [this]() {
        if (ProfileSession* s = m_workbench->current())
            m_workbench->removeSession(s);
        refreshProfileSelector();
        updateStatus();
    });
    close->setShortcut(QKeySequence::Close);
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    QAction* csv = exportMenu->addAction(tr("Visible table as &CSV…"), this, &MainWindow::exportCsv);
    csv->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QAction* png = exportMenu->addAction(tr("Chart as &PNG…"), this, &MainWindow::exportPng);
    png->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G)); // Ctrl+Shift+P profiles an application
    exportMenu->addAction(tr("Diagnostics &Report…"), this, &MainWindow::exportReport);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    std::vector<QDockWidget*> byShortcut = m_docks; // Ctrl+1, Ctrl+2...: the order a person looks for them in
    std::stable_sort(byShortcut.begin(), byShortcut.end(), [](QDockWidget* a, QDockWidget* b) {
        return paneNumberOf(showActionOf(a)->shortcut()) < paneNumberOf(showActionOf(b)->shortcut());
    });
    for (QDockWidget* dock : byShortcut)
        m_viewMenu->addAction(showActionOf(dock));
    m_viewMenu->addSeparator();
    if (auto* categories = qobject_cast<CategoriesPane*>(pane(QStringLiteral("categories"))))
        m_viewMenu->addAction(tr("Category Rule &Editor…"), categories, &CategoriesPane::openEditor);
    m_viewMenu->addAction(tr("Reset La&yout"), this, &MainWindow::resetLayout);
    m_viewMenu->addAction(m_maximizer->action());
    m_viewMenu->addSeparator();
    m_focusOnRange = m_viewMenu->addAction(tr("Focus on Ran&ge…"), this, &MainWindow::openFocusRangeDialog);
    m_focusOnRange->setEnabled(m_workbench->current() != nullptr);
    m_clearFocus = m_viewMenu->addAction(tr("Clear &Focus"), this, &MainWindow::clearFocus);
    m_clearFocus->setShortcut(Qt::Key_Escape);
    m_clearFocus->setEnabled(false);

    QMenu* profileMenu = menuBar()->addMenu(tr("&Profile"));
    QAction* profileApp = profileMenu->addAction(tr("Profile &Application…"), this, &MainWindow::openProfileDialog);
    profileApp->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    profileMenu->addAction(tr("Nsight Systems &Settings…"), this, [this]() {
        NsysSettingsDialog dialog(this);
        dialog.exec();
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Guide"), this, [this]() {
        auto* guide = new GuideDialog(this);
        guide->setAttribute(Qt::WA_DeleteOnClose);
        guide->show();
    });
    help->addAction(tr("&Keyboard shortcuts"), this, [this]() {
        QList<QMenu*> menus;
        for (QAction* a : menuBar()->actions())
            if (a->menu())
                menus.append(a->menu());
        showMarkdownDialog(this, tr("Keyboard shortcuts"), shortcutsMarkdown(menus));
    });
    help->addSeparator();
    help->addAction(tr("&About nsys-workbench"), this, [this]() {
        QMessageBox::about(this, tr("About nsys-workbench"),
            tr("<b>nsys-workbench %1</b><p>A workbench for Nsight Systems SQLite exports.</p>"
               "<p>Licensed under the GNU GPL, version 3 or later. Charts by QCustomPlot (GPL).</p>")
                .arg(QApplication::applicationVersion()));
    });

    QToolBar* toolbar = addToolBar(tr("Profile"));
    toolbar->setObjectName(QStringLiteral("profileToolbar"));
    toolbar->setMovable(false);
    toolbar->addAction(open);
    toolbar->addWidget(new QLabel(tr(" Profile: "), toolbar));
    toolbar->addWidget(m_profileSelector);
    toolbar->addAction(close);
}

} // namespace nsw
