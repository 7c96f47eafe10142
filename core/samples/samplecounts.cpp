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

SampleBottomUp bottomUpTree(const SampleCallTree& tree, const SampleCounts& counts)
{
    SampleBottomUp b;
    auto add = [&](std::int32_t parent, std::int32_t function) {
        b.parent.push_back(parent);
        b.function.push_back(function);
        b.depth.push_back(parent < 0 ? 0 : b.depth[std::size_t(parent)] + 1);
        b.total.push_back(0);
        b.self.push_back(0);
    };
    add(-1, -1);
    b.total[0] = counts.samples;
    FlatIndex<std::int64_t, IntegerHash> children; // (parent, function) -> node - 1
    for (std::size_t v = 0; v < tree.size(); ++v) {
        const std::uint32_t n = counts.self[v];
        if (n == 0)
            continue;
        const auto step = [&](std::int32_t node, std::int32_t function) {
            const std::int32_t child
                = children.index(std::int64_t((std::uint64_t(std::uint32_t(node)) << 32) | std::uint32_t(function)))
                + 1;
            if (std::size_t(child) == b.size())
                add(node, function);
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
    b.childBegin.assign(b.size() + 1, 0);
    for (std::size_t v = 1; v < b.size(); ++v)
        ++b.childBegin[std::size_t(b.parent[v]) + 1];
    std::partial_sum(b.childBegin.begin(), b.childBegin.end(), b.childBegin.begin());
    b.childList.resize(b.size() - 1);
    std::vector<std::uint32_t> next(b.childBegin.begin(), b.childBegin.end() - 1);
    for (std::size_t v = 1; v < b.size(); ++v)
        b.childList[next[std::size_t(b.parent[v])]++] = std::int32_t(v);
    return b;
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
