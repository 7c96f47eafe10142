// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/samplemodels.h"

#include "core/models/modelroles.h"
#include "core/util/numberformat.h"

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

QVariant sampleHeader(int section, Qt::Orientation orientation, int role)
{
    if (orientation != Qt::Horizontal || section < 0 || section >= SampleColumnCount)
        return {};
    if (role != Qt::DisplayRole && role != RawValueRole && role != CsvTextRole)
        return {};
    static const char* const kNames[] = { "Function", "Module", "Self", "Total", "Self %", "Total %" };
    return QString::fromLatin1(kNames[section]);
}

} // namespace

SampleFlatModel::SampleFlatModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void SampleFlatModel::setFunctions(ProfilePtr profile, std::vector<FunctionCount> functions, qint64 samples)
{
    beginResetModel();
    m_profile = std::move(profile);
    m_functions = std::move(functions);
    m_samples = samples;
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

int SampleFlatModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : SampleColumnCount;
}

QVariant SampleFlatModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const FunctionCount& f = m_functions[std::size_t(index.row())];
    return sampleCell(*m_profile, f.function, f.self, f.total, m_samples, index.column(), role);
}

QVariant SampleFlatModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return sampleHeader(section, orientation, role);
}

SampleTreeModel::SampleTreeModel(QObject* parent)
    : TreeModel<SampleViewNode>(parent)
{ }

void SampleTreeModel::setRows(ProfilePtr profile, const std::vector<SampleTreeRow>& rows, qint64 samples)
{
    beginResetModel();
    m_profile = std::move(profile);
    m_samples = samples;
    m_nodes.assign(rows.size() + 1, SampleViewNode {});
    for (std::size_t i = 0; i < rows.size(); ++i) {
        SampleViewNode& n = m_nodes[i + 1];
        n.parent = rows[i].parentRow + 1;
        n.function = rows[i].function;
        n.self = rows[i].self;
        n.total = rows[i].total;
        std::vector<std::int32_t>& siblings = m_nodes[std::size_t(n.parent)].children;
        n.row = std::int32_t(siblings.size());
        siblings.push_back(std::int32_t(i + 1));
    }
    setNodes(&m_nodes);
    endResetModel();
}

std::int32_t SampleTreeModel::functionOf(const QModelIndex& index) const
{
    return index.isValid() ? node(nodeOf(index)).function : -1;
}

int SampleTreeModel::columnCount(const QModelIndex&) const
{
    return SampleColumnCount;
}

QVariant SampleTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !hasNodes())
        return {};
    const SampleViewNode& n = node(nodeOf(index));
    return sampleCell(*m_profile, n.function, n.self, n.total, m_samples, index.column(), role);
}

QVariant SampleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return sampleHeader(section, orientation, role);
}

} // namespace nsw
