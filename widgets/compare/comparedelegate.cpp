// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparedelegate.h"

#include "core/models/modelroles.h"

#include <QPixmap>

namespace nsw {

CompareDelegate::CompareDelegate(const CompareTableModel* model, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_model(model)
{ }

void CompareDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    using Column = CompareTableModel::Column;
    QStyledItemDelegate::initStyleOption(option, index);
    if (index.data(PinnedRole).toBool())
        option->font.setBold(true);
    const Column kind = m_model->columnKind(index.column());
    if (kind == Column::Key) {
        const QVariant color = index.data(CompareTableModel::ColorRole);
        if (color.isValid()) {
            QPixmap swatch(12, 12);
            swatch.fill(QColor::fromRgba(color.toUInt()));
            option->features |= QStyleOptionViewItem::HasDecoration;
            option->icon = QIcon(swatch);
            option->decorationSize = QSize(12, 12);
        }
        return;
    }
    if (kind != Column::Status && kind != Column::Delta && kind != Column::DeltaPercent
        && kind != Column::DeltaInstances)
        return;
    switch (CompareStatus(index.data(CompareTableModel::StatusRole).toInt())) {
    case CompareStatus::Regression:
    case CompareStatus::New:
        option->palette.setColor(QPalette::Text, QColor(178, 34, 34));
        break;
    case CompareStatus::Improvement:
    case CompareStatus::Removed:
        option->palette.setColor(QPalette::Text, QColor(25, 120, 60));
        break;
    case CompareStatus::Unchanged:
        option->palette.setColor(QPalette::Text, QColor(110, 110, 110));
        break;
    }
}

} // namespace nsw
