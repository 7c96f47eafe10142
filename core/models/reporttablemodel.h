// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/stats/reporttable.h"

#include <QAbstractTableModel>

namespace nsw {

/// Shows a ReportTable (an nsys stats report) in a view: numbers with thousands separators, raw values for sorting.
class ReportTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit ReportTableModel(QObject* parent = nullptr);

    void setReport(ReportTable report);
    const ReportTable& report() const { return m_report; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ReportTable m_report;
};

} // namespace nsw
