// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparekeys.h"

#include "core/categories/categorytimeline.h"
#include "core/categories/ruleevaluation.h"
#include "core/compare/kernelnames.h"
#include "core/iterations/iterationmarkers.h"
#include "core/nvtx/nvtxexport.h"
#include "core/nvtx/nvtxnames.h"
#include "core/stats/durationstats.h"

#include <QHash>

namespace nsw {

namespace {
/// Adds to the key's value, creating the key on first use.
std::int32_t accumulate(ProfileKeys& out, QHash<QString, std::int32_t>& index, const QString& key, TimeNs total,
    std::int64_t instances, bool topLevel)
{
    auto it = index.find(key);
    if (it == index.end()) {
        it = index.insert(key, std::int32_t(out.keys.size()));
        out.keys.push_back(key);
        out.values.push_back({});
        out.topLevel.push_back(topLevel ? 1 : 0);
    }
    KeyValue& v = out.values[std::size_t(*it)];
    v.total += total;
    v.instances += instances;
    return *it;
}
} // namespace

QString compareByName(CompareBy by)
{
    switch (by) {
    case CompareBy::Category:
        return QStringLiteral("category");
    case CompareBy::Kernel:
        return QStringLiteral("kernel");
    case CompareBy::Nvtx:
        return QStringLiteral("nvtx");
    }
    return {};
}

std::optional<CompareBy> parseCompareBy(const QString& name)
{
    for (const CompareBy by : { CompareBy::Category, CompareBy::Kernel, CompareBy::Nvtx })
        if (compareByName(by) == name)
            return by;
    return std::nullopt;
}

ProfileKeys kernelKeys(const Profile& profile, const std::vector<KernelNameTotal>& totals, bool normalizeNames)
{
    ProfileKeys out;
    out.by = CompareBy::Kernel;
    out.captureNs = profile.captureDurationNs();
    QHash<QString, std::int32_t> keys;
    for (const KernelNameTotal& t : totals) {
        QString name = t.name == kNoString ? QStringLiteral("(unnamed)") : profile.strings.at(t.name);
        if (normalizeNames && t.name != kNoString)
            name = normalizeKernelName(name);
        accumulate(out, keys, name, t.total, t.count, true);
        out.gpu.total += t.total;
        out.gpu.instances += t.count;
    }
    return out;
}

namespace {

/// kernelKeys() from each group's run of ascending @p durations, [span[g].first, span[g].second) for group g.
template <typename Duration>
ProfileKeys keysOfSortedRuns(const KernelIndex& index, bool normalizeNames, std::vector<std::int32_t>* keyOfGroup,
    const Duration* durations, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& span)
{
    const auto& groups = index.groups();
    std::vector<KernelNameTotal> totals;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (span[g].second == span[g].first)
            continue;
        KernelNameTotal t { groups[g].name, 0, qint64(span[g].second - span[g].first) };
        for (std::uint32_t i = span[g].first; i < span[g].second; ++i)
            t.total += durations[i];
        totals.push_back(t);
    }
    ProfileKeys out = kernelKeys(*index.profile(), totals, normalizeNames);
    // Keys are created in group order: find each group's key again by its name.
    QHash<QString, std::int32_t> keyOf;
    for (std::size_t k = 0; k < out.keys.size(); ++k)
        keyOf.insert(out.keys[k], std::int32_t(k));
    std::vector<std::int32_t> keyOfEachGroup(groups.size(), -1);
    std::vector<std::vector<std::size_t>> groupsOfKey(out.keys.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (span[g].second == span[g].first)
            continue;
        QString name
            = groups[g].name == kNoString ? QStringLiteral("(unnamed)") : index.profile()->strings.at(groups[g].name);
        if (normalizeNames && groups[g].name != kNoString)
            name = normalizeKernelName(name);
        keyOfEachGroup[g] = keyOf.value(name, -1);
        if (keyOfEachGroup[g] >= 0)
            groupsOfKey[std::size_t(keyOfEachGroup[g])].push_back(g);
    }
    // Medians per instance: a group's durations are sorted; keys that merge groups (normalized names) select.
    for (std::size_t k = 0; k < out.keys.size(); ++k) {
        const std::vector<std::size_t>& of = groupsOfKey[k];
        if (of.size() == 1) {
            const auto& [begin, end] = span[of.front()];
            if (end > begin)
                out.values[k].median = summarizeSorted(durations + begin, end - begin).median;
        } else if (!of.empty()) {
            std::vector<qint64> merged;
            for (const std::size_t g : of)
                merged.insert(merged.end(), durations + span[g].first, durations + span[g].second);
            if (!merged.empty())
                out.values[k].median = summarizeWithoutPercentiles(merged).median;
        }
    }
    if (keyOfGroup)
        *keyOfGroup = std::move(keyOfEachGroup);
    return out;
}

} // namespace

