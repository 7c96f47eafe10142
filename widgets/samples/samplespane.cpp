// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/samples/samplespane.h"

#include "core/models/modelroles.h"
#include "core/models/samplemodels.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/workbench.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "widgets/common/filterbar.h"
#include "widgets/common/keycolumns.h"
#include "widgets/common/tableviews.h"
#include "widgets/samples/flamegraphview.h"
#include "widgets/samples/threadstateview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace nsw {

namespace {

constexpr int kAllGpus = -1;
constexpr int kNotIdle = -2;

/// The span the thread-state bins cover: the selection, else the focus, else the selected samples' first to last.
std::pair<TimeNs, TimeNs> stateSpan(const SamplesRequest& request, const SamplesResult& r)
{
    if (request.selection.isActive())
        return { request.selection.start, request.selection.end };
    if (request.focus.isActive())
        return { request.focus.start, request.focus.end };
    TimeNs lo = std::numeric_limits<TimeNs>::max(), hi = std::numeric_limits<TimeNs>::min();
    for (const std::uint32_t row : r.rows) {
        lo = std::min(lo, r.profile->cpuSamples.time[row]);
        hi = std::max(hi, r.profile->cpuSamples.time[row]);
    }
    return lo <= hi ? std::pair(lo, hi + 1) : std::pair(TimeNs(0), TimeNs(1));
}

} // namespace

Result<std::shared_ptr<const SamplesView>> buildSamplesView(
    const SamplesRequest& request, int bins, const JobContext& job)
{
    Result<SamplesResult> counted = computeSamples(request, job);
    if (!counted)
        return counted.failureAs<std::shared_ptr<const SamplesView>>();
    auto view = std::make_shared<SamplesView>();
    view->result = std::move(*counted);
    const SamplesResult& r = view->result;
    view->topDown = std::make_shared<const std::vector<SampleTreeRow>>(topDownRows(*r.profile, *r.tree, r.counts));
    if (r.bottomUp)
        view->bottomUp = bottomUpRows(*r.profile, *r.bottomUp);
    const auto [start, end] = stateSpan(request, r);
    view->states = threadStateBins(*r.profile, r.rows, start, end, bins);
    if (job.isCancelled())
        return Result<std::shared_ptr<const SamplesView>>::cancelled();
    return Result<std::shared_ptr<const SamplesView>>(std::shared_ptr<const SamplesView>(std::move(view)));
}

