// SPDX-License-Identifier: GPL-3.0-or-later
#include "categorytable.h"

#include <algorithm>

namespace nsw {

CategoryTable makeCategoryTable(const std::vector<ProfileCategories>& profiles)
{
    CategoryTable t;
    if (profiles.empty())
        return t;
    t.mode = profiles.front().breakdown.mode;
    bool anyCpu = false;
    for (std::size_t p = 0; p < profiles.size(); ++p)
        for (std::size_t b = 0; b < profiles[p].breakdown.bars.size(); ++b) {
            const CategoryBar& bar = profiles[p].breakdown.bars[b];
            QString label = profiles[p].profile;
            if (bar.device >= 0)
                label = profiles.size() > 1 ? label + QStringLiteral(" · ") + bar.label : bar.label;
            t.bars.append(label);
            t.barTotal.push_back(bar.total());
            t.barWarnings.append(bar.warning);
            t.barSource.emplace_back(int(p), int(b));
            anyCpu |= bar.hasCpu;
        }
    const QStringList& categories = profiles.front().breakdown.categories;
    for (qsizetype c = 0; c < categories.size(); ++c) {
        std::vector<TimeNs> time;
        std::vector<std::int64_t> instances;
        bool any = false;
        for (const auto& [p, b] : t.barSource) {
            const CategoryBreakdown& breakdown = profiles[std::size_t(p)].breakdown;
            const int index = breakdown.categoryIndex(categories[c]);
            const CategoryBar& bar = breakdown.bars[std::size_t(b)];
            time.push_back(index >= 0 ? bar.time[std::size_t(index)] : 0);
            instances.push_back(index >= 0 ? bar.instances[std::size_t(index)] : 0);
            any |= time.back() != 0 || instances.back() != 0;
        }
        if (!any)
            continue;
        t.categories.append(categories[c]);
        t.time.push_back(std::move(time));
        t.instances.push_back(std::move(instances));
        t.breakdownCategory.push_back(int(c));
    }
    if (anyCpu) {
        t.cpuRow = int(t.categories.size());
        t.categories.append(cpuCategory());
        std::vector<TimeNs> time;
        for (const auto& [p, b] : t.barSource)
            time.push_back(profiles[std::size_t(p)].breakdown.bars[std::size_t(b)].cpuNs);
        t.time.push_back(std::move(time));
        t.instances.emplace_back(t.bars.size(), 0);
        t.breakdownCategory.push_back(-1);
    }
    t.colors = categoryColors(t.categories);
    return t;
}

std::vector<CategoryNameRow> categoryNameRows(const CategoryTimeline& timeline, const CategoryBreakdown& breakdown,
    const RuleEvaluation& evaluation, bool uncategorizedOnly)
{
    std::vector<CategoryNameRow> rows;
    const auto& names = timeline.names();
    for (std::size_t n = 0; n < names.size() && n < breakdown.nameCount.size(); ++n) {
        if (breakdown.nameCount[n] == 0)
            continue;
        const int rule = breakdown.ruleOfName[n];
        const bool catchAll = rule >= 0 && std::size_t(rule) < evaluation.rules.size()
            && evaluation.rules[std::size_t(rule)].status == RuleDiagnostic::CatchAll;
        if (uncategorizedOnly && rule >= 0 && !catchAll)
            continue;
        rows.push_back(
            CategoryNameRow { names[n].demangled, names[n].shortName, breakdown.categories[breakdown.categoryOfName[n]],
                rule, catchAll, names[n].memOp, breakdown.nameCount[n], breakdown.nameTime[n] });
    }
    std::stable_sort(rows.begin(), rows.end(), [](const CategoryNameRow& a, const CategoryNameRow& b) {
        return a.time != b.time ? a.time > b.time : a.instances > b.instances;
    });
    return rows;
}

} // namespace nsw
