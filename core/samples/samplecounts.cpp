// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/samples/samplecounts.h"

#include "core/util/flatindex.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace nsw {

bool SampleScope::contains(const Profile& profile, ThreadIndex thread) const
{
    switch (kind) {
    case Kind::All:
        return true;
    case Kind::Process:
        return thread >= 0 && profile.processOfThread(thread) == index;
    case Kind::Thread:
        return thread == index;
    }
    return false;
}

QString SampleScope::label(const Profile& profile) const
{
    switch (kind) {
    case Kind::All:
        return QStringLiteral("all threads");
    case Kind::Process:
        return QStringLiteral("process %1").arg(profile.processLabel(index));
    case Kind::Thread:
        return QStringLiteral("thread %1").arg(profile.threadLabel(index));
    }
    return {};
}

void appendThreadSamples(const SampleThreadIndex& index, ThreadIndex thread, std::span<const TimeInterval> windows,
    std::vector<std::uint32_t>& out)
{
    const auto [first, last] = index.range(thread);
    const auto times = index.times.begin();
    std::uint32_t from = first;
    for (const TimeInterval& w : windows) {
        from = std::uint32_t(std::lower_bound(times + from, times + last, w.first) - times);
        const auto to = std::uint32_t(std::lower_bound(times + from, times + last, w.second) - times);
        out.insert(out.end(), index.order.begin() + from, index.order.begin() + to);
        from = to;
        if (from == last)
            break;
    }
}

std::vector<std::uint32_t> selectSamples(const Profile& profile, const SampleThreadIndex& index,
    const SampleScope& scope, const std::vector<TimeInterval>* windows)
{
    std::vector<std::uint32_t> rows;
    for (const ThreadIndex thread : index.threads()) {
        if (!scope.contains(profile, thread))
            continue;
        if (windows) {
            appendThreadSamples(index, thread, *windows, rows);
        } else {
            const auto [first, last] = index.range(thread);
            rows.insert(rows.end(), index.order.begin() + first, index.order.begin() + last);
        }
    }
    return rows;
}

SampleCounts countSamples(const SampleCallTree& tree, std::span<const std::uint32_t> rows)
{
    SampleCounts c;
    c.samples = qint64(rows.size());
    c.self.assign(tree.size(), 0);
    for (const std::uint32_t row : rows)
        ++c.self[std::size_t(tree.leafOf[row])];
    c.total = c.self;
    for (std::size_t v = tree.size(); v-- > 1;)
        c.total[std::size_t(tree.parent[v])] += c.total[v];
    return c;
}

std::vector<FunctionCount> countFunctions(const SampleCallTree& tree, const SampleCounts& counts)
{
    std::int32_t functions = 0;
    for (const std::int32_t f : tree.function)
        functions = std::max(functions, f + 1);
    std::vector<FunctionCount> byFunction(std::size_t(functions) + 1); // [0]: samples without a stack
    for (std::size_t v = 0; v < tree.size(); ++v) {
        if (counts.total[v] == 0)
            continue;
        FunctionCount& f = byFunction[std::size_t(tree.function[v] + 1)];
        f.self += counts.self[v];
        if (v == SampleCallTree::kRoot)
            f.total += counts.self[v];
        else if (tree.outermost[v])
            f.total += counts.total[v];
    }
    std::vector<FunctionCount> out;
    for (std::size_t i = 0; i < byFunction.size(); ++i)
        if (byFunction[i].total > 0)
            out.push_back({ std::int32_t(i) - 1, byFunction[i].self, byFunction[i].total });
    std::sort(out.begin(), out.end(), [](const FunctionCount& a, const FunctionCount& b) {
        return std::tie(b.self, b.total, a.function) < std::tie(a.self, a.total, b.function);
    });
    return out;
}

namespace {

/// Builds the inverted tree node by node: a child is found by its parent and function. Most nodes have one child,
/// found without hashing (a bottom-up tree of a million functions has a million chains of callers); the others are
/// found by (parent, function) in a hash.
class BottomUpBuilder
{
public:
    /// Room for @p most nodes (not written: too much costs nothing) and for @p branches hashed children.
    BottomUpBuilder(std::size_t most, std::size_t branches)
    {
        for (auto* column : { &m_tree.parent, &m_tree.function, &m_firstChild })
            column->reserve(most);
        m_tree.depth.reserve(most);
        m_tree.total.reserve(most);
        m_tree.self.reserve(most);
        m_others.reserve(branches);
        add(-1, -1);
    }

