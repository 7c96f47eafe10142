// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"
#include "core/timeline/eventsearch.h"

#include <QWidget>
#include <memory>

class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace nsw {

class TimelineView;

/// The timeline's search box: a substring or regular expression over kernel, CUDA API and NVTX names, searched off
/// the GUI thread while typing; Enter / F3 reveal and select the next occurrence, Shift+Enter / Shift+F3 the
/// previous one, "n of m" says where the selection is among the matches.
class TimelineFindBar : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineFindBar(TimelineView* view, QWidget* parent = nullptr);

    QLineEdit* edit() const { return m_edit; }
    QToolButton* regexButton() const { return m_regex; }
    QToolButton* nextButton() const { return m_next; }
    QToolButton* previousButton() const { return m_previous; }
    QLabel* countLabel() const { return m_count; }
    /// Searches the new profile of the view (after TimelineView::setIndex), or nothing.
    void setProfile(ProfilePtr profile);
    /// True while a search runs or waits for typing to pause (tests wait on searchFinished()).
    bool isSearching() const;

    void findNext() { step(+1); }
    void findPrevious() { step(-1); }

Q_SIGNALS:
    /// The matches of the text typed are known (possibly none).
    void searchFinished();
    /// Next or Previous selected @p event (already revealed in the view).
    void found(nsw::EventRef event);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void startSearch();
    void step(int direction);
    void updateCount();

    TimelineView* m_view;
    QLineEdit* m_edit;
    QToolButton* m_regex;
    QToolButton* m_previous;
    QToolButton* m_next;
    QLabel* m_count;
    QTimer* m_typing;
    ProfilePtr m_profile;
    std::shared_ptr<const EventMatches> m_matches; ///< of the text in the box, once searched
    int m_pendingStep = 0; ///< Next (1) or Previous (-1) asked for before the matches were known
    JobSlot m_job;
};

} // namespace nsw
