// SPDX-License-Identifier: GPL-3.0-or-later
#include "tableviews.h"

#include "core/models/modelroles.h"
#include "core/models/sortfilterproxy.h"
#include "core/util/csv.h"
#include "widgets/common/backgroundexport.h"
#include "widgets/common/elidingheader.h"
#include "widgets/common/filedialogs.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QMessageBox>
#include <QSaveFile>
#include <QTableView>
#include <QTreeView>
#include <algorithm>

namespace nsw {

namespace {
void addCopyAction(QAbstractItemView* view)
{
    auto* copy = new QAction(QObject::tr("Copy"), view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    QObject::connect(copy, &QAction::triggered, view, [view]() {
        const QModelIndexList selected
            = view->selectionModel() ? view->selectionModel()->selectedIndexes() : QModelIndexList();
        QMap<int, QMap<int, QString>> cells;
        for (const QModelIndex& i : selected)
            cells[i.row()][i.column()] = i.data().toString();
        QStringList lines;
        for (const auto& row : cells)
            lines.append(QStringList(row.values()).join(QLatin1Char('\t')));
        QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
    });
    view->addAction(copy);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
}
} // namespace

void setupTableView(QTableView* view)
{
    ElidingHeader::install(view);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setHighlightSections(false);
    // Fitting a column to its contents measures the rows in sight, not the first 1,000: ten columns of a table of a
    // million executions took 50 ms of text layout on the GUI thread each time a kernel was picked.
    view->horizontalHeader()->setResizeContentsPrecision(0);
    view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    addCopyAction(view);
}

QTableView* newSortableTableView(QAbstractItemModel* model, QWidget* parent)
{
    auto* proxy = new SortFilterProxy(parent);
    proxy->setSourceModel(model);
    auto* view = new QTableView(parent);
    ElidingHeader::install(view);
    view->setModel(proxy);
    // The rows keep the model's order until a header is clicked: enabling sorting would otherwise sort by the first
    // column at once (thousands of gap rows, on the GUI thread, for an order nobody asked for).
    view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    setupTableView(view);
    return view;
}

void resizeColumnsToCells(QTableView* view, int maxHeaderWidth)
{
    QHeaderView* header = view->horizontalHeader();
    const QAbstractItemView* cellsOf = view; // QTableView makes sizeHintForColumn protected; the base has it public
    for (int column = 0; column < header->count(); ++column) {
        const int cells = cellsOf->sizeHintForColumn(column);
        const int title = std::min(header->sectionSizeHint(column), maxHeaderWidth);
        header->resizeSection(column, std::max(cells, title));
    }
}

void setupTreeView(QTreeView* view)
{
    ElidingHeader::install(view);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setUniformRowHeights(true);
    view->header()->setSectionResizeMode(QHeaderView::Interactive);
    view->header()->setStretchLastSection(false);
    view->header()->setResizeContentsPrecision(0); // the rows in sight (see setupTableView)
    addCopyAction(view);
}

QString exportModelCsv(const QAbstractItemModel& model, const QString& fileName)
{
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(fileName, file.errorString());
    if (!writeModelCsv(model, file, RawValueRole) || !file.commit())
        return QStringLiteral("%1: %2").arg(fileName, file.errorString());
    return {};
}

QString exportViewCsv(QAbstractItemView* view, const QString& fileName)
{
    if (!view || !view->model())
        return QObject::tr("There is no table to export.");
    return exportModelCsv(*view->model(), fileName);
}

bool exportModelCsvInteractively(const QAbstractItemModel& model, const QString& suggestedName, QWidget* parent)
{
    const QString file = askSaveFileName(parent, QObject::tr("Export table as CSV"),
        suggestedName + QStringLiteral(".csv"), QObject::tr("CSV files (*.csv)"));
    if (file.isEmpty())
        return false;
    // Written off the GUI thread, a row in the window's progress strip (1.29M executions froze the window 7 s).
    BackgroundExports::of(parent)->writeFile(QObject::tr("CSV export"), file, csvWriter(model));
    return true;
}

bool exportViewCsvInteractively(QAbstractItemView* view, const QString& suggestedName, QWidget* parent)
{
    if (!view || !view->model()) {
        QMessageBox::information(parent, QObject::tr("Export table"), QObject::tr("There is no table to export."));
        return false;
    }
    return exportModelCsvInteractively(*view->model(), suggestedName, parent);
}

} // namespace nsw
