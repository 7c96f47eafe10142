// SPDX-License-Identifier: GPL-3.0-or-later
#include "ruledelegate.h"

#include "core/models/ruletablemodel.h"

#include <QPixmap>

namespace nsw {

void RuleDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    switch (index.data(RuleTableModel::StatusRole).toInt()) {
    case RuleDiagnostic::Shadowed:
        option->backgroundBrush = QColor(255, 224, 178);
        break;
    case RuleDiagnostic::Invalid:
        option->backgroundBrush = QColor(255, 205, 210);
        break;
    case RuleDiagnostic::Unused:
        option->palette.setColor(QPalette::Text, QColor(130, 130, 130));
        break;
    default:
        break;
    }
    if (index.column() == RuleTableModel::CategoryColumn) {
        QPixmap swatch(12, 12);
        swatch.fill(QColor::fromRgba(index.data(RuleTableModel::ColorRole).toUInt()));
        option->features |= QStyleOptionViewItem::HasDecoration;
        option->icon = QIcon(swatch);
        option->decorationSize = QSize(12, 12);
    }
}

} // namespace nsw
