// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/common/elidingheader.h"

#include <QStyle>
#include <QStyleOptionHeader>
#include <QTableView>
#include <QTreeView>

namespace nsw {

ElidingHeader::ElidingHeader(Qt::Orientation orientation, QWidget* parent)
    : QHeaderView(orientation, parent)
{
    setTextElideMode(Qt::ElideRight); // QHeaderView's own default is none
}

void ElidingHeader::install(QTableView* view)
{
    if (!qobject_cast<ElidingHeader*>(view->horizontalHeader()))
        view->setHorizontalHeader(new ElidingHeader(Qt::Horizontal, view));
}

void ElidingHeader::install(QTreeView* view)
{
    if (!qobject_cast<ElidingHeader*>(view->header())) {
        auto* header = new ElidingHeader(Qt::Horizontal, view);
        header->setSectionsMovable(true); // what QTreeView's own header does
        header->setStretchLastSection(true);
        header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        view->setHeader(header);
    }
}

QString ElidingHeader::shownText(int section) const
{
    QStyleOptionHeader option;
    initStyleOption(&option);
    initStyleOptionForIndex(&option, section);
    return option.text;
}

void ElidingHeader::initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const
{
    QHeaderView::initStyleOptionForIndex(option, logicalIndex);
    // The room QCommonStyle gives the label: the section less a margin each side and the sort arrow's place.
    const int margin = style()->pixelMetric(QStyle::PM_HeaderMargin, option, this);
    int room = sectionSize(logicalIndex) - 2 * margin;
    if (option->sortIndicator != QStyleOptionHeader::None)
        room -= style()->pixelMetric(QStyle::PM_HeaderMarkSize, option, this) + margin;
    if (!option->icon.isNull())
        room -= style()->pixelMetric(QStyle::PM_SmallIconSize, option, this) + margin;
    option->text = option->fontMetrics.elidedText(option->text, textElideMode(), std::max(0, room));
}

} // namespace nsw
