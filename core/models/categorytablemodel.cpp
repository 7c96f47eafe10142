// SPDX-License-Identifier: GPL-3.0-or-later
#include "categorytablemodel.h"

#include "core/models/modelroles.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

namespace nsw {

CategoryTableModel::CategoryTableModel(QObject* parent)
    : ColumnTableModel(parent)
{
    setColumns(columns());
}

void CategoryTableModel::setTable(CategoryTable table)
{
    beginResetModel();
    m_table = std::move(table);
    setColumns(columns());
    endResetModel();
}

QVariant CategoryTableModel::rowData(int row, int role) const
{
    if (role == ColorRole)
        return m_table.colors[std::size_t(row)];
    if (role == IdentityRole)
        return m_table.breakdownCategory[std::size_t(row)];
    return {};
}

std::vector<ColumnTableModel::ColumnSpec> CategoryTableModel::columns() const
{
    std::vector<ColumnSpec> columns = { { .header = tr("Category"),
        .raw = [this](int r) { return m_table.categories[r]; },
        .toolTip =
            [this](int r) {
                return r == m_table.cpuRow ? QVariant(tr("Wall time minus the GPU time of each bar")) : QVariant();
            },
        .alignment = {},
        .headerToolTip = tr("Category") } };
    for (qsizetype b = 0; b < m_table.bars.size(); ++b) {
        const auto bar = std::size_t(b);
        const QString& name = m_table.bars[b];
        // What the column holds first, the bar's name after it: elided on the right, a narrow header still tells the
        // time from the share ("g2g · nsys2026.2_h1…", "% · nsys2026.2_h1…").
        columns.push_back({ .header = timeModeName(m_table.mode) + QStringLiteral(" · ") + name,
            .rawHeader = name + QStringLiteral(" (ns)"),
            .raw = [this, bar](int r) { return qint64(m_table.time[std::size_t(r)][bar]); },
            .text = durationText(),
            .toolTip =
                [this, bar](int r) {
                    return tr("%1: %2 ns, %3 instances")
                        .arg(m_table.bars[qsizetype(bar)])
                        .arg(m_table.time[std::size_t(r)][bar])
                        .arg(withThousandsSeparators(qint64(m_table.instances[std::size_t(r)][bar])));
                },
            .headerToolTip = tr("%1, %2").arg(name, timeModeDescription(m_table.mode)) });
        columns.push_back({ .header = QStringLiteral("% · ") + name,
            .rawHeader = name + QStringLiteral(" (%)"),
            .raw = [this, bar](int r) { return m_table.share(std::size_t(r), bar); },
            .text = fixedText(1),
            .headerToolTip
            = tr("%1: the category's share of the whole bar (its categories and CPU segment), in %").arg(name) });
        // One bar: the column keeps its plain name; several: each bar's own count, never their sum.
        columns.push_back({ .header = m_table.bars.size() == 1 ? tr("Instances") : QString(tr("instances · ") + name),
            .raw = [this, bar](int r) { return qint64(m_table.instances[std::size_t(r)][bar]); },
            .text =
                [this](int r, const QVariant& raw) {
                    return r == m_table.cpuRow ? QString() : withThousandsSeparators(raw.toLongLong());
                },
            .headerToolTip = tr("Kernel executions of the category in %1 (memory operations included)").arg(name) });
    }
    return columns;
}

} // namespace nsw
