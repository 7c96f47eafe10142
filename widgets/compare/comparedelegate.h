// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/models/comparetablemodel.h"

#include <QStyledItemDelegate>

namespace nsw {

/// Status colours on the status and delta columns, the category swatch on the key, the totals row in bold.
class CompareDelegate : public QStyledItemDelegate
{
public:
    CompareDelegate(const CompareTableModel* model, QObject* parent);

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

private:
    const CompareTableModel* m_model;
};

} // namespace nsw
