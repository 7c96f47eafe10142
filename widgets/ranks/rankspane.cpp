// SPDX-License-Identifier: GPL-3.0-or-later
#include "rankspane.h"

#include "core/iterations/iterationmarkers.h"
#include "core/models/collectiveskewmodel.h"
#include "core/models/rankmatrixmodel.h"
#include "core/models/ranktablemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/ranks/ranksexport.h"
#include "core/ranks/ranksrun.h"
#include "core/ranks/summaryfile.h"
#include "widgets/common/filedialogs.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/tableviews.h"
#include "widgets/ranks/rankheatmap.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

namespace nsw {

namespace {

QTableView* rankTable(QAbstractItemModel* model, SortFilterProxy* proxy, QWidget* parent)
{
    auto* view = new QTableView(parent);
    proxy->setSourceModel(model);
    view->setModel(proxy);
    setupTableView(view);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->sortByColumn(0, Qt::AscendingOrder);
    return view;
}

} // namespace

RanksPane::RanksPane(Workbench* workbench, QWidget* parent)
    : Pane(workbench, QStringLiteral("ranks"), tr("&Ranks"), parent)
    , m_marker(new QLineEdit(this))
    , m_metric(new QComboBox(this))
    , m_message(new QLabel(this))
    , m_heatmap(new RankHeatmap(this))
    , m_tabs(new QTabWidget(this))
    , m_findings(new QTextBrowser(this))
    , m_rankModel(new RankTableModel(this))
    , m_rankProxy(new SortFilterProxy(this))
    , m_rankView(rankTable(m_rankModel, m_rankProxy, this))
    , m_collectiveModel(new CollectiveSkewModel(this))
    , m_collectiveProxy(new SortFilterProxy(this))
    , m_collectiveView(rankTable(m_collectiveModel, m_collectiveProxy, this))
    , m_matrix(new RankMatrixModel(this))
    , m_job(this)
{
    auto* openMenu = new QMenu(this);
    openMenu->addAction(tr("&Exports or summaries…"), this, [this]() { openInputs(false); });
    openMenu->addAction(tr("&Folder…"), this, [this]() { openInputs(true); });
    QToolButton* open = menuButton(tr("Open ranks"), openMenu, this);
    open->setObjectName(QStringLiteral("openRanks"));
    open->setToolTip(tr("One export per rank (or per node), one export with every rank as a process, rank summaries "
                        "made by `nsys-workbench summarize`, or folders of them."));
    m_marker->setPlaceholderText(tr("automatic (%1)").arg(knownIterationMarkers().join(QStringLiteral(", "))));
    m_marker->setToolTip(
        tr("The NVTX range of one iteration on every rank (as in the Iterations pane). Enter applies."));
    m_marker->setClearButtonEnabled(true);
    for (int m = 0; m < kRankMetricCount; ++m)
        m_metric->addItem(rankMetricTitle(RankMetric(m)), rankMetricName(RankMetric(m)));
    // The wait the others cause shows a straggler at once (its row is the one that never waits); the iteration
    // time is the same on every rank of a synchronised job.
    m_metric->setCurrentIndex(m_metric->findData(rankMetricName(RankMetric::Wait)));
    m_metric->setToolTip(tr("What the heat map colours per rank × iteration"));
    auto* exportMenu = new QMenu(this);
    exportMenu->addAction(
        tr("Heat map as PNG…"), this, [this]() { exportPlotInteractively(*m_heatmap, exportBaseName(), this); });
    exportMenu->addAction(tr("Heat map values as CSV…"), this, [this]() {
        exportModelCsvInteractively(
            *m_matrix, exportBaseName() + QStringLiteral("-") + m_metric->currentData().toString(), this);
    });
    exportMenu->addAction(tr("Ranks table as CSV…"), this,
        [this]() { exportViewCsvInteractively(m_rankView, exportBaseName() + QStringLiteral("-table"), this); });
    exportMenu->addAction(tr("Collectives as CSV…"), this, [this]() {
        exportViewCsvInteractively(m_collectiveView, exportBaseName() + QStringLiteral("-collectives"), this);
    });
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_findings->setOpenLinks(false);

    m_tabs->addTab(m_findings, tr("Findings"));
    m_tabs->addTab(m_rankView, tr("Ranks"));
    m_tabs->addTab(m_collectiveView, tr("Collectives"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(open);
    bar->addWidget(new QLabel(tr("Marker:"), this));
    bar->addWidget(m_marker, 1);
    bar->addWidget(new QLabel(tr("Colour:"), this));
    bar->addWidget(m_metric);
    bar->addWidget(menuButton(tr("Export"), exportMenu, this));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_heatmap);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    m_heatmap->setMinimumHeight(120);
    m_tabs->setMinimumHeight(100);
    letSplitterGiveWay(split);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_message);
    layout->addWidget(split, 1);

    connect(m_marker, &QLineEdit::returnPressed, this, &RanksPane::recompute);
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this]() {
        m_heatmap->setResult(m_result, chosenMetric());
        m_matrix->setResult(m_result, chosenMetric());
    });
    connect(m_heatmap, &RankHeatmap::cellClicked, this, &RanksPane::activateCell);
    showResult(nullptr,
        tr("No ranks open: Open ranks… takes the exports of a distributed run (one per rank, or one "
           "holding every rank), rank summaries, or a folder of them."));
}

