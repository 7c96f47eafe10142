// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "app/panekeys.h"
#include "app/panemaximizer.h"
#include "app/rankopener.h"
#include "app/windowexports.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/jobs/mainthreadcall.h"
#include "core/nsys/reportexport.h"
#include "core/nvlink/nvf1reader.h"
#include "core/profile/capturespan.h"
#include "core/profile/sessionclock.h"
#include "core/session/loadjob.h"
#include "core/session/workbench.h"
#include "core/util/cachesettings.h"
#include "core/util/coresettings.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "widgets/categories/categoriespane.h"
#include "widgets/common/filedialogs.h"
#include "widgets/common/pane.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/tableviews.h"
#include "widgets/compare/comparepane.h"
#include "widgets/diagnostics/findingspane.h"
#include "widgets/iterations/iterationspane.h"
#include "widgets/kernels/kerneltablepane.h"
#include "widgets/nvlink/nvlinkattach.h"
#include "widgets/nvlink/nvlinkpane.h"
#include "widgets/nvtx/nvtxpane.h"
#include "widgets/ranks/rankspane.h"
#include "widgets/samples/samplespane.h"
#include "widgets/shell/focusbanner.h"
#include "widgets/shell/focusrangedialog.h"
#include "widgets/shell/guidedialog.h"
#include "widgets/shell/helpdialogs.h"
#include "widgets/shell/loaderrorbanners.h"
#include "widgets/shell/loadprogressstrip.h"
#include "widgets/shell/nsyssettingsdialog.h"
#include "widgets/shell/profiledialog.h"
#include "widgets/shell/startpage.h"
#include "widgets/statistics/statisticspane.h"
#include "widgets/timeline/timelinepane.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>
#include <set>

namespace nsw {

namespace {
/// Shown and not behind another tab: a dock tabbed behind another stays isVisible(), with nothing of it on screen.
bool isOnScreen(const QWidget* w)
{
    return w->isVisible() && !w->visibleRegion().isEmpty();
}

const QString kRecentKey = QStringLiteral("recentFiles");
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
constexpr int kLayoutVersion = 3; // 3: timeline row on top, tables in the middle, charts as tabs on the right
constexpr int kMaxRecent = 12;

/// Exports inside a trace folder, in a stable order.
QStringList exportsIn(const QString& folder)
{
    return profilesInFolder(folder);
}
} // namespace

MainWindow::MainWindow(bool resetLayoutOnStart, QWidget* parent)
    : QMainWindow(parent)
    , m_workbench(new Workbench(this))
    , m_maximizer(new PaneMaximizer(this))
    , m_startPage(new StartPage(this))
    , m_progress(new LoadProgressStrip(this))
    , m_errors(new LoadErrorBanners(this))
    , m_focusBanner(new FocusBanner(this))
    , m_profileSelector(new QComboBox(this))
    , m_statusProfile(new QLabel(this))
{
    setCoreSettings(savedCoreSettings()); // Preferences reach core from the window only (the CLI uses none)
    setWindowTitle(tr("nsys-workbench"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks);

    // The start page is the central widget: it fills the window while no profile is open (start mode) and is hidden
    // while profiles are open so that the panes fill the window.
    setCentralWidget(m_startPage);

    statusBar()->addPermanentWidget(m_statusProfile);
    m_profileSelector->setObjectName(QStringLiteral("profileSelector"));
    m_profileSelector->setMinimumContentsLength(28);
    m_profileSelector->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_profileSelector->setToolTip(tr("The profile the panes show"));

    attachBackgroundExports(this, m_progress);
    createPanes();
    createActions();
    createNoticeBar();
    m_defaultState = saveState(kLayoutVersion);
    // A first start (or --reset-layout) uses the screen: the default layout, sized when the first profile opens.
    const bool firstStart = resetLayoutOnStart || !restoreLayout();
    setStartMode(true);
    if (firstStart) {
        sizeDefaultGeometry();
        m_sizeLayoutPending = true;
    }
    rebuildRecentMenu();

    connect(m_startPage, &StartPage::openRequested, this, &MainWindow::openInteractively);
    connect(m_errors, &LoadErrorBanners::openAnotherRequested, this, &MainWindow::openInteractively);
    connect(m_errors, &LoadErrorBanners::errorsChanged, this, [this]() {
        m_startPage->setErrors(m_errors->errors());
        updateNoticeBar();
    });
    connect(m_progress, &LoadProgressStrip::contentChanged, this, &MainWindow::updateNoticeBar);
    connect(m_focusBanner, &FocusBanner::clearRequested, this, &MainWindow::clearFocus);
    connect(m_workbench, &Workbench::sessionAdded, this, [this](ProfileSession* session) {
        connect(session, &ProfileSession::focusChanged, this, [this, session]() {
            if (session == m_workbench->current())
                updateFocusBanner();
        });
    });
    connect(m_startPage, &StartPage::fileRequested, this, [this](const QString& f) { openFiles({ f }); });
    connect(m_workbench, &Workbench::sessionAdded, this, &MainWindow::refreshProfileSelector);
    connect(m_workbench, &Workbench::sessionCompleted, this, &MainWindow::updateStatus);
    connect(m_workbench, &Workbench::sessionAboutToBeRemoved, this, [this](ProfileSession* session) {
        for (const auto& [job, staged] : m_stagedSessions)
            if (staged == session)
                job->cancel(); // closed before its load ended: the rest of it is not wanted
    });
    connect(m_workbench, &Workbench::currentChanged, this, [this]() {
        refreshProfileSelector();
        updateStatus();
        updateFocusBanner();
    });
    connect(m_profileSelector, &QComboBox::activated, this, [this](int index) {
        const auto& sessions = m_workbench->sessions();
        if (index >= 0 && std::size_t(index) < sessions.size())
            m_workbench->setCurrent(sessions[std::size_t(index)]);
    });
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        for (QWidget* w = now; w; w = w->parentWidget())
            if (auto* p = qobject_cast<Pane*>(w)) {
                m_lastFocusedPane = p;
                m_maximizer->setCurrentDock(dockOf(p));
                if (QCustomPlot* plot = p->exportablePlot(); plot && isOnScreen(plot))
                    m_lastSeenPlot = plot;
                return;
            }
    });
    updateStatus();
}

