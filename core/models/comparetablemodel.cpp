// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparetablemodel.h"

#include "core/categories/categorybreakdown.h"
#include "core/compare/compareexport.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

#include <cmath>

namespace nsw {

namespace {
QString perUnit(CompareNormalization n)
{
    switch (n) {
    case CompareNormalization::None:
        return {};
    case CompareNormalization::PerSecond:
        return QStringLiteral(" per s");
    case CompareNormalization::PerIteration:
        return QStringLiteral(" per iteration");
    case CompareNormalization::PerInstance:
        return {}; // counted, not scaled
    }
    return {};
}
} // namespace

CompareTableModel::CompareTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
    m_columns = { { Column::Key, -1 }, { Column::Status, -1 } };
    m_rows = { -1 };
}

void CompareTableModel::setComparison(Comparison comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    m_shortLabels = compactProfileLabels(m_comparison.profiles);
    // The chart's colours: those of the set of categories shown together.
    m_categoryColors.clear();
    if (m_comparison.by == CompareBy::Category) {
        QStringList keys;
        for (const CompareRow& r : m_comparison.rows)
            keys.append(r.key);
        const std::vector<std::uint32_t> colors = categoryColors(keys);
        for (qsizetype k = 0; k < keys.size(); ++k)
            m_categoryColors.insert(keys[k], colors[std::size_t(k)]);
    }
    m_columns = { { Column::Key, -1 }, { Column::Status, -1 } };
    // A comparison that failed (e.g. no iteration marker) has no values to show.
    const std::size_t groups = m_comparison.error.isEmpty() ? m_comparison.profileCount() : 0;
    for (std::size_t p = 0; p < groups; ++p) {
        for (const Column c : { Column::Total, Column::Instances, Column::Average })
            m_columns.emplace_back(c, int(p));
        if (m_comparison.normalization == CompareNormalization::PerInstance)
            m_columns.emplace_back(Column::Median, int(p));
        m_columns.emplace_back(Column::Share, int(p));
        if (p != m_comparison.baseline) {
            m_columns.emplace_back(Column::Delta, int(p));
            m_columns.emplace_back(Column::DeltaInstances, int(p));
            m_columns.emplace_back(Column::DeltaPercent, int(p));
        }
    }
    rebuildRows();
    endResetModel();
}

void CompareTableModel::setStatusFilter(unsigned mask)
{
    if (mask == m_statusMask)
        return;
    beginResetModel();
    m_statusMask = mask;
    rebuildRows();
    endResetModel();
}

void CompareTableModel::rebuildRows()
{
    m_rows.assign(1, -1);
    for (std::size_t r = 0; r < m_comparison.rows.size(); ++r)
        if (m_statusMask & (1u << unsigned(m_comparison.rows[r].summary)))
            m_rows.push_back(int(r));
}

const CompareRow* CompareTableModel::rowAt(int row) const
{
    if (row < 0 || std::size_t(row) >= m_rows.size())
        return nullptr;
    return m_rows[std::size_t(row)] < 0 ? &m_comparison.totals
                                        : &m_comparison.rows[std::size_t(m_rows[std::size_t(row)])];
}

int CompareTableModel::comparisonRow(int row) const
{
    return row >= 0 && std::size_t(row) < m_rows.size() ? m_rows[std::size_t(row)] : -1;
}

int CompareTableModel::rowOfKey(const QString& key) const
{
    for (std::size_t r = 1; r < m_rows.size(); ++r)
        if (m_comparison.rows[std::size_t(m_rows[r])].key == key)
            return int(r);
    return -1;
}

CompareTableModel::Column CompareTableModel::columnKind(int column) const
{
    return column >= 0 && std::size_t(column) < m_columns.size() ? m_columns[std::size_t(column)].first : Column::Key;
}

int CompareTableModel::profileOfColumn(int column) const
{
    return column >= 0 && std::size_t(column) < m_columns.size() ? m_columns[std::size_t(column)].second : -1;
}

int CompareTableModel::columnOf(Column kind, int profile) const
{
    for (std::size_t c = 0; c < m_columns.size(); ++c)
        if (m_columns[c].first == kind
            && (kind == Column::Key || kind == Column::Status || m_columns[c].second == profile))
            return int(c);
    return -1;
}

int CompareTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CompareTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const CompareRow* row = rowAt(index.row());
    const bool totals = index.row() == 0;
    const auto [kind, profile] = m_columns[std::size_t(index.column())];
    switch (role) {
    case PinnedRole:
        return totals;
    case IdentityRole:
        return comparisonRow(index.row());
    case KernelNameRole:
        return totals || m_comparison.by != CompareBy::Kernel ? QVariant() : QVariant(row->key);
    case ColorRole:
        return totals || m_comparison.by != CompareBy::Category ? QVariant()
                                                                : QVariant(m_categoryColors.value(row->key));
    case StatusRole:
        return int(profile < 0 ? row->summary : row->status[std::size_t(profile)]);
    default:
        break;
    }
    if (kind == Column::Key) {
        if (role == Qt::DisplayRole || role == SortRole || role == RawValueRole || role == Qt::ToolTipRole)
            return row->key;
        return {};
    }
    if (kind == Column::Status) {
        // Exports keep the bare status word (scripts compare it); the view adds what changed.
        if (role == SortRole || role == RawValueRole || role == CsvTextRole)
            return compareStatusName(row->summary);
        if (role == Qt::DisplayRole)
            return compareStatusText(m_comparison, *row);
        if (role == Qt::ToolTipRole) {
            QStringList lines;
            for (std::size_t p = 0; p < row->status.size(); ++p)
                if (p != m_comparison.baseline) {
                    const QString change = compareChangeText(m_comparison, *row, p);
                    lines.append(
                        tr("%1: %2 (%3, %4 instances)%5")
                            .arg(m_comparison.profiles[qsizetype(p)], compareStatusName(row->status[p]),
                                formatComparePercent(row->deltaPercent[p]),
                                formatCompareInstancesDelta(row->deltaInstances[p], m_comparison.normalization),
                                change.isEmpty() ? QString() : QStringLiteral(": ") + change));
                }
            return lines.join(QLatin1Char('\n'));
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return cellData(*row, kind, profile, role);
}

QVariant CompareTableModel::cellData(const CompareRow& row, Column kind, int profile, int role) const
{
    const CompareCell& cell = row.cells[std::size_t(profile)];
    const bool integral = m_comparison.normalization == CompareNormalization::None;
    const bool perInstance = m_comparison.normalization == CompareNormalization::PerInstance;
    const bool countsIntegral = integral || perInstance;
    const bool raw = role == SortRole || role == RawValueRole;
    const QString absent = QStringLiteral("–");
    switch (kind) {
    case Column::Total:
        if (raw)
            return integral || perInstance ? QVariant(qint64(cell.totalNs)) : QVariant(cell.total);
        if (role == Qt::DisplayRole && perInstance)
            return cell.present() ? formatDuration(cell.totalNs) : absent;
        if (role == Qt::DisplayRole)
            return cell.present() ? formatCompareValue(cell.total, m_comparison.normalization) : absent;
        if (role == Qt::ToolTipRole)
            return tr("%1 ns in %2 instances").arg(cell.totalNs).arg(cell.instances);
        return {};
    case Column::Instances:
        if (raw)
            return countsIntegral ? QVariant(qint64(cell.instances)) : QVariant(cell.count);
        if (role == Qt::DisplayRole)
            return countsIntegral ? withThousandsSeparators(qint64(cell.instances))
                                  : QString::number(cell.count, 'f', 2);
        return {};
    case Column::Median:
        if (raw)
            return std::isnan(cell.median) ? QVariant() : QVariant(cell.median);
        if (role == Qt::DisplayRole)
            return std::isnan(cell.median) ? absent : formatDuration(std::llround(cell.median));
        if (role == Qt::ToolTipRole && std::isnan(cell.median))
            return tr("Medians are known for kernels only");
        return {};
    case Column::DeltaInstances: {
        const double d = row.deltaInstances[std::size_t(profile)];
        if (raw)
            return countsIntegral ? QVariant(qint64(std::llround(d))) : QVariant(d);
        if (role == Qt::DisplayRole)
            return formatCompareInstancesDelta(d, m_comparison.normalization);
        return {};
    }
    case Column::Average:
        if (raw)
            return cell.average;
        if (role == Qt::DisplayRole)
            return cell.instances > 0 ? formatDuration(std::llround(cell.average)) : absent;
        return {};
    case Column::Share:
        if (raw)
            return cell.share;
        if (role == Qt::DisplayRole)
            return QString(QString::number(cell.share, 'f', 1) + QStringLiteral(" %"));
        return {};
    case Column::Delta:
        if (raw)
            return integral ? QVariant(qint64(std::llround(row.delta[std::size_t(profile)])))
                            : QVariant(row.delta[std::size_t(profile)]);
        if (role == Qt::DisplayRole)
            return formatCompareDelta(row.delta[std::size_t(profile)], m_comparison.normalization);
        return {};
    case Column::DeltaPercent: {
        const double percent = row.deltaPercent[std::size_t(profile)];
        // A key the baseline lacks sorts above every percentage; the CSV says "new" rather than "inf".
        if (role == SortRole)
            return percent;
        if (role == RawValueRole)
            return std::isinf(percent) ? QVariant() : QVariant(percent);
        if (role == Qt::DisplayRole)
            return formatComparePercent(percent);
        return {};
    }
    case Column::Key:
    case Column::Status:
        break;
    }
    return {};
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const auto [kind, profile] = m_columns[std::size_t(section)];
    if (role == ProfileRole)
        return profile;
    if (role != Qt::DisplayRole && role != RawValueRole && role != Qt::ToolTipRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    const QString label = profile >= 0 ? m_comparison.profiles.value(profile) : QString();
    const QString unit = m_comparison.unit();
    if (role == RawValueRole) {
        switch (kind) {
        case Column::Key:
            return tr("Key");
        case Column::Status:
            return tr("Status");
        case Column::Total:
            return tr("%1 Total (%2)")
                .arg(label,
                    m_comparison.normalization == CompareNormalization::PerInstance ? QStringLiteral("ns") : unit);
        case Column::Instances:
            return tr("%1 Instances%2").arg(label, perUnit(m_comparison.normalization));
        case Column::Average:
            return tr("%1 Average (ns)").arg(label);
        case Column::Share:
            return tr("%1 Share (%)").arg(label);
        case Column::Delta:
            return tr("%1 Delta (%2)").arg(label, unit);
        case Column::DeltaPercent:
            return tr("%1 Delta (%)").arg(label);
        case Column::Median:
            return tr("%1 Median (ns)").arg(label);
        case Column::DeltaInstances:
            return tr("%1 Delta instances%2").arg(label, perUnit(m_comparison.normalization));
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (kind) {
        case Column::Key:
            return tr("%1 (%2)").arg(compareByName(m_comparison.by), tr("the totals row is pinned on top"));
        case Column::Status:
            return tr("Against the baseline: regression / improvement beyond %1 % and %2 ns, new, removed, unchanged")
                .arg(m_comparison.thresholdPercent)
                .arg(m_comparison.noiseFloorNs);
        case Column::Total:
            return tr("%1: GPU time (%2)").arg(label, unit);
        case Column::Instances:
            return tr("%1: instances%2").arg(label, perUnit(m_comparison.normalization));
        case Column::Average:
            return tr("%1: time per instance").arg(label);
        case Column::Share:
            return tr("%1: share of its GPU time").arg(label);
        case Column::Median:
            return tr("%1: median time per instance").arg(label);
        case Column::Delta:
        case Column::DeltaPercent:
        case Column::DeltaInstances:
            return tr("%1 minus the baseline %2")
                .arg(label, m_comparison.profiles.value(qsizetype(m_comparison.baseline)));
        }
        return {};
    }
    // The group's name over each of its columns (short: the parts the profile names share are left out); the
    // baseline says so over its first column.
    const QString group = m_shortLabels.value(profile)
        + (kind == Column::Total && profile >= 0 && std::size_t(profile) == m_comparison.baseline ? tr(" (baseline)")
                                                                                                  : QString());
    switch (kind) {
    case Column::Key:
        return m_comparison.by == CompareBy::Category ? tr("Category")
            : m_comparison.by == CompareBy::Nvtx      ? tr("NVTX path")
                                                      : tr("Kernel");
    case Column::Status:
        return tr("Status");
    case Column::Total:
        return QString(group + QLatin1Char('\n') + tr("Total"));
    case Column::Instances:
        return QString(group + QLatin1Char('\n') + tr("Instances"));
    case Column::Average:
        return QString(group + QLatin1Char('\n') + tr("Average"));
    case Column::Share:
        return QString(group + QLatin1Char('\n') + tr("Share"));
    case Column::Delta:
        return QString(group + QLatin1Char('\n') + tr("Δ"));
    case Column::DeltaPercent:
        return QString(group + QLatin1Char('\n') + tr("Δ %"));
    case Column::Median:
        return QString(group + QLatin1Char('\n') + tr("Median"));
    case Column::DeltaInstances:
        return QString(group + QLatin1Char('\n') + tr("Δ instances"));
    }
    return {};
}

} // namespace nsw