RankMetric RanksPane::chosenMetric() const
{
    return rankMetricFromName(m_metric->currentData().toString()).value_or(RankMetric::Time);
}

QAbstractItemView* RanksPane::exportableView() const
{
    return m_tabs->currentWidget() == m_collectiveView ? m_collectiveView : m_rankView;
}

QCustomPlot* RanksPane::exportablePlot() const
{
    return m_heatmap;
}

QStringList RanksPane::askForInputs(bool folder)
{
    if (!folder)
        return askOpenFileNames(this, tr("Open rank exports or summaries"),
            tr("Exports and rank summaries (*.sqlite *.nsys-rep *.%1);;All files (*)")
                .arg(QLatin1String(kRankSummarySuffix)));
    const QString dir = askExistingDirectory(this, tr("Open a folder of rank exports or summaries"));
    return dir.isEmpty() ? QStringList() : QStringList { dir };
}

void RanksPane::openInputs(bool folder)
{
    if (const QStringList inputs = askForInputs(folder); !inputs.isEmpty())
        setInputs(inputs);
}

void RanksPane::setInputs(const QStringList& inputs)
{
    m_inputs = inputs;
    recompute();
}

void RanksPane::recompute()
{
    if (m_inputs.isEmpty()) {
        m_job.cancel();
        showResult(nullptr, tr("No ranks open."));
        return;
    }
    RanksRequest request { m_inputs, m_marker->text().trimmed() };
    m_message->setText(tr("Reading %n input(s)…", nullptr, int(m_inputs.size())));
    m_job.run<RanksResult>([request](const JobContext& job) { return computeRanks(request, job); },
        [this](Result<RanksResult> result) {
            if (result)
                showResult(std::make_shared<const RanksResult>(std::move(*result)), {});
            else
                showResult(nullptr, result.error().message);
        },
        [this](const Progress& progress) {
            if (!progress.stage.isEmpty())
                m_message->setText(progress.stage);
        });
}

void RanksPane::showResult(std::shared_ptr<const RanksResult> result, const QString& error)
{
    m_result = std::move(result);
    m_heatmap->setResult(m_result, chosenMetric());
    m_matrix->setResult(m_result, chosenMetric());
    m_rankModel->setResult(m_result);
    m_collectiveModel->setResult(m_result);
    if (!m_result) {
        m_message->setText(error);
        m_findings->clear();
        Q_EMIT ranksShown();
        return;
    }
    const RanksResult& r = *m_result;
    QString text = tr("%1 rank(s) from %2 file(s), %3 of them matched at %4 collective(s); reference clock: rank %5.")
                       .arg(r.ranks.size())
                       .arg(r.files.size())
                       .arg(r.matched.size())
                       .arg(r.collectives.size())
                       .arg(r.referenceRank);
    if (!r.problems.empty())
        text += QLatin1Char(' ') + tr("%n problem(s): see Findings.", nullptr, int(r.problems.size()));
    if (r.iterationCount() > 0) // else the heat map has no cell, and says why
        text += QLatin1Char(' ') + tr("Click a cell to open that rank focused on that iteration.");
    m_message->setText(text);
    m_findings->setMarkdown(ranksFindingsMarkdown(r));
    resizeColumnsToCells(m_rankView, 160);
    resizeColumnsToCells(m_collectiveView, 160);
    Q_EMIT ranksShown();
}

void RanksPane::activateCell(int row, int iteration)
{
    if (!m_result || row < 0 || std::size_t(row) >= m_result->ranks.size())
        return;
    const RankRow& rank = m_result->ranks[std::size_t(row)];
    const auto cell = std::find_if(rank.iterations.begin(), rank.iterations.end(),
        [iteration](const RankIterationCell& c) { return c.iteration == iteration; });
    if (cell == rank.iterations.end())
        return;
    m_heatmap->setCurrent(row, iteration);
    const QString exportPath = m_result->fileOf(rank).exportPath;
    if (!QFileInfo::exists(exportPath)) {
        m_message->setText(tr("Rank %1's export is not at hand (%2): only its summary was read.")
                               .arg(rank.rank)
                               .arg(QDir::toNativeSeparators(exportPath)));
        return;
    }
    const FocusRange range { cell->start, cell->end, tr("rank %1, iteration %2").arg(rank.rank).arg(iteration) };
    Q_EMIT openRankRequested(exportPath, range);
}

} // namespace nsw
