// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "core/nvlink/nvf1reader.h"
#include "core/session/loadjob.h"
#include "core/session/workbench.h"
#include "core/util/timeformat.h"
#include "widgets/categories/categoriespane.h"
#include "widgets/common/pane.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/tableviews.h"
#include "widgets/compare/comparepane.h"
#include "widgets/kernels/kerneltablepane.h"
#include "widgets/nvlink/nvlinkattach.h"
#include "widgets/nvlink/nvlinkpane.h"
#include "widgets/nvtx/nvtxpane.h"
#include "widgets/shell/loadprogressstrip.h"
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
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

namespace nsw {

namespace {
const QString kRecentKey = QStringLiteral("recentFiles");
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
constexpr int kLayoutVersion = 2;
constexpr int kMaxRecent = 12;

/// Exports inside a trace folder, in a stable order.
QStringList exportsIn(const QString& folder)
{
    QStringList files;
    const QFileInfoList entries = QDir(folder).entryInfoList({ QStringLiteral("*.sqlite") }, QDir::Files, QDir::Name);
    for (const QFileInfo& f : entries)
        files.append(f.absoluteFilePath());
    return files;
}
} // namespace

MainWindow::MainWindow(bool resetLayoutOnStart, QWidget* parent)
    : QMainWindow(parent)
    , m_workbench(new Workbench(this))
    , m_startPage(new StartPage(this))
    , m_progress(new LoadProgressStrip(this))
    , m_profileSelector(new QComboBox(this))
    , m_statusProfile(new QLabel(this))
{
    setWindowTitle(tr("nsys-workbench"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks);

    // The start page is the central widget; it is hidden while profiles are open so that the panes fill the window.
    setCentralWidget(m_startPage);

    statusBar()->addPermanentWidget(m_statusProfile);
    m_profileSelector->setMinimumContentsLength(28);
    m_profileSelector->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_profileSelector->setToolTip(tr("The profile the panes show"));

    createPanes();
    createActions();
    resize(1400, 900);
    sizeDefaultLayout();
    m_defaultState = saveState(kLayoutVersion);
    if (!resetLayoutOnStart)
        restoreLayout();
    rebuildRecentMenu();

    connect(m_startPage, &StartPage::openRequested, this, [this]() {
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Open Nsight Systems exports"), QString(), tr("nsys SQLite exports (*.sqlite);;All files (*)"));
        openFiles(files);
    });
    connect(m_startPage, &StartPage::fileRequested, this, [this](const QString& f) { openFiles({ f }); });
    connect(m_workbench, &Workbench::sessionAdded, this, &MainWindow::refreshProfileSelector);
    connect(m_workbench, &Workbench::currentChanged, this, [this]() {
        refreshProfileSelector();
        updateStatus();
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
                return;
            }
    });
    updateStatus();
}

MainWindow::~MainWindow()
{
    for (LoadJob* job : m_jobs)
        delete job;
}

void MainWindow::createPanes()
{
    // Default layout: the NVTX tree on the left, the tables on the right, charts along the bottom, so that a
    // selection in one is seen in the others at once.
    setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
    addPane(new KernelTablePane(m_workbench, this), Qt::RightDockWidgetArea, QKeySequence(Qt::CTRL | Qt::Key_1));
    addPane(new StatisticsPane(m_workbench, this), Qt::RightDockWidgetArea, QKeySequence(Qt::CTRL | Qt::Key_2));
    addPane(new NvtxPane(m_workbench, this), Qt::LeftDockWidgetArea, QKeySequence(Qt::CTRL | Qt::Key_3));
    auto* categories = new CategoriesPane(m_workbench, this);
    addPane(categories, Qt::BottomDockWidgetArea, QKeySequence(Qt::CTRL | Qt::Key_5));
    addPane(new NvlinkPane(m_workbench, this), Qt::BottomDockWidgetArea, QKeySequence(Qt::CTRL | Qt::Key_6));
    addPane(new ComparePane(m_workbench, categories->controller(), this), Qt::BottomDockWidgetArea,
        QKeySequence(Qt::CTRL | Qt::Key_7));
    addTimelinePane();
}

void MainWindow::addTimelinePane()
{
    // Across the whole top, as in Nsight Systems: the other panes read as details of what it shows.
    setCorner(Qt::TopLeftCorner, Qt::TopDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::TopDockWidgetArea);
    addPane(new TimelinePane(m_workbench, this), Qt::TopDockWidgetArea, QKeySequence(Qt::CTRL | Qt::Key_4));
}

void MainWindow::sizeDefaultLayout()
{
    QList<QDockWidget*> left, bottom;
    QList<int> leftWidths, bottomHeights;
    for (QDockWidget* d : m_docks) {
        if (dockWidgetArea(d) == Qt::LeftDockWidgetArea) {
            left.append(d);
            leftWidths.append(width() * 2 / 5);
        } else if (dockWidgetArea(d) == Qt::BottomDockWidgetArea) {
            bottom.append(d);
            bottomHeights.append(height() / 3);
        }
    }
    resizeDocks(left, leftWidths, Qt::Horizontal);
    resizeDocks(bottom, bottomHeights, Qt::Vertical);
}

void MainWindow::addPane(Pane* pane, Qt::DockWidgetArea area, const QKeySequence& shortcut)
{
    QString title = pane->title();
    auto* dock = new QDockWidget(title.remove(QLatin1Char('&')), this);
    dock->setObjectName(pane->paneId()); // stable: saved layouts refer to it
    // An explicit minimum overrides the layout's: no pane's contents may push the window wider than the screen.
    pane->setMinimumSize(200, 120);
    dock->setWidget(pane);
    dock->toggleViewAction()->setText(pane->title()); // with its mnemonic, for the View menu
    dock->toggleViewAction()->setShortcut(shortcut);
    // Panes of one area share a tab group; the first one added stays in front.
    QDockWidget* first = nullptr;
    for (QDockWidget* d : m_docks)
        if (!first && dockWidgetArea(d) == area)
            first = d;
    if (first) {
        tabifyDockWidget(first, dock);
        first->raise();
    } else {
        addDockWidget(area, dock);
    }
    m_docks.push_back(dock);
    m_panes.push_back(pane);
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
    QAction* open = file->addAction(tr("&Open…"), this, [this]() {
        openFiles(QFileDialog::getOpenFileNames(
            this, tr("Open Nsight Systems exports"), QString(), tr("nsys SQLite exports (*.sqlite);;All files (*)")));
    });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open trace &folder…"), this, [this]() {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open trace folder"));
        if (!dir.isEmpty())
            openFiles({ dir });
    });
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
    png->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : m_docks)
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    if (auto* categories = qobject_cast<CategoriesPane*>(pane(QStringLiteral("categories"))))
        m_viewMenu->addAction(tr("Category &Rule Editor…"), categories, &CategoriesPane::openEditor);
    m_viewMenu->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
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

    // Loads in progress (and failed loads) get their own row under the toolbar: visible, never modal.
    addToolBarBreak();
    QToolBar* loads = addToolBar(tr("Loading"));
    loads->setObjectName(QStringLiteral("loadingToolbar"));
    loads->setMovable(false);
    loads->toggleViewAction()->setVisible(false);
    loads->addWidget(m_progress);
    m_progress->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    loads->setVisible(false);
    connect(m_progress, &LoadProgressStrip::contentChanged, loads, &QToolBar::setVisible);
}

