// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorytimeline.h"
#include "core/categories/ruleevaluation.h"
#include "core/categories/rulefile.h"
#include "core/categories/timemodes.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace nsw {

/// Category of names that no rule matches (gputrc2graph leaves them without a category).
QString unmatchedCategory();
/// The segment for the part of the wall time the GPUs were idle.
QString cpuCategory();

struct CategoryOptions
{
    TimeMode mode = TimeMode::Global;
    bool perDevice = false; ///< one bar per GPU instead of one for the profile
    TimeNs wallNs = kNoTime; ///< wall time for the "CPU (non-GPU)" segment; kNoTime = no such segment
    QString wallSource; ///< how the wall time was obtained, for warnings ("wall time", "capture span")
};

/// One stacked bar: GPU time per category, plus the CPU (non-GPU) part of the wall time.
struct CategoryBar
{
    QString label;
    int device = -1; ///< index into CategoryTimeline::devices(), -1 = all devices
    std::vector<TimeNs> time; ///< per category (CategoryBreakdown::categories)
    std::vector<std::int64_t> instances;
    TimeNs gpuTime = 0; ///< sum of time[]
    bool hasCpu = false;
    TimeNs wallNs = kNoTime;
    TimeNs cpuNs = 0; ///< wall - GPU time; 0 (and a warning) when the wall time is shorter
    QString warning; ///< empty, or why the CPU segment is missing

    TimeNs total() const { return gpuTime + cpuNs; }
    /// Percent of total().
    double share(TimeNs value) const { return total() > 0 ? 100.0 * double(value) / double(total()) : 0.0; }
};

/// The categories of one profile under one rule list and one time mode, with what the rule editor shows.
struct CategoryBreakdown
{
    TimeMode mode = TimeMode::Global;
    QStringList categories; ///< the rules' categories in rule order, then unmatchedCategory()
    std::vector<CategoryBar> bars;
    std::vector<int> categoryOfName; ///< per timeline name
    std::vector<int> ruleOfName; ///< per timeline name, -1 = no rule matches
    std::vector<TimeNs> nameTime; ///< per timeline name, over all devices, in the mode (busy: the name's own union)
    std::vector<std::int64_t> nameCount;
    std::vector<TimeNs> ruleTime; ///< per rule, in the mode
    std::vector<std::int64_t> ruleInstances;
    QStringList warnings;

    int categoryIndex(const QString& category) const { return int(categories.indexOf(category)); }
};

/// Adds up a classified timeline. Cost: O(names + rules) for sum/exclusive/g2g, one sweep over the rows for busy.
CategoryBreakdown categorize(const CategoryTimeline& timeline, const RuleList& rules, const RuleEvaluation& evaluation,
    const CategoryOptions& options);

/// Kernel rows (a mask over Profile::kernels) of @p category, on one device or all (-1), for the kernel table.
std::shared_ptr<const std::vector<char>> kernelRowsOfCategory(
    const CategoryTimeline& timeline, const CategoryBreakdown& breakdown, int category, int device = -1);

/// Stable colour of a category (same in every profile and every run), as 0xAARRGGBB.
std::uint32_t categoryColor(const QString& category);

/// How far apart two colours look ("redmean" weighted RGB distance: 0 for the same colour, about 765 for black and
/// white).
double colorDistance(std::uint32_t a, std::uint32_t b);
/// Colours never closer than this in categoryColors().
constexpr double kMinCategoryColorDistance = 60.0;
/// Colours of categories shown together (stacked bars, legend, table swatches): each category's own colour
/// (categoryColor) unless it is closer than kMinCategoryColorDistance to one given before it (by name), then the first
/// colour of a fixed, well separated palette far enough from all of them. The same set of categories always gets the
/// same colours, whatever their order.
std::vector<std::uint32_t> categoryColors(const QStringList& categories);

} // namespace nsw
