// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/docklayout.h"
#include "core/nvlink/tracefolder.h"

#include <QMainWindow>
#include <QPointer>
#include <QStringList>
#include <map>
#include <memory>
#include <vector>

class QAction;
class QComboBox;
class QCustomPlot;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;
class QToolBar;

namespace nsw {

class CategoryController;
class CompareController;
class ExportTargets;
class FocusBanner;
class LoadCoordinator;
class LoadErrorBanners;
class LoadProgressStrip;
class PaneMaximizer;
class Pane;
class ProfileDialog;
class ProfileSession;
class RanksPane;
class RecentFiles;
class StartPage;
class Workbench;
struct LoadedProfile;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(bool resetLayout = false, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens exports (and trace folders); with no argument and no profile open, shows the start page.
    void openFiles(const QStringList& paths);
    /// Shows the Ranks pane on @p inputs (rank exports, summaries, folders); the start page steps aside for it.
    void openRanks(const QStringList& inputs);
    Workbench* workbench() const { return m_workbench; }
    /// Panes by id (for tests and linked actions).
    Pane* pane(const QString& id) const;
    LoadProgressStrip* progressStrip() const { return m_progress; }
    /// Failed loads, shown until dismissed.
    LoadErrorBanners* errorBanners() const { return m_errors; }
    /// The "Focus: ..." row of the current profile (for tests: what a person sees).
    FocusBanner* focusBanner() const { return m_focusBanner; }
    StartPage* startPage() const { return m_startPage; }
    /// View → Maximise Pane and the panes' title bar buttons.
    PaneMaximizer* paneMaximizer() const { return m_maximizer; }
    /// Adds @p pane as a dock in @p group's place (its tab group, or a new column or row), listed in the View menu
    /// with @p shortcut. The timeline is one call: addPane(timeline, PaneGroup::Top, Ctrl+4) in createPanes(). A
    /// pane added after construction becomes part of the default layout as placed now.
    void addPane(Pane* pane, PaneGroup group, const QKeySequence& shortcut = {});
    /// The dock holding @p pane (for layout checks).
    QDockWidget* dockOf(const Pane* pane) const;
    /// View → Reset Layout: the window at 90 % of the screen (unless maximised) and applyDefaultLayout().
    void resetLayout();
    /// The default layout for the window's current size: panes where their groups go, every pane shown.
    void applyDefaultLayout();
    /// The chart File → Export → Chart as PNG writes: the one the user last looked at (shown, clicked, scrolled, or
    /// its pane focused) while it is on screen, else the first chart on screen; nullptr when every chart is hidden
    /// (behind another tab, or closed).
    QCustomPlot* plotToExport() const;
    /// Running loads; tests wait on them.
    int activeLoads() const;

Q_SIGNALS:
    /// Emitted when a load ends, successfully or not (tests wait on it).
    void loadEnded(const QString& path, bool ok, const QString& error);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    /// The menus and the toolbar (windowmenus.cpp).
    void createActions();
    void createPanes();
    void connectLoads();
    void createNoticeBar();
    void updateNoticeBar();
    void updateFocusBanner();
    void clearFocus();
    /// View → Focus on Range…: typed start and end for the current profile.
    void openFocusRangeDialog();
    void openInteractively();
    /// Profile → Profile Application…: one dialog, kept while the window lives (a run goes on when it is hidden).
    void openProfileDialog();
    void showLoadError(const QString& path, const QString& reason);
    void setStartMode(bool on);
    /// The start page while no profile is open (nor a ranks view), the panes otherwise.
    void updateStartMode();
    void onLoaded(const QString& path, const std::shared_ptr<LoadedProfile>& loaded);
    void refreshProfileSelector();
    void updateStatus();
    void exportCsv();
    void exportReport();
    void exportPng();
    void saveLayout();
    bool restoreLayout();

    Workbench* m_workbench;
    LoadCoordinator* m_loads;
    CategoryController* m_categories = nullptr;
    CompareController* m_compare = nullptr;
    PaneMaximizer* m_maximizer;
    ExportTargets* m_exportTargets;
    DockLayout m_layout;
    StartPage* m_startPage;
    LoadProgressStrip* m_progress;
    LoadErrorBanners* m_errors;
    FocusBanner* m_focusBanner;
    RanksPane* m_ranks = nullptr;
    QAction* m_clearFocus = nullptr;
    QAction* m_focusOnRange = nullptr;
    QToolBar* m_noticeBar = nullptr;
    QComboBox* m_profileSelector;
    RecentFiles* m_recent = nullptr;
    QMenu* m_viewMenu = nullptr;
    ProfileDialog* m_profileDialog = nullptr;
    QLabel* m_statusProfile;
    std::vector<QDockWidget*> m_docks;
    std::vector<Pane*> m_panes;
    bool m_sizeLayoutPending = false; ///< the default layout's sizes wait for the first profile (start mode)
    bool m_startMode = false;
    QByteArray m_workState; ///< the panes' layout while the start page has the window
    /// The layout the panes came back with from the start page while a notice row showed: restored when the row
    /// hides (updateNoticeBar).
    QByteArray m_layoutBeforeNotices;
    /// NVLink recordings of a trace folder, attached once its export is loaded (by export path).
    std::map<QString, std::vector<RecordingChoice>> m_pendingRecordings;
    QByteArray m_defaultState;
};

} // namespace nsw
