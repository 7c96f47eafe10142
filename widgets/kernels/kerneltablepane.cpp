// SPDX-License-Identifier: GPL-3.0-or-later
#include "kerneltablepane.h"

#include "core/models/durationbinsmodel.h"
#include "core/models/kernelinstancemodel.h"
#include "core/models/kernelsummarymodel.h"
#include "core/models/modelroles.h"
#include "core/models/sortfilterproxy.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "kernellanemenus.h"
#include "widgets/common/durationhistogramchart.h"
#include "widgets/common/filterbar.h"
#include "widgets/common/keycolumns.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/splittershare.h"
#include "widgets/common/tableviews.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <limits>

namespace nsw {

namespace {
/// The focus mask of a session's kernels, kept with the session so that switching profiles does not recompute it.
struct CachedFocusRows
{
    FocusRange focus;
    std::shared_ptr<const std::vector<char>> rows;
};
const QString kFocusRowsAttachment = QStringLiteral("kernels-focus-rows");

} // namespace

KernelTablePane::KernelTablePane(Workbench* workbench, QWidget* parent)
    : SessionPane(workbench, QStringLiteral("kernels"), tr("&Kernels"), parent)
    , m_filterBar(new FilterBar(this))
    , m_nameMode(new QComboBox(this))
    , m_splitByDevice(new QCheckBox(tr("Per device"), this))
    , m_lanes(new KernelLaneMenus(this))
    , m_selectionBanner(new QWidget(this))
    , m_selectionLabel(new QLabel(m_selectionBanner))
    , m_notice(new QLabel(this))
    , m_summaryLabel(new QLabel(this))
    , m_instancesLabel(new QLabel(this))
    , m_model(new KernelSummaryModel(this))
    , m_proxy(new SortFilterProxy(this))
    , m_summaryView(new QTableView(this))
    , m_instances(new KernelInstanceModel(this))
    , m_instanceView(new QTableView(this))
    , m_histogramChart(new DurationHistogramChart(this))
    , m_binsModel(new DurationBinsModel(this))
    , m_brushLabel(new QLabel(this))
    , m_indexJob(this)
    , m_focusJob(this)
{
    setUpControls();
    setUpTables();
    layOut();
    connectControls();
    connectWorkbench();
    showCurrentSession();
}

void KernelTablePane::setUpControls()
{
    m_nameMode->addItem(tr("Demangled names"), int(KernelNameMode::Demangled));
    m_nameMode->addItem(tr("Short names"), int(KernelNameMode::Short));
    m_nameMode->addItem(tr("Mangled names"), int(KernelNameMode::Mangled));
    m_nameMode->setToolTip(
        tr("Group kernels as nsys stats does: by demangled name (default), :base (short) or :mangled"));
    m_splitByDevice->setToolTip(tr("One row per kernel name and device"));

    auto* bannerLayout = new QHBoxLayout(m_selectionBanner);
    bannerLayout->setContentsMargins(6, 2, 6, 2);
    m_showAll = new QToolButton(m_selectionBanner);
    m_showAll->setText(tr("Show all kernels"));
    bannerLayout->addWidget(m_selectionLabel, 1);
    bannerLayout->addWidget(m_showAll);
    m_selectionBanner->setStyleSheet(QStringLiteral("background: #fff3cd; color: #5c4400;"));
    m_selectionBanner->hide();
    m_brushLabel->setTextFormat(Qt::RichText);
    m_brushLabel->setStyleSheet(QStringLiteral("background: #dbe8fb; color: #14407a; padding: 1px 6px;"));
    m_brushLabel->hide();
}

void KernelTablePane::setUpTables()
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(KernelSummaryModel::NameColumn);
    m_summaryView->setModel(m_proxy);
    setupTableView(m_summaryView);
    m_summaryView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_summaryView->sortByColumn(KernelSummaryModel::InitialSortColumn, Qt::DescendingOrder);
    m_summaryView->setColumnHidden(KernelSummaryModel::DeviceColumn, true);
    new KeyColumns(m_summaryView, KernelSummaryModel::NameColumn,
        { KernelSummaryModel::TimePercentColumn, KernelSummaryModel::TotalColumn, KernelSummaryModel::InstancesColumn,
            KernelSummaryModel::AvgColumn });

