// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/models/treemodel.h"
#include "core/samples/samplesexport.h"

#include <QAbstractTableModel>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace nsw {

/// The columns every samples view shows, in this order (`Function,Module,Self,Total,Self %,Total %`).
enum SampleColumn
{
    SampleFunctionColumn,
    SampleModuleColumn,
    SampleSelfColumn,
    SampleTotalColumn,
    SampleSelfPercentColumn,
    SampleTotalPercentColumn,
    SampleColumnCount
};

/// Roles beyond modelroles.h: the CpuFunctionTable row of a row (-1: samples without a stack).
constexpr int SampleFunctionRole = Qt::UserRole + 40;

/// The function and sample counts a row of a samples view stands for.
struct SampleRowCounts
{
    std::int32_t function = -1;
    qint64 self = 0;
    qint64 total = 0;
};

/// The six columns of every samples view, over a table or a tree model: the subclass says which function and counts
/// a valid index stands for, and which column its rows already descend by (PresortedRole).
template <typename Base> class SampleColumns : public Base
{
public:
    using Base::Base;

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    /// Nothing for an index this model does not hold.
    virtual std::optional<SampleRowCounts> countsAt(const QModelIndex& index) const = 0;
    /// The column the rows descend by, or -1.
    virtual int presortedColumn() const = 0;

    ProfilePtr m_profile;
    qint64 m_samples = 0; ///< the selection's samples, for the percentages
};

/// The flat function list of a samples selection: what the Samples pane shows and `samples --format csv` writes
/// (through writeModelCsv: CsvTextRole gives the raw counts and percentages with 2 decimals).
class SampleFlatModel : public SampleColumns<QAbstractTableModel>
{
    Q_OBJECT
public:
    explicit SampleFlatModel(QObject* parent = nullptr);

    void setFunctions(ProfilePtr profile, std::vector<FunctionCount> functions, qint64 samples);
    const FunctionCount* functionAt(int row) const;
    int rowCount(const QModelIndex& parent = {}) const override;

protected:
    std::optional<SampleRowCounts> countsAt(const QModelIndex& index) const override;
    int presortedColumn() const override { return m_bySelf ? SampleSelfColumn : -1; }

private:
    std::vector<FunctionCount> m_functions;
    bool m_bySelf = true; ///< the functions descend by self samples, as countFunctions() orders them
};

struct SampleViewNode
{
    std::int32_t parent = -1;
    std::int32_t row = 0;
    std::span<const std::int32_t> children; ///< in SampleTreeModel's one array of every node's children
    std::int32_t function = -1;
    qint64 self = 0;
    qint64 total = 0;
};

extern template class SampleColumns<QAbstractTableModel>; // samplemodels.cpp
extern template class SampleColumns<TreeModel<SampleViewNode>>;

/// A top-down or bottom-up tree of a samples selection (rows from topDownRows()/bottomUpRows()).
class SampleTreeModel : public SampleColumns<TreeModel<SampleViewNode>>
{
    Q_OBJECT
public:
    explicit SampleTreeModel(QObject* parent = nullptr);

    void setRows(ProfilePtr profile, const std::vector<SampleTreeRow>& rows, qint64 samples);
    /// The function of a node (-1: none).
    std::int32_t functionOf(const QModelIndex& index) const;

protected:
    std::optional<SampleRowCounts> countsAt(const QModelIndex& index) const override;
    int presortedColumn() const override { return m_byTotal ? SampleTotalColumn : -1; }

private:
    std::vector<SampleViewNode> m_nodes;
    std::vector<std::int32_t> m_childList;
    bool m_byTotal = true; ///< siblings descend by total samples, as the tree rows order them
};

} // namespace nsw
