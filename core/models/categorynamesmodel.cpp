// SPDX-License-Identifier: GPL-3.0-or-later
#include "categorynamesmodel.h"

#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

namespace nsw {

namespace {
QString timeHeader(TimeMode mode)
{
    return CategoryNamesModel::tr("Time [%1]").arg(timeModeName(mode));
}
} // namespace

CategoryNamesModel::CategoryNamesModel(QObject* parent)
    : ColumnTableModel(parent)
{
    // Tool tips repeat the shown text (the name with its short name), for cells too narrow to show it.
    setColumns({
        { .header = tr("Name"),
            .raw = [this](int r) { return at(r).name; },
            .toolTip
            = [this](int r) { return QString(at(r).name + QStringLiteral("\nshort name: ") + at(r).shortName); },
            .alignment = {} },
        { .header = tr("Category"),
            .raw = [this](int r) { return at(r).category; },
            .toolTip = [this](int r) { return at(r).category; },
            .alignment = {} },
        { .header = tr("Rule"),
            .raw = [this](int r) { return at(r).rule; },
            .text = [this](int r, const QVariant&) { return ruleText(at(r)); },
            .toolTip = [this](int r) { return ruleText(at(r)); },
            .alignment = {} },
        { .header = tr("Instances"),
            .raw = [this](int r) { return qint64(at(r).instances); },
            .text = countText(),
            .toolTip = [this](int r) { return withThousandsSeparators(qint64(at(r).instances)); } },
        { .header = timeHeader(TimeMode::Global),
            .rawHeader = tr("Time (ns)"),
            .raw = [this](int r) { return qint64(at(r).time); },
            .text = durationText(),
            .toolTip = [this](int r) { return formatDuration(at(r).time); } },
    });
}

void CategoryNamesModel::setRows(std::vector<CategoryNameRow> rows, TimeMode mode)
{
    beginResetModel();
    m_rows = std::move(rows);
    setHeader(TimeColumn, timeHeader(mode));
    endResetModel();
}

const CategoryNameRow* CategoryNamesModel::rowAt(int row) const
{
    return row >= 0 && std::size_t(row) < m_rows.size() ? &m_rows[std::size_t(row)] : nullptr;
}

QVariant CategoryNamesModel::rowData(int row, int role) const
{
    if (role == KernelNameRole)
        return at(row).name;
    if (role == IdentityRole)
        return row;
    return {};
}

QString CategoryNamesModel::ruleText(const CategoryNameRow& r)
{
    if (r.rule < 0)
        return tr("none matches");
    return r.catchAll ? tr("%1 (catch-all)").arg(r.rule + 1) : QString::number(r.rule + 1);
}

} // namespace nsw
