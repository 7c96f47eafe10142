// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorybreakdown.h"
#include "core/categories/categorytimeline.h"
#include "core/categories/ruleevaluation.h"
#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"

#include <memory>

namespace nsw {

/// One profile's categories under one rule list: what the `categories` command and the Categories pane both ask.
struct CategoryRequest
{
    std::shared_ptr<const CategoryTimeline> timeline;
    /// The timeline's names with their matches so far; the pane keeps it across rule edits so that each name is
    /// matched once per rule. Built from the timeline when null.
    std::shared_ptr<RuleMatchCache> matches;
    RuleList rules;
    CategoryOptions options;
    /// Also match the representative kernel names, for the editor's "shadowed by rule N" hints.
    bool diagnoseShadowing = false;
    /// Only the rows that overlap it: sum counts their whole durations, busy/exclusive/g2g the parts inside the
    /// range (CategoryTimeline::focused). Inactive = the whole capture.
    FocusRange focus;
};

struct CategoryResult
{
    RuleEvaluation evaluation;
    CategoryBreakdown breakdown;
};

/// First-match classification of the timeline's names, then the breakdown in the requested time mode.
Result<CategoryResult> computeCategories(const CategoryRequest& request, const JobContext& job = {});

} // namespace nsw
