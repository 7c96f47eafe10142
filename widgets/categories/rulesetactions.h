// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The rule editor's actions on whole rule sets, each with its dialogs: a new engine/model, gputrc2graph import and
// export. Refusals and failures are shown in a message box over @p parent.

#include <QString>

class QWidget;

namespace nsw {

class CategoryController;

/// Asks for an engine and a model name and creates them as a copy of the rules shown (with their unsaved edits).
void createModelInteractively(CategoryController& controller, QWidget* parent);
/// Imports a gputrc2graph rule file: asks before it replaces saved rules (a file of that name, or an engine another
/// saved file defines). Returns false when cancelled or failed.
bool importRulesInteractively(CategoryController& controller, const QString& file, QWidget* parent);
/// Asks for a file and exports the rules shown as gputrc2graph JSON.
void exportRulesInteractively(CategoryController& controller, QWidget* parent);

} // namespace nsw
