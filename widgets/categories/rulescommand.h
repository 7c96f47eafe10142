// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/rulefile.h"

#include <QUndoCommand>
#include <functional>

namespace nsw {

class CategoryController;

/// One undo step of the rule editor. Rule lists are small: each step keeps the list before and after (a snapshot).
/// Steps with the same @p mergeId >= 0 merge into one (typing in one field of one rule).
class RulesCommand : public QUndoCommand
{
public:
    /// @p select makes a rule current: @p selectRow after redo, the same row (or the last) after undo.
    RulesCommand(CategoryController* controller, RuleList before, RuleList after, const QString& text, int mergeId,
        std::function<void(int)> select, int selectRow);
    void redo() override;
    void undo() override;
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    CategoryController* m_controller;
    RuleList m_before;
    RuleList m_after;
    int m_mergeId;
    std::function<void(int)> m_select;
    int m_row;
};

} // namespace nsw