ProfileKeys kernelKeys(
    const KernelIndex& index, bool normalizeNames, std::vector<std::int32_t>* keyOfGroup, const FocusRange& focus)
{
    const auto& groups = index.groups();
    // The durations that count, ascending within each group: the index's own, or those of the kernels overlapping
    // the focus (a filtered sorted run stays sorted).
    std::vector<qint64> kept;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> span(groups.size());
    if (focus.isActive()) {
        const KernelTable& k = index.profile()->kernels;
        for (std::size_t g = 0; g < groups.size(); ++g) {
            const auto begin = std::uint32_t(kept.size());
            for (std::uint32_t p = groups[g].begin; p < groups[g].end; ++p) {
                const std::uint32_t row = index.order()[p];
                if (focus.overlaps(k.start[row], k.end[row]))
                    kept.push_back(index.sortedDuration(p));
            }
            span[g] = { begin, std::uint32_t(kept.size()) };
        }
    } else {
        for (std::size_t g = 0; g < groups.size(); ++g)
            span[g] = { groups[g].begin, groups[g].end };
    }
    if (focus.isActive())
        return keysOfSortedRuns(index, normalizeNames, keyOfGroup, kept.data(), span);
    return index.withSortedDurations(
        [&](const auto* durations) { return keysOfSortedRuns(index, normalizeNames, keyOfGroup, durations, span); });
}

ProfileKeys categoryKeys(const CategoryBreakdown& breakdown, TimeNs captureNs)
{
    ProfileKeys out;
    out.by = CompareBy::Category;
    out.captureNs = captureNs;
    out.warnings = breakdown.warnings;
    if (breakdown.bars.empty())
        return out;
    const CategoryBar& bar = breakdown.bars.front();
    for (std::size_t c = 0; c < bar.time.size(); ++c) {
        if (bar.time[c] == 0 && bar.instances[c] == 0)
            continue;
        out.keys.push_back(breakdown.categories[qsizetype(c)]);
        out.values.push_back({ bar.time[c], bar.instances[c] });
        out.topLevel.push_back(1);
        out.gpu.instances += bar.instances[c];
    }
    out.gpu.total = bar.gpuTime;
    return out;
}

ProfileKeys nvtxKeys(const NvtxTree& tree, std::vector<std::int32_t>* keyOfNode)
{
    ProfileKeys out;
    out.by = CompareBy::Nvtx;
    out.captureNs = tree.profile ? tree.profile->captureDurationNs() : 0;
    out.gpu = { tree.coverage.totalNs, tree.coverage.totalKernels };
    QHash<QString, std::int32_t> keys;
    // Parents come before their children, so each path is its parent's plus one label. Ranges nested more than
    // kMaxExportedNvtxDepth deep are folded into their ancestor at that depth (its time includes theirs): paths grow
    // with depth, and 10,000 nested ranges made gigabytes of them.
    std::vector<QString> path(tree.nodes.size());
    std::vector<int> depth(tree.nodes.size(), 0);
    std::vector<std::int32_t> keyOf(tree.nodes.size(), -1);
    qint64 folded = 0;
    int deepest = 0;
    for (std::size_t i = 1; i < tree.nodes.size(); ++i) {
        const NvtxNode& n = tree.nodes[i];
        if (n.kind != NvtxNode::Kind::Range)
            continue;
        const auto parent = std::size_t(n.parent);
        const bool top = depth[parent] == 0;
        depth[i] = depth[parent] + 1;
        if (depth[i] > kMaxExportedNvtxDepth) {
            keyOf[i] = keyOf[parent];
            ++folded;
            deepest = std::max(deepest, depth[i]);
            continue;
        }
        path[i] = top ? tree.label(std::int32_t(i)) : path[parent] + kNvtxPathSeparator + tree.label(std::int32_t(i));
        keyOf[i] = accumulate(out, keys, path[i], n.gpuTime, n.instances, top);
    }
    if (folded > 0)
        out.warnings << QStringLiteral("NVTX ranges nest %1 deep: the %2 ranges below depth %3 are compared as part of "
                                       "their ancestor at that depth")
                            .arg(deepest)
                            .arg(folded)
                            .arg(kMaxExportedNvtxDepth);
    if (keyOfNode)
        *keyOfNode = std::move(keyOf);
    return out;
}

LoadOptions compareLoadOptions(const CompareKeyOptions& options, bool iterationMarker)
{
    LoadOptions load;
    switch (options.by) {
    case CompareBy::Kernel:
        // Placement and memory operations for the GPUs' idle shares (gpuIdleShares), which the headline leads with.
        load.parts = LoadKernels | LoadMemOps;
        load.kernelColumns
            = (options.kernelNames == KernelNameMode::Short ? unsigned(KernelShortName) : unsigned(KernelDemangledName))
            | KernelPlacement;
        break;
    case CompareBy::Category:
        load.parts = LoadKernels | LoadMemOps | LoadGraphLaunches;
        load.kernelColumns = KernelDemangledName | KernelShortName | KernelPlacement;
        break;
    case CompareBy::Nvtx:
        load.parts = LoadKernels | LoadMemOps | LoadCudaApi | LoadNvtx;
        load.kernelColumns = KernelDemangledName | KernelPlacement;
        break;
    }
    if (iterationMarker)
        load.parts |= LoadNvtx;
    return load;
}

std::int64_t countIterations(const Profile& profile, const QString& marker, const FocusRange& focus)
{
    if (marker.isEmpty())
        return 0;
    const Result<MarkerRanges> found = findMarkerRanges(profile, marker);
    if (!found)
        return 0;
    if (!focus.isActive())
        return std::int64_t(found->ranges.size());
    return std::count_if(found->ranges.begin(), found->ranges.end(),
        [&focus](const MarkerRange& r) { return focus.overlaps(r.start, r.end); });
}

} // namespace nsw