    m_instanceView->setModel(m_instances);
    setupTableView(m_instanceView);
    // Labels carry kernel names hundreds of characters long: they must not dictate the window's width.
    for (QLabel* label : { m_summaryLabel, m_instancesLabel, m_selectionLabel, m_notice })
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_notice->setWordWrap(true);
    m_summaryLabel->setWordWrap(true); // a sentence: in a narrow dock it was cut at the pane's edge
    m_notice->setStyleSheet(QStringLiteral("background: #e7f1ff; color: #0b3d91; padding: 2px 6px;"));
    m_notice->hide();
}

void KernelTablePane::layOut()
{
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filterBar, 1);
    bar->addWidget(m_nameMode);
    bar->addWidget(m_splitByDevice);
    bar->addWidget(m_lanes->devicesButton());
    bar->addWidget(m_lanes->processesButton());
    bar->addWidget(m_lanes->streamsButton());

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_summaryView);
    topLayout->addWidget(m_summaryLabel);
    auto* histogramMenu = new QMenu(this);
    auto* histogramExport = menuButton(tr("Histogram"), histogramMenu, this);
    histogramExport->setToolTip(tr("Export the duration histogram of the selected kernel"));
    histogramExport->setAutoRaise(true);
    histogramMenu->addAction(tr("Chart as PNG…"), this, [this]() {
        exportPlotInteractively(*m_histogramChart, exportBaseName() + QStringLiteral("-histogram"), this);
    });
    histogramMenu->addAction(tr("Bins as CSV…"), this, [this]() {
        exportModelCsvInteractively(*m_binsModel, exportBaseName() + QStringLiteral("-histogram-bins"), this);
    });
    // The histogram beside the executions, not under them: the summary keeps its height.
    auto* besideInstances = new QSplitter(Qt::Horizontal, this);
    besideInstances->addWidget(m_instanceView);
    besideInstances->addWidget(m_histogramChart);
    besideInstances->setStretchFactor(0, 1);
    besideInstances->setStretchFactor(1, 1);
    besideInstances->setSizes({ 1000, 1000 });
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(boxWithHeader(m_instancesLabel, { m_brushLabel, histogramExport }, besideInstances, this));
    // The summary is what a person reads first: three quarters of a short pane (docked under the timeline), two
    // thirds of a tall one, where the executions and their histogram get room too.
    new SplitterShare(splitter, 75, 66, 600);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_selectionBanner);
    layout->addWidget(m_notice);
    layout->addWidget(splitter, 1);
}

void KernelTablePane::connectControls()
{
    connect(m_filterBar, &FilterBar::filterChanged, this, [this](const QString& text, bool regex) {
        m_filterBar->setError(m_proxy->setFilter(text, regex));
        updateSummaryLine();
    });
    // A filter the user sets again makes the note on what a linked selection cleared obsolete.
    connect(m_filterBar->lineEdit(), &QLineEdit::textEdited, m_notice, &QWidget::hide);
    connect(m_nameMode, &QComboBox::currentIndexChanged, this, [this]() {
        m_externalSelection = {};
        m_selectionBanner->hide();
        useIndexOfCurrentMode();
    });
    connect(m_splitByDevice, &QCheckBox::toggled, this, [this](bool split) {
        m_summaryView->setColumnHidden(KernelSummaryModel::DeviceColumn, !split);
        recompute();
    });
    connect(m_lanes, &KernelLaneMenus::changed, this, [this]() {
        m_notice->hide();
        recompute();
    });
    connect(m_showAll, &QToolButton::clicked, this, [this]() { this->workbench()->clearKernelSelection(session()); });
    connect(m_summaryView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &KernelTablePane::showInstancesOfCurrentRow);
    connect(m_histogramChart, &DurationHistogramChart::binsBrushed, this, &KernelTablePane::brushBins);
    connect(m_brushLabel, &QLabel::linkActivated, this, &KernelTablePane::clearBrush);
    connect(m_instanceView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            if (current.isValid() && session())
                this->workbench()->selectKernelInstance(session(), m_instances->kernelRowAt(current.row()));
        });
}

void KernelTablePane::connectWorkbench()
{
    Workbench* wb = workbench();
    connect(wb, &Workbench::kernelSelectionChanged, this, &KernelTablePane::onKernelSelection);
    connect(wb, &Workbench::kernelNameSelected, this, [this](ProfileSession* s, const QString& name) {
        if (s == session() && !selectKernelByName(name))
            revealHiddenKernel(name, std::nullopt);
    });
    connect(wb, &Workbench::kernelInstanceSelected, this, &KernelTablePane::selectKernelInstance);
}

