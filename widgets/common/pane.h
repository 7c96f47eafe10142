// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>
#include <initializer_list>

class QLabel;
class QMenu;
class QSplitter;
class QToolButton;

class QAbstractItemView;
class QShowEvent;
class QCustomPlot;

namespace nsw {

class ProfileSession;
class WaitingOverlay;
class Workbench;

/// A dockable pane. The main window wraps each in a QDockWidget whose objectName is paneId() (stable, used by
/// the saved layout) and routes File → Export to the pane that last had focus.
class Pane : public QWidget
{
    Q_OBJECT
public:
    /// @p id is the dock's stable objectName, @p title its title with the mnemonic ("&Iterations").
    Pane(Workbench* workbench, QString id, QString title, QWidget* parent = nullptr);

    const QString& paneId() const { return m_id; }
    const QString& title() const { return m_title; }
    /// The table that File → Export → CSV writes (in view order), or nullptr.
    virtual QAbstractItemView* exportableView() const { return nullptr; }
    /// The chart that File → Export → PNG writes, or nullptr.
    virtual QCustomPlot* exportablePlot() const { return nullptr; }
    /// A file name stem for exports, e.g. "kernels-mfu_before".
    virtual QString exportBaseName() const;
    /// A computation of the pane runs (off the GUI thread); false when it shows what it has.
    virtual bool isComputing() const { return false; }
    /// Nothing computing and not waiting for the rest of a load: shows its results for the current profile, or, when
    /// deferred (isDeferred()), computes nothing until the user looks at it (benchmarks and tests wait on it).
    bool isSettled() const { return !isComputing() && !m_waitingFor; }
    /// Its computation waits until it is shown: behind another pane's tab, or in a closed dock.
    bool isDeferred() const { return m_refreshPending; }

protected:
    Workbench* workbench() const { return m_workbench; }

    /// Runs refresh() now when the pane is on screen; a pane behind another tab or in a closed dock runs it when it
    /// is next shown, so that only what the user looks at computes. Returns whether it ran now.
    bool refreshWhenShown();
    /// The computation refreshWhenShown() runs or defers.
    virtual void refresh() { }
    /// Visible and not behind another pane's tab: Qt keeps the docks of tabs that are not current visible (it moves
    /// them off the window), so isVisible() alone says nothing of what the user sees.
    bool isShownToUser() const;
    void showEvent(QShowEvent* event) override;
    bool event(QEvent* event) override;

    /// For panes that need CUDA API calls, NVTX or OS runtime: while @p session is at the first stage of a staged
    /// load (ProfileSession::isComplete() false), covers the pane with what it waits for and how far the load is, and
    /// returns true (compute nothing now: the profile holds kernels and memory operations only). When the session
    /// completes, wholeProfileArrived() runs. Returns false (and uncovers the pane) for complete or null sessions.
    bool waitForWholeProfile(ProfileSession* session);
    /// @p session holds the whole profile now (every pane hears it, waiting or not): panes showing it recompute or,
    /// like the Kernels pane, rebind what they show to the whole profile.
    virtual void wholeProfileArrived(ProfileSession* session) { Q_UNUSED(session); }

private:
    void showWaitingText();
    void runPendingRefresh();
    void followDock();

    Workbench* m_workbench;
    QString m_id;
    QString m_title;
    ProfileSession* m_waitingFor = nullptr;
    WaitingOverlay* m_waitingOverlay = nullptr;
    bool m_refreshPending = false; ///< refresh() was deferred while the pane was hidden
    QMetaObject::Connection m_dockShown; ///< the dock's tab became current
};

/// The chart/table splitter under a pane's controls gives way first when the dock is shorter than all the pane's
/// minimums (1366x768): the wrapped controls and status lines above it keep their height, the splitter's parts share
/// what is left. Otherwise Qt squeezes every part and draws the controls' last row over the status line.
void letSplitterGiveWay(QSplitter* splitter);

/// A tool button labelled @p text that opens @p menu at once (Export, Devices, Links...).
QToolButton* menuButton(const QString& text, QMenu* menu, QWidget* parent);

/// @p body under a row of @p title (taking the row's free width) and @p tools, without margins: a table with its
/// caption and buttons as one part of a splitter.
QWidget* boxWithHeader(QLabel* title, std::initializer_list<QWidget*> tools, QWidget* body, QWidget* parent);

} // namespace nsw
