// SPDX-License-Identifier: GPL-3.0-or-later
#include "keycolumns.h"

#include <QAbstractItemModel>
#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <QTreeView>
#include <algorithm>

namespace nsw {

namespace {
/// Whether the first rows of @p column show plain numbers ("324,532,153,000", "87.7", "+41.2 %"): those are never
/// elided (a total of 324,532,153,000 ns showed as "324,5…3,000").
bool showsPlainNumbers(const QAbstractItemModel& model, int column)
{
    bool any = false;
    for (int row = 0, rows = std::min(model.rowCount(), 20); row < rows; ++row) {
        const QString text = model.data(model.index(row, column), Qt::DisplayRole).toString();
        for (const QChar c : text)
            if (!c.isDigit() && !QStringView(u",. %+-\u2212").contains(c))
                return false;
        any = any || !text.isEmpty();
    }
    return any;
}
} // namespace

KeyColumns::KeyColumns(QTableView* view, int nameColumn, QList<int> keyColumns)
    : KeyColumns(view, view->horizontalHeader(), nameColumn, std::move(keyColumns))
{ }

KeyColumns::KeyColumns(QTreeView* view, int nameColumn, QList<int> keyColumns)
    : KeyColumns(view, view->header(), nameColumn, std::move(keyColumns))
{
    view->header()->setStretchLastSection(false); // the numbers keep their width; the name takes what is left
}

KeyColumns::KeyColumns(QAbstractItemView* view, QHeaderView* header, int nameColumn, QList<int> keyColumns)
    : QObject(view)
    , m_view(view)
    , m_header(header)
    , m_name(nameColumn)
    , m_keys(std::move(keyColumns))
{
    view->setTextElideMode(Qt::ElideMiddle);
    header->setTextElideMode(Qt::ElideRight);
    view->viewport()->installEventFilter(this);
    if (QAbstractItemModel* model = view->model()) {
        connect(model, &QAbstractItemModel::modelReset, this, &KeyColumns::fit);
        connect(model, &QAbstractItemModel::rowsInserted, this, &KeyColumns::fit);
    }
}

void KeyColumns::setColumns(int nameColumn, QList<int> keyColumns)
{
    m_name = nameColumn;
    m_keys = std::move(keyColumns);
    fit();
}

bool KeyColumns::eventFilter(QObject* watched, QEvent* event)
{
    // Only the viewport is watched; it is asked, not the view, which may be half destroyed when its viewport's last
    // events arrive.
    if (event->type() == QEvent::Resize && static_cast<QWidget*>(watched)->width() != m_lastWidth)
        fit();
    return QObject::eventFilter(watched, event);
}

void KeyColumns::fit()
{
    QHeaderView* header = m_header;
    const int columns = header->count();
    if (columns == 0 || !m_view->model())
        return;
    m_lastWidth = m_view->viewport()->width();
    // On screen: the name, then the keys, then the rest in the model's order.
    QList<int> order;
    if (m_name >= 0 && m_name < columns)
        order.append(m_name);
    for (const int k : m_keys)
        if (k >= 0 && k < columns && !order.contains(k))
            order.append(k);
    for (int c = 0; c < columns; ++c)
        if (!order.contains(c))
            order.append(c);
    for (int visual = 0; visual < order.size(); ++visual)
        header->moveSection(header->visualIndex(order[visual]), visual);

    const QAbstractItemView* cellsOf = m_view; // sizeHintForColumn is protected in the views, public in the base
    const int charWidth = m_view->fontMetrics().averageCharWidth();
    int keysWidth = 0;
    for (int c = 0; c < columns; ++c) {
        if (c == m_name)
            continue;
        // A key column is as wide as its numbers and a little more, its header elided beyond that ("…after… Δ %"
        // asked twice the width of "+41.2 %"), a long text elided past 16 characters ("unchanged (fewer calls)",
        // whole in its tooltip), a plain number never; the others show their header up to 160 px.
        const int title = header->sectionSizeHint(c);
        // No rows (a profile without NVTX): the title, not a sliver ("G…" over the NVTX tree's GPU times).
        const int cells = m_view->model()->rowCount() > 0 ? cellsOf->sizeHintForColumn(c) : title;
        const int fitted = std::max(cells, std::min(title, cells + 3 * charWidth));
        const int width = !m_keys.contains(c)        ? std::max(cells, std::min(title, 160))
            : showsPlainNumbers(*m_view->model(), c) ? fitted
                                                     : std::min(fitted, std::max(16 * charWidth, title / 2));
        header->resizeSection(c, width);
        if (m_keys.contains(c))
            keysWidth += width;
    }
    if (m_name < 0 || m_name >= columns)
        return;
    // A tree is read by its names: those of its first three levels keep 16 characters beside their indentation (at
    // 1366x768 the NVTX tree's ranges, two levels in, showed "F…4"), and the last key numbers may be scrolled to.
    const auto* tree = qobject_cast<const QTreeView*>(m_view);
    const int minimum = tree ? 16 * charWidth + 3 * tree->indentation() : 10 * charWidth;
    const int widest = std::max(cellsOf->sizeHintForColumn(m_name), header->sectionSizeHint(m_name));
    const int left = m_view->viewport()->width() - keysWidth;
    header->resizeSection(m_name, left >= widest ? widest : std::max(left, std::min(minimum, widest)));
}

} // namespace nsw
