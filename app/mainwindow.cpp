// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "app/exporttargets.h"
#include "app/panekeys.h"
#include "app/panemaximizer.h"
#include "app/profilestatus.h"
#include "app/rankopener.h"
#include "app/recentfiles.h"
#include "app/windowexports.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/nsys/reportexport.h"
#include "core/nvlink/nvf1reader.h"
#include "core/profile/capturespan.h"
#include "core/profile/sessionclock.h"
#include "core/session/loadcoordinator.h"
#include "core/session/loadjob.h"
#include "core/session/workbench.h"
#include "core/util/coresettings.h"
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
#include "widgets/shell/loaderrorbanners.h"
#include "widgets/shell/loadprogressstrip.h"
#include "widgets/shell/nsyssettingsdialog.h"
#include "widgets/shell/profiledialog.h"
#include "widgets/shell/startpage.h"
#include "widgets/statistics/statisticspane.h"
#include "widgets/timeline/timelinepane.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

namespace nsw {

namespace {
/// Exports inside a trace folder, in a stable order.
QStringList exportsIn(const QString& folder)
{
    return profilesInFolder(folder);
}
} // namespace

MainWindow::MainWindow(bool resetLayoutOnStart, QWidget* parent)
    : QMainWindow(parent)
    , m_workbench(new Workbench(this))
    , m_loads(new LoadCoordinator(m_workbench, this))
    , m_maximizer(new PaneMaximizer(this))
    , m_exportTargets(new ExportTargets(this))
    , m_layout(this)
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
    connectLoads();
    m_defaultState = m_layout.state();
    // A first start (or --reset-layout) uses the screen: the default layout, sized when the first profile opens.
    const bool firstStart = resetLayoutOnStart || !restoreLayout();
    setStartMode(true);
    if (firstStart) {
        m_layout.sizeDefaultGeometry();
        m_sizeLayoutPending = true;
    }
    m_recent->refresh();

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
    connect(m_exportTargets, &ExportTargets::paneFocused, this,
        [this](Pane* p) { m_maximizer->setCurrentDock(dockOf(p)); });
    updateStatus();
}

MainWindow::~MainWindow()
{
    m_loads->cancelAll(); // closing the window never waits for a load
}

int MainWindow::activeLoads() const
{
    return int(m_loads->jobs().size());
}

QCustomPlot* MainWindow::plotToExport() const
{
    return m_exportTargets->plotToExport();
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
    // The window owns the controllers the panes show (the compare pane's category keys follow the categories').
    m_categories = new CategoryController(m_workbench, this);
    auto* categories = new CategoriesPane(m_categories, this);
    addPane(categories, PaneGroup::Charts, paneShortcut(5));
    addPane(new StatisticsPane(m_workbench, this), PaneGroup::Tables, paneShortcut(2));
    auto* nvtx = new NvtxPane(m_workbench, this);
    addPane(nvtx, PaneGroup::Navigator, paneShortcut(3));
    addPane(new NvlinkPane(m_workbench, this), PaneGroup::Charts, paneShortcut(6));
    m_compare = new CompareController(m_workbench, m_categories, this);
    auto* compare = new ComparePane(m_compare, this);
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
    addPane(new SamplesPane(m_workbench, this), PaneGroup::Tables, paneShortcut(10));
    // A cell of the Ranks heat map opens that rank's export focused on the iteration. Among the tables: the heat map
    // gets their column's width, and the charts' tab titles are not elided at 1366x768.
    m_ranks = new RanksPane(m_workbench, this);
    addPane(m_ranks, PaneGroup::Tables, paneShortcut(11));
    connect(m_ranks, &RanksPane::openRankRequested, new RankOpener(this), &RankOpener::open);
    connect(findings, &FindingsPane::focusRequested, this, focusCurrent);
    connect(iterations, &IterationsPane::focusRequested, this, focusCurrent);
    connect(iterations, &IterationsPane::compareRequested, this,
        [this, compare, iterations](ProfileSession* session, const FocusRange& range) {
            m_compare->addIteration(session, range);
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
    timeline->setCategoryController(m_categories);
    addPane(timeline, PaneGroup::Top, paneShortcut(4));
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
    m_exportTargets->add(pane, dock);
    m_layout.place(dock, group);
    if (!m_viewMenu)
        return;
    // Added after construction: listed in the View menu too, and part of the default layout from now on.
    m_viewMenu->insertAction(m_viewMenu->actions().value(qsizetype(m_docks.size()) - 1), showActionOf(dock));
    m_defaultState = m_layout.state();
}

Pane* MainWindow::pane(const QString& id) const
{
    for (Pane* p : m_panes)
        if (p->paneId() == id)
            return p;
    return nullptr;
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
        m_layout.restoreState(m_layoutBeforeNotices);
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
                m_loads->load(plan.exportPath);
                continue;
            }
            const QStringList exports = exportsIn(path);
            if (exports.isEmpty())
                showLoadError(path, tr("the folder holds no export (.sqlite) or report (.nsys-rep)"));
            for (const QString& e : exports)
                m_loads->load(e);
            continue;
        }
        if (path.endsWith(QLatin1String(".bin")) && checkNvf1Header(path).isEmpty()) {
            if (ProfileSession* s = m_workbench->current())
                attachNvlinkRecordings(s, { { path, std::max(0, suggestGpuFromFileName(path)) } }, this);
            else
                statusBar()->showMessage(tr("%1: an NVLink recording; open its export first").arg(path), 10000);
            continue;
        }
        m_loads->load(path);
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

void MainWindow::connectLoads()
{
    connect(m_loads, &LoadCoordinator::loadStarted, m_progress, &LoadProgressStrip::addJob);
    connect(m_loads, &LoadCoordinator::jobEnded, m_progress, &LoadProgressStrip::removeJob);
    connect(m_loads, &LoadCoordinator::cacheWriteFailed, this,
        [this](const QString& failure) { statusBar()->showMessage(failure, 15000); });
    connect(m_loads, &LoadCoordinator::sessionOpened, this, [this](ProfileSession* session, const QString& path) {
        if (const auto pending = m_pendingRecordings.find(path); pending != m_pendingRecordings.end()) {
            attachNvlinkRecordings(session, pending->second, this);
            m_pendingRecordings.erase(pending);
        }
        m_recent->add(path);
    });
    connect(m_loads, &LoadCoordinator::firstStageArriving, this, [this]() {
        // Until the panes have the profile (the next turn), the window shows what it showed: no frame of empty panes.
        setUpdatesEnabled(false);
        setStartMode(false);
    });
    connect(this, &MainWindow::loadEnded, this, [this]() { setUpdatesEnabled(true); });
    connect(m_loads, &LoadCoordinator::firstStageOpened, this, [this](const QString& path) {
        setUpdatesEnabled(true);
        statusBar()->showMessage(
            tr("Kernels of %1 are ready; reading CUDA API calls, NVTX and OS runtime…").arg(path), 15000);
    });
    connect(m_loads, &LoadCoordinator::loaded, this, &MainWindow::onLoaded);
    connect(m_loads, &LoadCoordinator::failed, this, [this](const QString& path, const QString& error, ErrorKind kind) {
        m_pendingRecordings.erase(path);
        // A failed load leaves the open profiles untouched; the banner names the file and stays until dismissed.
        const LoadError failure = LoadError::fromMessage(path, error, kind);
        m_errors->add(failure);
        updateStartMode(); // a first stage about to open made room for it
        Q_EMIT loadEnded(path, false, failure.text());
    });
    connect(m_loads, &LoadCoordinator::cancelled, this, [this](const QString& path) {
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(path), 8000);
        m_pendingRecordings.erase(path);
        updateStartMode();
        Q_EMIT loadEnded(path, false, tr("cancelled"));
    });
}

