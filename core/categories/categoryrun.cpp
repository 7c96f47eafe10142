// SPDX-License-Identifier: GPL-3.0-or-later
#include "categoryrun.h"

#include "core/categories/rulelibrary.h"
#include "core/util/numberformat.h"

namespace nsw {

namespace {
/// The CPU segment's wall time and what it is called in warnings, or kNoTime (and why, when it is left out).
struct WallTime
{
    TimeNs ns = kNoTime;
    QString source;
    QString leftOut;
};

WallTime wallTimeOf(const WallTimeSource& wall, const CategoryTimeline& whole, const FocusRange& focus)
{
    switch (wall.kind) {
    case WallTimeSource::Kind::None:
        return {};
    case WallTimeSource::Kind::Capture:
        if (focus.isActive())
            return { focus.durationNs(), QStringLiteral("focus range"), {} };
        return { whole.profile()->captureDurationNs(), QStringLiteral("capture span"), {} };
    case WallTimeSource::Kind::Entered:
        if (wall.enteredNs == kNoTime)
            return {};
        if (focus.isActive())
            return { kNoTime, {},
                QStringLiteral("the wall time entered covers the whole run, not the focus: no CPU (non-GPU) segment") };
        return { wall.enteredNs, QStringLiteral("wall time"), {} };
    }
    return {};
}

/// Refuses a request whose regex searches would run for minutes.
QString searchBudgetProblem(const CategoryRequest& request, std::size_t names)
{
    const qint64 rules = qint64(request.rules.rules.size());
    const qint64 searched = qint64(names) + (request.diagnoseShadowing ? representativeKernelNames().size() : 0);
    if (rules == 0 || searched <= kMaxRuleSearches / rules)
        return {};
    return QStringLiteral("%1 rules against %2 distinct kernel and memory operation names are %3 regex searches, more "
                          "than the %4 one categorisation runs (it would take minutes): use fewer rules")
        .arg(withThousandsSeparators(rules), withThousandsSeparators(searched),
            withThousandsSeparators(rules * searched), withThousandsSeparators(kMaxRuleSearches));
}
} // namespace

Result<CategoryResult> computeCategories(const CategoryRequest& request, const JobContext& job)
{
    const CategoryTimeline& whole = *request.timeline;
    if (const QString problem = searchBudgetProblem(request, whole.names().size()); !problem.isEmpty())
        return Result<CategoryResult>::failure(ErrorKind::Usage, problem);
    std::shared_ptr<RuleMatchCache> matches = request.matches;
    if (!matches)
        matches = std::make_shared<RuleMatchCache>(NameSet { whole.demangledNames(), whole.shortNames() });
    job.report(QStringLiteral("matching rules"), 0);
    CategoryResult result;
    result.evaluation
        = evaluateRules(request.rules, *matches, request.diagnoseShadowing ? &representativeMatchCache() : nullptr);
    if (job.isCancelled())
        return Result<CategoryResult>::cancelled();
    job.report(QStringLiteral("adding up"), 0.5);
    result.timeline = request.focus.isActive() && !(whole.focus() == request.focus) ? whole.focused(request.focus)
                                                                                    : request.timeline;
    const WallTime wall = wallTimeOf(request.wall, whole, request.focus);
    CategoryOptions options;
    options.mode = request.mode;
    options.perDevice = request.perDevice;
    options.wallNs = wall.ns;
    options.wallSource = wall.source;
    result.breakdown = categorize(*result.timeline, request.rules, result.evaluation, options);
    if (!wall.leftOut.isEmpty())
        result.breakdown.warnings.append(wall.leftOut);
    for (std::size_t r = 0; r < result.evaluation.rules.size(); ++r)
        if (const QString budget = ruleBudgetText(result.evaluation.rules[r]); !budget.isEmpty())
            result.breakdown.warnings.append(
                QStringLiteral("rule %1 \"%2\": %3").arg(r + 1).arg(request.rules.rules[r].key(), budget));
    return result;
}

Result<std::vector<ProfileCategories>> categoryMappingProfiles(
    std::vector<ProfileCategories> profiles, const std::vector<CategoryRequest>& requests)
{
    for (std::size_t i = 0; i < profiles.size() && i < requests.size(); ++i) {
        if (!requests[i].perDevice)
            continue;
        CategoryRequest whole = requests[i];
        whole.perDevice = false;
        Result<CategoryResult> result = computeCategories(whole);
        if (!result)
            return result.failureAs<std::vector<ProfileCategories>>();
        profiles[i].breakdown = std::move(result->breakdown);
    }
    return profiles;
}

} // namespace nsw
