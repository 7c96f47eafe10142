// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"
#include "core/timeline/timelineindex.h"
#include "widgets/common/pane.h"

#include <QPointer>

class QLabel;
class QScrollBar;
class QToolButton;

namespace nsw {

class ProfileSession;
class TimelineView;

/// Every GPU stream and thread of the current profile on one zoomable time axis. The index is built off the GUI
/// thread (kept with the profile, so switching back is instant); clicking a kernel selects it in the other panes,
/// and a kernel execution selected elsewhere is revealed here.
class TimelinePane : public Pane
{
    Q_OBJECT
public:
    explicit TimelinePane(Workbench* workbench, QWidget* parent = nullptr);

    QString paneId() const override { return QStringLiteral("timeline"); }
    QString title() const override { return tr("&Timeline"); }

    TimelineView* view() const { return m_view; }
    QToolButton* focusButton() const { return m_focus; }
    /// Tall enough for a GPU with a few streams and a thread or two before scrolling.
    QSize sizeHint() const override { return { 1200, 380 }; }
    /// True while the index of the current profile is being built (tests wait on indexShown()).
    bool isBuilding() const { return m_job.isBusy(); }

Q_SIGNALS:
    /// The current profile's timeline is shown (tests wait on it).
    void indexShown();

private:
    void onCurrentSessionChanged(ProfileSession* session);
    void showIndex(TimelineIndexPtr index);
    void onEventClicked(EventRef event);
    void updateRangeLabel();
    void onRangeSelected(TimeNs start, TimeNs end);
    /// Focuses every pane of the current profile on the selected range.
    void focusOnSelection();
    void showSessionFocus();

    QPointer<ProfileSession> m_session;
    TimelineView* m_view;
    QScrollBar* m_scroll;
    QLabel* m_range;
    QToolButton* m_focus;
    QToolButton* m_zoomToSelection;
    JobSlot m_job;
};

} // namespace nsw