MainWindow::~MainWindow()
{
    cancelLoads();
}

void MainWindow::cancelLoads()
{
    // A job's destructor cancels its load and returns at once (the thread winds down on its own): closing the
    // window never waits for a load.
    for (LoadJob* job : m_jobs) {
        m_progress->removeJob(job);
        delete job;
    }
    m_jobs.clear();
    m_openOrders.clear();
}

void MainWindow::createPanes()
{
    // Timeline on top (PaneGroup::Top, Ctrl+4, added by the timeline pane), the NVTX tree beside the kernel and
    // statistics tables below it, the charts as tabs on the right: a selection in one is seen in the others at once.
    setCorner(Qt::TopLeftCorner, Qt::TopDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::TopDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    addPane(new KernelTablePane(m_workbench, this), PaneGroup::Tables, paneShortcut(1));
    auto* categories = new CategoriesPane(m_workbench, this);
    addPane(categories, PaneGroup::Charts, paneShortcut(5));
    addPane(new StatisticsPane(m_workbench, this), PaneGroup::Tables, paneShortcut(2));
    auto* nvtx = new NvtxPane(m_workbench, this);
    addPane(nvtx, PaneGroup::Navigator, paneShortcut(3));
    addPane(new NvlinkPane(m_workbench, this), PaneGroup::Charts, paneShortcut(6));
    auto* compare = new ComparePane(m_workbench, categories->controller(), this);
    addPane(compare, PaneGroup::Charts, paneShortcut(7));
    auto* iterations = new IterationsPane(m_workbench, this);
    addPane(iterations, PaneGroup::Charts, paneShortcut(8));
    // Activating an iteration, or "Focus on this range" in the NVTX tree, focuses every pane of the current profile
    // on it.
    const auto focusCurrent = [this](const FocusRange& range) {
        if (ProfileSession* session = m_workbench->current())
            session->setFocus(range);
    };
    auto* findings = new FindingsPane(m_workbench, this);
    addPane(findings, PaneGroup::Tables, paneShortcut(9));
    // A cell of the Ranks heat map opens that rank's export focused on the iteration.
    m_ranks = new RanksPane(m_workbench, this);
    addPane(m_ranks, PaneGroup::Charts, paneShortcut(11));
    connect(m_ranks, &RanksPane::openRankRequested, new RankOpener(this), &RankOpener::open);
    connect(findings, &FindingsPane::focusRequested, this, focusCurrent);
    addPane(new SamplesPane(m_workbench, this), PaneGroup::Tables, paneShortcut(10));
    connect(iterations, &IterationsPane::focusRequested, this, focusCurrent);
    connect(iterations, &IterationsPane::compareRequested, this,
        [this, compare, iterations](ProfileSession* session, const FocusRange& range) {
            compare->controller()->addIteration(session, range);
            QDockWidget* compareDock = dockOf(compare);
            compareDock->show();
            // Beside the Iterations pane the Compare pane comes forward; as a tab behind it, it waits, so that the
            // next iteration can be added (the status bar says where it went).
            if (!tabifiedDockWidgets(compareDock).contains(dockOf(iterations)))
                compareDock->raise();
            statusBar()->showMessage(
                tr("Added %1 · %2 to the Compare pane (Ctrl+7)").arg(session->displayName(), range.label), 8000);
        });
    connect(nvtx, &NvtxPane::focusRequested, this, focusCurrent);
    // Across the whole top, as in Nsight Systems: the other panes read as details of what it shows.
    auto* timeline = new TimelinePane(m_workbench, this);
    timeline->setCategoryController(categories->controller());
    addPane(timeline, PaneGroup::Top, paneShortcut(4));
}

void MainWindow::sizeDefaultGeometry()
{
    // 90 % of the screen, centred: as much room as maximised, still a window the user can move.
    const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!s) {
        resize(1400, 900);
        return;
    }
    const QRect available = s->availableGeometry();
    const QSize size(available.width() * 9 / 10, available.height() * 9 / 10);
    setGeometry(QStyle::alignedRect(Qt::LeftToRight, Qt::AlignCenter, size, available));
}