KernelTablePane::~KernelTablePane() = default;

QAbstractItemView* KernelTablePane::exportableView() const
{
    return m_instanceView->hasFocus() ? m_instanceView : m_summaryView;
}

void KernelTablePane::sessionChanged(ProfileSession*)
{
    m_externalSelection = {};
    m_selectionBanner->hide();
    m_notice->hide();
    updateFocusRows();
    useIndexOfCurrentMode();
}

void KernelTablePane::sessionFocusChanged()
{
    updateFocusRows();
    recompute();
}

void KernelTablePane::wholeSessionArrived()
{
    // The whole profile shares the first stage's kernel rows (the session rebound its indexes): the table, its sort,
    // filters and selection stay; only the executions gain their launching API calls.
    const auto mode = KernelNameMode(m_nameMode->currentData().toInt());
    if (auto index = session()->cachedKernelIndex(mode); index && m_index && index != m_index) {
        m_index = std::move(index);
        if (!m_listedName.isEmpty())
            showInstancesOfCurrentRow();
    }
}

void KernelTablePane::updateFocusRows()
{
    m_focusJob.cancel();
    m_focus = session() ? session()->focus() : FocusRange {};
    m_focusRows.reset();
    if (!m_focus.isActive())
        return;
    if (const auto cached = session()->attachment<CachedFocusRows>(kFocusRowsAttachment);
        cached && cached->focus == m_focus) {
        m_focusRows = cached->rows;
        return;
    }
    const ProfilePtr profile = session()->profile();
    QPointer<ProfileSession> focused = session();
    m_focusJob.run<std::shared_ptr<const std::vector<char>>>(
        [profile, focus = m_focus](const JobContext& job) {
            return orCancelled(kernelRowsOverlapping(profile->kernels, focus, job.cancelToken()));
        },
        [this, focused, focus = m_focus](Result<std::shared_ptr<const std::vector<char>>> rows) {
            if (!focused || focused != session())
                return;
            if (!rows) // failed (cancelled runs are never delivered)
                return m_summaryLabel->setText(tr("The focus could not be applied: %1").arg(rows.errorMessage()));
            focused->setAttachment(
                kFocusRowsAttachment, std::make_shared<CachedFocusRows>(CachedFocusRows { focus, *rows }));
            m_focusRows = std::move(*rows);
            recompute();
        });
}

void KernelTablePane::useIndexOfCurrentMode()
{
    const auto mode = KernelNameMode(m_nameMode->currentData().toInt());
    m_index = session() ? session()->cachedKernelIndex(mode) : nullptr;
    if (m_index || !session()) {
        m_indexJob.cancel();
        m_lanes->rebuild(m_index.get());
        recompute();
        return;
    }
    // Sorting millions of kernels by another name takes a moment: never on the GUI thread.
    m_model->clear();
    m_instances->clear();
    m_summaryLabel->setText(tr("Indexing kernels by %1…").arg(m_nameMode->currentText().toLower()));
    const ProfilePtr profile = session()->profile();
    QPointer<ProfileSession> indexed = session();
    m_indexJob.run<std::shared_ptr<const KernelIndex>>(
        [profile, mode](const JobContext& job) {
            auto index = std::make_shared<const KernelIndex>(profile, mode, job.cancelToken());
            return orCancelled(index->isComplete() ? index : nullptr);
        },
        [this, indexed](Result<std::shared_ptr<const KernelIndex>> index) {
            if (indexed && index)
                indexed->setKernelIndex(*index);
            if (!indexed || indexed != session())
                return;
            if (!index) // failed (cancelled runs are never delivered)
                return m_summaryLabel->setText(tr("The kernels could not be indexed: %1").arg(index.errorMessage()));
            m_index = std::move(*index);
            m_lanes->rebuild(m_index.get());
            recompute();
        });
}

KernelFilter KernelTablePane::currentFilter() const
{
    KernelFilter filter;
    if (!m_index)
        return filter;
    filter.lanes = m_lanes->allowedLanes(*m_index);
    if (m_externalSelection.session == session())
        filter.rows = m_externalSelection.filter.rows;
    filter.focusRows = m_focusRows;
    return filter;
}