void MainWindow::onLoaded(const QString& path, const std::shared_ptr<LoadedProfile>& loaded)
{
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

void MainWindow::refreshProfileSelector()
{
    m_profileSelector->clear();
    const auto& sessions = m_workbench->sessions();
    for (ProfileSession* s : sessions)
        m_profileSelector->addItem(s->displayName(), s->path());
    const auto it = std::find(sessions.begin(), sessions.end(), m_workbench->current());
    m_profileSelector->setCurrentIndex(it == sessions.end() ? -1 : int(it - sessions.begin()));
    updateStartMode();
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
    const ProfileStatus status = profileStatusOf(*s);
    m_statusProfile->setText(status.text);
    m_statusProfile->setToolTip(status.toolTip);
}

void MainWindow::exportCsv()
{
    Pane* p = m_exportTargets->activePane();
    if (!p || !p->exportableView()) {
        QMessageBox::information(this, tr("Export"), tr("Click in a table first: the table with focus is exported."));
        return;
    }
    exportViewCsvInteractively(p->exportableView(), p->exportBaseName(), this); // the strip and the status bar tell
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

void MainWindow::exportPng()
{
    QCustomPlot* plot = plotToExport();
    const Pane* owner = m_exportTargets->paneOf(plot);
    if (!owner) {
        QMessageBox::information(this, tr("Export"), tr("No chart is visible: show the chart to export first."));
        return;
    }
    exportPlotInteractively(*plot, owner->exportBaseName(), this); // the strip and the status bar tell
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveLayout();
    m_loads->cancelAll();
    event->accept();
}

void MainWindow::updateStartMode()
{
    setStartMode(m_workbench->sessions().empty() && m_ranks->inputs().isEmpty());
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
        m_workState = m_layout.state();
        for (QDockWidget* dock : m_docks)
            dock->hide();
        m_startPage->show();
        return;
    }
    m_startPage->hide();
    m_layout.restoreState(m_workState);
    updateNoticeBar();
    if (!m_noticeBar->isHidden() && !m_sizeLayoutPending)
        m_layoutBeforeNotices = m_workState;
    if (m_sizeLayoutPending) {
        m_sizeLayoutPending = false;
        m_layout.sizeDefaultLayout(); // now that the window has its size and the start page is gone
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
    m_layout.save(m_startMode ? m_workState : m_layout.state());
}

bool MainWindow::restoreLayout()
{
    if (!m_layout.restoreSaved())
        return false;
    updateNoticeBar(); // the saved state may hold the notice bar's visibility of another session
    return true;
}

void MainWindow::resetLayout()
{
    if (!isMaximized() && !isFullScreen())
        m_layout.sizeDefaultGeometry();
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
    m_layout.restoreState(m_defaultState);
    for (QDockWidget* dock : m_docks)
        dock->show();
    m_layout.raiseFronts();
    updateNoticeBar();
    m_layout.sizeDefaultLayout();
}

} // namespace nsw
