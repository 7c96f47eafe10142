// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/tracefolder.h"

#include <QMainWindow>
#include <QStringList>
#include <map>
#include <memory>
#include <vector>

class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;

namespace nsw {

class LoadJob;
class LoadProgressStrip;
class Pane;
class ProfileSession;
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
    Workbench* workbench() const { return m_workbench; }
    /// Panes by id (for tests and linked actions).
    Pane* pane(const QString& id) const;
    LoadProgressStrip* progressStrip() const { return m_progress; }
    /// Running loads; tests wait on them.
    int activeLoads() const { return int(m_jobs.size()); }

Q_SIGNALS:
    /// Emitted when a load ends, successfully or not (tests wait on it).
    void loadEnded(const QString& path, bool ok, const QString& error);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createPanes();
    void addTimelinePane();
    void sizeDefaultLayout();
    void addPane(Pane* pane, Qt::DockWidgetArea area, const QKeySequence& shortcut = {});
    void startLoad(const QString& path);
    void onLoaded(LoadJob* job, const std::shared_ptr<LoadedProfile>& loaded);
    void onLoadFailed(LoadJob* job, const QString& error);
    void finishJob(LoadJob* job);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void refreshProfileSelector();
    void updateStatus();
    void exportCsv();
    void exportPng();
    Pane* activePane() const;
    void saveLayout();
    void restoreLayout();
    void resetLayout();

    Workbench* m_workbench;
    StartPage* m_startPage;
    LoadProgressStrip* m_progress;
    QComboBox* m_profileSelector;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QLabel* m_statusProfile;
    std::vector<QDockWidget*> m_docks;
    std::vector<Pane*> m_panes;
    std::vector<LoadJob*> m_jobs;
    Pane* m_lastFocusedPane = nullptr;
    /// NVLink recordings of a trace folder, attached once its export is loaded (by export path).
    std::map<QString, std::vector<RecordingChoice>> m_pendingRecordings;
    QByteArray m_defaultState;
};

} // namespace nsw
