// SPDX-License-Identifier: GPL-3.0-or-later
#include "rulescommand.h"

#include "core/controllers/categorycontroller.h"

#include <algorithm>

namespace nsw {

RulesCommand::RulesCommand(CategoryController* controller, RuleList before, RuleList after, const QString& text,
    int mergeId, std::function<void(int)> select, int selectRow)
    : QUndoCommand(text)
    , m_controller(controller)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeId(mergeId)
    , m_select(std::move(select))
    , m_row(selectRow)
{ }

void RulesCommand::redo()
{
    m_controller->setRules(m_after);
    m_select(m_row);
}

void RulesCommand::undo()
{
    m_controller->setRules(m_before);
    m_select(std::min(m_row, int(m_before.rules.size()) - 1));
}

bool RulesCommand::mergeWith(const QUndoCommand* other)
{
    if (other->id() != id() || id() < 0)
        return false;
    m_after = static_cast<const RulesCommand*>(other)->m_after;
    return true;
}

} // namespace nsw
