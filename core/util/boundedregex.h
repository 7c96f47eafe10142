// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringView>
#include <memory>

namespace nsw {

/// A regular expression (PCRE2, as QRegularExpression compiles it: UTF, Unicode properties) whose every match runs
/// under a budget. A catastrophic pattern (`^(a+)+$` on "aaa…a!") stops at PCRE2's match limit and says so, where
/// QRegularExpression spends up to 10M steps per subject and then reads the failure as "no match".
class BoundedRegex
{
public:
    enum class Outcome
    {
        Match,
        NoMatch,
        OverBudget ///< the match limit (or PCRE2's depth, heap or JIT stack limit) was reached: undecided
    };

    /// A tenth of PCRE2's default: ordinary patterns on names of thousands of characters stay far below it.
    static constexpr unsigned kMatchLimit = 1'000'000;
    /// A pattern over budget on this many subjects is not tried on the others (by its callers): a catastrophic
    /// pattern then costs a few budgets, not one per name.
    static constexpr int kMaxOverBudgetSubjects = 3;
    /// A rule file or phase map whose searches have been over budget this many times in all searches the rest under
    /// kSpentMatchLimit: a file of a thousand catastrophic patterns then costs about this many full budgets, not
    /// three per pattern (each takes tens of milliseconds).
    static constexpr int kMaxOverBudgetTotal = 30;
    /// Ordinary patterns on ordinary names need a few hundred steps; a search that needs more after the file's budget
    /// is spent is reported over budget like any other.
    static constexpr unsigned kSpentMatchLimit = 10'000;
    /// The steps a search gets once the searches of its rule file or phase map have gone over budget
    /// @p overBudgetSoFar times in all.
    static constexpr unsigned matchLimitAfter(int overBudgetSoFar)
    {
        return overBudgetSoFar < kMaxOverBudgetTotal ? kMatchLimit : kSpentMatchLimit;
    }

    BoundedRegex(const QString& pattern, bool caseInsensitive, unsigned matchLimit = kMatchLimit);
    ~BoundedRegex();
    BoundedRegex(const BoundedRegex&) = delete;
    BoundedRegex& operator=(const BoundedRegex&) = delete;

    bool isValid() const { return m_code != nullptr; }
    /// Unanchored search (Python's re.search) under @p matchLimit steps (0: the limit given at construction).
    /// Thread-safe (searches of one object take turns).
    Outcome search(QStringView subject, unsigned matchLimit = 0) const;

private:
    struct Pcre;
    std::unique_ptr<Pcre> m_pcre;
    const void* m_code = nullptr;
};

/// Offset of the first PCRE recursion or subroutine call ((?R), (?1), (?-1), (?&name), (?P>name)) outside escapes
/// and character classes, or -1. Python's re rejects them, and they are what makes a pattern's cost unbounded.
qsizetype pcreRecursionAt(const QString& pattern);

} // namespace nsw