void MainWindow::sizeDefaultLayout()
{
    // Shares of the window: the timeline a third of its height at least (at 200 px it showed only the GPU rows); NVTX
    // tree 25 %, tables 45 %, charts 30 % of the width.
    // The docks must have their places for this window size first (a restored state is laid out lazily).
    layout()->activate();
    const auto front = [this](PaneGroup g) {
        const auto it = m_groupFront.find(g);
        return it == m_groupFront.end() ? nullptr : it->second;
    };
    QList<QDockWidget*> columns;
    QList<int> widths;
    const std::pair<PaneGroup, int> shares[]
        = { { PaneGroup::Navigator, 25 }, { PaneGroup::Tables, 45 }, { PaneGroup::Charts, 30 } };
    for (const auto& [group, percent] : shares)
        if (QDockWidget* d = front(group)) {
            columns.append(d);
            widths.append(width() * percent / 100);
        }
    resizeDocks(columns, widths, Qt::Horizontal);
    // Both rows get a height: with the start page hidden nothing else takes the spare height, which would otherwise
    // be shared out and give the timeline half the window.
    QDockWidget* top = front(PaneGroup::Top);
    QDockWidget* tables = front(PaneGroup::Tables);
    if (top && tables) {
        const int rows = statusBar()->geometry().top() - top->geometry().top();
        const int timeline = std::min(rows / 2, height() / 3 + 4);
        resizeDocks({ top, tables }, { timeline, rows - timeline }, Qt::Vertical);
    }
}

QDockWidget* MainWindow::dockOf(const Pane* pane) const
{
    for (QDockWidget* d : m_docks)
        if (d->widget() == pane)
            return d;
    return nullptr;
}

