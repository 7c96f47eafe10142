// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareentry.h"

#include "core/categories/categoryrun.h"
#include "core/compare/gpuidle.h"
#include "core/profile/capturespan.h"

namespace nsw {

namespace {
/// The keys as an entry holds them, with the span "per second" divides by and the GPUs' idle shares are of: the
/// focus, or the capture.
std::shared_ptr<const ProfileKeys> finished(ProfileKeys keys, const CompareEntryRequest& request)
{
    const Profile& profile = *request.profile;
    const CaptureSpan capture = captureSpanOf(profile);
    const TimeNs start = request.focus.isActive() ? request.focus.start : capture.start;
    const TimeNs end = request.focus.isActive() ? request.focus.end : capture.end;
    keys.captureNs = request.focus.isActive() ? request.focus.durationNs() : profile.captureDurationNs();
    if (capture.source != CaptureSpanSource::None)
        keys.gpuIdle = gpuIdleShares(profile, start, end);
    return std::make_shared<const ProfileKeys>(std::move(keys));
}

/// Kernel keys from the index (linking, medians) or, cheaper, from the per-name totals. A focused comparison without
/// linking gives totals and averages only (its medians show as "–").
Result<CompareEntry> kernelEntry(const CompareEntryRequest& request, const JobContext& job)
{
    const CompareKeyOptions& options = request.options;
    CompareEntry entry;
    if (!request.forLinking && !(options.medians && !request.focus.isActive())) {
        entry.keys = finished(
            kernelKeys(*request.profile, kernelTotalsByName(*request.profile, options.kernelNames, request.focus),
                options.normalizeNames),
            request);
        return entry;
    }
    entry.index
        = request.index ? request.index : std::make_shared<const KernelIndex>(request.profile, options.kernelNames);
    if (job.isCancelled())
        return Result<CompareEntry>::cancelled();
    entry.keys = finished(kernelKeys(*entry.index, options.normalizeNames,
                              request.forLinking ? &entry.keyOfGroup : nullptr, request.focus),
        request);
    return entry;
}

Result<CompareEntry> categoryEntry(const CompareEntryRequest& request, const JobContext& job)
{
    CategoryRequest categories;
    categories.timeline
        = request.categoryTimeline ? request.categoryTimeline : CategoryTimeline::build(request.profile);
    categories.matches = request.categoryMatches;
    categories.rules = request.options.rules;
    categories.mode = request.options.timeMode;
    categories.focus = request.focus;
    Result<CategoryResult> result = computeCategories(categories, job);
    if (!result)
        return result.failureAs<CompareEntry>();
    CompareEntry entry;
    entry.timeline = result->timeline;
    entry.breakdown = std::make_shared<const CategoryBreakdown>(std::move(result->breakdown));
    entry.keys = finished(categoryKeys(*entry.breakdown, 0), request);
    return entry;
}

Result<CompareEntry> nvtxEntry(const CompareEntryRequest& request, const JobContext& job)
{
    NvtxTreeRequest tree { request.profile, {}, request.focus, nullptr };
    tree.options.grouping = NvtxGrouping::Merged;
    tree.options.normalizeNames = request.options.normalizeNames;
    Result<std::shared_ptr<const NvtxTree>> built = computeNvtxTree(tree, job);
    if (!built)
        return built.failureAs<CompareEntry>();
    CompareEntry entry;
    entry.tree = *built;
    entry.keys = finished(nvtxKeys(*entry.tree, request.forLinking ? &entry.keyOfNode : nullptr), request);
    return entry;
}
} // namespace

Result<CompareEntry> computeCompareEntry(const CompareEntryRequest& request, const JobContext& job)
{
    switch (request.options.by) {
    case CompareBy::Kernel:
        return kernelEntry(request, job);
    case CompareBy::Category:
        return categoryEntry(request, job);
    case CompareBy::Nvtx:
        break;
    }
    return nvtxEntry(request, job);
}

} // namespace nsw
