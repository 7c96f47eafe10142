// SPDX-License-Identifier: GPL-3.0-or-later
#include "flowlayout.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QWidget>
#include <vector>

namespace nsw {

FlowLayout::FlowLayout(QWidget* parent)
    : QLayout(parent)
{
    setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem* item)
{
    m_items.append(item);
}

int FlowLayout::count() const
{
    return int(m_items.size());
}

QLayoutItem* FlowLayout::itemAt(int index) const
{
    return m_items.value(index);
}

QLayoutItem* FlowLayout::takeAt(int index)
{
    return index >= 0 && index < m_items.size() ? m_items.takeAt(index) : nullptr;
}

Qt::Orientations FlowLayout::expandingDirections() const
{
    return {};
}

bool FlowLayout::hasHeightForWidth() const
{
    return true;
}

int FlowLayout::heightForWidth(int width) const
{
    return arrange(QRect(0, 0, width, 0), false);
}

QSize FlowLayout::minimumSize() const
{
    // As narrow as the widest item: everything else wraps. As high as the rows at the current width, so that the
    // window (a dock) never gives the pane less height than its wrapped controls need.
    QSize size;
    for (const QLayoutItem* item : m_items)
        size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    size += QSize(m.left() + m.right(), m.top() + m.bottom());
    if (m_laidOutWidth > 0)
        size.setHeight(std::max(size.height(), m_laidOutHeight));
    return size;
}

QSize FlowLayout::sizeHint() const
{
    // One row when there is room.
    int width = 0;
    int height = 0;
    for (const QLayoutItem* item : m_items) {
        if (item->isEmpty())
            continue;
        width += (width > 0 ? spacingOrDefault() : 0) + item->sizeHint().width();
        height = std::max(height, item->sizeHint().height());
    }
    const QMargins m = contentsMargins();
    return QSize(width + m.left() + m.right(), height + m.top() + m.bottom());
}

void FlowLayout::setGeometry(const QRect& rect)
{
    QLayout::setGeometry(rect);
    arrange(rect, true);
    // Another width, another number of rows: the enclosing layouts must ask minimumSize() again. (Compared with the
    // last width laid out, not geometry(): invalidate() clears that, which would make every layout pass look new.)
    const int rows = heightForWidth(rect.width());
    if (rect.width() != m_laidOutWidth && rows != m_laidOutHeight)
        QMetaObject::invokeMethod(this, &QLayout::invalidate, Qt::QueuedConnection);
    m_laidOutWidth = rect.width();
    m_laidOutHeight = rows;
}

int FlowLayout::spacingOrDefault() const
{
    if (spacing() >= 0)
        return spacing();
    const QWidget* parent = parentWidget();
    return parent ? parent->style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing, nullptr, parent) : 6;
}

int FlowLayout::arrange(const QRect& rect, bool apply) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    const int gap = std::max(0, spacingOrDefault());
    struct Placed
    {
        QLayoutItem* item;
        QRect geometry;
    };
    std::vector<Placed> row;
    int y = area.y();
    int rowHeight = 0;
    // A row's items are centred on the row, so that a check box sits level with the combo box beside it.
    const auto finishRow = [&]() {
        if (apply)
            for (const Placed& p : row)
                p.item->setGeometry(p.geometry.translated(0, (rowHeight - p.geometry.height()) / 2));
        row.clear();
    };
    int x = area.x();
    for (QLayoutItem* item : m_items) {
        if (item->isEmpty())
            continue;
        const QSize size
            = item->sizeHint().boundedTo(QSize(area.width(), QWIDGETSIZE_MAX)).expandedTo(item->minimumSize());
        if (x > area.x() && x + size.width() > area.right() + 1) {
            finishRow();
            x = area.x();
            y += rowHeight + gap;
            rowHeight = 0;
        }
        row.push_back({ item, QRect(QPoint(x, y), size) });
        x += size.width() + gap;
        rowHeight = std::max(rowHeight, size.height());
    }
    finishRow();
    return y + rowHeight - rect.y() + contentsMargins().bottom();
}

QWidget* labelledField(const QString& label, QWidget* field, QWidget* parent)
{
    auto* pair = new QWidget(parent);
    auto* layout = new QHBoxLayout(pair);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(label, pair));
    layout->addWidget(field);
    return pair;
}

} // namespace nsw