void MainWindow::addPane(Pane* pane, PaneGroup group, const QKeySequence& shortcut)
{
    QString title = pane->title();
    auto* dock = new QDockWidget(title.remove(QLatin1Char('&')), this);
    dock->setObjectName(pane->paneId()); // stable: saved layouts refer to it
    // An explicit minimum overrides the layout's: no pane's contents may push the window wider than the screen.
    pane->setMinimumSize(200, 120);
    dock->setWidget(pane);
    m_maximizer->adopt(dock);
    addShowAction(dock, pane->title(), shortcut, [this, dock]() { m_maximizer->show(dock); });
    m_docks.push_back(dock);
    m_panes.push_back(pane);
    if (QCustomPlot* plot = pane->exportablePlot()) {
        plot->installEventFilter(this);
        // A tab brought to the front is not shown anew (tabbed docks stay "visible" behind their tab): its signal is.
        connect(dock, &QDockWidget::visibilityChanged, this, [this, plot](bool visible) {
            if (visible)
                m_lastSeenPlot = plot;
        });
    }
    placeDock(dock, group);
    if (!m_viewMenu)
        return;
    // Added after construction: listed in the View menu too, and part of the default layout from now on.
    m_viewMenu->insertAction(m_viewMenu->actions().value(qsizetype(m_docks.size()) - 1), showActionOf(dock));
    m_defaultState = saveState(kLayoutVersion);
}

void MainWindow::placeDock(QDockWidget* dock, PaneGroup group)
{
    // Panes of one group share a tab group; the first one added stays in front.
    if (QDockWidget* first = m_groupFront[group]) {
        tabifyDockWidget(first, dock);
        first->raise();
        return;
    }
    m_groupFront[group] = dock;
    QDockWidget* tables = m_groupFront[PaneGroup::Tables];
    if (group == PaneGroup::Charts && tables) {
        // The charts' column, right of the tables. (Splitting a dock that is already tabbed would add a tab instead,
        // hence createPanes() adds the first chart before the second table.)
        splitDockWidget(tables, dock, Qt::Horizontal);
    } else {
        const Qt::DockWidgetArea area = group == PaneGroup::Top ? Qt::TopDockWidgetArea
            : group == PaneGroup::Navigator                     ? Qt::LeftDockWidgetArea
                                                                : Qt::RightDockWidgetArea;
        addDockWidget(area, dock, area == Qt::TopDockWidgetArea ? Qt::Horizontal : Qt::Vertical);
    }
}

Pane* MainWindow::pane(const QString& id) const
{
    for (Pane* p : m_panes)
        if (p->paneId() == id)
            return p;
    return nullptr;
}

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
    m_recentMenu = file->addMenu(tr("Open &Recent"));
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

void MainWindow::createNoticeBar()
{
    // Loads in progress and failed loads get their own full-width row under the toolbar: visible, never modal.
    // The bar itself is shown and hidden (a widget inside a toolbar ignores its own setVisible).
    addToolBarBreak();
    m_noticeBar = addToolBar(tr("Loading"));
    m_noticeBar->setObjectName(QStringLiteral("noticeBar"));
    m_noticeBar->setMovable(false);
    m_noticeBar->setFloatable(false);
    m_noticeBar->toggleViewAction()->setVisible(false);
    auto* notices = new QWidget(m_noticeBar);
    auto* layout = new QVBoxLayout(notices);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_progress);
    layout->addWidget(m_errors);
    layout->addWidget(m_focusBanner);
    notices->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_noticeBar->addWidget(notices);
    updateNoticeBar();
}

void MainWindow::updateNoticeBar()
{
    m_progress->setVisible(m_progress->hasContent());
    m_errors->setVisible(m_errors->hasContent());
    m_focusBanner->setVisible(m_focusBanner->hasContent());
    const bool show = m_progress->hasContent() || m_errors->hasContent() || m_focusBanner->hasContent();
    const bool hiding = !show && !m_noticeBar->isHidden();
    m_noticeBar->setVisible(show);
    if (hiding && !m_startMode && !m_layoutBeforeNotices.isEmpty()) {
        // The panes came back from the start page while a load's row showed (a staged load opens its profile before
        // it ends): Qt took the row's height from the timeline and the panes below it, and would now give it all to
        // the timeline, growing it with every such open. Put the layout back as it was saved (a change made to it in
        // the seconds the row showed is lost: better than a timeline that creeps).
        restoreState(m_layoutBeforeNotices, kLayoutVersion);
        m_layoutBeforeNotices.clear();
    }
}

