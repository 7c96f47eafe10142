// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxpane.h"

#include "core/models/durationbinsmodel.h"
#include "core/models/kernelsummarymodel.h"
#include "core/models/nvtxflatmodel.h"
#include "core/models/nvtxtreemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/nvtx/nvtxexport.h"
#include "core/session/workbench.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "widgets/common/durationhistogramchart.h"
#include "widgets/common/filedialogs.h"
#include "widgets/common/filterbar.h"
#include "widgets/common/keycolumns.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/tableviews.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace nsw {

namespace {

const QString kThresholdKey = QStringLiteral("nvtx/coverageWarningPercent");
const QString kAttachment = QStringLiteral("nvtx-tree");
const QString kGroupingKey = QStringLiteral("nvtx/grouping");
const QString kNormalizeKey = QStringLiteral("nvtx/normalizeNames");

/// Paints the rows that contain the kernel selected in another pane.
class HighlightDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.data(NvtxTreeModel::HighlightRole).toBool()) {
            option->backgroundBrush = QColor(255, 224, 130);
            option->font.setBold(true);
        }
    }
};

/// The last tree built for a profile, kept with the profile so that switching back does not rebuild it.
struct CachedTree
{
    NvtxTreeOptions options;
    FocusRange focus;
    std::shared_ptr<const NvtxTree> tree;
};

bool sameOptions(const NvtxTreeOptions& a, const NvtxTreeOptions& b)
{
    return a.grouping == b.grouping && a.normalizeNames == b.normalizeNames;
}

} // namespace

NvtxPane::NvtxPane(Workbench* workbench, QWidget* parent)
    : SessionPane(workbench, QStringLiteral("nvtx"), tr("&NVTX"), parent)
    , m_filter(new FilterBar(this))
    , m_grouping(new QComboBox(this))
    , m_normalize(new QCheckBox(tr("Normalize numbers"), this))
    , m_export(new QToolButton(this))
    , m_coverage(new QLabel(this))
    , m_threshold(new QSpinBox(this))
    , m_message(new QLabel(this))
    , m_model(new NvtxTreeModel(this))
    , m_proxy(new SortFilterProxy(this))
    , m_view(new QTreeView(this))
    , m_flat(new NvtxFlatModel(this))
    , m_flatView(new QTableView(this))
    , m_histogram(new DurationHistogramChart(this))
    , m_bins(new DurationBinsModel(this))
    , m_job(this)
{
    setUpControls();
    setUpExportMenu();
    setUpViews();
    layOut();
    connectSignals(workbench);
    showCurrentSession();
}

void NvtxPane::setUpControls()
{
    // Long coverage and status lines wrap instead of widening the dock.
    m_coverage->setWordWrap(true);
    m_coverage->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_message->setWordWrap(true);
    m_message->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_grouping->addItem(tr("Per thread"), int(NvtxGrouping::ByThread));
    m_grouping->addItem(tr("Per process (threads merged)"), int(NvtxGrouping::ByProcess));
    m_grouping->addItem(tr("All threads merged"), int(NvtxGrouping::Merged));
    m_grouping->setToolTip(tr("Where the range trees are rooted"));
    m_normalize->setToolTip(tr("Aggregate ranges whose names differ only by numbers: \"op_id = 998949\" and "
                               "\"op_id = 998950\" become \"op_id = #\", \"layer_12\" becomes \"layer_#\""));
    m_filter->setPlaceholder(tr("Filter ranges and kernels (keeps their parents)"));
    const QSettings settings;
    m_grouping->setCurrentIndex(std::max(0, m_grouping->findData(settings.value(kGroupingKey, 0).toInt())));
    m_normalize->setChecked(settings.value(kNormalizeKey, false).toBool());

    m_threshold->setRange(0, 100);
    m_threshold->setSuffix(QStringLiteral(" %"));
    m_threshold->setPrefix(tr("warn below "));
    m_threshold->setToolTip(tr("Warn when less of the kernel time than this is inside NVTX ranges"));
    m_threshold->setValue(settings.value(kThresholdKey, 70).toInt());
    m_coverage->setTextFormat(Qt::RichText);
    m_coverage->setMargin(3);
    m_message->hide();
}

