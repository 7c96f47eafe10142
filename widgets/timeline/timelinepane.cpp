// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinepane.h"

#include "core/categories/categorytable.h"
#include "core/controllers/categorycontroller.h"
#include "core/nvlink/nvlinkattachment.h"
#include "core/session/workbench.h"
#include "core/timeline/timelinebuild.h"
#include "core/util/timeformat.h"
#include "widgets/timeline/timelinefindbar.h"
#include "widgets/timeline/timelineview.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace nsw {

namespace {

const QString kAttachment = timelineIndexAttachmentKey();
/// The counter rows of a profile (TimelineCountersCache), kept like the index.
const QString kCountersAttachment = QStringLiteral("timeline-counters");
/// Share of the width a revealed range (an NVTX range, an NVLink peak) takes: context on both sides.
constexpr double kRangeShare = 0.6;

/// A pane-wide action (its shortcut works wherever the focus is inside the pane) shown as an icon button.
QAction* paneAction(QStyle::StandardPixmap icon, const QString& text, const QKeySequence& key, QWidget* pane)
{
    auto* a = new QAction(pane->style()->standardIcon(icon), text, pane);
    a->setShortcut(key);
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    a->setToolTip(QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
    pane->addAction(a);
    return a;
}

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

/// A profile's GPU metrics (read once) and the counter rows built from them and one NVLink attachment.
struct TimelineCountersCache
{
    std::shared_ptr<const GpuMetricCounters> metrics;
    std::shared_ptr<const NvlinkAttachment> nvlink; ///< the attachment the counters were built with
    TimelineCountersPtr counters;
};

/// What one build of the pane makes: the index, then the GPU metrics, then the counter rows.
struct TimelineBuild
{
    TimelineIndexPtr index;
    std::shared_ptr<TimelineCountersCache> counters;
    QString metricsError;
};

std::shared_ptr<const NvlinkAttachment> nvlinkOf(const ProfileSession* session)
{
    return session ? session->attachment<const NvlinkAttachment>(nvlinkAttachmentKey()) : nullptr;
}

/// Whether counters built with NVLink attachment @p a hold for @p b: the same recordings at the same clock offset
/// (the attachment also changes when the NVLink pane reads its own GPU metrics, which the counters do not use).
bool sameRecordings(const NvlinkAttachment* a, const NvlinkAttachment* b)
{
    const bool aEmpty = !a || a->recordings.empty(), bEmpty = !b || b->recordings.empty();
    if (aEmpty || bEmpty)
        return aEmpty == bEmpty;
    if (a->clockOffsetNs != b->clockOffsetNs || a->recordings.size() != b->recordings.size())
        return false;
    for (std::size_t i = 0; i < a->recordings.size(); ++i)
        if (a->recordings[i].recording != b->recordings[i].recording || a->recordings[i].gpu != b->recordings[i].gpu)
            return false;
    return true;
}

Result<TimelineBuild> buildTimeline(
    const ProfilePtr& profile, std::shared_ptr<const NvlinkAttachment> nvlink, const JobContext& job)
{
    const bool hasMetrics = profile->meta.tables.contains(QStringLiteral("GPU_METRICS"));
    Result<TimelineIndexPtr> index = sharedTimelineIndex(profile, job.slice(0, hasMetrics ? 0.7 : 0.95));
    if (!index)
        return Result<TimelineBuild>::failure(index.error().kind, index.errorMessage());
    TimelineBuild build;
    build.index = *index;
    build.counters = std::make_shared<TimelineCountersCache>();
    if (hasMetrics) {
        GpuMetricCountersResult metrics = sharedGpuMetricCounters(profile, job.slice(0.7, 0.95));
        if (metrics.cancelled)
            return Result<TimelineBuild>::cancelled();
        build.counters->metrics = metrics.data;
        build.metricsError = metrics.error;
    }
    build.counters->nvlink = nvlink;
    build.counters->counters = buildTimelineCounters(*profile, build.counters->metrics, nvlink, job.slice(0.95, 1));
    if (job.isCancelled())
        return Result<TimelineBuild>::cancelled();
    return build;
}

} // namespace

TimelinePane::TimelinePane(Workbench* workbench, QWidget* parent)
    : SessionPane(workbench, QStringLiteral("timeline"), tr("&Timeline"), parent)
    , m_view(new TimelineView(this))
    , m_scroll(new QScrollBar(Qt::Vertical, this))
    , m_range(new QLabel(this))
    , m_focus(toolButton(tr("Focus on selection"),
          tr("Show only what overlaps the selected range in every pane (drag on the ruler, or Shift+drag, to select)"),
          this))
    , m_zoomToSelection(toolButton(tr("Zoom to selection"), tr("Show the selected range across the whole width"), this))
    , m_find(new TimelineFindBar(m_view, this))
    , m_colorBy(new QComboBox(this))
    , m_back(
          paneAction(QStyle::SP_ArrowBack, tr("Back to the previous view"), QKeySequence(Qt::ALT | Qt::Key_Left), this))
    , m_forward(paneAction(
          QStyle::SP_ArrowForward, tr("Forward to the next view"), QKeySequence(Qt::ALT | Qt::Key_Right), this))
    , m_job(this)
    , m_countersJob(this)
{
    QToolButton* fit = toolButton(tr("Fit all"), tr("Show the whole profile (F)"), this);
    // Symbols rather than words: at 1366 px the bar also holds the range shown and the search box.
    QToolButton* zoomIn
        = toolButton(QStringLiteral("+"), tr("Zoom in at the centre (W, or the wheel at the cursor)"), this);
    QToolButton* zoomOut = toolButton(QStringLiteral("−"), tr("Zoom out (S)"), this);
    for (QToolButton* b : { zoomIn, zoomOut }) {
        QFont f = b->font();
        f.setBold(true);
        b->setFont(f);
        b->setMinimumWidth(26);
    }
    const QString hintText
        = tr("wheel: zoom · drag: pan · drag on the ruler or Shift+drag: select · W/S/A/D · click a group to fold it");
    m_hint = new QLabel(hintText, this);
    m_focus->setEnabled(false);
    m_zoomToSelection->setEnabled(false);
    m_colorBy->addItem(tr("Colour: name"));
    m_colorBy->addItem(tr("Colour: category"));
    m_colorBy->setToolTip(tr("Colour kernels by name, or by the category the Categories pane's rules give them "
                             "(its engine and model, with its colours)"));
    m_colorBy->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_hint->setEnabled(false);
    m_range->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_range->setToolTip(hintText); // the hint itself goes when the bar is too narrow for it
    // Long range texts are cut rather than widen the dock past a small screen.
    m_range->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto* bar = m_bar = new QHBoxLayout;
    for (QAction* a : { m_back, m_forward }) {
        a->setEnabled(false);
        auto* b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setAutoRaise(true);
        bar->addWidget(b);
    }
    bar->addWidget(fit);
    bar->addWidget(zoomIn);
    bar->addWidget(zoomOut);
    bar->addWidget(m_zoomToSelection);
    bar->addWidget(m_focus);
    bar->addSpacing(12);
    bar->addWidget(m_range, 1);
    bar->addWidget(m_hint);
    bar->addWidget(m_find);
    bar->addWidget(m_colorBy);
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
    connect(m_back, &QAction::triggered, m_view, &TimelineView::goBack);
    connect(m_forward, &QAction::triggered, m_view, &TimelineView::goForward);
    connect(m_view, &TimelineView::historyChanged, this, [this]() {
        m_back->setEnabled(m_view->history().canGoBack());
        m_forward->setEnabled(m_view->history().canGoForward());
    });
    connect(m_view, &TimelineView::verticalRangeChanged, this, [this](int content, int page) {
        m_scroll->setRange(0, std::max(0, content - page));
        m_scroll->setPageStep(std::max(1, page));
        m_scroll->setSingleStep(20);
    });
    connect(m_view, &TimelineView::verticalOffsetChanged, m_scroll, &QScrollBar::setValue);
    connect(m_scroll, &QScrollBar::valueChanged, m_view, &TimelineView::setVerticalOffset);
    connect(m_view, &TimelineView::eventClicked, this, &TimelinePane::onEventClicked);
    connect(m_find, &TimelineFindBar::found, this, &TimelinePane::onEventClicked);
    connect(m_view, &TimelineView::rangeSelected, this, &TimelinePane::onRangeSelected);
    connect(m_focus, &QToolButton::clicked, this, &TimelinePane::focusOnSelection);
    connect(m_colorBy, &QComboBox::currentIndexChanged, this, &TimelinePane::applyColoring);
    connect(m_zoomToSelection, &QToolButton::clicked, this, [this]() {
        if (const auto [start, end] = m_view->selectedRange(); end > start)
            m_view->showRange(double(start), double(end));
    });
    connect(workbench, &Workbench::kernelInstanceSelected, this, [this](ProfileSession* s, quint32 row) {
        const EventRef kernel { EventTable::Kernel, row };
        if (s == session() && m_view->index() && m_view->selectedEvent() != kernel)
            m_view->revealEvent(kernel);
    });
    // An NVTX range picked in the tree: its first instance, wide enough to see inside it.
    connect(workbench, &Workbench::nvtxEventSelected, this, [this](ProfileSession* s, quint32 row) {
        if (s == session() && m_view->index())
            m_view->revealEvent({ EventTable::Nvtx, row }, kRangeShare);
    });
    connect(workbench, &Workbench::timeRangeSelected, this, &TimelinePane::revealRange);
    // A range dragged here shows its CPU samples in the Samples pane, which marks a function's samples here.
    connect(m_view, &TimelineView::rangeSelected, this, [this](qint64 start, qint64 end) {
        if (session() && end > start)
            this->workbench()->pickTimeRange(session(), start, end);
    });
    connect(workbench, &Workbench::sampleMarksSelected, this,
        [this](ProfileSession* s, std::shared_ptr<const SampleMarks> marks) {
            if (s == session())
                m_view->setSampleMarks(std::move(marks));
        });
    showCurrentSession();
}

void TimelinePane::revealRange(ProfileSession* rangeSession, TimeNs start, TimeNs end)
{
    if (rangeSession != session() || !m_view->index() || end < start)
        return;
    const double span = std::max(double(end - start), 1000.0);
    const double context = span * (1 / kRangeShare - 1) / 2;
    m_view->showRange(double(start) - context, double(end) + context);
    // Marked as the selected range (ready for "Focus on selection"), unless that band shows the focus.
    if (!session()->focus().isActive()) {
        m_view->setSelectedRange(start, end);
        onRangeSelected(start, end);
    }
}

void TimelinePane::resizeEvent(QResizeEvent* event)
{
    Pane::resizeEvent(event);
    fitHint();
}

void TimelinePane::fitHint()
{
    // The hint is the first thing to go when the bar runs out of room (a narrow dock, 1366 px, a longer range text).
    const int hintWidth = m_hint->sizeHint().width() + m_bar->spacing();
    const int others = m_bar->sizeHint().width() - (m_hint->isHidden() ? 0 : hintWidth) + m_range->sizeHint().width();
    m_hint->setHidden(others + hintWidth > contentsRect().width() - 8);
}

void TimelinePane::setCategoryController(CategoryController* controller)
{
    if (m_categories)
        disconnect(m_categories, nullptr, this, nullptr);
    m_categories = controller;
    if (controller)
        connect(controller, &CategoryController::resultsChanged, this, &TimelinePane::applyColoring);
    applyColoring();
}

bool TimelinePane::colorsByCategory() const
{
    return m_colorBy->currentIndex() == 1;
}

void TimelinePane::applyColoring()
{
    const CategoryController::SessionResult* result = nullptr;
    if (colorsByCategory() && m_categories && session()) {
        m_categories->activate(); // categorises the open profiles, in the background, once
        result = m_categories->result(session());
    }
    if (!result || !result->timeline) {
        m_view->colors().setProvider({});
        m_view->setEventNote({});
        m_view->update();
        return;
    }
    // The chart's colours (unique among the categories it shows), else the category's own.
    const CategoryTable table = m_categories->table();
    QHash<QString, QColor> shown;
    for (std::size_t c = 0; c < table.rowCount(); ++c)
        shown.insert(table.categories[qsizetype(c)], QColor::fromRgba(table.colors[c]));
    const CategoryBreakdown& b = result->breakdown;
    auto colors = std::make_shared<std::vector<QColor>>(b.categoryOfName.size());
    for (std::size_t n = 0; n < b.categoryOfName.size(); ++n) {
        const int c = b.categoryOfName[n];
        if (c < 0 || c >= b.categories.size())
            continue;
        const QString& category = b.categories[c];
        (*colors)[n] = shown.value(category, QColor::fromRgba(categoryColor(category)));
    }
    std::shared_ptr<const CategoryTimeline> timeline = result->timeline;
    const Profile* profile = timeline->profile().get();
    m_view->colors().setProvider([timeline, colors, profile](const Profile& p, EventRef e) {
        if (&p != profile || e.table != EventTable::Kernel || e.row >= p.kernels.size())
            return QColor();
        const std::uint32_t name = timeline->nameOfKernel(e.row);
        return name < colors->size() ? (*colors)[name] : QColor();
    });
    auto categoryOfName = std::make_shared<std::vector<QString>>(b.categoryOfName.size());
    for (std::size_t n = 0; n < b.categoryOfName.size(); ++n)
        if (const int c = b.categoryOfName[n]; c >= 0 && c < b.categories.size())
            (*categoryOfName)[n] = tr("category %1").arg(b.categories[c]);
    m_view->setEventNote([timeline, categoryOfName, profile](const Profile& p, EventRef e) {
        if (&p != profile || e.table != EventTable::Kernel || e.row >= p.kernels.size())
            return QString();
        const std::uint32_t name = timeline->nameOfKernel(e.row);
        return name < categoryOfName->size() ? (*categoryOfName)[name] : QString();
    });
    m_view->update();
}

void TimelinePane::onRangeSelected(TimeNs start, TimeNs end)
{
    m_focus->setEnabled(session() && end > start);
    m_zoomToSelection->setEnabled(end > start);
    updateRangeLabel();
}

void TimelinePane::focusOnSelection()
{
    const auto [start, end] = m_view->selectedRange();
    if (!session() || end <= start)
        return;
    // Labelled on the ruler's clock, so that the banner reads what the ruler showed.
    const TimeNs origin = m_view->index() ? m_view->index()->origin() : 0;
    session()->setFocus(FocusRange { start, end, formatTimeSpan(start - origin, end - origin) });
}

void TimelinePane::showSessionFocus()
{
    // The focused range stays marked on the timeline, the view zoomed to it with a margin on either side so that its
    // edges show; clearing the focus clears the mark.
    const FocusRange focus = session() ? session()->focus() : FocusRange {};
    m_view->setSelectedRange(focus.start, focus.end);
    m_focus->setEnabled(false);
    m_zoomToSelection->setEnabled(focus.isActive());
    if (focus.isActive() && m_view->index() && m_view->index()->profilePtr() == session()->profile()) {
        const double margin = std::max(1.0, 0.05 * double(focus.durationNs()));
        m_view->showRange(double(focus.start) - margin, double(focus.end) + margin);
    }
    updateRangeLabel();
}

void TimelinePane::sessionChanged(ProfileSession* session)
{
    m_view->setSampleMarks(nullptr);
    disconnect(m_attachmentConnection);
    if (session)
        m_attachmentConnection = connect(session, &ProfileSession::attachmentChanged, this, [this](const QString& key) {
            if (key == nvlinkAttachmentKey() && m_view->index())
                updateCounters();
        });
    showSessionFocus();
    applyColoring();
    m_job.cancel();
    m_countersJob.cancel();
    showProblem({});
    if (!session || waitForWholeProfile(session)) {
        m_view->setMessage({});
        showIndex(nullptr);
        return;
    }
    if (auto cached = session->attachment<const TimelineIndex>(kAttachment)) {
        showIndex(cached);
        updateCounters();
        return;
    }
    m_view->setIndex(nullptr);
    m_view->setMessage(tr("Building the timeline…"));
    const ProfilePtr profile = session->profile();
    const std::shared_ptr<const NvlinkAttachment> nvlink = nvlinkOf(session);
    QPointer<ProfileSession> guard(session);
    m_job.run<TimelineBuild>([profile, nvlink](const JobContext& job) { return buildTimeline(profile, nvlink, job); },
        [this, guard](Result<TimelineBuild> result) {
            if (!result) {
                m_view->setMessage(tr("The timeline could not be built: %1").arg(result.errorMessage()));
                return;
            }
            if (guard) {
                guard->setAttachment(kAttachment, std::const_pointer_cast<TimelineIndex>(result->index));
                guard->setAttachment(kCountersAttachment, result->counters);
            }
            showIndex(result->index, result->counters->counters);
            if (!result->metricsError.isEmpty())
                showProblem(tr("GPU metrics not shown: %1").arg(result->metricsError));
            // An NVLink recording attached while the index was being built.
            if (guard && !sameRecordings(nvlinkOf(guard).get(), result->counters->nvlink.get()))
                updateCounters();
        },
        [this](const Progress& p) {
            m_view->setMessage(tr("Building the timeline… %1 %").arg(int(std::max(0.0, p.fraction) * 100)));
        });
}

void TimelinePane::showProblem(const QString& problem)
{
    // In the hint's place: the hint is only a reminder, the problem is news.
    m_hint->setText(problem.isEmpty() ? m_range->toolTip() : problem);
    m_hint->setEnabled(!problem.isEmpty());
    m_hint->setStyleSheet(problem.isEmpty() ? QString() : QStringLiteral("color: #b00020"));
    m_hint->setToolTip(problem);
    fitHint();
}

void TimelinePane::updateCounters()
{
    if (!session())
        return;
    const auto cache = session()->attachment<TimelineCountersCache>(kCountersAttachment);
    const std::shared_ptr<const NvlinkAttachment> nvlink = nvlinkOf(session());
    if (cache && sameRecordings(cache->nvlink.get(), nvlink.get())) {
        m_view->setCounters(cache->counters);
        return;
    }
    const ProfilePtr profile = session()->profile();
    // Without a cache (an index built elsewhere) the GPU metrics have not been read yet.
    const bool readMetrics = !cache && profile->meta.tables.contains(QStringLiteral("GPU_METRICS"));
    std::shared_ptr<const GpuMetricCounters> cached = cache ? cache->metrics : nullptr;
    QPointer<ProfileSession> guard(session());
    m_countersJob.run<std::shared_ptr<TimelineCountersCache>>(
        [profile, cached, nvlink, readMetrics](
            const JobContext& job) -> Result<std::shared_ptr<TimelineCountersCache>> {
            auto next = std::make_shared<TimelineCountersCache>();
            next->metrics = cached;
            next->nvlink = nvlink;
            if (readMetrics) {
                const GpuMetricCountersResult r = sharedGpuMetricCounters(profile, job.slice(0, 0.9));
                if (r.cancelled)
                    return Result<std::shared_ptr<TimelineCountersCache>>::cancelled();
                next->metrics = r.data;
            }
            next->counters = buildTimelineCounters(*profile, next->metrics, nvlink, job.slice(0.9, 1));
            return next;
        },
        [this, guard](Result<std::shared_ptr<TimelineCountersCache>> next) {
            if (!guard || guard != session())
                return;
            if (!next) {
                m_view->setMessage(tr("The counter rows could not be built: %1").arg(next.errorMessage()));
                return;
            }
            guard->setAttachment(kCountersAttachment, *next);
            m_view->setCounters((*next)->counters);
        });
}

void TimelinePane::showIndex(TimelineIndexPtr index, TimelineCountersPtr counters)
{
    m_view->setMessage({});
    m_find->setProfile(index ? index->profilePtr() : nullptr);
    m_view->setIndex(std::move(index));
    m_view->setCounters(std::move(counters));
    showSessionFocus(); // marked and zoomed to, now that there are rows
    Q_EMIT indexShown();
}

void TimelinePane::onEventClicked(EventRef event)
{
    if (session() && event.table == EventTable::Kernel)
        workbench()->selectKernelInstance(session(), event.row);
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
    QString text = tr("%1 – %2 (%3 shown)")
                       .arg(formatSeconds(TimeNs(vp.start() - origin), 6), formatSeconds(TimeNs(vp.end() - origin), 6),
                           formatDuration(TimeNs(vp.end() - vp.start())));
    // A selection shows its length.
    if (const auto [start, end] = m_view->selectedRange(); end > start)
        text += tr(" · selected %1").arg(formatDuration(end - start));
    m_range->setText(text);
    fitHint();
}

} // namespace nsw
