// SPDX-License-Identifier: GPL-3.0-or-later
#include "ruleevaluation.h"

#include "core/categories/categorytimeline.h"
#include "core/categories/rulelibrary.h"
#include "core/util/boundedregex.h"
#include "core/util/numberformat.h"

#include <QMutexLocker>
#include <QRegularExpression>
#include <algorithm>
#include <map>

namespace nsw {

namespace {
QString cacheKey(const CategoryRule& rule)
{
    return QLatin1Char(rule.name == RuleNameKind::Short ? 's' : 'd') + QLatin1Char(rule.caseInsensitive ? 'i' : 'c')
        + rule.pattern;
}

QString escapeRegex(const QString& text)
{
    static const QString special = QStringLiteral("\\.^$|?*+()[]{}");
    QString out;
    for (const QChar c : text) {
        if (special.contains(c))
            out.append(QLatin1Char('\\'));
        out.append(c);
    }
    return out;
}

/// The earlier rule that wins most of the names @p matches flags without @p rule winning them.
int mostFrequentWinner(const std::vector<char>& matches, const std::vector<int>& winner, int rule)
{
    std::map<int, int> counts;
    for (std::size_t n = 0; n < matches.size(); ++n)
        if (matches[n] == kMatched && winner[n] >= 0 && winner[n] != rule)
            ++counts[winner[n]];
    int best = -1;
    int bestCount = 0;
    for (const auto& [r, c] : counts)
        if (c > bestCount) {
            best = r;
            bestCount = c;
        }
    return best;
}

std::vector<int> firstMatches(const std::vector<std::shared_ptr<const RuleMatches>>& matches, std::size_t names)
{
    std::vector<int> winner(names, -1);
    std::size_t left = names;
    for (std::size_t r = 0; r < matches.size() && left > 0; ++r) {
        if (!matches[r] || matches[r]->byName.empty())
            continue;
        const std::vector<char>& m = matches[r]->byName;
        for (std::size_t n = 0; n < names; ++n)
            if (winner[n] < 0 && m[n] == kMatched) {
                winner[n] = int(r);
                --left;
            }
    }
    return winner;
}
} // namespace

RuleMatchCache::RuleMatchCache(NameSet names)
    : m_names(std::move(names))
{ }

std::shared_ptr<const RuleMatches> RuleMatchCache::matches(const CategoryRule& rule)
{
    const QString key = cacheKey(rule);
    unsigned matchLimit = 0;
    {
        QMutexLocker lock(&m_mutex);
        if (const auto it = m_cache.constFind(key); it != m_cache.constEnd())
            return it.value();
        matchLimit = BoundedRegex::matchLimitAfter(m_overBudget);
    }
    auto result = std::make_shared<RuleMatches>();
    result->matchLimit = matchLimit;
    const BoundedRegex re(rule.pattern, rule.caseInsensitive, result->matchLimit);
    int overBudget = 0;
    if (re.isValid()) {
        const QStringList& subjects = rule.name == RuleNameKind::Short ? m_names.shortNames : m_names.demangled;
        std::vector<char>& byName = result->byName;
        byName.assign(std::size_t(subjects.size()), kNotTried);
        for (qsizetype n = 0; n < subjects.size() && overBudget < BoundedRegex::kMaxOverBudgetSubjects; ++n) {
            switch (re.search(subjects[n])) {
            case BoundedRegex::Outcome::Match:
                byName[std::size_t(n)] = kMatched;
                break;
            case BoundedRegex::Outcome::NoMatch:
                byName[std::size_t(n)] = kNoMatch;
                break;
            case BoundedRegex::Outcome::OverBudget:
                byName[std::size_t(n)] = kOverBudget;
                ++overBudget;
                break;
            }
        }
    }
    QMutexLocker lock(&m_mutex);
    m_overBudget += overBudget;
    if (m_cache.size() > 4096)
        m_cache.clear();
    m_cache.insert(key, result);
    return result;
}

QString ruleStatusText(const RuleDiagnostic& d)
{
    const QString status = ruleOutcomeText(d);
    const QString budget = ruleBudgetText(d);
    return budget.isEmpty() ? status : status + QStringLiteral("; ") + budget;
}

QString ruleOutcomeText(const RuleDiagnostic& d)
{
    switch (d.status) {
    case RuleDiagnostic::Wins:
        return QStringLiteral("ok");
    case RuleDiagnostic::Shadowed:
        return d.shadowedBy >= 0 ? QStringLiteral("shadowed by rule %1").arg(d.shadowedBy + 1)
                                 : QStringLiteral("shadowed");
    case RuleDiagnostic::Unused:
        return QStringLiteral("matches nothing");
    case RuleDiagnostic::CatchAll:
        return QStringLiteral("catch-all");
    case RuleDiagnostic::Invalid:
        return QStringLiteral("invalid: ") + d.error;
    }
    return {};
}

QString ruleBudgetText(const RuleDiagnostic& d)
{
    if (d.namesOverBudget == 0)
        return {};
    QString text = QStringLiteral("too expensive on '%1'").arg(d.firstOverBudget);
    if (d.namesOverBudget > 1)
        text += QStringLiteral(" and %1").arg(
            countOf(d.namesOverBudget - 1, QStringLiteral("other name"), QStringLiteral("other names")));
    if (d.namesNotTried > 0)
        text += QStringLiteral(", not tried on %1")
                    .arg(countOf(d.namesNotTried, QStringLiteral("more name"), QStringLiteral("more names")));
    return text
        + QStringLiteral(" (over the regex's budget of %1 steps per name: those names are not counted as "
                         "matched)")
              .arg(d.matchLimit);
}

RuleEvaluation evaluateRules(const RuleList& rules, RuleMatchCache& profile, RuleMatchCache* representative)
{
    const std::size_t ruleCount = rules.rules.size();
    std::vector<std::shared_ptr<const RuleMatches>> matches(ruleCount);
    std::vector<std::shared_ptr<const RuleMatches>> repMatches(ruleCount);
    for (std::size_t r = 0; r < ruleCount; ++r) {
        matches[r] = profile.matches(rules.rules[r]);
        if (representative)
            repMatches[r] = representative->matches(rules.rules[r]);
    }
    RuleEvaluation result;
    result.ruleOfName = firstMatches(matches, profile.names().size());
    const std::vector<int> repWinner
        = representative ? firstMatches(repMatches, representative->names().size()) : std::vector<int>();
    result.rules.resize(ruleCount);
    for (std::size_t r = 0; r < ruleCount; ++r) {
        RuleDiagnostic& d = result.rules[r];
        const CategoryRule& rule = rules.rules[r];
        if (const QString error = validateRulePattern(rule); !error.isEmpty()) {
            d.status = RuleDiagnostic::Invalid;
            d.error = error;
            continue;
        }
        const std::vector<char>& byName = matches[r]->byName;
        d.matchLimit = matches[r]->matchLimit;
        d.namesMatched = int(std::count(byName.begin(), byName.end(), char(kMatched)));
        d.namesOverBudget = int(std::count(byName.begin(), byName.end(), char(kOverBudget)));
        d.namesNotTried = int(std::count(byName.begin(), byName.end(), char(kNotTried)));
        if (d.namesOverBudget > 0) {
            const auto first = std::find(byName.begin(), byName.end(), char(kOverBudget));
            const QStringList& subjects
                = rule.name == RuleNameKind::Short ? profile.names().shortNames : profile.names().demangled;
            d.firstOverBudget = subjects.value(qsizetype(first - byName.begin()));
        }
        d.namesWon = int(std::count(result.ruleOfName.begin(), result.ruleOfName.end(), int(r)));
        if (representative) {
            const std::vector<char>& rep = repMatches[r]->byName;
            d.representativeMatched = int(std::count(rep.begin(), rep.end(), char(kMatched)));
            d.representativeWon = int(std::count(repWinner.begin(), repWinner.end(), int(r)));
        }
        QRegularExpression re(rule.key());
        if (re.match(QString()).hasMatch()) {
            d.status = RuleDiagnostic::CatchAll;
        } else if (d.namesWon > 0 || d.representativeWon > 0) {
            d.status = RuleDiagnostic::Wins;
        } else if (d.namesMatched > 0 || d.representativeMatched > 0) {
            d.status = RuleDiagnostic::Shadowed;
            d.shadowedBy = mostFrequentWinner(matches[r]->byName, result.ruleOfName, int(r));
            if (d.shadowedBy < 0 && representative)
                d.shadowedBy = mostFrequentWinner(repMatches[r]->byName, repWinner, int(r));
        } else {
            d.status = RuleDiagnostic::Unused;
        }
    }
    return result;
}

RuleMatchCache& representativeMatchCache()
{
    static RuleMatchCache cache([] {
        NameSet set;
        set.demangled = representativeKernelNames();
        for (const QString& n : set.demangled)
            set.shortNames.append(n.startsWith(QLatin1Char('[')) ? n : shortNameOf(n));
        return set;
    }());
    return cache;
}

CategoryRule suggestRule(const QString& demangled, const QString& shortName, const QString& category)
{
    CategoryRule rule;
    const QString base = shortName.isEmpty() ? shortNameOf(demangled) : shortName;
    rule.pattern = escapeRegex(demangled.startsWith(QLatin1Char('[')) ? demangled : base);
    rule.category = category;
    return rule;
}

} // namespace nsw
