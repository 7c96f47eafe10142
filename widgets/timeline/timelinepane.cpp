// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinepane.h"

#include "core/profile/capturespan.h"
#include "core/session/workbench.h"
#include "core/timeline/timelinebuild.h"
#include "core/util/timeformat.h"
#include "widgets/timeline/timelineview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace nsw {

namespace {

const QString kAttachment = QStringLiteral("timeline");

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

} // namespace

TimelinePane::TimelinePane(Workbench* workbench, QWidget* parent)
    : Pane(workbench, parent)
    , m_view(new TimelineView(this))
    , m_scroll(new QScrollBar(Qt::Vertical, this))
    , m_range(new QLabel(this))
    , m_focus(toolButton(tr("Focus on selection"),
          tr("Show only what overlaps the selected range in every pane (drag on the ruler, or Shift+drag, to select)"),
          this))
    , m_zoomToSelection(toolButton(tr("Zoom to selection"), tr("Show the selected range across the whole width"), this))
    , m_job(this)
{
    QToolButton* fit = toolButton(tr("Fit all"), tr("Show the whole profile (F)"), this);
    QToolButton* zoomIn = toolButton(tr("Zoom in"), tr("Zoom in at the centre (W, or the wheel at the cursor)"), this);
    QToolButton* zoomOut = toolButton(tr("Zoom out"), tr("Zoom out (S)"), this);
    auto* hint = new QLabel(
        tr("wheel: zoom · drag: pan · drag on the ruler or Shift+drag: select · W/S/A/D · click a group to fold it"),
        this);
    m_focus->setEnabled(false);
    m_zoomToSelection->setEnabled(false);
    hint->setEnabled(false);
    m_range->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* bar = new QHBoxLayout;
    bar->addWidget(fit);
    bar->addWidget(zoomIn);
    bar->addWidget(zoomOut);
    bar->addWidget(m_zoomToSelection);
    bar->addWidget(m_focus);
    bar->addSpacing(12);
    bar->addWidget(m_range, 1);
    bar->addWidget(hint);
    auto* body = new QHBoxLayout;
    body->setSpacing(0);
    body->addWidget(m_view, 1);
    body->addWidget(m_scroll);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    layout->addLayout(bar);
    layout->addLayout(body, 1);

    connect(fit, &QToolButton::clicked, m_view, &TimelineView::fitAll);
    connect(zoomIn, &QToolButton::clicked, m_view, [this]() { m_view->zoomBy(1.5); });
    connect(zoomOut, &QToolButton::clicked, m_view, [this]() { m_view->zoomBy(1 / 1.5); });
    connect(m_view, &TimelineView::viewChanged, this, &TimelinePane::updateRangeLabel);
    connect(m_view, &TimelineView::verticalRangeChanged, this, [this](int content, int page) {
        m_scroll->setRange(0, std::max(0, content - page));
        m_scroll->setPageStep(std::max(1, page));
        m_scroll->setSingleStep(20);
    });
    connect(m_view, &TimelineView::verticalOffsetChanged, m_scroll, &QScrollBar::setValue);
    connect(m_scroll, &QScrollBar::valueChanged, m_view, &TimelineView::setVerticalOffset);
    connect(m_view, &TimelineView::eventClicked, this, &TimelinePane::onEventClicked);
    connect(m_view, &TimelineView::rangeSelected, this, &TimelinePane::onRangeSelected);
    connect(m_focus, &QToolButton::clicked, this, &TimelinePane::focusOnSelection);
    connect(m_zoomToSelection, &QToolButton::clicked, this, [this]() {
        if (const auto [start, end] = m_view->selectedRange(); end > start)
            m_view->showRange(double(start), double(end));
    });
    connect(workbench, &Workbench::currentChanged, this, &TimelinePane::onCurrentSessionChanged);
    connect(workbench, &Workbench::sessionAboutToBeRemoved, this, [this](ProfileSession* s) {
        if (s == m_session)
            onCurrentSessionChanged(nullptr);
    });
    connect(workbench, &Workbench::kernelInstanceSelected, this, [this](ProfileSession* s, quint32 row) {
        const EventRef kernel { EventTable::Kernel, row };
        if (s == m_session && m_view->index() && m_view->selectedEvent() != kernel)
            m_view->revealEvent(kernel);
    });
    onCurrentSessionChanged(workbench->current());
}

