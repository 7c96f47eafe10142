// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categoryexport.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace nsw {

/// Categories × bars, what the chart stacks and the pane's table lists: categories with time or instances in any
/// bar (rule order), then "CPU (non-GPU)" when a bar has a wall time.
struct CategoryTable
{
    TimeMode mode = TimeMode::Global;
    QStringList bars;
    QStringList categories;
    std::vector<std::uint32_t> colors; ///< per category, 0xAARRGGBB
    std::vector<std::vector<TimeNs>> time; ///< [category][bar]
    std::vector<std::vector<std::int64_t>> instances; ///< [category][bar]
    std::vector<TimeNs> barTotal; ///< GPU + CPU per bar
    QStringList barWarnings; ///< per bar, empty when fine
    int cpuRow = -1; ///< row of the CPU segment, or -1
    /// For each (bar): which profile and breakdown bar it came from.
    std::vector<std::pair<int, int>> barSource;
    /// Per row: the category's index in each profile's breakdown (same rules, so the same), -1 for CPU.
    std::vector<int> breakdownCategory;

    std::size_t rowCount() const { return std::size_t(categories.size()); }
    double share(std::size_t row, std::size_t bar) const
    {
        return barTotal[bar] > 0 ? 100.0 * double(time[row][bar]) / double(barTotal[bar]) : 0.0;
    }
};

/// Bars are labelled with the profile name, "GPU n", or both when several profiles are split per GPU.
CategoryTable makeCategoryTable(const std::vector<ProfileCategories>& profiles);

/// One distinct name of a profile and how the rules classify it (rule editor, uncategorised browser).
struct CategoryNameRow
{
    QString name;
    QString shortName;
    QString category;
    int rule = -1; ///< -1 = no rule matches
    bool catchAll = false; ///< won by a catch-all rule
    bool memOp = false;
    std::int64_t instances = 0;
    TimeNs time = 0;
};

/// Names with instances, by descending time; with @p uncategorizedOnly only those no rule matches or a catch-all
/// took.
std::vector<CategoryNameRow> categoryNameRows(const CategoryTimeline& timeline, const CategoryBreakdown& breakdown,
    const RuleEvaluation& evaluation, bool uncategorizedOnly);

} // namespace nsw
