// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"
#include "core/profile/profile.h"

#include <cstdint>
#include <memory>
#include <numeric>
#include <span>
#include <vector>

namespace nsw {

/// The children of every node of a tree whose node v > 0 has parent @p parentOf(v) < v (node 0: the root), by
/// counting sort: node n's children are list[begin[n] .. begin[n + 1]), in node order.
template <typename ParentOf>
void linkChildLists(
    std::size_t nodes, ParentOf parentOf, std::vector<std::uint32_t>& begin, std::vector<std::int32_t>& list)
{
    begin.assign(nodes + 1, 0);
    for (std::size_t v = 1; v < nodes; ++v)
        ++begin[std::size_t(parentOf(v)) + 1];
    std::partial_sum(begin.begin(), begin.end(), begin.begin());
    list.resize(nodes > 0 ? nodes - 1 : 0);
    std::vector<std::uint32_t> next(begin.begin(), begin.end() - 1);
    for (std::size_t v = 1; v < nodes; ++v)
        list[next[std::size_t(parentOf(v))]++] = std::int32_t(v);
}

/// Every distinct call path of a profile's CPU samples, merged from the root (the calling-context tree): the
/// top-down view and the flame graph show it, and the flat list and the bottom-up tree are counted on it. A focus
/// then costs a pass over the samples it holds and one over the nodes, never a walk of every stack.
struct SampleCallTree
{
    static constexpr std::int32_t kRoot = 0;

    // Per node; node 0 is the root (no function), a parent always has a lower index than its children.
    std::vector<std::int32_t> parent; ///< -1 for the root
    std::vector<std::int32_t> function; ///< CpuFunctionTable row, -1 for the root
    std::vector<std::uint32_t> depth; ///< 0 for the root, 1 for the outermost frames
    /// 1 when no ancestor calls the same function: a sample counts once in its function's total there, however
    /// often the function recurses on its stack.
    std::vector<char> outermost;
    std::vector<std::uint32_t> childBegin; ///< children of n: childList[childBegin[n] .. childBegin[n + 1])
    std::vector<std::int32_t> childList;
    /// Per sample (CpuSamples row): the node of its innermost frame; the root for a sample without a stack.
    std::vector<std::int32_t> leafOf;

    std::size_t size() const { return parent.size(); }
    std::span<const std::int32_t> children(std::int32_t node) const
    {
        return { childList.data() + childBegin[std::size_t(node)],
            childList.data() + childBegin[std::size_t(node) + 1] };
    }
};

/// The tree of @p profile's samples, built on first use and kept with the profile (Profile::derived); null when
/// cancelled.
std::shared_ptr<const SampleCallTree> sampleCallTreeOf(const ProfilePtr& profile, const CancelToken& cancel);

/// The samples of each thread in time order, for selections by thread and time range.
struct SampleThreadIndex
{
    std::vector<std::uint32_t> order; ///< sample rows, grouped by thread (ThreadIndex + 1), by time within a thread
    std::vector<TimeNs> times; ///< their times, in the same order
    std::vector<std::uint32_t> groupBegin; ///< group g = thread + 1 (0: unknown thread); size threads + 2

    /// Positions in order/times of @p thread's samples (-1: the samples of no known thread).
    std::pair<std::uint32_t, std::uint32_t> range(ThreadIndex thread) const
    {
        const auto g = std::size_t(thread + 1);
        return g + 1 < groupBegin.size() ? std::pair(groupBegin[g], groupBegin[g + 1]) : std::pair(0u, 0u);
    }
    /// The threads that have samples (-1 first when some samples have no thread).
    std::vector<ThreadIndex> threads() const;
};

std::shared_ptr<const SampleThreadIndex> sampleThreadIndexOf(const ProfilePtr& profile, const CancelToken& cancel);

/// "[unknown]" for a function without a symbol, else its symbol as the export names it (valid while @p profile is:
/// no copy, since sorts compare names by the million).
const QString& sampleFunctionName(const Profile& profile, std::int32_t function);
/// Per function + 1 (index 0: -1, the samples without a stack): the rank of its name among every function's name,
/// equal names ranked equal, so that sorts by name compare integers (built on first use, kept with @p profile).
std::shared_ptr<const std::vector<std::uint32_t>> sampleNameRanksOf(const Profile& profile);
/// The function's module ("" when none).
QString sampleModuleName(const Profile& profile, std::int32_t function);

} // namespace nsw