void NvtxPane::setUpExportMenu()
{
    auto* exportMenu = new QMenu(this);
    m_export->setText(tr("Export"));
    m_export->setMenu(exportMenu);
    m_export->setPopupMode(QToolButton::InstantPopup);
    connect(exportMenu->addAction(tr("Tree as CSV (flattened, with depth and path)…")), &QAction::triggered, this,
        [this]() { exportViewCsvInteractively(m_flatView, exportBaseName(), this); });
    connect(exportMenu->addAction(tr("Tree as Markdown…")), &QAction::triggered, this, [this]() {
        const QString file = askSaveFileName(this, tr("Export NVTX tree as Markdown"),
            exportBaseName() + QStringLiteral(".md"), tr("Markdown files (*.md)"));
        if (file.isEmpty())
            return;
        if (const QString error = exportMarkdown(file); !error.isEmpty())
            QMessageBox::warning(this, tr("Export NVTX tree"), error);
    });
    exportMenu->addAction(tr("Duration histogram as PNG…"), this,
        [this]() { exportPlotInteractively(*m_histogram, exportBaseName() + QStringLiteral("-histogram"), this); });
    exportMenu->addAction(tr("Duration histogram bins as CSV…"), this,
        [this]() { exportModelCsvInteractively(*m_bins, exportBaseName() + QStringLiteral("-histogram-bins"), this); });
}

void NvtxPane::setUpViews()
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(NvtxTreeModel::RangeColumn);
    m_view->setModel(m_proxy);
    setupTreeView(m_view);
    m_view->setItemDelegate(new HighlightDelegate(m_view));
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->sortByColumn(NvtxTreeModel::GpuColumn, Qt::DescendingOrder);
    // In a narrow dock the six numbers are wider than the pane: the names keep a readable width, then the GPU and
    // CPU times and the count stay in sight as far as they fit (at 1366x768 the count is scrolled to). Two characters
    // a level, not the style's 20 px: ranges sit two levels in, and their names need the width.
    m_view->setIndentation(2 * m_view->fontMetrics().averageCharWidth());
    m_keyColumns = new KeyColumns(m_view, NvtxTreeModel::RangeColumn,
        { NvtxTreeModel::GpuColumn, NvtxTreeModel::CpuColumn, NvtxTreeModel::InstancesColumn });
    m_flatView->setModel(m_flat);
    m_flatView->hide();
}

void NvtxPane::layOut()
{
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_grouping);
    bar->addWidget(m_normalize);
    bar->addWidget(m_export);
    auto* coverageBar = new QHBoxLayout;
    coverageBar->addWidget(m_coverage, 1);
    coverageBar->addWidget(m_threshold);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addLayout(coverageBar);
    layout->addWidget(m_message);
    // The selected range's durations under the tree, small: the tree is what the pane is for.
    m_histogram->setBrushingEnabled(false);
    m_histogram->clearHistogram(tr("No range selected"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_histogram);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({ 4000, 1000 });
    layout->addWidget(split, 1);
}

void NvtxPane::connectSignals(Workbench* workbench)
{
    connect(m_filter, &FilterBar::filterChanged, this,
        [this](const QString& text, bool regex) { m_filter->setError(m_proxy->setFilter(text, regex)); });
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this]() {
        QSettings().setValue(kGroupingKey, m_grouping->currentData().toInt());
        rebuild();
    });
    connect(m_normalize, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(kNormalizeKey, on);
        rebuild();
    });
    connect(m_threshold, &QSpinBox::valueChanged, this, [this](int value) {
        QSettings().setValue(kThresholdKey, value);
        updateCoverage();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &NvtxPane::onCurrentNodeChanged);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu* menu = contextMenuFor(m_view->indexAt(pos));
        if (!menu)
            return;
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
    connect(workbench, &Workbench::kernelInstanceSelected, this, [this](ProfileSession* s, quint32 row) {
        if (s == session() && m_tree)
            highlight(nvtxNodesContainingKernel(*m_tree, row));
    });
    connect(workbench, &Workbench::kernelNameSelected, this, [this](ProfileSession* s, const QString& name) {
        if (s == session() && m_tree)
            highlight(nvtxNodesWithKernelName(*m_tree, name));
    });
}

NvtxPane::~NvtxPane() = default;

QAbstractItemView* NvtxPane::exportableView() const
{
    return m_flatView;
}

NvtxTreeOptions NvtxPane::currentOptions() const
{
    NvtxTreeOptions options;
    options.grouping = NvtxGrouping(m_grouping->currentData().toInt());
    options.normalizeNames = m_normalize->isChecked();
    return options;
}

