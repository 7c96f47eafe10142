// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/samples/samplecalltree.h"

#include "core/util/flatindex.h"
#include "core/util/hugepages.h"

#include <algorithm>
#include <numeric>

namespace nsw {

namespace {

std::int64_t childKey(std::int32_t parent, std::int32_t function)
{
    return std::int64_t((std::uint64_t(std::uint32_t(parent)) << 32) | std::uint32_t(function));
}

class CallTreeBuilder
{
public:
    CallTreeBuilder(const CpuSamples& samples, const CancelToken& cancel)
        : m_samples(samples)
        , m_cancel(cancel)
    { }

    std::shared_ptr<SampleCallTree> build()
    {
        auto tree = std::make_shared<SampleCallTree>();
        m_tree = tree.get();
        addNode(-1, -1, 0);
        if (!placeSamples() || !linkChildren() || !markOutermost())
            return nullptr;
        return tree;
    }

private:
    void addNode(std::int32_t parent, std::int32_t function, std::uint32_t depth)
    {
        m_tree->parent.push_back(parent);
        m_tree->function.push_back(function);
        m_tree->depth.push_back(depth);
    }

    /// Walks each stack from its outermost frame in, creating the nodes of paths met for the first time.
    bool placeSamples()
    {
        const std::size_t n = m_samples.size();
        FlatIndex<std::int64_t, IntegerHash> children; // (parent, function) -> node - 1, in creation order
        reserveHugePages(m_tree->leafOf, n);
        CancelPoll<1024> poll(m_cancel);
        for (std::size_t i = 0; i < n; ++i) {
            if (poll())
                return false;
            std::int32_t node = SampleCallTree::kRoot;
            for (std::uint32_t d = m_samples.depthOf(i); d-- > 0;) {
                const std::int32_t function = m_samples.frame(i, d);
                const std::int32_t child = children.index(childKey(node, function)) + 1;
                if (std::size_t(child) == m_tree->size())
                    addNode(node, function, m_tree->depth[std::size_t(node)] + 1);
                node = child;
            }
            m_tree->leafOf.push_back(node);
        }
        return true;
    }

    /// Children lists by counting sort (parents precede children, so each list is in creation order).
    bool linkChildren()
    {
        linkChildLists(
            m_tree->size(), [&](std::size_t v) { return m_tree->parent[v]; }, m_tree->childBegin, m_tree->childList);
        return !m_cancel.isCancelled();
    }

    /// Depth-first, counting how often each function is on the current path (no recursion: stacks can be 10,000
    /// frames deep).
    bool markOutermost()
    {
        const std::size_t nodes = m_tree->size();
        m_tree->outermost.assign(nodes, 0);
        std::vector<std::uint32_t> onPath(m_samples.functions.size(), 0);
        std::vector<std::pair<std::int32_t, std::uint32_t>> stack { { SampleCallTree::kRoot, 0 } };
        CancelPoll<4096> poll(m_cancel);
        while (!stack.empty()) {
            if (poll())
                return false;
            auto& [node, next] = stack.back();
            const std::span<const std::int32_t> kids = m_tree->children(node);
            if (next == kids.size()) {
                if (const std::int32_t f = m_tree->function[std::size_t(node)]; f >= 0)
                    --onPath[std::size_t(f)];
                stack.pop_back();
                continue;
            }
            const std::int32_t child = kids[next++];
            const auto f = std::size_t(m_tree->function[std::size_t(child)]);
            m_tree->outermost[std::size_t(child)] = onPath[f] == 0 ? 1 : 0;
            ++onPath[f];
            stack.emplace_back(child, 0);
        }
        return true;
    }

