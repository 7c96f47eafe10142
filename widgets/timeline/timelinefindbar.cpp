// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinefindbar.h"

#include "core/util/numberformat.h"
#include "widgets/timeline/timelineview.h"

#include <QAction>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <functional>
#include <utility>

namespace nsw {

namespace {

constexpr int kTypingPauseMs = 250;

QToolButton* smallButton(const QString& text, const QString& tip, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

/// A pane-wide key (it works wherever the focus is inside the timeline pane).
void addKey(QWidget* owner, const QKeySequence& key, std::function<void()> f)
{
    auto* a = new QAction(owner);
    a->setShortcut(key);
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(a, &QAction::triggered, owner, std::move(f));
    owner->addAction(a);
}

} // namespace

TimelineFindBar::TimelineFindBar(TimelineView* view, QWidget* parent)
    : QWidget(parent)
    , m_view(view)
    , m_edit(new QLineEdit(this))
    , m_regex(
          smallButton(QStringLiteral(".*"), tr("Regular expression (otherwise a substring); case is ignored"), this))
    , m_previous(smallButton(QStringLiteral("▲"), tr("Previous occurrence (Shift+Enter, Shift+F3)"), this))
    , m_next(smallButton(QStringLiteral("▼"), tr("Next occurrence (Enter, F3)"), this))
    , m_count(new QLabel(this))
    , m_typing(new QTimer(this))
    , m_job(this)
{
    m_edit->setPlaceholderText(tr("Find kernel, API call, NVTX…"));
    m_edit->setToolTip(tr("Find kernels, CUDA API calls and NVTX ranges by name (Ctrl+F): Enter for the next, "
                          "Shift+Enter for the previous"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setMinimumWidth(150);
    m_edit->installEventFilter(this);
    m_regex->setCheckable(true);
    m_count->setMinimumWidth(m_count->fontMetrics().horizontalAdvance(QStringLiteral("88,888 of 88,888")));
    m_count->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_typing->setSingleShot(true);
    m_typing->setInterval(kTypingPauseMs);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_regex);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addWidget(m_count);

    connect(m_edit, &QLineEdit::textChanged, this, [this]() {
        m_matches.reset();
        m_job.cancel();
        m_typing->start();
        updateCount();
    });
    connect(m_regex, &QToolButton::toggled, this, &TimelineFindBar::startSearch);
    connect(m_typing, &QTimer::timeout, this, &TimelineFindBar::startSearch);
    connect(m_next, &QToolButton::clicked, this, &TimelineFindBar::findNext);
    connect(m_previous, &QToolButton::clicked, this, &TimelineFindBar::findPrevious);
    connect(view, &TimelineView::selectedEventChanged, this, &TimelineFindBar::updateCount);
    if (parent) {
        addKey(parent, QKeySequence::Find, [this]() {
            m_edit->setFocus(Qt::ShortcutFocusReason);
            m_edit->selectAll();
        });
        addKey(parent, QKeySequence(Qt::Key_F3), [this]() { findNext(); });
        addKey(parent, QKeySequence(Qt::SHIFT | Qt::Key_F3), [this]() { findPrevious(); });
    }
    updateCount();
}

void TimelineFindBar::setProfile(ProfilePtr profile)
{
    if (profile == m_profile)
        return;
    m_profile = std::move(profile);
    startSearch();
}

bool TimelineFindBar::isSearching() const
{
    return m_typing->isActive() || m_job.isBusy();
}

bool TimelineFindBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            step(key->modifiers() & Qt::ShiftModifier ? -1 : +1);
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            m_view->setFocus(Qt::OtherFocusReason);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void TimelineFindBar::startSearch()
{
    m_typing->stop();
    m_matches.reset();
    const EventSearchQuery query { m_edit->text(), m_regex->isChecked() };
    if (!m_profile || query.text.isEmpty()) {
        m_job.cancel();
        m_pendingStep = 0;
        updateCount();
        Q_EMIT searchFinished();
        return;
    }
    updateCount();
    m_job.run<std::shared_ptr<const EventMatches>>(
        [profile = m_profile, query](const JobContext& job) -> Result<std::shared_ptr<const EventMatches>> {
            return std::make_shared<const EventMatches>(findEvents(profile, query, job));
        },
        [this](Result<std::shared_ptr<const EventMatches>> matches) {
            if (!matches) { // the search failed (out of memory): said where its count goes
                m_pendingStep = 0;
                m_count->setText(tr("failed"));
                m_count->setToolTip(matches.errorMessage());
                Q_EMIT searchFinished();
                return;
            }
            m_matches = std::move(*matches);
            updateCount();
            Q_EMIT searchFinished();
            if (const int pending = std::exchange(m_pendingStep, 0))
                step(pending);
        });
}

void TimelineFindBar::step(int direction)
{
    if (!m_matches) {
        if (!isSearching())
            return; // nothing typed
        // Typing has not paused yet, or the search still runs: go once the matches are known.
        m_pendingStep = direction;
        if (m_typing->isActive())
            startSearch();
        return;
    }
    if (m_matches->count() == 0 || !m_view->index())
        return;
    // From the selected event (the last occurrence found, or one clicked), else from the left edge of the view.
    const EventRef from = m_view->selectedEvent();
    EventRef target;
    if (from.valid())
        target = direction > 0 ? m_matches->next(from) : m_matches->previous(from);
    else {
        const EventRef first = m_matches->firstFrom(TimeNs(m_view->viewport().start()));
        target = direction > 0 ? first : m_matches->previous(first);
    }
    if (!target.valid() || !m_view->revealEvent(target))
        return;
    updateCount();
    Q_EMIT found(target);
}

void TimelineFindBar::updateCount()
{
    // Enabled while the matches are still coming, so that Next can be asked for before they are known.
    const bool enabled = !m_edit->text().isEmpty() && (!m_matches || m_matches->count() > 0);
    m_next->setEnabled(enabled);
    m_previous->setEnabled(enabled);
    m_count->setStyleSheet({});
    if (m_edit->text().isEmpty()) {
        m_count->clear();
        return;
    }
    if (!m_matches) {
        m_count->setText(tr("searching…"));
        return;
    }
    if (!m_matches->error.isEmpty()) {
        m_count->setText(tr("invalid"));
        m_count->setToolTip(m_matches->error);
        m_count->setStyleSheet(QStringLiteral("color: #b00020;"));
        return;
    }
    m_count->setToolTip({});
    const qint64 total = qint64(m_matches->count());
    if (total == 0) {
        m_count->setText(tr("no match"));
        m_count->setStyleSheet(QStringLiteral("color: #b00020;"));
        return;
    }
    const std::int64_t ordinal = m_matches->ordinalOf(m_view->selectedEvent());
    m_count->setText(ordinal >= 0
            ? tr("%1 of %2").arg(withThousandsSeparators(ordinal + 1), withThousandsSeparators(total))
            : tr("%1 found").arg(withThousandsSeparators(total)));
}

} // namespace nsw
