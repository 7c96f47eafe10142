// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorybreakdown.h"
#include "core/categories/ruleevaluation.h"
#include "core/categories/rulefile.h"
#include "core/models/modelroles.h"

#include <QAbstractTableModel>

namespace nsw {

/// The rule editor's table: the rules of one engine/model with their hits on the current profile. The model never
/// changes the rules itself: edits and drops are requested through signals, so that the editor can validate them
/// and put them on its undo stack, then hand the new list back with setRules().
class RuleTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        IndexColumn,
        PatternColumn,
        CategoryColumn,
        CaseColumn,
        MatchColumn,
        NoteColumn,
        NamesColumn,
        InstancesColumn,
        TimeColumn,
        StatusColumn,
        ColumnCount
    };
    /// RuleDiagnostic::Status of the row (int).
    static constexpr int StatusRole = FirstCustomRole;
    /// 0xAARRGGBB of the row's category.
    static constexpr int ColorRole = FirstCustomRole + 1;
    static constexpr const char* kMimeType = "application/x-nsw-rule-row";

    explicit RuleTableModel(QObject* parent = nullptr);

    void setRules(const RuleList& rules);
    const RuleList& rules() const { return m_rules; }
    /// Hits of the rules on the current profile (same rule count), or none.
    void setDiagnostics(std::vector<RuleDiagnostic> diagnostics, std::vector<std::int64_t> instances,
        std::vector<TimeNs> time, TimeMode mode);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::DropActions supportedDropActions() const override;
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool canDropMimeData(
        const QMimeData* data, Qt::DropAction action, int row, int column, const QModelIndex& parent) const override;
    bool dropMimeData(
        const QMimeData* data, Qt::DropAction action, int row, int column, const QModelIndex& parent) override;

Q_SIGNALS:
    /// The user edited a cell: @p rule is the rule as it would become.
    void editRequested(int row, const nsw::CategoryRule& rule);
    /// The user dragged rule @p from so that it lands at index @p to of the new list.
    void moveRequested(int from, int to);

private:
    RuleList m_rules;
    std::vector<RuleDiagnostic> m_diagnostics;
    std::vector<std::int64_t> m_instances;
    std::vector<TimeNs> m_time;
    TimeMode m_mode = TimeMode::Global;
};

} // namespace nsw