void MainWindow::updateFocusBanner()
{
    ProfileSession* session = m_workbench->current();
    m_focusBanner->setFocusRange(session ? session->focus() : FocusRange {},
        session ? session->profile()->captureDurationNs() : 0, session ? sessionClockOrigin(*session->profile()) : 0);
    m_clearFocus->setEnabled(m_focusBanner->hasContent());
    m_focusOnRange->setEnabled(session != nullptr);
    updateNoticeBar();
}

void MainWindow::openFocusRangeDialog()
{
    QPointer<ProfileSession> session = m_workbench->current();
    if (!session)
        return;
    // Times on the session clock the timeline's ruler counts on.
    const Profile& profile = *session->profile();
    auto* dialog = new FocusRangeDialog(captureSpanOf(profile), session->focus(), sessionClockOrigin(profile), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [session, dialog]() {
        if (session)
            session->setFocus(dialog->range());
    });
    dialog->open();
}

void MainWindow::clearFocus()
{
    if (ProfileSession* session = m_workbench->current())
        session->clearFocus();
}

void MainWindow::openInteractively()
{
    openFiles(askOpenFileNames(this, tr("Open Nsight Systems exports"),
        tr("nsys exports and reports (*.sqlite *.nsys-rep *.qdrep *.qdstrm);;nsys SQLite exports (*.sqlite);;nsys "
           "reports (*.nsys-rep *.qdrep *.qdstrm);;All files (*)")));
}

void MainWindow::showLoadError(const QString& path, const QString& reason)
{
    // In the window until dismissed, not modal: the open profiles stay usable.
    m_errors->add(LoadError::fromMessage(path, reason));
}

void MainWindow::openFiles(const QStringList& paths)
{
    m_workbench->beginOpenBatch(); // the first of them is shown, whichever load ends first
    for (const QString& path : paths) {
        if (QFileInfo(path).isDir()) {
            // A folder with NVF1 recordings opens as one profile: its export plus the recordings.
            const TraceFolderPlan plan = planTraceFolder(path, this);
            if (plan.outcome == TraceFolderPlan::Cancelled)
                continue;
            if (plan.outcome == TraceFolderPlan::Ready) {
                m_pendingRecordings[QFileInfo(plan.exportPath).absoluteFilePath()] = plan.recordings;
                startLoad(plan.exportPath);
                continue;
            }
            const QStringList exports = exportsIn(path);
            if (exports.isEmpty())
                showLoadError(path, tr("the folder holds no export (.sqlite) or report (.nsys-rep)"));
            for (const QString& e : exports)
                startLoad(e);
            continue;
        }
        if (path.endsWith(QLatin1String(".bin")) && checkNvf1Header(path).isEmpty()) {
            if (ProfileSession* s = m_workbench->current())
                attachNvlinkRecordings(s, { { path, std::max(0, suggestGpuFromFileName(path)) } }, this);
            else
                statusBar()->showMessage(tr("%1: an NVLink recording; open its export first").arg(path), 10000);
            continue;
        }
        startLoad(path);
    }
}

void MainWindow::openRanks(const QStringList& inputs)
{
    if (inputs.isEmpty())
        return;
    m_ranks->setInputs(inputs);
    refreshProfileSelector(); // leaves the start page
    QDockWidget* dock = dockOf(m_ranks);
    dock->show();
    dock->raise();
}

void MainWindow::openProfileDialog()
{
    if (!m_profileDialog) {
        m_profileDialog = new ProfileDialog(this);
        connect(m_profileDialog, &ProfileDialog::reportReady, this,
            [this](const QString& report, const std::vector<RecordingChoice>& recordings) {
                if (!recordings.empty())
                    m_pendingRecordings[QFileInfo(report).absoluteFilePath()] = recordings;
                openFiles({ report });
            });
    }
    m_profileDialog->show();
    m_profileDialog->raise();
    m_profileDialog->activateWindow();
}