void KernelTablePane::recompute()
{
    const QString selectedName = m_summaryView->currentIndex().data(KernelNameRole).toString();
    if (!m_index) {
        m_model->clear();
        m_instances->clear();
        m_summaryLabel->setText(tr("No profile open."));
        m_instancesLabel->clear();
        m_histogramChart->clearHistogram(QString());
        return;
    }
    if (m_focusJob.isBusy()) {
        m_model->clear();
        m_instances->clear();
        m_summaryLabel->setText(tr("Finding the kernels in the focus (%1)…").arg(m_focus.label));
        m_instancesLabel->clear();
        m_histogramChart->clearHistogram(QString());
        return;
    }
    const bool split = m_splitByDevice->isChecked();
    m_model->setResults(m_index, summarizeKernels(*m_index, currentFilter(), split));
    updateSummaryLine();
    if (!selectedName.isEmpty())
        selectKernelByName(selectedName);
    showInstancesOfCurrentRow();
}

void KernelTablePane::updateSummaryLine()
{
    if (!m_index)
        return;
    const Profile& p = *m_index->profile();
    if (p.kernels.size() == 0) {
        m_summaryLabel->setText(p.meta.warnings.isEmpty() ? tr("No CUDA kernels in this profile.")
                                                          : p.meta.warnings.join(QStringLiteral("; ")));
        return;
    }
    // The totals of the rows the table shows: the name filter works on the view, the other filters on the model.
    qint64 instances = 0, time = 0;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        if (const KernelGroupStats* g = m_model->statsAt(m_proxy->mapToSource(m_proxy->index(r, 0)).row())) {
            instances += g->stats.count;
            time += g->stats.total;
        }
    const bool filtered = m_proxy->rowCount() != m_model->rowCount() || !currentFilter().isEmpty();
    const int names = m_proxy->rowCount();
    const QString namesText = names == 1 ? tr("1 name") : tr("%1 names").arg(withThousandsSeparators(qint64(names)));
    QString text;
    const QString shown = countOf(instances, tr("kernel execution"), tr("kernel executions"));
    const qint64 all = qint64(p.kernels.size());
    const QString allText = countOf(all, tr("execution"), tr("executions"));
    if (m_focus.isActive())
        text = tr("Focus %1: %2 %3 it, %4, %5 summed kernel time (whole durations; of %6 in the profile)")
                   .arg(m_focus.label, shown, instances == 1 ? tr("overlaps") : tr("overlap"), namesText,
                       formatDuration(time), allText);
    else
        text = (filtered ? tr("Shown: %1, %2, %3 summed kernel time (the profile has %4)")
                         : tr("%1, %2, %3 summed kernel time (of %4 in the profile)"))
                   .arg(shown, namesText, formatDuration(time), filtered ? allText : withThousandsSeparators(all));
    m_summaryLabel->setText(text);
}

bool KernelTablePane::revealHiddenKernel(const QString& name, std::optional<quint32> kernelRow)
{
    if (!m_index || !session())
        return false;
    // Widen one filter at a time, each only when it hides the kernel (the execution, when one is given), so that
    // what still applies stays.
    QStringList cleared;
    if (m_externalSelection.session == session() && m_externalSelection.filter.rows) {
        const std::vector<char>& rows = *m_externalSelection.filter.rows;
        const bool hidden = kernelRow ? (*kernelRow >= rows.size() || !rows[*kernelRow]) : !selectKernelByName(name);
        if (hidden) {
            cleared << tr("the selection “%1”").arg(m_externalSelection.label);
            workbench()->clearKernelSelection(session()); // the other panes drop it too; recomputes here
        }
    }
    const KernelFilter filter = currentFilter();
    if (!filter.lanes.empty() && (kernelRow || !selectKernelByName(name))) {
        const auto& lanes = m_index->lanes();
        bool widened = false;
        for (std::uint32_t l = 0; l < lanes.size(); ++l) {
            if (filter.allowsLane(l) || (kernelRow && l != m_index->laneOf(*kernelRow)))
                continue;
            widened = m_lanes->allowLane(*m_index, l) || widened;
        }
        if (widened) {
            cleared << tr("the device, process or stream filter");
            recompute();
        }
    }
    if (!selectKernelByName(name) && !m_filterBar->text().isEmpty()) {
        cleared << tr("the name filter “%1”").arg(m_filterBar->text());
        m_filterBar->lineEdit()->clear();
        m_filterBar->setError(m_proxy->setFilter(QString(), m_filterBar->isRegex()));
        updateSummaryLine();
    }
    const bool shown = selectKernelByName(name);
    const QString shortName = name.size() > 80 ? name.left(77) + QStringLiteral("…") : name;
    if (!cleared.isEmpty() || !shown) {
        m_notice->setText(shown
                ? tr("%1, selected in another pane, was hidden by %2: cleared to show it.")
                      .arg(shortName, cleared.join(tr(" and ")))
                : tr("%1, selected in another pane, is not in this table (%2).")
                      .arg(shortName,
                          cleared.isEmpty() ? tr("no kernel of that name with the current name mode")
                                            : tr("even after clearing %1").arg(cleared.join(tr(" and ")))));
        m_notice->show();
    }
    return shown;
}