    SampleBottomUp& tree() { return m_tree; }

    std::int32_t childOf(std::int32_t node, std::int32_t function)
    {
        const std::int32_t first = m_firstChild[std::size_t(node)];
        if (first < 0) {
            const std::int32_t child = add(node, function);
            m_firstChild[std::size_t(node)] = child;
            return child;
        }
        if (m_tree.function[std::size_t(first)] == function)
            return first;
        const auto i = std::size_t(
            m_others.index(std::int64_t((std::uint64_t(std::uint32_t(node)) << 32) | std::uint32_t(function))));
        if (i == m_otherNode.size())
            m_otherNode.push_back(add(node, function));
        return m_otherNode[i];
    }

    /// Children lists by counting sort: each list in creation order.
    SampleBottomUp finish()
    {
        SampleBottomUp& b = m_tree;
        linkChildLists(
            b.size(), [&](std::size_t v) { return b.parent[v]; }, b.childBegin, b.childList);
        return std::move(b);
    }

private:
    std::int32_t add(std::int32_t parent, std::int32_t function)
    {
        m_tree.parent.push_back(parent);
        m_tree.function.push_back(function);
        m_tree.depth.push_back(parent < 0 ? 0 : m_tree.depth[std::size_t(parent)] + 1);
        m_tree.total.push_back(0);
        m_tree.self.push_back(0);
        m_firstChild.push_back(-1);
        return std::int32_t(m_tree.size() - 1);
    }

    SampleBottomUp m_tree;
    std::vector<std::int32_t> m_firstChild; ///< per node, -1: none yet
    FlatIndex<std::int64_t, IntegerHash> m_others; ///< (parent, function) of every child but the first
    std::vector<std::int32_t> m_otherNode; ///< their nodes, by m_others' index
};

} // namespace

SampleBottomUp bottomUpTree(const SampleCallTree& tree, const SampleCounts& counts)
{
    // At most a node per frame of each distinct stack with samples, and one for the samples without a stack.
    std::size_t most = 2, stacks = 1;
    for (std::size_t v = 0; v < tree.size(); ++v)
        if (counts.self[v] > 0) {
            most += tree.depth[v];
            ++stacks;
        }
    BottomUpBuilder builder(most, stacks);
    SampleBottomUp& b = builder.tree();
    b.total[0] = counts.samples;
    for (std::size_t v = 0; v < tree.size(); ++v) {
        const std::uint32_t n = counts.self[v];
        if (n == 0)
            continue;
        const auto step = [&](std::int32_t node, std::int32_t function) {
            const std::int32_t child = builder.childOf(node, function);
            b.total[std::size_t(child)] += n;
            return child;
        };
        // From the innermost frame out: the path of v read backwards (the root's own samples have no stack).
        std::int32_t node = 0;
        if (v == SampleCallTree::kRoot)
            node = step(node, -1);
        for (auto up = std::int32_t(v); up != SampleCallTree::kRoot; up = tree.parent[std::size_t(up)])
            node = step(node, tree.function[std::size_t(up)]);
        b.self[std::size_t(node)] += n;
    }
    return builder.finish();
}

SampleMarks sampleMarks(
    const Profile& profile, const SampleCallTree& tree, std::span<const std::uint32_t> rows, std::int32_t function)
{
    SampleMarks m;
    m.label = sampleFunctionName(profile, function);
    // Nodes whose path holds the function (parents come first); the root's own samples have no stack.
    std::vector<char> holds(tree.size(), 0);
    holds[SampleCallTree::kRoot] = function < 0;
    for (std::size_t v = 1; v < tree.size(); ++v)
        holds[v] = function >= 0 && (tree.function[v] == function || holds[std::size_t(tree.parent[v])]);
    for (const std::uint32_t row : rows)
        if (holds[std::size_t(tree.leafOf[row])]) {
            m.times[profile.cpuSamples.thread[row]].push_back(profile.cpuSamples.time[row]);
            ++m.count;
        }
    for (auto& [thread, times] : m.times)
        std::sort(times.begin(), times.end());
    return m;
}

} // namespace nsw
