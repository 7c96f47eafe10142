// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"
#include "core/timeline/timelinecounters.h"
#include "core/timeline/timelineindex.h"
#include "widgets/common/sessionpane.h"

class QAction;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QScrollBar;
class QToolButton;

namespace nsw {

class CategoryController;
class ProfileSession;
class TimelineFindBar;
class TimelineView;

/// Every GPU stream and thread of the current profile on one zoomable time axis. The index is built off the GUI
/// thread (kept with the profile, so switching back is instant); clicking a kernel selects it in the other panes,
/// and a kernel execution selected elsewhere is revealed here.
class TimelinePane : public SessionPane
{
    Q_OBJECT
public:
    explicit TimelinePane(Workbench* workbench, QWidget* parent = nullptr);

    bool isComputing() const override { return m_job.isBusy() || m_countersJob.isBusy(); }

    TimelineView* view() const { return m_view; }
    TimelineFindBar* findBar() const { return m_find; }
    QToolButton* focusButton() const { return m_focus; }
    QComboBox* colorByBox() const { return m_colorBy; }
    /// Colour by category uses @p controller's rules and colours (the Categories pane's), kept in sync.
    void setCategoryController(CategoryController* controller);
    bool colorsByCategory() const;
    QAction* backAction() const { return m_back; }
    QAction* forwardAction() const { return m_forward; }
    /// Tall enough for a GPU with a few streams and a thread or two before scrolling.
    QSize sizeHint() const override { return { 1200, 380 }; }
    /// True while the index of the current profile is being built (tests wait on indexShown()).
    bool isBuilding() const { return m_job.isBusy(); }

Q_SIGNALS:
    /// The current profile's timeline is shown (tests wait on it).
    void indexShown();

protected:
    void resizeEvent(QResizeEvent* event) override;
    /// Shows the navigation hint only where the bar has room for it beside the range text.
    void fitHint();

    void sessionChanged(ProfileSession* session) override;
    void sessionFocusChanged() override { showSessionFocus(); }
    void wholeSessionArrived() override { sessionChanged(session()); }

private:
    void showIndex(TimelineIndexPtr index, TimelineCountersPtr counters = nullptr);
    /// Builds the counter rows of the current profile (its GPU metrics, its NVLink recordings) off the GUI thread,
    /// unless those of its current NVLink attachment are cached.
    void updateCounters();
    /// Shows @p problem (empty: none) in the bar, in place of the hint.
    void showProblem(const QString& problem);
    void onEventClicked(EventRef event);
    void updateRangeLabel();
    void onRangeSelected(TimeNs start, TimeNs end);
    /// Focuses every pane of the current profile on the selected range.
    void focusOnSelection();
    void showSessionFocus();
    /// Shows @p start..@p end of @p session (another pane's selection) with context, marked as the selected range.
    void revealRange(ProfileSession* rangeSession, TimeNs start, TimeNs end);
    /// Colours by name, or by the category controller's results for the current profile.
    void applyColoring();

    TimelineView* m_view;
    QScrollBar* m_scroll;
    QLabel* m_range;
    QLabel* m_hint;
    QHBoxLayout* m_bar;
    QToolButton* m_focus;
    QToolButton* m_zoomToSelection;
    TimelineFindBar* m_find;
    QComboBox* m_colorBy;
    QMetaObject::Connection m_attachmentConnection; ///< to the profile shown
    QPointer<CategoryController> m_categories;
    QAction* m_back;
    QAction* m_forward;
    JobSlot m_job;
    JobSlot m_countersJob;
};

} // namespace nsw
