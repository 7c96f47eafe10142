// SPDX-License-Identifier: GPL-3.0-or-later
#include "categoryrun.h"

namespace nsw {

Result<CategoryResult> computeCategories(const CategoryRequest& request, const JobContext& job)
{
    std::shared_ptr<RuleMatchCache> matches = request.matches;
    if (!matches)
        matches = std::make_shared<RuleMatchCache>(
            NameSet { request.timeline->demangledNames(), request.timeline->shortNames() });
    job.report(QStringLiteral("matching rules"), 0);
    CategoryResult result;
    result.evaluation
        = evaluateRules(request.rules, *matches, request.diagnoseShadowing ? &representativeMatchCache() : nullptr);
    if (job.isCancelled())
        return Result<CategoryResult>::cancelled();
    job.report(QStringLiteral("adding up"), 0.5);
    if (request.focus.isActive() && !(request.timeline->focus() == request.focus)) {
        const auto focused = request.timeline->focused(request.focus);
        result.breakdown = categorize(*focused, request.rules, result.evaluation, request.options);
    } else {
        result.breakdown = categorize(*request.timeline, request.rules, result.evaluation, request.options);
    }
    for (std::size_t r = 0; r < result.evaluation.rules.size(); ++r)
        if (const QString budget = ruleBudgetText(result.evaluation.rules[r]); !budget.isEmpty())
            result.breakdown.warnings.append(
                QStringLiteral("rule %1 \"%2\": %3").arg(r + 1).arg(request.rules.rules[r].key(), budget));
    return result;
}

} // namespace nsw
