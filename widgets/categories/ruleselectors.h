// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QComboBox;

namespace nsw {

class CategoryController;

/// Fills an engine and a model selector with the library's choices, the current ones selected, without emitting
/// their change signals (the Categories pane and the rule editor share it).
void fillRuleSelectors(const CategoryController& controller, QComboBox* engine, QComboBox* model);

} // namespace nsw