void NvtxPane::rebuild()
{
    m_job.cancel(); // an older build still running is of no use any more
    if (!session()) {
        showTree(nullptr);
        m_message->setText(tr("No profile open."));
        m_message->show();
        Q_EMIT treeShown();
        return;
    }
    if (waitForWholeProfile(session())) {
        showTree(nullptr);
        m_message->hide();
        return;
    }
    const NvtxTreeOptions options = currentOptions();
    const auto cached = session()->attachment<CachedTree>(kAttachment);
    if (cached && cached->tree && sameOptions(cached->options, options) && cached->focus == session()->focus()) {
        showTree(cached->tree);
        return;
    }
    // Another profile's tree must neither stay on screen while this one builds nor keep that profile alive.
    if (m_tree && m_tree->profile != session()->profile())
        showTree(nullptr);
    m_message->setText(tr("Building the NVTX tree…"));
    m_message->show();
    const ProfilePtr profile = session()->profile();
    QPointer<ProfileSession> building = session();
    m_job.run<std::shared_ptr<const NvtxTree>>(
        // The tree of another focus or options indexed this profile already.
        [request = NvtxTreeRequest { profile, options, session()->focus(),
             cached && cached->tree ? cached->tree->index : nullptr }](
            const JobContext& job) { return computeNvtxTree(request, job); },
        [this, building, options, focus = session()->focus()](Result<std::shared_ptr<const NvtxTree>> tree) {
            if (!tree) { // cancelled runs are never delivered: this is a failure, shown where the tree would be
                showTree(nullptr);
                m_message->setText(tr("The NVTX tree could not be built: %1").arg(tree.errorMessage()));
                m_message->show();
                return;
            }
            if (building)
                building->setAttachment(
                    kAttachment, std::make_shared<CachedTree>(CachedTree { options, focus, *tree }));
            showTree(std::move(*tree));
        });
}

void NvtxPane::showTree(std::shared_ptr<const NvtxTree> tree)
{
    // The kernel table was filtered to a range of the old tree: the range is gone.
    if (m_selectionSession)
        workbench()->clearKernelSelection(m_selectionSession);
    m_selectionSession = nullptr;
    m_tree = std::move(tree);
    m_histogram->clearHistogram(tr("No range selected"));
    m_bins->setHistogram({});
    m_model->setTree(m_tree);
    m_flat->setTree(m_tree);
    m_message->setVisible(m_tree && m_tree->ranges == 0);
    if (m_tree && m_tree->ranges == 0)
        m_message->setText(m_tree->profile->meta.tables.contains(QLatin1String("NVTX_EVENTS"))
                ? tr("This profile has NVTX events but no ranges (only marks or registrations).")
                : tr("This profile has no NVTX data (capture with -t nvtx to see ranges)."));
    if (m_tree) {
        // Processes and threads open; ranges closed until asked for.
        const int depth = m_tree->options.grouping == NvtxGrouping::ByThread ? 1
            : m_tree->options.grouping == NvtxGrouping::ByProcess            ? 0
                                                                             : -1;
        if (depth >= 0)
            m_view->expandToDepth(depth);
        sortByTheTimeThereIs();
        m_keyColumns->fit(); // with the rows now open
    }
    updateCoverage();
    Q_EMIT treeShown();
}

void NvtxPane::sortByTheTimeThereIs()
{
    // A tree without GPU time anywhere (NVTX-only, or no kernel inside a range) sorted by GPU time is in no order:
    // sort it by CPU time, and back by GPU time when a tree with GPU time follows, unless the user chose a column.
    const bool noGpuTime = m_tree->coverage.attributedNs == 0;
    const int column = m_view->header()->sortIndicatorSection();
    if (noGpuTime && column == NvtxTreeModel::GpuColumn) {
        m_view->sortByColumn(NvtxTreeModel::CpuColumn, Qt::DescendingOrder);
        m_sortedByCpuForLackOfGpu = true;
    } else if (!noGpuTime && m_sortedByCpuForLackOfGpu && column == NvtxTreeModel::CpuColumn) {
        m_view->sortByColumn(NvtxTreeModel::GpuColumn, Qt::DescendingOrder);
        m_sortedByCpuForLackOfGpu = false;
    }
}

bool NvtxPane::coverageWarningShown() const
{
    return m_tree && m_tree->coverage.totalNs > 0 && m_tree->ranges > 0
        && m_tree->coverage.percent() < double(m_threshold->value());
}

void NvtxPane::updateCoverage()
{
    if (!m_tree) {
        m_coverage->clear();
        m_coverage->setStyleSheet({});
        return;
    }
    const NvtxCoverage& c = m_tree->coverage;
    QString text;
    if (c.totalNs == 0)
        text = tr("No kernels in this profile: nothing to attribute.");
    else
        text = tr("Coverage: <b>%1 %</b> of kernel time is inside NVTX ranges (%2 of %3; %4 of %5 kernels)")
                   .arg(QString::number(c.percent(), 'f', 1), formatDuration(c.attributedNs), formatDuration(c.totalNs))
                   .arg(c.attributedKernels)
                   .arg(c.totalKernels);
    if (m_tree->unterminated || m_tree->crossThread)
        text += tr(" · %1 ranges unterminated, %2 ended on another thread")
                    .arg(m_tree->unterminated)
                    .arg(m_tree->crossThread);
    if (coverageWarningShown()) {
        text = QStringLiteral("⚠ ") + text
            + tr(" — below %1 %: kernels launched outside any range are missing from the tree")
                  .arg(m_threshold->value());
        m_coverage->setStyleSheet(QStringLiteral("background: #fff3cd; color: #5c4400;"));
    } else {
        m_coverage->setStyleSheet({});
    }
    m_coverage->setText(text);
}

