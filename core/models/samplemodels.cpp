// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/samplemodels.h"

#include "core/models/modelroles.h"
#include "core/util/numberformat.h"

#include <algorithm>

namespace nsw {

namespace {

/// One cell of any samples view: DisplayRole formatted, SortRole/RawValueRole raw, CsvTextRole as the CSV writes it.
QVariant sampleCell(
    const Profile& profile, std::int32_t function, qint64 self, qint64 total, qint64 samples, int column, int role)
{
    if (role == SampleFunctionRole)
        return function;
    if (role == Qt::ToolTipRole && column == SampleFunctionColumn) {
        QString tip = sampleFunctionName(profile, function);
        if (sampleIsKernel(profile, function))
            tip += QStringLiteral("\nkernel-mode frame");
        if (sampleIsUnresolved(profile, function))
            tip += QStringLiteral("\nunresolved: nsys could not name this address");
        return tip;
    }
    const bool raw = role == SortRole || role == RawValueRole;
    if (!raw && role != Qt::DisplayRole && role != CsvTextRole)
        return {};
    switch (column) {
    case SampleFunctionColumn:
        return role == Qt::DisplayRole ? sampleFrameLabel(profile, function) : sampleFunctionName(profile, function);
    case SampleModuleColumn:
        return sampleModuleName(profile, function);
    case SampleSelfColumn:
    case SampleTotalColumn: {
        const qint64 n = column == SampleSelfColumn ? self : total;
        return raw ? QVariant(n) : role == CsvTextRole ? QVariant(QString::number(n)) : withThousandsSeparators(n);
    }
    case SampleSelfPercentColumn:
    case SampleTotalPercentColumn: {
        const double p = samplePercent(column == SampleSelfPercentColumn ? self : total, samples);
        if (raw)
            return p;
        return role == CsvTextRole ? QString::number(p, 'f', 2) : QString::number(p, 'f', 1) + QStringLiteral(" %");
    }
    }
    return {};
}

/// @p presorted: the column whose SortRole the rows descend by, if any (-1: none).
QVariant sampleHeader(int section, Qt::Orientation orientation, int role, int presorted)
{
    if (orientation != Qt::Horizontal || section < 0 || section >= SampleColumnCount)
        return {};
    if (role == PresortedRole)
        return section == presorted ? QVariant(int(Qt::DescendingOrder)) : QVariant();
    if (role != Qt::DisplayRole && role != RawValueRole && role != CsvTextRole)
        return {};
    static const char* const kNames[] = { "Function", "Module", "Self", "Total", "Self %", "Total %" };
    return QString::fromLatin1(kNames[section]);
}

} // namespace

SampleFlatModel::SampleFlatModel(QObject* parent)
    : SampleColumns(parent)
{ }

void SampleFlatModel::setFunctions(ProfilePtr profile, std::vector<FunctionCount> functions, qint64 samples)
{
    beginResetModel();
    m_profile = std::move(profile);
    m_functions = std::move(functions);
    m_samples = samples;
    m_bySelf = std::is_sorted(m_functions.begin(), m_functions.end(),
        [](const FunctionCount& a, const FunctionCount& b) { return a.self > b.self; });
    endResetModel();
}

const FunctionCount* SampleFlatModel::functionAt(int row) const
{
    return row >= 0 && std::size_t(row) < m_functions.size() ? &m_functions[std::size_t(row)] : nullptr;
}

int SampleFlatModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_functions.size());
}

std::optional<SampleRowCounts> SampleFlatModel::countsAt(const QModelIndex& index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return std::nullopt;
    const FunctionCount& f = m_functions[std::size_t(index.row())];
    return SampleRowCounts { f.function, f.self, f.total };
}

SampleTreeModel::SampleTreeModel(QObject* parent)
    : SampleColumns(parent)
{ }

void SampleTreeModel::setRows(ProfilePtr profile, const std::vector<SampleTreeRow>& rows, qint64 samples)
{
    beginResetModel();
    m_profile = std::move(profile);
    m_samples = samples;
    // Every node's children in one array: a bottom-up tree has a node per caller of every function, and a vector
    // each was a million allocations on the GUI thread.
    std::vector<std::uint32_t> begin;
    linkChildLists(
        rows.size() + 1, [&](std::size_t v) { return rows[v - 1].parentRow + 1; }, begin, m_childList);
    m_nodes.assign(rows.size() + 1, SampleViewNode {});
    m_byTotal = true;
    for (std::size_t v = 0; v < m_nodes.size(); ++v) {
        SampleViewNode& n = m_nodes[v];
        if (v > 0) {
            const SampleTreeRow& r = rows[v - 1];
            n.parent = r.parentRow + 1;
            n.function = r.function;
            n.self = r.self;
            n.total = r.total;
        }
        n.children = { m_childList.data() + begin[v], m_childList.data() + begin[v + 1] };
    }
    for (const SampleViewNode& n : m_nodes)
        for (std::size_t k = 0; k < n.children.size(); ++k) {
            m_nodes[std::size_t(n.children[k])].row = std::int32_t(k);
            if (k > 0 && m_nodes[std::size_t(n.children[k - 1])].total < m_nodes[std::size_t(n.children[k])].total)
                m_byTotal = false;
        }
    setNodes(&m_nodes);
    endResetModel();
}

std::int32_t SampleTreeModel::functionOf(const QModelIndex& index) const
{
    return index.isValid() ? node(nodeOf(index)).function : -1;
}

std::optional<SampleRowCounts> SampleTreeModel::countsAt(const QModelIndex& index) const
{
    if (!index.isValid() || !hasNodes())
        return std::nullopt;
    const SampleViewNode& n = node(nodeOf(index));
    return SampleRowCounts { n.function, n.self, n.total };
}

template <typename Base> int SampleColumns<Base>::columnCount(const QModelIndex&) const
{
    return SampleColumnCount;
}

template <typename Base> QVariant SampleColumns<Base>::data(const QModelIndex& index, int role) const
{
    // Each model checks the index its own way: a tree's full check would look up the parent on every paint of a cell.
    const std::optional<SampleRowCounts> c = countsAt(index);
    return c ? sampleCell(*m_profile, c->function, c->self, c->total, m_samples, index.column(), role) : QVariant();
}

template <typename Base>
QVariant SampleColumns<Base>::headerData(int section, Qt::Orientation orientation, int role) const
{
    return sampleHeader(section, orientation, role, presortedColumn());
}

template class SampleColumns<QAbstractTableModel>;
template class SampleColumns<TreeModel<SampleViewNode>>;

} // namespace nsw