SamplesPane::SamplesPane(Workbench* workbench, QWidget* parent)
    : SessionPane(workbench, QStringLiteral("samples"), tr("CPU Sam&ples"), parent)
    , m_scope(new QComboBox(this))
    , m_during(new QComboBox(this))
    , m_search(new FilterBar(this))
    , m_clearSelection(new QToolButton(this))
    , m_export(new QToolButton(this))
    , m_status(new QLabel(this))
    , m_placeholder(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_tabs(new QTabWidget(this))
    , m_flatModel(new SampleFlatModel(this))
    , m_flatProxy(new SortFilterProxy(this))
    , m_flatView(new QTableView(this))
    , m_topDownModel(new SampleTreeModel(this))
    , m_topDownProxy(new SortFilterProxy(this))
    , m_topDownView(new QTreeView(this))
    , m_bottomUpModel(new SampleTreeModel(this))
    , m_bottomUpProxy(new SortFilterProxy(this))
    , m_bottomUpView(new QTreeView(this))
    , m_flameArea(new QScrollArea(this))
    , m_flame(new FlameGraphView(this))
    , m_statesArea(new QScrollArea(this))
    , m_states(new ThreadStateView(this))
    , m_job(this)
    , m_gpuKeysJob(this)
{
    setUpControls();
    setUpViews();
    layOut();
    connectSignals(workbench);
    showCurrentSession();
}

SamplesPane::~SamplesPane() = default;

void SamplesPane::setUpControls()
{
    m_scope->setToolTip(tr("Whose samples: every thread's, one process's or one thread's"));
    m_scope->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_scope->setMinimumContentsLength(18);
    m_during->setToolTip(tr("Only the samples of the threads that launch a GPU's work, taken while that GPU was "
                            "idle (its idle gaps)"));
    m_during->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_during->setMinimumContentsLength(14);
    m_search->setPlaceholder(tr("Search functions"));
    m_clearSelection->setText(tr("Show the whole focus"));
    m_clearSelection->setToolTip(tr("Forget the timeline range or idle gap the samples are limited to"));
    m_clearSelection->hide();
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setMargin(12);
    auto* exportMenu = new QMenu(this);
    m_export->setText(tr("Export"));
    m_export->setMenu(exportMenu);
    m_export->setPopupMode(QToolButton::InstantPopup);
    connect(exportMenu->addAction(tr("Functions as CSV…")), &QAction::triggered, this,
        [this] { exportModelCsvInteractively(*m_flatModel, exportBaseName() + QStringLiteral("-functions"), this); });
}

void SamplesPane::setUpViews()
{
    setupTableView(m_flatView);
    m_flatProxy->setSourceModel(m_flatModel);
    m_flatProxy->setSortRole(SortRole);
    m_flatView->setModel(m_flatProxy);
    m_flatView->sortByColumn(SampleSelfColumn, Qt::DescendingOrder);
    // The function first, then the counts, sized to their numbers; the function gets the rest (elided in the middle,
    // whole in its tooltip), the module comes last. In the docked pane at 1366x768 the module took the function's room.
    new KeyColumns(m_flatView, SampleFunctionColumn,
        { SampleSelfColumn, SampleTotalColumn, SampleSelfPercentColumn, SampleTotalPercentColumn });
    for (auto [model, proxy, view] : { std::tuple(m_topDownModel, m_topDownProxy, m_topDownView),
             std::tuple(m_bottomUpModel, m_bottomUpProxy, m_bottomUpView) }) {
        setupTreeView(view);
        proxy->setSourceModel(model);
        proxy->setSortRole(SortRole);
        view->setModel(proxy);
        view->sortByColumn(SampleTotalColumn, Qt::DescendingOrder);
        view->header()->setSectionResizeMode(SampleFunctionColumn, QHeaderView::Interactive);
        view->header()->resizeSection(SampleFunctionColumn, 380);
        view->setTextElideMode(Qt::ElideMiddle);
    }
    m_flameArea->setWidget(m_flame);
    m_flameArea->setWidgetResizable(true);
    m_statesArea->setWidget(m_states);
    m_statesArea->setWidgetResizable(true);
    m_tabs->addTab(m_flatView, tr("Functions"));
    m_tabs->addTab(m_topDownView, tr("Top-down"));
    m_tabs->addTab(m_bottomUpView, tr("Bottom-up"));
    m_tabs->addTab(m_flameArea, tr("Flame graph"));
    m_tabs->addTab(m_statesArea, tr("Thread states"));
    m_stack->addWidget(m_tabs);
    m_stack->addWidget(m_placeholder);
}

void SamplesPane::layOut()
{
    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(m_scope);
    controls->addWidget(m_during);
    controls->addWidget(m_search, 1);
    controls->addWidget(m_export);
    auto* status = new QHBoxLayout;
    status->setContentsMargins(0, 0, 0, 0);
    status->addWidget(m_status, 1);
    status->addWidget(m_clearSelection);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addLayout(controls);
    layout->addLayout(status);
    layout->addWidget(m_stack, 1);
}

void SamplesPane::connectSignals(Workbench* workbench)
{
    const auto select = [this](ProfileSession* s, qint64 start, qint64 end) {
        if (s == session() && end > start)
            setSelection(FocusRange { start, end, tr("%1 selected").arg(formatDuration(end - start)) });
    };
    connect(workbench, &Workbench::timeRangeSelected, this, select);
    connect(workbench, &Workbench::timeRangePicked, this, select);
    // An NVTX range picked in the tree: the samples of the instance the timeline shows.
    connect(workbench, &Workbench::nvtxEventSelected, this, [this](ProfileSession* s, quint32 row) {
        if (!s || s != session() || !s->profile())
            return;
        const Profile& profile = *s->profile();
        const NvtxTable& nvtx = profile.nvtx;
        if (row >= nvtx.size() || nvtx.end[row] == kNoTime || nvtx.end[row] <= nvtx.start[row])
            return;
        setSelection(FocusRange { nvtx.start[row], nvtx.end[row],
            tr("NVTX range %1 (%2)")
                .arg(profile.strings.at(nvtx.name[row]), formatDuration(nvtx.end[row] - nvtx.start[row])) });
    });
    connect(m_clearSelection, &QToolButton::clicked, this, [this] { setSelection({}); });
    connect(m_scope, &QComboBox::activated, this, [this] { refreshWhenShown(); });
    connect(m_during, &QComboBox::activated, this, [this] { refreshWhenShown(); });
    connect(m_search, &FilterBar::filterChanged, this, &SamplesPane::onSearch);
    connect(m_flame, &FlameGraphView::functionClicked, this, [this](int f) { selectFunction(f); });
    connect(m_flatView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            if (current.isValid())
                selectFunction(current.data(SampleFunctionRole).toInt());
        });
    for (QTreeView* view : { m_topDownView, m_bottomUpView })
        connect(
            view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
                if (current.isValid())
                    selectFunction(current.data(SampleFunctionRole).toInt());
            });
}

