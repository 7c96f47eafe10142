// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/rulespecs.h"
#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/profile/focusrange.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <variant>
#include <vector>

namespace nsw {

/// One value of a rule's table: NULL, an integer (ns, bytes, ids), a real (a percentage) or text.
using RuleCell = std::variant<std::monostate, qint64, double, QString>;
using RuleRow = std::vector<RuleCell>;

/// What one rule found, as nsys analyze reports it.
struct RuleTable
{
    const RuleSpec* spec = nullptr;
    QString arguments; ///< the options as given ("gap=1")
    QString advice;
    QString noResult;
    QString rowLimitNote;
    QString skipped; ///< nsys's SKIPPED message when the export lacks the rule's data; rows are empty then
    std::vector<RuleRow> rows;
};

/// `nsys analyze` on one export: the rules to run (planRules()), in order.
struct AnalysisRequest
{
    QString path; ///< as the user gave it: skip messages name the file this way, as nsys does
    std::vector<RuleRequest> rules;
    /// The window of every rule without its own start/end/nvtx options (nsys's filter: rows that overlap it,
    /// durations not clipped); inactive = none.
    FocusRange focus;
    /// Set when the focus is an NVTX range instance: its globalTid, so that the rules keep nsys's thread (push/pop
    /// range) or process (start/end range) filter.
    std::optional<qint64> focusGlobalTid;
};

struct AnalysisResult
{
    std::vector<RuleTable> rules;
    QStringList warnings; ///< damage the rules read past (RuleInput::damageWarnings())
};

/// Runs every rule of @p request on the export, reading SQLite directly (only the columns each rule needs).
/// Fails with ErrorKind::Input when the file cannot be read, Usage when a rule's window is impossible (start >
/// end), Cancelled when @p job is cancelled; a rule without its data comes back with `skipped` set.
Result<AnalysisResult> computeAnalysis(const AnalysisRequest& request, const JobContext& job = {});

} // namespace nsw