void MainWindow::openFiles(const QStringList& paths)
{
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
            if (exports.isEmpty()) {
                m_startPage->setError(tr("%1: the folder holds no .sqlite export").arg(path));
                statusBar()->showMessage(tr("%1: the folder holds no .sqlite export").arg(path), 10000);
            }
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

void MainWindow::startLoad(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (LoadJob* job : m_jobs)
        if (job->path() == absolute)
            return; // already loading
    auto* job = new LoadJob(absolute);
    m_jobs.push_back(job);
    m_progress->addJob(job);
    connect(job, &LoadJob::finished, this,
        [this, job](const std::shared_ptr<LoadedProfile>& loaded) { onLoaded(job, loaded); });
    connect(job, &LoadJob::failed, this, [this, job](const QString& error) { onLoadFailed(job, error); });
    connect(job, &LoadJob::cancelled, this, [this, job]() {
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(job->path()), 8000);
        const QString path = job->path();
        finishJob(job);
        m_pendingRecordings.erase(path);
        Q_EMIT loadEnded(path, false, tr("cancelled"));
    });
    job->start();
}

void MainWindow::onLoaded(LoadJob* job, const std::shared_ptr<LoadedProfile>& loaded)
{
    const QString path = job->path();
    finishJob(job);
    auto* session = new ProfileSession(*loaded);
    // Two profiles from different folders may share a file name: tell them apart.
    for (ProfileSession* other : m_workbench->sessions())
        if (other->displayName() == session->displayName())
            session->setDisplayName(QFileInfo(path).dir().dirName() + QLatin1Char('/') + session->displayName());
    m_workbench->addSession(session);
    if (const auto pending = m_pendingRecordings.find(path); pending != m_pendingRecordings.end()) {
        attachNvlinkRecordings(session, pending->second, this);
        m_pendingRecordings.erase(pending);
    }
    m_startPage->setError({});
    m_startPage->hide();
    addRecent(path);
    const QStringList warnings = loaded->profile->meta.warnings;
    statusBar()->showMessage(warnings.isEmpty()
            ? tr("Loaded %1 in %2 ms").arg(path).arg(loaded->result.totalMilliseconds)
            : tr("Loaded %1: %2").arg(path, warnings.join(QStringLiteral("; "))),
        15000);
    Q_EMIT loadEnded(path, true, {});
}