QAbstractItemView* SamplesPane::exportableView() const
{
    return m_flatView;
}

void SamplesPane::setSelection(const FocusRange& selection)
{
    m_selection = selection;
    refreshWhenShown();
}

void SamplesPane::sessionChanged(ProfileSession*)
{
    m_selection = {};
    fillSelectors();
    refreshWhenShown();
}

void SamplesPane::wholeSessionArrived()
{
    fillSelectors();
    refreshWhenShown();
}

void SamplesPane::fillSelectors()
{
    const QVariant scope = m_scope->currentData(), during = m_during->currentData();
    m_scope->clear();
    m_during->clear();
    m_scope->addItem(tr("All threads"), QStringList { QStringLiteral("all") });
    m_during->addItem(tr("Whole focus"), kNotIdle);
    m_gpuKeysJob.cancel();
    if (!session() || !session()->isComplete() || !missingSamplesReason(*session()->profile()).isEmpty())
        return;
    const Profile& p = *session()->profile();
    std::map<ThreadIndex, qint64> perThread;
    for (std::size_t i = 0; i < p.cpuSamples.size(); ++i)
        ++perThread[p.cpuSamples.thread[i]];
    std::map<ProcessIndex, qint64> perProcess;
    for (const auto& [thread, n] : perThread)
        perProcess[p.processOfThread(thread)] += n;
    for (const auto& [process, n] : perProcess)
        if (process >= 0)
            m_scope->addItem(tr("Process %1 · %2").arg(p.processLabel(process), withThousandsSeparators(n)),
                QStringList { QStringLiteral("process"), QString::number(process) });
    for (const auto& [thread, n] : perThread)
        if (thread >= 0)
            m_scope->addItem(tr("Thread %1 · %2").arg(p.threadLabel(thread), withThousandsSeparators(n)),
                QStringList { QStringLiteral("thread"), QString::number(thread) });
    m_scope->setCurrentIndex(std::max(0, m_scope->findData(scope)));
    if (p.kernels.size() + p.memops.size() == 0)
        return;
    m_during->addItem(tr("While every GPU is idle"), kAllGpus);
    m_during->setCurrentIndex(std::max(0, m_during->findData(during)));
    // Which GPUs there are is an analysis of every kernel: it runs off the GUI thread, and the choices follow.
    m_gpuKeysJob.run<std::vector<int>>(
        [profile = session()->profile()](
            const JobContext& job) { return Result<std::vector<int>>(sampleGpuKeys(profile, job.cancelToken())); },
        [this, during](Result<std::vector<int>> keys) {
            if (!keys)
                return;
            for (const int gpu : *keys)
                m_during->addItem(tr("While GPU %1 is idle").arg(gpu), gpu);
            if (m_during->currentIndex() <= 0)
                m_during->setCurrentIndex(std::max(0, m_during->findData(during)));
        });
}

