// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/rulefile.h"

#include <QHash>
#include <QMutex>
#include <QStringList>
#include <memory>
#include <vector>

namespace nsw {

/// A set of names to classify: the demangled names (what gputrc2graph matches) and the short names, in step.
struct NameSet
{
    QStringList demangled;
    QStringList shortNames;
    std::size_t size() const { return std::size_t(demangled.size()); }
};

/// What a rule's regex says of one name (RuleMatchCache::matches).
enum RuleMatch : char
{
    kNoMatch = 0,
    kMatched = 1,
    kOverBudget = 2, ///< the search reached BoundedRegex's budget: neither matched nor not
    kNotTried = 3 ///< not searched: the rule had already gone over budget on BoundedRegex::kMaxOverBudgetSubjects names
};

/// One RuleMatch per name (empty when the rule's regex is invalid), and the step budget each search had.
struct RuleMatches
{
    std::vector<char> byName;
    unsigned matchLimit = 0;
};

/// Which names each rule's regex is found in (Python `re.search` semantics, under BoundedRegex's budget), cached per
/// rule so that editing one rule only runs that rule again. Thread-safe.
class RuleMatchCache
{
public:
    explicit RuleMatchCache(NameSet names);
    const NameSet& names() const { return m_names; }
    /// Searched under BoundedRegex::kMatchLimit steps per name until the rules searched here have been over it
    /// BoundedRegex::kMaxOverBudgetTotal times, then under BoundedRegex::kSpentMatchLimit: a file of catastrophic
    /// patterns costs a bounded time in all, not a few full budgets per pattern.
    std::shared_ptr<const RuleMatches> matches(const CategoryRule& rule);

private:
    NameSet m_names;
    QMutex m_mutex;
    QHash<QString, std::shared_ptr<const RuleMatches>> m_cache;
    int m_overBudget = 0; ///< searches over budget so far, all rules (under m_mutex)
};

struct RuleDiagnostic
{
    enum Status
    {
        Wins, ///< wins at least one name of the profile or of the representative set
        Shadowed, ///< finds names, but an earlier rule always takes them
        Unused, ///< finds no name at all
        CatchAll, ///< matches any name (e.g. ".*"): takes whatever is left
        Invalid ///< the regex does not compile
    };
    Status status = Unused;
    int namesWon = 0; ///< distinct profile names this rule classifies
    int namesMatched = 0; ///< profile names its regex finds, won or not
    int representativeWon = 0;
    int representativeMatched = 0;
    int shadowedBy = -1; ///< the earlier rule that takes most of the names this one finds
    QString error;
    /// Names of the profile the rule could not decide within the budget (kOverBudget), the first of them, and the
    /// names left unsearched after that (kNotTried). Those names are not counted as matched by the rule.
    int namesOverBudget = 0;
    QString firstOverBudget;
    int namesNotTried = 0;
    unsigned matchLimit = 0; ///< the steps each search of the rule had (RuleMatches::matchLimit)
};

/// The rule's outcome ("ok", "shadowed by rule 2"...), then its budget text when it has one.
QString ruleStatusText(const RuleDiagnostic& d);
QString ruleOutcomeText(const RuleDiagnostic& d);
/// "too expensive on 'NAME' and 2 other names, not tried on 40 more names (…)", or empty.
QString ruleBudgetText(const RuleDiagnostic& d);

/// First-match classification of a name set plus the per-rule diagnostics.
struct RuleEvaluation
{
    std::vector<int> ruleOfName; ///< per profile name: the winning rule, or -1 when none matches
    std::vector<RuleDiagnostic> rules;
};

/// Classifies @p profile names with @p rules (first match in order wins); @p representative (optional) only feeds
/// the shadowing diagnostics.
RuleEvaluation evaluateRules(const RuleList& rules, RuleMatchCache& profile, RuleMatchCache* representative);

/// The shared cache of the representative kernel names (representativeKernelNames()).
RuleMatchCache& representativeMatchCache();

/// A rule proposal for a name that no rule classifies well: the escaped short name (e.g. "flash_fwd_kernel").
CategoryRule suggestRule(const QString& demangled, const QString& shortName, const QString& category);

} // namespace nsw