void MainWindow::onLoadFailed(LoadJob* job, const QString& error)
{
    const QString path = job->path();
    finishJob(job);
    m_pendingRecordings.erase(path);
    // A failed load leaves the open profiles untouched; the error names the file.
    statusBar()->showMessage(error, 20000);
    if (m_workbench->sessions().empty())
        m_startPage->setError(error);
    else
        m_progress->showError(error); // in the window, not modal: the open profiles stay usable
    Q_EMIT loadEnded(path, false, error);
}

void MainWindow::finishJob(LoadJob* job)
{
    m_progress->removeJob(job);
    m_jobs.erase(std::remove(m_jobs.begin(), m_jobs.end(), job), m_jobs.end());
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
    m_startPage->setVisible(sessions.empty());
    centralWidget()->setVisible(sessions.empty());
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
                                         : tr("%n GPU(s)", nullptr, int(devices.size()))
            + (gpuNames.isEmpty() ? QString()
                                  : QStringLiteral(" (") + gpuNames.join(QStringLiteral(", ")) + QLatin1Char(')'));
    const QString version
        = p.meta.nsysVersion.isEmpty() ? tr("nsys ≤ 2021 (no metadata)") : tr("nsys %1").arg(p.meta.nsysVersion);
    m_statusProfile->setText(tr("%1  ·  %2  ·  capture %3").arg(version, gpus, formatDuration(p.captureDurationNs())));
}

Pane* MainWindow::activePane() const
{
    if (m_lastFocusedPane && m_lastFocusedPane->isVisible())
        return m_lastFocusedPane;
    for (Pane* p : m_panes)
        if (p->isVisible() && (p->exportableView() || p->exportablePlot()))
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
    if (exportViewCsvInteractively(p->exportableView(), p->exportBaseName(), this))
        statusBar()->showMessage(tr("Table exported"), 5000);
}

void MainWindow::exportPng()
{
    Pane* p = activePane();
    QCustomPlot* plot = p ? p->exportablePlot() : nullptr;
    if (!plot) {
        for (Pane* candidate : m_panes)
            if (candidate->isVisible() && candidate->exportablePlot()) {
                p = candidate;
                plot = candidate->exportablePlot();
                break;
            }
    }
    if (!plot) {
        QMessageBox::information(this, tr("Export"), tr("No chart is visible."));
        return;
    }
    if (exportPlotInteractively(*plot, p->exportBaseName(), this))
        statusBar()->showMessage(tr("Chart exported"), 5000);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveLayout();
    event->accept();
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
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState(kLayoutVersion));
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray(), kLayoutVersion);
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState, kLayoutVersion);
    for (QDockWidget* dock : m_docks)
        dock->show();
    sizeDefaultLayout();
}

} // namespace nsw
