// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorybreakdown.h"
#include "core/categories/categoryexport.h"
#include "core/categories/categorytimeline.h"
#include "core/categories/ruleevaluation.h"
#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"

#include <memory>

namespace nsw {

/// Where the wall time of the "CPU (non-GPU)" segment comes from: the one rule for the `categories` command
/// (--elapsed), the Categories pane and a Compare entry.
struct WallTimeSource
{
    enum class Kind
    {
        None, ///< no CPU segment
        Capture, ///< the capture span, or under a focus the focus range's length
        Entered ///< the run's wall time without the profiler; covers the whole run, so left out under a focus
    };
    Kind kind = Kind::None;
    TimeNs enteredNs = kNoTime; ///< Entered: the wall time typed in (kNoTime: none typed, no segment)
};

/// One profile's categories under one rule list: what the `categories` command, the Categories pane and the Compare
/// pane's category entries all ask.
struct CategoryRequest
{
    /// The profile's timeline (CategoryTimeline::build), of the whole capture: the request focuses it.
    std::shared_ptr<const CategoryTimeline> timeline;
    /// The timeline's names with their matches so far; the pane keeps it across rule edits so that each name is
    /// matched once per rule. Built from the timeline when null.
    std::shared_ptr<RuleMatchCache> matches;
    RuleList rules;
    TimeMode mode = TimeMode::Global;
    bool perDevice = false; ///< one bar per GPU instead of one for the profile
    WallTimeSource wall;
    /// Also match the representative kernel names, for the editor's "shadowed by rule N" hints.
    bool diagnoseShadowing = false;
    /// Only the rows that overlap it: sum counts their whole durations, busy/exclusive/g2g the parts inside the
    /// range (CategoryTimeline::focused). Inactive = the whole capture.
    FocusRange focus;
};

struct CategoryResult
{
    std::shared_ptr<const CategoryTimeline> timeline; ///< the timeline counted: focused when the request is
    RuleEvaluation evaluation;
    CategoryBreakdown breakdown;
};

/// Regex searches (rules × distinct names) one categorisation may run: about 3 s. A larger request is refused at
/// once, before any search, rather than running for minutes (100,000 rules against 2,000 names took 54 s).
inline constexpr qint64 kMaxRuleSearches = 10'000'000;

/// First-match classification of the timeline's names, then the breakdown in the requested time mode, with the CPU
/// segment the wall time source gives. A Usage error when the rules × names exceed kMaxRuleSearches.
Result<CategoryResult> computeCategories(const CategoryRequest& request, const JobContext& job = {});

/// gputrc2graph's mapping (result.csv) is per profile whatever the bars: @p profiles (as shown) with their breakdown
/// asked again without the per-GPU split when their request (parallel to @p profiles) had one.
Result<std::vector<ProfileCategories>> categoryMappingProfiles(
    std::vector<ProfileCategories> profiles, const std::vector<CategoryRequest>& requests);

} // namespace nsw