bool KernelTablePane::selectKernelByName(const QString& name)
{
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QModelIndex i = m_proxy->index(r, KernelSummaryModel::NameColumn);
        if (i.data(KernelNameRole).toString() == name) {
            m_summaryView->setCurrentIndex(i);
            m_summaryView->scrollTo(i);
            return true;
        }
    }
    return false;
}

void KernelTablePane::selectKernelInstance(ProfileSession* target, quint32 kernelRow)
{
    if (target != session() || !m_index || kernelRow >= m_index->profile()->kernels.size())
        return;
    const QModelIndex current = m_instanceView->currentIndex();
    if (current.isValid() && m_instances->kernelRowAt(current.row()) == kernelRow)
        return; // announced by this table itself
    const QString& name = m_index->profile()->strings.at(m_index->nameOf(kernelRow));
    if (selectKernelByName(name) && selectListedInstance(kernelRow))
        return;
    // Its name or the execution itself is filtered out: never do nothing.
    if (revealHiddenKernel(name, kernelRow))
        selectListedInstance(kernelRow);
}

bool KernelTablePane::selectListedInstance(quint32 kernelRow)
{
    // An execution outside the brushed durations is still this kernel's: drop the brush rather than miss it.
    const KernelTable& kernels = m_index->profile()->kernels;
    if (const auto& brushed = m_instances->durationFilter();
        brushed && !brushed->contains(kernels.end[kernelRow] - kernels.start[kernelRow])) {
        const auto& all = m_instances->allKernelRows();
        if (std::find(all.begin(), all.end(), kernelRow) != all.end())
            clearBrush();
    }
    const int r = m_instances->showRowOfKernel(kernelRow);
    if (r < 0)
        return false;
    const QModelIndex i = m_instances->index(r, KernelInstanceModel::StartColumn);
    m_instanceView->setCurrentIndex(i);
    m_instanceView->scrollTo(i);
    return true;
}

void KernelTablePane::showInstancesOfCurrentRow()
{
    const QModelIndex current = m_proxy->mapToSource(m_summaryView->currentIndex());
    const KernelGroupStats* stats = m_model->statsAt(current.row());
    if (!stats || !m_index) {
        m_instances->clear();
        m_brush.reset();
        m_brushLabel->hide();
        m_listedName.clear();
        m_instancesLabel->setText(tr("Select a kernel to list its executions."));
        m_histogramChart->clearHistogram(tr("No kernel selected"));
        m_binsModel->setHistogram({});
        return;
    }
    std::vector<std::uint32_t> rows = kernelInstances(*m_index, stats->group, currentFilter(), stats->device);
    showHistogram(*stats, rows);
    m_listedName = m_model->nameAt(current.row());
    m_instances->setInstances(m_index->profile(), std::move(rows));
    m_instanceView->sortByColumn(KernelInstanceModel::StartColumn, Qt::AscendingOrder);
    if (m_brush)
        m_instances->setDurationFilter(m_brush->range);
    m_instanceView->resizeColumnsToContents(); // measures the visible rows only
    updateInstancesLabel();
}