void MainWindow::startLoad(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (LoadJob* job : m_jobs)
        if (job->path() == absolute)
            return; // already loading
    auto* job = new LoadJob(absolute, this);
    job->setCache(CacheSettings::fromEnvironment(), [window = QPointer<MainWindow>(this)](const QString& failure) {
        postToMainThread([window, failure]() {
            if (window)
                window->statusBar()->showMessage(failure, 15000);
        });
    });
    m_jobs.push_back(job);
    m_openOrders[job] = m_workbench->reserveOpenOrder();
    m_progress->addJob(job);
    connect(job, &LoadJob::finished, this,
        [this, job](const std::shared_ptr<LoadedProfile>& loaded) { onLoaded(job, loaded); });
    connect(job, &LoadJob::failed, this, [this, job](const QString& error, ErrorKind kind) {
        onLoadFailed(job, LoadError::fromMessage(job->path(), error, kind));
    });
    connect(job, &LoadJob::firstStageReady, this,
        [this, job](const std::shared_ptr<LoadedProfile>& first) { onFirstStage(job, first); });
    connect(job, &LoadJob::cancelled, this, [this, job]() {
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(job->path()), 8000);
        const QString path = job->path();
        closeStagedSession(job);
        finishJob(job);
        m_pendingRecordings.erase(path);
        Q_EMIT loadEnded(path, false, tr("cancelled"));
    });
    job->start();
}

ProfileSession* MainWindow::openSession(LoadJob* job, const LoadedProfile& loaded)
{
    const QString path = job->path();
    auto* session = new ProfileSession(loaded);
    session->setOpenOrder(m_openOrders[job]);
    // Two profiles from different folders may share a file name: tell them apart.
    for (ProfileSession* other : m_workbench->sessions())
        if (other->displayName() == session->displayName())
            session->setDisplayName(QFileInfo(path).dir().dirName() + QLatin1Char('/') + session->displayName());
    m_workbench->addSession(session);
    if (const auto pending = m_pendingRecordings.find(path); pending != m_pendingRecordings.end()) {
        attachNvlinkRecordings(session, pending->second, this);
        m_pendingRecordings.erase(pending);
    }
    addRecent(path);
    return session;
}

void MainWindow::onFirstStage(LoadJob* job, const std::shared_ptr<LoadedProfile>& firstStage)
{
    ProfileSession* session = openSession(job, *firstStage);
    m_stagedSessions[job] = session;
    // Four updates a second are plenty for the panes' waiting notes (the load row shows every step).
    auto shown = std::make_shared<QElapsedTimer>();
    connect(job, &LoadJob::progress, session, [session, shown](int permille, const QString& stage) {
        if (shown->isValid() && shown->elapsed() < 250)
            return;
        shown->start();
        session->setPendingStage(permille < 0 ? stage : tr("%1 (%2 %)").arg(stage).arg(permille / 10));
    });
    statusBar()->showMessage(
        tr("Kernels of %1 are ready; reading CUDA API calls, NVTX and OS runtime…").arg(job->path()), 15000);
}

void MainWindow::onLoaded(LoadJob* job, const std::shared_ptr<LoadedProfile>& loaded)
{
    const QString path = job->path();
    const auto staged = m_stagedSessions.find(job);
    if (staged != m_stagedSessions.end() && staged->second)
        staged->second->completeLoad(*loaded);
    else if (staged == m_stagedSessions.end())
        openSession(job, *loaded);
    finishJob(job);
    QStringList warnings = loaded->profile->meta.warnings; // the load's warnings and notes on the file
    if (!loaded->load.cacheNote.isEmpty())
        warnings.append(loaded->load.cacheNote);
    const QString from = loaded->load.cacheFile.isEmpty() ? QString() : tr(" from the profile cache");
    statusBar()->showMessage(warnings.isEmpty()
            ? tr("Loaded %1%2 in %3 ms").arg(path, from).arg(loaded->load.totalMilliseconds)
            : tr("Loaded %1%2: %3").arg(path, from, warnings.join(QStringLiteral("; "))),
        15000);
    updateStatus();
    Q_EMIT loadEnded(path, true, {});
}