void TimelinePane::onRangeSelected(TimeNs start, TimeNs end)
{
    m_focus->setEnabled(m_session && end > start);
    m_zoomToSelection->setEnabled(end > start);
}

void TimelinePane::focusOnSelection()
{
    const auto [start, end] = m_view->selectedRange();
    if (!m_session || end <= start)
        return;
    const TimeNs origin = captureSpanOf(*m_session->profile()).start;
    const TimeNs zero = origin == kNoTime ? 0 : origin;
    m_session->setFocus(FocusRange { start, end,
        tr("%1 – %2 from the capture start").arg(formatDuration(start - zero), formatDuration(end - zero)) });
}

void TimelinePane::showSessionFocus()
{
    // The focused range stays marked on the timeline; clearing the focus clears the mark.
    const FocusRange focus = m_session ? m_session->focus() : FocusRange {};
    m_view->setSelectedRange(focus.start, focus.end);
    m_focus->setEnabled(false);
    m_zoomToSelection->setEnabled(focus.isActive());
}

void TimelinePane::onCurrentSessionChanged(ProfileSession* session)
{
    if (m_session)
        disconnect(m_session, &ProfileSession::focusChanged, this, nullptr);
    m_session = session;
    if (session)
        connect(session, &ProfileSession::focusChanged, this, &TimelinePane::showSessionFocus);
    showSessionFocus();
    m_job.cancel();
    if (!session) {
        m_view->setMessage({});
        showIndex(nullptr);
        return;
    }
    if (auto cached = session->attachment<const TimelineIndex>(kAttachment)) {
        showIndex(cached);
        return;
    }
    m_view->setIndex(nullptr);
    m_view->setMessage(tr("Building the timeline…"));
    const ProfilePtr profile = session->profile();
    QPointer<ProfileSession> guard(session);
    m_job.run<Result<TimelineIndexPtr>>([profile](const JobContext& job) { return buildTimelineIndex(profile, job); },
        [this, guard](Result<TimelineIndexPtr> result) {
            if (!result) {
                m_view->setMessage(tr("The timeline could not be built: %1").arg(result.errorMessage()));
                return;
            }
            if (guard)
                guard->setAttachment(kAttachment, std::const_pointer_cast<TimelineIndex>(*result));
            showIndex(*result);
        },
        [this](const Progress& p) {
            m_view->setMessage(tr("Building the timeline… %1 %").arg(int(std::max(0.0, p.fraction) * 100)));
        });
}

void TimelinePane::showIndex(TimelineIndexPtr index)
{
    m_view->setMessage({});
    m_view->setIndex(std::move(index));
    updateRangeLabel();
    Q_EMIT indexShown();
}

void TimelinePane::onEventClicked(EventRef event)
{
    if (m_session && event.table == EventTable::Kernel)
        workbench()->selectKernelInstance(m_session, event.row);
}

void TimelinePane::updateRangeLabel()
{
    const TimelineIndexPtr& index = m_view->index();
    if (!index) {
        m_range->clear();
        return;
    }
    const TimelineViewport& vp = m_view->viewport();
    const double origin = double(index->origin());
    m_range->setText(
        tr("%1 – %2 (%3 shown)")
            .arg(formatSeconds(TimeNs(vp.start() - origin), 6), formatSeconds(TimeNs(vp.end() - origin), 6),
                formatDuration(TimeNs(vp.end() - vp.start()))));
}

} // namespace nsw