void KernelTablePane::showHistogram(const KernelGroupStats& stats, const std::vector<std::uint32_t>& rowsByDuration)
{
    // kernelInstances() lists by ascending duration: no sort needed. When it kept every execution of the name, they
    // are the index's own run of sorted durations (a million executions: no pass through the kernel table).
    const auto& groups = m_index->groups();
    const KernelIndex::Group* group
        = stats.group >= 0 && std::size_t(stats.group) < groups.size() ? &groups[std::size_t(stats.group)] : nullptr;
    const bool wholeGroup = group && rowsByDuration.size() == group->end - group->begin;
    DurationHistogram histogram;
    if (wholeGroup) {
        histogram = m_index->withSortedDurations([&](const auto* durations) {
            return durationHistogramSorted(durations + group->begin, rowsByDuration.size());
        });
    } else {
        const KernelTable& kernels = m_index->profile()->kernels;
        std::vector<qint64> durations;
        durations.reserve(rowsByDuration.size());
        for (const std::uint32_t k : rowsByDuration)
            durations.push_back(kernels.end[k] - kernels.start[k]);
        histogram = durationHistogramSorted(durations.data(), durations.size());
    }
    QString title = countOf(histogram.count, tr("execution"), tr("executions"));
    if (histogram.isMultimodal())
        title += QStringLiteral(" · ") + KernelSummaryModel::modesText(histogram.modes);
    m_histogramChart->setHistogram(histogram, title);
    m_binsModel->setHistogram(histogram);
    if (m_brush && (m_brush->group != stats.group || m_brush->device != stats.device))
        m_brush.reset();
    if (!m_brush) {
        m_brushLabel->hide();
        return;
    }
    // The same edges for every kernel: the brushed range maps back onto whole bins.
    int first = -1, last = -1;
    for (int i = 0; i < int(histogram.bins.size()); ++i) {
        const HistogramBin& b = histogram.bins[std::size_t(i)];
        if (b.upper >= m_brush->range.min && b.lower <= m_brush->range.max) {
            first = first < 0 ? i : first;
            last = i;
        }
    }
    m_histogramChart->setBrushedBins(first >= 0 ? std::optional(std::make_pair(first, last)) : std::nullopt);
}

void KernelTablePane::brushBins(int firstBin, int lastBin)
{
    const QModelIndex current = m_proxy->mapToSource(m_summaryView->currentIndex());
    const KernelGroupStats* stats = m_model->statsAt(current.row());
    const std::vector<HistogramBin>& bins = m_histogramChart->histogram().bins;
    if (!stats || firstBin < 0 || lastBin < firstBin || lastBin >= int(bins.size()))
        return;
    // The zero bin also holds the (invalid) negative durations.
    const qint64 lower = bins[std::size_t(firstBin)].lower;
    const KernelInstanceModel::DurationRange range { lower == 0 ? std::numeric_limits<qint64>::min() : lower,
        bins[std::size_t(lastBin)].upper };
    m_brush = Brush { stats->group, stats->device, range };
    m_histogramChart->setBrushedBins(std::make_pair(firstBin, lastBin));
    m_instances->setDurationFilter(range);
    updateInstancesLabel();
}

void KernelTablePane::clearBrush()
{
    m_brush.reset();
    m_histogramChart->setBrushedBins(std::nullopt);
    m_instances->setDurationFilter(std::nullopt);
    updateInstancesLabel();
}

void KernelTablePane::updateInstancesLabel()
{
    const qint64 all = qint64(m_instances->allKernelRows().size());
    if (!m_brush) {
        m_brushLabel->hide();
        m_instancesLabel->setText(tr("%1 of %2").arg(countOf(all, tr("execution"), tr("executions")), m_listedName));
        return;
    }
    const KernelInstanceModel::DurationRange& r = m_brush->range;
    m_brushLabel->setText(tr("Durations %1 – %2 (<a href=\"clear\">clear</a>)")
                              .arg(formatDuration(std::max<qint64>(r.min, 0)), formatDuration(r.max)));
    m_brushLabel->show();
    m_instancesLabel->setText(tr("%1 of %2 of %3")
                                  .arg(withThousandsSeparators(qint64(m_instances->listedCount())),
                                      countOf(all, tr("execution"), tr("executions")), m_listedName));
}

void KernelTablePane::onKernelSelection(const KernelSelection& selection)
{
    if (selection.session != session())
        return;
    m_externalSelection = selection;
    const bool active = bool(selection.filter.rows);
    if (active)
        m_notice->hide();
    m_selectionBanner->setVisible(active);
    m_selectionLabel->setText(tr("Showing only: %1").arg(selection.label));
    recompute();
}

void KernelTablePane::setNameMode(KernelNameMode mode)
{
    m_nameMode->setCurrentIndex(m_nameMode->findData(int(mode)));
}

void KernelTablePane::setSplitByDevice(bool split)
{
    m_splitByDevice->setChecked(split);
}

void KernelTablePane::setDeviceAllowed(int device, bool allowed)
{
    m_lanes->setDeviceAllowed(device, allowed);
    recompute();
}

} // namespace nsw
