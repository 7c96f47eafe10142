// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/intervals.h"
#include "core/samples/samplecalltree.h"

#include <QString>
#include <map>
#include <span>
#include <vector>

namespace nsw {

/// Whose samples a view counts: every thread's, one process's or one thread's.
struct SampleScope
{
    enum class Kind : std::uint8_t
    {
        All,
        Process,
        Thread
    };
    Kind kind = Kind::All;
    std::int32_t index = -1; ///< ProcessIndex or ThreadIndex

    bool contains(const Profile& profile, ThreadIndex thread) const;
    /// "all threads", "process python3 (145)", "thread python3 (145)".
    QString label(const Profile& profile) const;
    bool operator==(const SampleScope&) const = default;
};

/// The sample rows of @p scope whose time lies in one of @p windows ([start, end), sorted and disjoint); every
/// sample of the scope when @p windows is null. By thread, in time order within a thread.
std::vector<std::uint32_t> selectSamples(const Profile& profile, const SampleThreadIndex& index,
    const SampleScope& scope, const std::vector<TimeInterval>* windows);
/// The rows of @p thread's samples in @p windows (sorted, disjoint), appended to @p out.
void appendThreadSamples(const SampleThreadIndex& index, ThreadIndex thread, std::span<const TimeInterval> windows,
    std::vector<std::uint32_t>& out);

/// How many of the selected samples each node of the call tree holds.
struct SampleCounts
{
    qint64 samples = 0; ///< selected samples (the 100 % of every percentage)
    std::vector<std::uint32_t> self; ///< per node: samples whose innermost frame it is (root: samples without stack)
    std::vector<std::uint32_t> total; ///< per node: samples in its subtree
};
SampleCounts countSamples(const SampleCallTree& tree, std::span<const std::uint32_t> rows);

/// One function of the flat list: self = samples whose innermost frame (stackDepth 0) it is, total = samples with
/// it anywhere on the stack, once per sample however deep it recurses.
struct FunctionCount
{
    std::int32_t function = -1; ///< CpuFunctionTable row; -1 = the samples without a call stack
    qint64 self = 0;
    qint64 total = 0;
};
/// Every function the selection holds, by self samples, then total, then function row.
std::vector<FunctionCount> countFunctions(const SampleCallTree& tree, const SampleCounts& counts);

/// The inverted tree: each root is a function where samples were running (their innermost frame), its children its
/// callers, and so on out to the outermost frame. A node counts the samples whose stack ends (innermost first) with
/// its path; self counts those whose whole stack is the path.
struct SampleBottomUp
{
    std::vector<std::int32_t> parent; ///< node 0 is the root
    std::vector<std::int32_t> function;
    std::vector<std::uint32_t> depth;
    std::vector<qint64> total;
    std::vector<qint64> self;
    std::vector<std::uint32_t> childBegin;
    std::vector<std::int32_t> childList;

    std::size_t size() const { return parent.size(); }
    std::span<const std::int32_t> children(std::int32_t node) const
    {
        return { childList.data() + childBegin[std::size_t(node)],
            childList.data() + childBegin[std::size_t(node) + 1] };
    }
};
SampleBottomUp bottomUpTree(const SampleCallTree& tree, const SampleCounts& counts);

/// The times of the selected samples with one function on their stack, by thread, sorted: what the timeline marks on
/// its thread rows when the function is selected in the Samples pane.
struct SampleMarks
{
    QString label; ///< the function's name
    std::map<ThreadIndex, std::vector<TimeNs>> times;
    qint64 count = 0;
};
SampleMarks sampleMarks(
    const Profile& profile, const SampleCallTree& tree, std::span<const std::uint32_t> rows, std::int32_t function);

/// 100 * part / whole, 0 when whole is 0.
inline double samplePercent(qint64 part, qint64 whole)
{
    return whole > 0 ? 100.0 * double(part) / double(whole) : 0.0;
}

} // namespace nsw