void MainWindow::onLoadFailed(LoadJob* job, const LoadError& error)
{
    const QString path = job->path();
    closeStagedSession(job); // half a profile is not shown as if it were whole
    finishJob(job);
    m_pendingRecordings.erase(path);
    // A failed load leaves the open profiles untouched; the banner names the file and stays until dismissed.
    m_errors->add(error);
    Q_EMIT loadEnded(path, false, error.text());
}

void MainWindow::closeStagedSession(LoadJob* job)
{
    const auto staged = m_stagedSessions.find(job);
    if (staged == m_stagedSessions.end())
        return;
    const QPointer<ProfileSession> session = staged->second;
    m_stagedSessions.erase(staged);
    if (session)
        m_workbench->removeSession(session);
}

void MainWindow::finishJob(LoadJob* job)
{
    m_stagedSessions.erase(job);
    m_progress->removeJob(job);
    m_jobs.erase(std::remove(m_jobs.begin(), m_jobs.end(), job), m_jobs.end());
    m_openOrders.erase(job);
    job->deleteLater();
}

void MainWindow::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    m_startPage->setRecentFiles(recent);
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    for (const QString& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName() + QStringLiteral("  (") + path + QLatin1Char(')'), this,
            [this, path]() { openFiles({ path }); });
    m_recentMenu->setEnabled(!recent.isEmpty());
    if (!recent.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), this, [this]() {
            QSettings().remove(kRecentKey);
            rebuildRecentMenu();
        });
    }
}

void MainWindow::refreshProfileSelector()
{
    m_profileSelector->clear();
    const auto& sessions = m_workbench->sessions();
    for (ProfileSession* s : sessions)
        m_profileSelector->addItem(s->displayName(), s->path());
    const auto it = std::find(sessions.begin(), sessions.end(), m_workbench->current());
    m_profileSelector->setCurrentIndex(it == sessions.end() ? -1 : int(it - sessions.begin()));
    setStartMode(sessions.empty() && m_ranks->inputs().isEmpty());
    setWindowTitle(m_workbench->current() ? tr("%1 — nsys-workbench").arg(m_workbench->current()->displayName())
                                          : tr("nsys-workbench"));
}

void MainWindow::updateStatus()
{
    ProfileSession* s = m_workbench->current();
    if (!s) {
        m_statusProfile->setText(tr("No profile"));
        return;
    }
    const Profile& p = *s->profile();
    const std::vector<int> devices = p.devicesUsed();
    QStringList gpuNames;
    std::set<QString> models;
    for (const int d : devices)
        if (const GpuInfo* g = p.gpuFor(kNoIndex, d))
            models.insert(g->name);
    for (const QString& m : models)
        gpuNames.append(m);
    const QString gpus = devices.empty() ? tr("no GPU activity")
                                         : countOf(qint64(devices.size()), tr("GPU"), tr("GPUs"))
            + (gpuNames.isEmpty() ? QString()
                                  : QStringLiteral(" (") + gpuNames.join(QStringLiteral(", ")) + QLatin1Char(')'));
    const QString version
        = p.meta.nsysVersion.isEmpty() ? tr("nsys ≤ 2021 (no metadata)") : tr("nsys %1").arg(p.meta.nsysVersion);
    const CaptureSpan capture = captureSpanOf(p);
    const QString from = capture.source == CaptureSpanSource::Events ? tr("event span") : tr("metadata");
    const QString span = !s->isComplete() ? tr("capture span: loading…")
        : capture.source == CaptureSpanSource::None
        ? tr("no events")
        : tr("%1 (%2, %3)")
              .arg(captureSpanText(capture, sessionClockOrigin(p)), formatDuration(capture.durationNs()), from);
    m_statusProfile->setText(tr("%1  ·  %2  ·  %3").arg(version, gpus, span));
    m_statusProfile->setToolTip(tr("Capture span from the %1").arg(capture.sourceText()));
}

Pane* MainWindow::activePane() const
{
    if (m_lastFocusedPane && isOnScreen(m_lastFocusedPane))
        return m_lastFocusedPane;
    for (Pane* p : m_panes)
        if (isOnScreen(p) && (p->exportableView() || p->exportablePlot()))
            return p;
    return nullptr;
}

