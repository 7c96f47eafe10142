// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/analysisrun.h"

#include <QString>
#include <nlohmann/json.hpp>

namespace nsw {

/// A cell as nsys analyze prints it: integers as they are, bytes in MB with 3 decimals, percentages with one
/// decimal, NULL as an empty field.
QString ruleCellText(const RuleCell& cell, ColumnKind kind);

/// nsys analyze --format csv for one rule: the header and the rows (a comma inside a field quotes it), nothing
/// when the rule found nothing (nsys prints no header then).
QString ruleToCsv(const RuleTable& table);

/// nsys analyze's console output for one rule: " ** Title (name):", then the advice wrapped at 80 columns and
/// the table in nsys's column format (plus the row-limit note), or the no-result message; "SKIPPED: ..." alone
/// for a skipped rule.
QString ruleToText(const RuleTable& table);

/// {rule, title, arguments, advice, columns, rows} (raw values: ns, bytes, percent), or {rule, skipped}.
nlohmann::ordered_json ruleToJson(const RuleTable& table);

/// @p text wrapped line by line at @p width columns as Python's textwrap does for nsys's messages.
QString wrapText(const QString& text, int width = 80);

} // namespace nsw