SamplesRequest SamplesPane::currentRequest() const
{
    SamplesRequest r;
    r.profile = session()->profile();
    r.focus = session()->focus();
    r.selection = m_selection;
    r.bottomUp = true;
    const QStringList scope = m_scope->currentData().toStringList();
    if (scope.value(0) == QLatin1String("process"))
        r.scope = { SampleScope::Kind::Process, scope.value(1).toInt() };
    else if (scope.value(0) == QLatin1String("thread"))
        r.scope = { SampleScope::Kind::Thread, scope.value(1).toInt() };
    const int during = m_during->currentData().toInt();
    r.duringGpuIdle = during != kNotIdle && m_during->currentIndex() > 0;
    r.gpu = during >= 0 ? during : -1;
    return r;
}

void SamplesPane::refresh()
{
    m_job.cancel();
    m_clearSelection->setVisible(m_selection.isActive());
    if (!session()) {
        showView(nullptr);
        showMessage(tr("No profile open."));
        return;
    }
    if (waitForWholeProfile(session())) {
        showView(nullptr);
        return;
    }
    if (const QString missing = missingSamplesReason(*session()->profile()); !missing.isEmpty()) {
        showView(nullptr);
        showMessage(missing);
        return;
    }
    m_status->setText(tr("Counting samples…"));
    m_job.run<std::shared_ptr<const SamplesView>>(
        [request = currentRequest(), bins = m_states->wantedBins()](
            const JobContext& job) { return buildSamplesView(request, bins, job); },
        [this](Result<std::shared_ptr<const SamplesView>> view) {
            if (!view) {
                showView(nullptr);
                showMessage(view.errorMessage());
                return;
            }
            showView(std::move(*view));
        });
}

void SamplesPane::showMessage(const QString& text)
{
    m_placeholder->setText(text);
    m_status->setText(text);
    m_stack->setCurrentWidget(m_placeholder);
    Q_EMIT viewsShown();
}

void SamplesPane::showView(std::shared_ptr<const SamplesView> view)
{
    m_view = std::move(view);
    const SamplesResult* r = m_view ? &m_view->result : nullptr;
    const ProfilePtr profile = r ? r->profile : nullptr;
    m_flatModel->setFunctions(profile, r ? r->functions : std::vector<FunctionCount> {}, r ? r->counts.samples : 0);
    m_topDownModel->setRows(
        profile, m_view ? *m_view->topDown : std::vector<SampleTreeRow> {}, r ? r->counts.samples : 0);
    m_bottomUpModel->setRows(
        profile, m_view ? m_view->bottomUp : std::vector<SampleTreeRow> {}, r ? r->counts.samples : 0);
    m_flame->setRows(profile, m_view ? m_view->topDown : nullptr, r ? r->counts.samples : 0);
    m_states->setBins(profile, m_view ? m_view->states : ThreadStateBins {});
    if (!m_view)
        return;
    m_stack->setCurrentWidget(m_tabs);
    updateStatus();
    Q_EMIT viewsShown();
}

void SamplesPane::updateStatus()
{
    if (!m_view)
        return;
    const SamplesResult& r = m_view->result;
    QStringList parts { tr("%1 of %2 samples: %3")
                            .arg(withThousandsSeparators(r.counts.samples),
                                withThousandsSeparators(qint64(r.profile->cpuSamples.size())), r.description) };
    if (session() && session()->focus().isActive())
        parts << tr("focus: %1").arg(session()->focus().label);
    if (m_selection.isActive())
        parts << tr("selection: %1").arg(m_selection.label);
    if (!m_search->text().isEmpty())
        parts << tr("%1 samples have a frame matching the search")
                     .arg(withThousandsSeparators(m_flame->matchingSamples()));
    m_status->setText(parts.join(QStringLiteral(" · ")));
    m_status->setToolTip(m_status->text());
}

void SamplesPane::onSearch(const QString& text, bool regex)
{
    for (SortFilterProxy* proxy : { m_flatProxy, m_topDownProxy, m_bottomUpProxy })
        m_search->setError(proxy->setFilter(text, regex));
    m_flame->setSearch(regex ? QString() : text);
    updateStatus();
}

void SamplesPane::selectFunction(std::int32_t function)
{
    if (!m_view || !session())
        return;
    const SamplesResult& r = m_view->result;
    workbench()->selectSampleMarks(
        session(), std::make_shared<const SampleMarks>(sampleMarks(*r.profile, *r.tree, r.rows, function)));
}

} // namespace nsw