void MainWindow::exportCsv()
{
    Pane* p = activePane();
    if (!p || !p->exportableView()) {
        QMessageBox::information(this, tr("Export"), tr("Click in a table first: the table with focus is exported."));
        return;
    }
    exportViewCsvInteractively(p->exportableView(), p->exportBaseName(), this); // the strip and the status bar tell
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
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
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::exportReport()
{
    for (Pane* p : m_panes) {
        auto* findings = qobject_cast<FindingsPane*>(p);
        if (!findings)
            continue;
        QDockWidget* dock = dockOf(findings);
        dock->show();
        dock->raise();
        if (!m_workbench->current())
            statusBar()->showMessage(tr("Open a profile first: the report is of the current profile"), 10000);
        else if (!findings->result())
            statusBar()->showMessage(
                tr("The Findings pane is still analysing the profile: export the report once it lists the findings"),
                10000);
        else
            findings->exportReportInteractively();
    }
}

QCustomPlot* MainWindow::plotToExport() const
{
    if (m_lastSeenPlot && isOnScreen(m_lastSeenPlot))
        return m_lastSeenPlot;
    for (Pane* p : m_panes)
        if (QCustomPlot* plot = p->exportablePlot(); plot && isOnScreen(plot))
            return plot;
    return nullptr;
}

void MainWindow::exportPng()
{
    QCustomPlot* plot = plotToExport();
    const auto owner = std::find_if(
        m_panes.begin(), m_panes.end(), [plot](const Pane* p) { return plot && p->exportablePlot() == plot; });
    if (owner == m_panes.end()) {
        QMessageBox::information(this, tr("Export"), tr("No chart is visible: show the chart to export first."));
        return;
    }
    exportPlotInteractively(*plot, (*owner)->exportBaseName(), this); // the strip and the status bar tell
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveLayout();
    cancelLoads();
    event->accept();
}

void MainWindow::setStartMode(bool on)
{
    // While no profile is open the start page has the window to itself: the panes step aside, their layout kept,
    // and come back as they were with the first profile.
    if (on == m_startMode)
        return;
    m_startMode = on;
    if (on) {
        m_maximizer->restore();
        m_workState = saveState(kLayoutVersion);
        for (QDockWidget* dock : m_docks)
            dock->hide();
        m_startPage->show();
        return;
    }
    m_startPage->hide();
    restoreState(m_workState, kLayoutVersion);
    updateNoticeBar();
    if (!m_noticeBar->isHidden() && !m_sizeLayoutPending)
        m_layoutBeforeNotices = m_workState;
    if (m_sizeLayoutPending) {
        m_sizeLayoutPending = false;
        sizeDefaultLayout(); // now that the window has its size and the start page is gone
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList files;
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl& url : urls)
        if (url.isLocalFile())
            files.append(url.toLocalFile());
    openFiles(files);
    event->acceptProposedAction();
}

void MainWindow::saveLayout()
{
    m_maximizer->restore(); // the layout, not one pane alone
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, m_startMode ? m_workState : saveState(kLayoutVersion));
}

bool MainWindow::restoreLayout()
{
    QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    const QByteArray state = settings.value(kStateKey).toByteArray();
    if (geometry.isEmpty() || state.isEmpty() || !restoreGeometry(geometry) || !restoreState(state, kLayoutVersion))
        return false;
    updateNoticeBar(); // the saved state may hold the notice bar's visibility of another session
    return true;
}

void MainWindow::resetLayout()
{
    if (!isMaximized() && !isFullScreen())
        sizeDefaultGeometry();
    applyDefaultLayout();
}

void MainWindow::applyDefaultLayout()
{
    if (m_startMode) { // applied when the first profile opens
        m_workState = m_defaultState;
        m_sizeLayoutPending = true;
        return;
    }
    m_maximizer->restore();
    restoreState(m_defaultState, kLayoutVersion);
    for (QDockWidget* dock : m_docks)
        dock->show();
    for (const auto& [group, front] : m_groupFront)
        front->raise();
    updateNoticeBar();
    sizeDefaultLayout();
}

} // namespace nsw