void NvtxPane::onCurrentNodeChanged()
{
    if (!m_tree || !session())
        return;
    const QModelIndex current = m_proxy->mapToSource(m_view->currentIndex());
    if (!current.isValid())
        return;
    const std::int32_t node = m_model->nodeOf(current);
    showHistogramOf(node);
    KernelSelection selection;
    selection.session = session();
    const QString path = m_tree->path(node);
    selection.label = tr("NVTX: %1").arg(path.isEmpty() ? m_tree->label(node) : path);
    selection.filter.rows = std::make_shared<const std::vector<char>>(nvtxKernelRows(*m_tree, node));
    m_selectionSession = session();
    workbench()->showKernels(selection);
    // The timeline shows the range's first instance.
    if (const NvtxNode& n = m_tree->nodes[std::size_t(node)]; n.kind == NvtxNode::Kind::Range && n.firstRow >= 0)
        workbench()->selectNvtxEvent(session(), std::uint32_t(n.firstRow));
}

void NvtxPane::showHistogramOf(std::int32_t node)
{
    const std::vector<qint64> durations = nvtxNodeDurations(*m_tree, node);
    if (durations.empty()) {
        m_histogram->clearHistogram(tr("Select a range or kernel"));
        m_bins->setHistogram({});
        return;
    }
    const DurationHistogram histogram = durationHistogramSorted(durations.data(), durations.size());
    const bool kernel = m_tree->nodes[std::size_t(node)].kind == NvtxNode::Kind::Kernel;
    QString title = kernel ? countOf(histogram.count, tr("execution"), tr("executions"))
                           : countOf(histogram.count, tr("instance"), tr("instances"));
    if (histogram.isMultimodal())
        title += QStringLiteral(" · ") + KernelSummaryModel::modesText(histogram.modes);
    m_histogram->setHistogram(histogram, title);
    m_bins->setHistogram(histogram);
}

QMenu* NvtxPane::contextMenuFor(const QModelIndex& index)
{
    if (!m_tree || !index.isValid())
        return nullptr;
    const std::int32_t node = m_model->nodeOf(m_proxy->mapToSource(index));
    const FocusRange focus = nvtxFirstInstanceFocus(*m_tree, node);
    auto* menu = new QMenu(this);
    QAction* action
        = menu->addAction(tr("&Focus on this range"), this, [this, focus]() { Q_EMIT focusRequested(focus); });
    action->setEnabled(focus.isActive());
    if (focus.isActive()) {
        const qint64 instances = m_tree->nodes[std::size_t(node)].instances;
        action->setToolTip(instances > 1
                ? tr("Every pane shows the first of its %1 instances (%2)")
                      .arg(instances)
                      .arg(formatDuration(focus.durationNs()))
                : tr("Every pane shows this range (%1)").arg(formatDuration(focus.durationNs())));
    }
    return menu;
}

void NvtxPane::selectNode(std::int32_t node)
{
    const QModelIndex index = m_proxy->mapFromSource(m_model->indexOfNode(node));
    m_view->setCurrentIndex(index);
}

void NvtxPane::highlight(const std::vector<std::int32_t>& nodes)
{
    m_model->setHighlighted(nodes);
    // Open the way to the innermost ones (at most a few, a popular kernel can be under thousands of paths).
    int shown = 0;
    for (const std::int32_t n : nodes) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->indexOfNode(n));
        if (!index.isValid())
            continue;
        if (m_tree->nodes[std::size_t(n)].kind == NvtxNode::Kind::Kernel || shown == 0) {
            for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
                m_view->expand(p);
            if (shown == 0)
                m_view->scrollTo(index);
            if (++shown >= 20)
                break;
        }
    }
}

QString NvtxPane::exportMarkdown(const QString& fileName) const
{
    if (!m_tree)
        return tr("There is no NVTX tree to export.");
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(fileName, file.errorString());
    if (!writeNvtxTreeMarkdown(*m_tree, nullptr, file)) {
        file.cancelWriting();
        return QStringLiteral("%1: %2").arg(fileName, file.errorString());
    }
    if (!file.commit())
        return QStringLiteral("%1: %2").arg(fileName, file.errorString());
    return {};
}

} // namespace nsw