    const CpuSamples& m_samples;
    const CancelToken& m_cancel;
    SampleCallTree* m_tree = nullptr;
};

} // namespace

std::shared_ptr<const SampleCallTree> sampleCallTreeOf(const ProfilePtr& profile, const CancelToken& cancel)
{
    return profile->derived.get<SampleCallTree>("cpuSamples.callTree", cancel,
        [&] { return std::shared_ptr<const SampleCallTree>(CallTreeBuilder(profile->cpuSamples, cancel).build()); });
}

std::vector<ThreadIndex> SampleThreadIndex::threads() const
{
    std::vector<ThreadIndex> out;
    for (std::size_t g = 0; g + 1 < groupBegin.size(); ++g)
        if (groupBegin[g + 1] > groupBegin[g])
            out.push_back(ThreadIndex(g) - 1);
    return out;
}

std::shared_ptr<const SampleThreadIndex> sampleThreadIndexOf(const ProfilePtr& profile, const CancelToken& cancel)
{
    return profile->derived.get<SampleThreadIndex>("cpuSamples.byThread", cancel, [&] {
        const CpuSamples& s = profile->cpuSamples;
        auto index = std::make_shared<SampleThreadIndex>();
        const std::size_t groups = profile->threads.size() + 1;
        index->groupBegin.assign(groups + 1, 0);
        const auto groupOf = [&](std::size_t i) {
            const ThreadIndex t = s.thread[i];
            return t >= 0 && std::size_t(t) < profile->threads.size() ? std::size_t(t) + 1 : 0;
        };
        for (std::size_t i = 0; i < s.size(); ++i)
            ++index->groupBegin[groupOf(i) + 1];
        std::partial_sum(index->groupBegin.begin(), index->groupBegin.end(), index->groupBegin.begin());
        std::vector<std::uint32_t> next(index->groupBegin.begin(), index->groupBegin.end() - 1);
        index->order.resize(s.size());
        for (std::size_t i = 0; i < s.size(); ++i)
            index->order[next[groupOf(i)]++] = std::uint32_t(i);
        index->times.resize(s.size());
        for (std::size_t g = 0; g < groups; ++g) {
            const auto first = index->order.begin() + index->groupBegin[g];
            const auto last = index->order.begin() + index->groupBegin[g + 1];
            const auto earlier = [&](std::uint32_t a, std::uint32_t b) { return s.time[a] < s.time[b]; };
            if (!std::is_sorted(first, last, earlier))
                std::stable_sort(first, last, earlier);
            if (cancel.isCancelled())
                return std::shared_ptr<const SampleThreadIndex>();
        }
        for (std::size_t k = 0; k < s.size(); ++k)
            index->times[k] = s.time[index->order[k]];
        return std::shared_ptr<const SampleThreadIndex>(index);
    });
}

const QString& sampleFunctionName(const Profile& profile, std::int32_t function)
{
    static const QString noStack = QStringLiteral("[no call stack]");
    static const QString unknown = QStringLiteral("[unknown]");
    const CpuFunctionTable& f = profile.cpuSamples.functions;
    if (function < 0 || std::size_t(function) >= f.size())
        return noStack;
    const StringRef symbol = f.symbol[std::size_t(function)];
    return symbol == kNoString ? unknown : profile.strings.at(symbol);
}

std::shared_ptr<const std::vector<std::uint32_t>> sampleNameRanksOf(const Profile& profile)
{
    return profile.derived.get<std::vector<std::uint32_t>>("cpuSamples.nameRanks", CancelToken::never(), [&] {
        const auto functions = std::int32_t(profile.cpuSamples.functions.size());
        std::vector<std::int32_t> byName(std::size_t(functions) + 1);
        std::iota(byName.begin(), byName.end(), -1);
        const auto name = [&](std::int32_t f) -> const QString& { return sampleFunctionName(profile, f); };
        std::sort(byName.begin(), byName.end(), [&](std::int32_t a, std::int32_t b) { return name(a) < name(b); });
        auto ranks = std::make_shared<std::vector<std::uint32_t>>(byName.size());
        std::uint32_t rank = 0;
        for (std::size_t i = 0; i < byName.size(); ++i) {
            if (i > 0 && name(byName[i - 1]) != name(byName[i]))
                ++rank;
            (*ranks)[std::size_t(byName[i] + 1)] = rank;
        }
        return std::shared_ptr<const std::vector<std::uint32_t>>(std::move(ranks));
    });
}

QString sampleModuleName(const Profile& profile, std::int32_t function)
{
    const CpuFunctionTable& f = profile.cpuSamples.functions;
    if (function < 0 || std::size_t(function) >= f.size())
        return {};
    return profile.strings.at(f.module[std::size_t(function)]);
}

} // namespace nsw
