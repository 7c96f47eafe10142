// SPDX-License-Identifier: GPL-3.0-or-later
#include "iterationspane.h"

#include "core/iterations/iterationexport.h"
#include "core/iterations/iterationmarkers.h"
#include "core/iterations/iterations.h"
#include "core/models/iterationtablemodel.h"
#include "core/models/modelroles.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/tableviews.h"
#include "widgets/iterations/iterationschart.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace nsw {

IterationsPane::IterationsPane(Workbench* workbench, QWidget* parent)
    : SessionPane(workbench, QStringLiteral("iterations"), tr("&Iterations"), parent)
    , m_marker(new QLineEdit(this))
    , m_message(new QLabel(this))
    , m_model(new IterationTableModel(this))
    , m_proxy(new SortFilterProxy(this))
    , m_view(new QTableView(this))
    , m_chart(new IterationsChart(this))
    , m_compare(new QToolButton(this))
    , m_job(this)
{
    m_marker->setPlaceholderText(tr("automatic (%1)").arg(knownIterationMarkers().join(QStringLiteral(", "))));
    m_marker->setToolTip(tr("The NVTX range of one iteration: its name, the name up to numbers (ProfilerStep#1 "
                            "takes every ProfilerStep#N) or a regular expression for the whole name. Enter applies."));
    m_marker->setClearButtonEnabled(true);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* exportMenu = new QMenu(this);
    QToolButton* exportButton = menuButton(tr("Export"), exportMenu, this);
    exportMenu->addAction(
        tr("Table as CSV…"), this, [this]() { exportViewCsvInteractively(m_view, exportBaseName(), this); });
    exportMenu->addAction(
        tr("Chart as PNG…"), this, [this]() { exportPlotInteractively(*m_chart, exportBaseName(), this); });

    auto* compareMenu = new QMenu(this);
    QAction* compareSelected
        = compareMenu->addAction(tr("&Selected iteration"), this, [this]() { requestCompare(false); });
    compareMenu->addAction(tr("&Median iteration"), this, [this]() { requestCompare(true); });
    m_compare->setObjectName(QStringLiteral("compareIteration"));
    m_compare->setText(tr("Compare"));
    m_compare->setToolTip(tr("Add an iteration to the Compare pane as an entry of its own: two iterations (of one "
                             "profile or of two) compare side by side like two profiles."));
    m_compare->setMenu(compareMenu);
    m_compare->setPopupMode(QToolButton::InstantPopup);
    m_compare->setEnabled(false);
    connect(compareMenu, &QMenu::aboutToShow, this,
        [this, compareSelected]() { compareSelected->setEnabled(m_view->currentIndex().isValid()); });

    m_proxy->setSourceModel(m_model);
    m_view->setModel(m_proxy);
    setupTableView(m_view);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->sortByColumn(IterationTableModel::IndexColumn, Qt::AscendingOrder);
    m_view->horizontalHeader()->resizeSection(IterationTableModel::TopKernelColumn, 260);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Marker:"), this));
    bar->addWidget(m_marker, 1);
    bar->addWidget(m_compare);
    bar->addWidget(exportButton);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chart);
    split->addWidget(m_view);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_message);
    layout->addWidget(split, 1);

    connect(m_marker, &QLineEdit::returnPressed, this, &IterationsPane::recompute);
    connect(m_view, &QTableView::activated, this, &IterationsPane::onActivated);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTableView::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_view->indexAt(pos);
        if (!index.isValid())
            return;
        m_view->setCurrentIndex(index);
        QMenu menu;
        menu.addAction(tr("&Focus on this iteration"), this, [this, index]() { onActivated(index); });
        menu.addAction(tr("&Compare this iteration"), this, [this]() { requestCompare(false); });
        menu.addAction(tr("Compare the &median iteration"), this, [this]() { requestCompare(true); });
        menu.exec(m_view->viewport()->mapToGlobal(pos));
    });
    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            m_chart->setCurrent(current.isValid() ? current.data(IdentityRole).toInt() : -1);
        });
    connect(m_chart, &IterationsChart::iterationClicked, this, &IterationsPane::selectIteration);
    showCurrentSession();
}

QAbstractItemView* IterationsPane::exportableView() const
{
    return m_view;
}

QCustomPlot* IterationsPane::exportablePlot() const
{
    return m_chart;
}

QString IterationsPane::exportBaseName() const
{
    return QStringLiteral("iterations-") + (session() ? session()->profile()->displayName() : QString());
}

void IterationsPane::sessionChanged(ProfileSession*)
{
    if (refreshWhenShown())
        return;
    m_job.cancel();
    showTable(nullptr, {}, false);
}

void IterationsPane::recompute()
{
    m_job.cancel();
    if (!session()) {
        showTable(nullptr, tr("Open a profile to see its iterations."), false);
        Q_EMIT iterationsShown();
        return;
    }
    if (waitForWholeProfile(session())) {
        showTable(nullptr, {}, false);
        return;
    }
    showTable(nullptr, tr("Finding iterations…"), false);
    const IterationRequest request { session()->profile(), m_marker->text().trimmed(), defaultIterationRules() };
    m_job.run<IterationTable>([request](const JobContext& job) { return computeIterations(request, job); },
        [this](Result<IterationTable> result) {
            if (!result) {
                showTable(nullptr, result.errorMessage(), false);
                Q_EMIT iterationsShown();
                return;
            }
            auto table = std::make_shared<const IterationTable>(std::move(*result));
            QString text = tr("%1 iterations. %2.").arg(table->iterations.size()).arg(table->detection);
            for (const QString& w : result.warnings())
                text += QLatin1Char('\n') + w;
            showTable(table, text, table->isGuess());
            Q_EMIT iterationsShown();
        });
}

void IterationsPane::showTable(std::shared_ptr<const IterationTable> table, const QString& message, bool guess)
{
    m_message->setText(guess ? tr("Guess: %1").arg(message) : message);
    m_message->setStyleSheet(
        guess ? QStringLiteral("QLabel { background: #fff3cd; color: #664d03; padding: 3px; }") : QString());
    m_message->setToolTip(table ? iterationDefinitions() : QString());
    m_model->setTable(table);
    m_chart->setTable(table);
    m_compare->setEnabled(table && !table->iterations.empty());
}

void IterationsPane::requestCompare(bool median)
{
    const auto& table = m_model->table();
    if (!table || !session())
        return;
    const QModelIndex current = m_view->currentIndex();
    if (!median && !current.isValid())
        return;
    const int index = median ? table->medianIteration() : current.data(IdentityRole).toInt();
    Result<FocusRange> range = iterationRange(*table, index);
    if (!range)
        return;
    // A column header, short enough to read beside others (the marker is the profile's, the same in both).
    range->label = median ? tr("median iteration (%1)").arg(index) : tr("iteration %1").arg(index);
    Q_EMIT compareRequested(session(), *range);
}

void IterationsPane::onActivated(const QModelIndex& index)
{
    const auto& table = m_model->table();
    if (!table || !index.isValid())
        return;
    const Result<FocusRange> range = iterationRange(*table, index.data(IdentityRole).toInt());
    if (range)
        Q_EMIT focusRequested(*range);
}

void IterationsPane::selectIteration(int index)
{
    const QModelIndex source = m_model->index(index, 0);
    if (!source.isValid())
        return;
    const QModelIndex row = m_proxy->mapFromSource(source);
    m_view->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(row);
}

} // namespace nsw
