// SPDX-License-Identifier: GPL-3.0-or-later
#include "durationbinsmodel.h"

namespace nsw {

DurationBinsModel::DurationBinsModel(QObject* parent)
    : ColumnTableModel(parent)
{
    setColumns({
        { .header = tr("From"),
            .rawHeader = QStringLiteral("From (ns)"),
            .raw = [this](int r) { return at(r).lower; },
            .text = durationText(),
            .alignment = {} },
        { .header = tr("To"),
            .rawHeader = QStringLiteral("To (ns)"),
            .raw = [this](int r) { return at(r).upper; },
            .text = durationText(),
            .alignment = {} },
        { .header = tr("Executions"), .raw = [this](int r) { return at(r).count; }, .alignment = {} },
        { .header = tr("Share (%)"),
            .rawHeader = QStringLiteral("Share (%)"),
            .raw = [this](int r) { return m_total > 0 ? 100.0 * double(at(r).count) / double(m_total) : 0.0; },
            .text = fixedText(1),
            .alignment = {} },
    });
}

void DurationBinsModel::setHistogram(const DurationHistogram& histogram)
{
    beginResetModel();
    m_bins = histogram.bins;
    m_total = histogram.count;
    endResetModel();
}

} // namespace nsw
