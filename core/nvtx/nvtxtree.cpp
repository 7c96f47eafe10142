// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxtree.h"

#include "core/nvtx/nvtxnames.h"
#include "core/util/flatindex.h"
#include "core/util/hugepages.h"

#include <QHash>
#include <algorithm>

namespace nsw {

namespace {

/// Open addressing map (parent node, domain, name) -> child node: one lookup per range instance, so it must not
/// allocate and must be fast.
class ChildTable
{
public:
    explicit ChildTable(std::size_t expected)
    {
        std::size_t capacity = 64;
        while (capacity < expected * 2)
            capacity *= 2;
        m_slots.assign(capacity, Slot {});
        m_mask = capacity - 1;
    }

    /// The child, or -1 with @p slot set for insert().
    std::int32_t find(std::int32_t parent, std::int32_t domain, std::int32_t name, std::size_t& slot) const
    {
        std::size_t i = hash(parent, domain, name) & m_mask;
        while (true) {
            const Slot& s = m_slots[i];
            if (s.node < 0) {
                slot = i;
                return -1;
            }
            if (s.parent == parent && s.name == name && s.domain == domain)
                return s.node;
            i = (i + 1) & m_mask;
        }
    }

    void insert(std::size_t slot, std::int32_t parent, std::int32_t domain, std::int32_t name, std::int32_t node)
    {
        m_slots[slot] = { parent, domain, name, node };
        if (++m_used * 2 > m_slots.size())
            rehash();
    }

private:
    struct Slot
    {
        std::int32_t parent = -1;
        std::int32_t domain = 0;
        std::int32_t name = 0;
        std::int32_t node = -1;
    };

    static std::size_t hash(std::int32_t parent, std::int32_t domain, std::int32_t name)
    {
        std::uint64_t h = std::uint64_t(std::uint32_t(parent)) * 0x9E3779B97F4A7C15ull;
        h ^= (std::uint64_t(std::uint32_t(name)) + (std::uint64_t(std::uint32_t(domain)) << 32))
            * 0xC2B2AE3D27D4EB4Full;
        return std::size_t(h ^ (h >> 31));
    }

    void rehash()
    {
        std::vector<Slot> old(m_slots.size() * 2, Slot {});
        old.swap(m_slots);
        m_mask = m_slots.size() - 1;
        for (const Slot& s : old) {
            if (s.node < 0)
                continue;
            std::size_t i = hash(s.parent, s.domain, s.name) & m_mask;
            while (m_slots[i].node >= 0)
                i = (i + 1) & m_mask;
            m_slots[i] = s;
        }
    }

    std::vector<Slot> m_slots;
    std::size_t m_mask = 0;
    std::size_t m_used = 0;
};

constexpr std::int32_t kLeafDomain = -2;

/// A range instance while the sweep is inside it; its GPU work is folded into its parent when it closes.
struct OpenRange
{
    TimeNs end;
    TimeNs gpu;
    TimeNs memTime;
    TimeNs first;
    TimeNs last;
    std::uint32_t kernels;
    std::uint32_t memOps;
    std::int32_t node;
    std::int32_t parentPos; ///< stack position of the enclosing instance, -1 at the top level
};

class Builder
{
public:
    Builder(const NvtxTreeRequest& request, const JobContext& job)
        : m_p(*request.profile)
        , m_job(job)
        , m_index(request.index)
        , m_children(1024)
    {
        m_tree.profile = request.profile;
        m_tree.options = request.options;
        m_tree.focus = request.focus;
    }

    NvtxTree run();

private:
    bool cancelled() const { return m_job.isCancelled(); }
    TimeNs resolvedEnd(std::size_t row) const { return m_p.nvtx.resolvedEnd(row); }
    std::int32_t nameKey(StringRef ref);
    std::int32_t rangeKey(StringRef ref);
    std::int32_t child(std::int32_t parent, std::int32_t domain, std::int32_t name, NvtxNode::Kind kind);
    std::int32_t rememberChild(std::int32_t node);
    std::int32_t threadRoot(ThreadIndex thread);
    void prepareDomains();
    void selectRanges();
    PackedRows::Slice placedRanges(std::size_t thread) const;
    void sweepThread(ThreadIndex thread, PackedRows::Slice ranges);
    void close(OpenRange& r);
    void addLeaves();
    void finish();

    const Profile& m_p;
    const JobContext& m_job;
    std::shared_ptr<const NvtxTreeIndex> m_index;
    NvtxTree m_tree;
    std::vector<std::uint32_t> m_leafPlusOne; ///< NvtxTree::kernelLeafPlusOne as it is built
    ChildTable m_children;
    /// By node: the key child() found it by (NvtxNode::name of a range becomes its display name), and the node the
    /// lookup after it returned last time (-1: none yet).
    std::vector<std::int32_t> m_childKey;
    std::vector<std::int32_t> m_childAfter;
    std::int32_t m_lastChild = -1; ///< the node the last child() returned
    std::vector<std::int32_t> m_nameKeyOfRef; ///< with normalized names only
    FlatIndex<StringRef, IntegerHash> m_refSlots; ///< without normalization: each ref's slot in m_keyOfSlot
    std::vector<std::int32_t> m_keyOfSlot;
    std::int32_t m_unnamedKey = -1;
    QHash<QString, std::int32_t> m_nameIndex;
    std::vector<std::int32_t> m_domainKey;
    std::vector<std::int32_t> m_processNode;
    std::vector<std::int32_t> m_threadNode;
    std::vector<std::uint32_t> m_focusedBegin; ///< per thread, size threads + 1 (NvtxTree::focusedRanges)
    std::vector<std::uint32_t> m_rangeNode; ///< NvtxTree::rangeNode while the sweep fills it
    /// Per thread: the positions in its launches() that the sweep visited, [first, second).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_sweptLaunches;
    std::vector<OpenRange> m_stack;
};

std::int32_t Builder::nameKey(StringRef ref)
{
    if (ref < 0) {
        if (m_unnamedKey < 0) {
            m_unnamedKey = std::int32_t(m_tree.names.size());
            m_tree.names.emplace_back();
        }
        return m_unnamedKey;
    }
    const bool normalize = m_tree.options.normalizeNames;
    if (normalize && m_nameKeyOfRef.empty())
        m_nameKeyOfRef.assign(m_p.strings.size(), -1);
    if (!normalize) {
        // Equal texts share one StringRef: the ref names the text, no need to hash it (a node per range when every
        // range has its own name, as PyTorch's op_ids without normalization).
        const auto slot = std::size_t(m_refSlots.index(ref));
        if (slot == m_keyOfSlot.size()) {
            m_keyOfSlot.push_back(std::int32_t(m_tree.names.size()));
            m_tree.names.push_back(m_p.strings.at(ref));
        }
        return m_keyOfSlot[slot];
    }
    std::int32_t& key = m_nameKeyOfRef[std::size_t(ref)];
    if (key >= 0)
        return key;
    // Once per distinct string, never per event.
    const QString name = normalizeNvtxName(m_p.strings.at(ref));
    const auto it = m_nameIndex.constFind(name);
    if (it != m_nameIndex.constEnd()) {
        key = it.value();
    } else {
        key = std::int32_t(m_tree.names.size());
        m_tree.names.push_back(name);
        m_nameIndex.insert(name, key);
    }
    return key;
}

std::int32_t Builder::rangeKey(StringRef ref)
{
    // Equal texts share one StringRef: without normalization the string itself tells names apart, and NvtxTree::names
    // is looked up once per node instead of once per instance.
    return m_tree.options.normalizeNames ? nameKey(ref) : ref;
}

std::int32_t Builder::child(std::int32_t parent, std::int32_t domain, std::int32_t name, NvtxNode::Kind kind)
{
    // A trace repeats its loop: the lookup after a given node is, most times, the one that came after it last time.
    // That guess is checked whole (parent, domain, key) before it is used, so it never changes the result.
    if (m_lastChild >= 0) {
        const std::int32_t guess = m_childAfter[std::size_t(m_lastChild)];
        if (guess >= 0 && m_childKey[std::size_t(guess)] == name) {
            const NvtxNode& g = m_tree.nodes[std::size_t(guess)];
            if (g.parent == parent && g.domain == domain)
                return rememberChild(guess);
        }
    }
    std::size_t slot = 0;
    const std::int32_t found = m_children.find(parent, domain, name, slot);
    if (found >= 0)
        return rememberChild(found);
    const auto node = std::int32_t(m_tree.nodes.size());
    NvtxNode& n = m_tree.nodes.emplace_back();
    n.kind = kind;
    n.parent = parent;
    n.domain = domain;
    n.name = name;
    m_children.insert(slot, parent, domain, name, node);
    m_childKey.resize(m_tree.nodes.size(), -1);
    m_childAfter.resize(m_tree.nodes.size(), -1);
    m_childKey[std::size_t(node)] = name;
    return rememberChild(node);
}

std::int32_t Builder::rememberChild(std::int32_t node)
{
    if (m_lastChild >= 0)
        m_childAfter[std::size_t(m_lastChild)] = node;
    m_lastChild = node;
    return node;
}

std::int32_t Builder::threadRoot(ThreadIndex thread)
{
    const NvtxGrouping grouping = m_tree.options.grouping;
    if (grouping == NvtxGrouping::Merged)
        return 0;
    const ProcessIndex process = m_p.processOfThread(thread);
    std::int32_t& pn = m_processNode[std::size_t(process + 1)]; // slot 0: threads without a known process
    if (pn < 0)
        pn = child(0, -1, process, NvtxNode::Kind::Process);
    if (grouping == NvtxGrouping::ByProcess)
        return pn;
    std::int32_t& tn = m_threadNode[std::size_t(thread)];
    if (tn < 0)
        tn = child(pn, -1, thread, NvtxNode::Kind::Thread);
    return tn;
}

void Builder::prepareDomains()
{
    m_tree.domainLabels.emplace_back(); // default domain
    QHash<QString, std::int32_t> index;
    index.insert(QString(), 0);
    m_domainKey.resize(m_p.nvtxDomains.size());
    for (std::size_t d = 0; d < m_p.nvtxDomains.size(); ++d) {
        const QString label = nvtxDomainLabel(m_p, std::int32_t(d));
        auto it = index.constFind(label);
        if (it == index.constEnd()) {
            it = index.insert(label, std::int32_t(m_tree.domainLabels.size()));
            m_tree.domainLabels.push_back(label);
        }
        m_domainKey[d] = it.value();
    }
}

void Builder::selectRanges()
{
    const std::size_t threads = m_index->threadCount();
    if (!m_tree.focus.isActive()) {
        m_tree.ranges = qint64(m_index->allRanges().size());
        return;
    }
    m_focusedBegin.assign(threads + 1, 0);
    std::vector<std::uint32_t> focused;
    // Capacity for every range costs address space; only what is written becomes memory.
    reserveHugePages(focused, m_index->allRanges().size());
    for (std::size_t t = 0; t < threads; ++t) {
        m_index->appendOverlapping(t, m_tree.focus, focused);
        m_focusedBegin[t + 1] = std::uint32_t(focused.size());
    }
    m_tree.ranges = qint64(focused.size());
    m_tree.focusedRanges = PackedRows(std::move(focused));
}

PackedRows::Slice Builder::placedRanges(std::size_t thread) const
{
    if (!m_tree.focus.isActive())
        return m_index->ranges(thread);
    return m_tree.focusedRanges.slice(m_focusedBegin[thread], m_focusedBegin[thread + 1] - m_focusedBegin[thread]);
}

void Builder::close(OpenRange& r)
{
    NvtxNode& n = m_tree.nodes[std::size_t(r.node)];
    n.gpuTime += r.gpu;
    n.kernels += r.kernels;
    n.memOps += r.memOps;
    n.memOpTime += r.memTime;
    if (r.kernels + r.memOps > 0)
        n.projectedSpan += r.last - r.first;
    if (r.parentPos >= 0) {
        OpenRange& p = m_stack[std::size_t(r.parentPos)];
        p.gpu += r.gpu;
        p.kernels += r.kernels;
        p.memOps += r.memOps;
        p.memTime += r.memTime;
        p.first = std::min(p.first, r.first);
        p.last = std::max(p.last, r.last);
    }
}

void Builder::sweepThread(ThreadIndex thread, PackedRows::Slice ranges)
{
    const NvtxTable& n = m_p.nvtx;
    const CudaApiTable& api = m_p.cudaApi;
    // Only the calls inside a placed range can attribute work: those from the first range's start to the last end.
    TimeNs lastEnd = std::numeric_limits<TimeNs>::min();
    for (const std::uint32_t row : ranges)
        lastEnd = std::max(lastEnd, resolvedEnd(row));
    const PackedRows::Slice launches = m_index->launches(std::size_t(thread));
    const TimeNs firstStart = n.start[ranges.front()];
    auto ab = std::lower_bound(
        launches.begin(), launches.end(), firstStart, [&](std::uint32_t a, TimeNs t) { return api.start[a] < t; });
    const auto ae
        = std::upper_bound(ab, launches.end(), lastEnd, [&](TimeNs t, std::uint32_t a) { return t < api.start[a]; });
    m_sweptLaunches[std::size_t(thread)]
        = { std::uint32_t(ab - launches.begin()), std::uint32_t(ae - launches.begin()) };
    auto rb = ranges.begin();
    const auto re = ranges.end();

    const std::int32_t root = threadRoot(thread);
    const KernelTable& k = m_p.kernels;
    const MemOpTable& m = m_p.memops;
    const LaunchIndex& launchIndex = m_index->launchIndex();
    const auto kernelCount = std::uint32_t(k.size());
    const std::vector<std::uint32_t>& crossRows = m_index->crossThreadRows();
    m_stack.clear();
    auto popBefore = [&](TimeNs t) {
        while (!m_stack.empty() && m_stack.back().end < t) {
            close(m_stack.back());
            m_stack.pop_back();
        }
    };
    while (rb != re || ab != ae) {
        if (rb != re && (ab == ae || n.start[*rb] <= api.start[*ab])) {
            const std::uint32_t row = *rb++;
            const TimeNs start = n.start[row];
            const TimeNs end = resolvedEnd(row);
            popBefore(start);
            auto parentPos = std::int32_t(m_stack.size()) - 1;
            while (parentPos >= 0 && m_stack[std::size_t(parentPos)].end < end)
                --parentPos; // partial overlap (start/end ranges, or push/pop of two domains): not a parent
            const std::int32_t parentNode = parentPos >= 0 ? m_stack[std::size_t(parentPos)].node : root;
            const std::int32_t domain = n.domain[row] >= 0 ? m_domainKey[std::size_t(n.domain[row])] : 0;
            const std::int32_t node = child(parentNode, domain, rangeKey(n.name[row]), NvtxNode::Kind::Range);
            NvtxNode& nd = m_tree.nodes[std::size_t(node)];
            if (nd.instances == 0) // new
                nd.name = nameKey(n.name[row]);
            m_rangeNode.push_back(std::uint32_t(node));
            ++nd.instances;
            nd.cpuTime += end - start;
            if (nd.firstRow < 0 || start < n.start[std::size_t(nd.firstRow)]
                || (start == n.start[std::size_t(nd.firstRow)] && row < nd.firstRow))
                nd.firstRow = row;
            if (n.end[row] == kNoTime) {
                ++nd.unterminated;
                ++m_tree.unterminated;
            }
            if (!crossRows.empty() && std::binary_search(crossRows.begin(), crossRows.end(), row)) {
                ++nd.crossThread;
                ++m_tree.crossThread;
            }
            m_stack.push_back({ end, 0, 0, std::numeric_limits<TimeNs>::max(), std::numeric_limits<TimeNs>::min(), 0, 0,
                node, parentPos });
            continue;
        }
        const std::uint32_t a = *ab++;
        popBefore(api.start[a]);
        if (m_stack.empty())
            continue;
        OpenRange& top = m_stack.back();
        for (const std::uint32_t op : launchIndex.ops(a)) {
            if (op < kernelCount) {
                const TimeNs d = k.end[op] - k.start[op];
                top.gpu += d;
                ++top.kernels;
                top.first = std::min(top.first, k.start[op]);
                top.last = std::max(top.last, k.end[op]);
                m_leafPlusOne[op] = std::uint32_t(top.node) + 1; // its range for now: addLeaves() makes it the leaf
                if (m_tree.focus.overlaps(k.start[op], k.end[op])) {
                    m_tree.coverage.attributedNs += d;
                    ++m_tree.coverage.attributedKernels;
                }
            } else {
                const std::uint32_t mo = op - kernelCount;
                top.memTime += m.end[mo] - m.start[mo];
                ++top.memOps;
                top.first = std::min(top.first, m.start[mo]);
                top.last = std::max(top.last, m.end[mo]);
            }
        }
    }
    while (!m_stack.empty()) {
        close(m_stack.back());
        m_stack.pop_back();
    }
}

void Builder::addLeaves()
{
    // Leaves are made in the order the sweep attributed their kernels (by thread, then launch), so that node numbers
    // and the order of siblings do not depend on the kernel table's row order.
    const KernelTable& k = m_p.kernels;
    const LaunchIndex& launchIndex = m_index->launchIndex();
    for (std::size_t t = 0; t < m_sweptLaunches.size(); ++t) {
        const PackedRows::Slice launches = m_index->launches(t);
        for (std::uint32_t i = m_sweptLaunches[t].first; i < m_sweptLaunches[t].second; ++i) {
            const std::uint32_t a = launches[i];
            for (const std::uint32_t op : launchIndex.ops(a)) {
                if (op >= k.size() || m_leafPlusOne[op] == 0)
                    continue;
                std::uint32_t& owner = m_leafPlusOne[op];
                const std::int32_t leaf
                    = child(std::int32_t(owner) - 1, kLeafDomain, k.demangledName[op], NvtxNode::Kind::Kernel);
                NvtxNode& n = m_tree.nodes[std::size_t(leaf)];
                ++n.instances;
                ++n.kernels;
                n.gpuTime += k.end[op] - k.start[op];
                owner = std::uint32_t(leaf) + 1;
            }
        }
    }
}

void Builder::finish()
{
    std::vector<NvtxNode>& nodes = m_tree.nodes;
    // Process and thread nodes (and the root) sum their top-level ranges; ranges already hold inclusive values.
    for (std::size_t i = nodes.size(); i-- > 1;) {
        const NvtxNode& n = nodes[i];
        NvtxNode& p = nodes[std::size_t(n.parent)];
        if (n.kind == NvtxNode::Kind::Kernel || p.kind == NvtxNode::Kind::Range)
            continue;
        p.instances += n.instances;
        p.cpuTime += n.cpuTime;
        p.gpuTime += n.gpuTime;
        p.projectedSpan += n.projectedSpan;
        p.kernels += n.kernels;
        p.memOps += n.memOps;
        p.memOpTime += n.memOpTime;
        p.unterminated += n.unterminated;
        p.crossThread += n.crossThread;
    }
    std::vector<std::int32_t> childCount(nodes.size(), 0);
    for (std::size_t i = 1; i < nodes.size(); ++i)
        ++childCount[std::size_t(nodes[i].parent)];
    for (std::size_t i = 0; i < nodes.size(); ++i)
        nodes[i].children.reserve(std::size_t(childCount[i]));
    for (std::size_t i = 1; i < nodes.size(); ++i) {
        NvtxNode& p = nodes[std::size_t(nodes[i].parent)];
        nodes[i].row = std::int32_t(p.children.size());
        nodes[i].depth = p.depth + 1;
        p.children.push_back(std::int32_t(i));
    }
}

NvtxTree Builder::run()
{
    const KernelTable& k = m_p.kernels;
    m_tree.nodes.emplace_back(); // root
    for (std::size_t i = 0; i < k.size(); ++i) {
        if (!m_tree.focus.overlaps(k.start[i], k.end[i]))
            continue;
        m_tree.coverage.totalNs += k.end[i] - k.start[i];
        ++m_tree.coverage.totalKernels;
    }
    if (!m_index || m_index->profile() != &m_p)
        m_index = NvtxTreeIndex::shared(m_tree.profile, m_job.slice(0.0, 0.5));
    if (!m_index)
        return std::move(m_tree);
    m_tree.index = m_index;
    m_tree.marks = m_index->marksIn(m_tree.focus);
    selectRanges();
    // At most a node per range and per kernel. Untouched capacity costs address space, not memory, and spares the
    // copies of a growing vector when every range has its own name (PyTorch op_ids without normalization). Capped:
    // Linux's default overcommit refuses one allocation larger than RAM and swap, and the 40M-kernel export's 230M
    // ranges and kernels would ask for 28 GB (a 30 GB malloc fails on a 24 GB machine); past 16M nodes it grows.
    constexpr std::size_t maxReserved = std::size_t(1) << 24;
    reserveHugePages(m_tree.nodes,
        std::min(maxReserved, std::size_t(m_tree.ranges) + k.size() + m_p.threads.size() + m_p.processes.size() + 2));
    m_children = ChildTable(std::max<std::size_t>(1024, std::size_t(m_tree.ranges) / 64));
    reserveHugePages(m_rangeNode, std::size_t(m_tree.ranges));
    reserveHugePages(m_leafPlusOne, k.size());
    m_leafPlusOne.assign(k.size(), 0);
    m_sweptLaunches.assign(m_index->threadCount(), { 0, 0 });
    m_processNode.assign(m_p.processes.size() + 1, -1);
    m_threadNode.assign(m_p.threads.size(), -1);
    prepareDomains();
    const std::size_t threads = m_index->threadCount();
    const JobContext sweep = m_job.slice(0.5, 1.0);
    for (std::size_t t = 0; t < threads; ++t) {
        sweep.report(QStringLiteral("NVTX tree"), double(t) / double(threads));
        if (cancelled())
            return std::move(m_tree);
        const PackedRows::Slice ranges = placedRanges(t);
        if (!ranges.empty())
            sweepThread(ThreadIndex(t), ranges);
    }
    m_tree.rangeNode = PackedRows(std::move(m_rangeNode));
    addLeaves();
    m_tree.kernelLeafPlusOne = PackedRows(std::move(m_leafPlusOne));
    finish();
    return std::move(m_tree);
}

} // namespace

QString NvtxTree::label(std::int32_t node) const
{
    const NvtxNode& n = nodes[std::size_t(node)];
    switch (n.kind) {
    case NvtxNode::Kind::Root:
        return profile ? profile->displayName() : QString();
    case NvtxNode::Kind::Process:
        return profile->processLabel(n.name);
    case NvtxNode::Kind::Thread:
        return profile->threadLabel(n.name);
    case NvtxNode::Kind::Range:
        return nvtxRangeLabel(domainLabels[std::size_t(n.domain)], names[std::size_t(n.name)]);
    case NvtxNode::Kind::Kernel:
        return profile->strings.at(n.name);
    }
    return {};
}

QStringList NvtxTree::pathLabels(std::int32_t node) const
{
    QStringList labels;
    for (std::int32_t i = node; i > 0; i = nodes[std::size_t(i)].parent) {
        const NvtxNode::Kind kind = nodes[std::size_t(i)].kind;
        if (kind == NvtxNode::Kind::Range || kind == NvtxNode::Kind::Kernel)
            labels.prepend(label(i));
    }
    return labels;
}

QString NvtxTree::path(std::int32_t node) const
{
    return nvtxPathKey(pathLabels(node));
}

QString NvtxTree::outputPath(std::int32_t node) const
{
    QStringList labels = pathLabels(node);
    for (QString& l : labels)
        l = cutLongText(l);
    return nvtxPathKey(labels);
}

TimeNs NvtxTree::selfGpuTime(std::int32_t node) const
{
    const NvtxNode& n = nodes[std::size_t(node)];
    if (n.kind == NvtxNode::Kind::Kernel)
        return n.gpuTime;
    TimeNs self = n.gpuTime;
    for (const std::int32_t c : n.children)
        if (nodes[std::size_t(c)].kind != NvtxNode::Kind::Kernel)
            self -= nodes[std::size_t(c)].gpuTime;
    return self;
}

NvtxTree buildNvtxTree(const NvtxTreeRequest& request, const JobContext& job)
{
    if (!request.profile) {
        NvtxTree empty;
        empty.nodes.emplace_back();
        return empty;
    }
    return Builder(request, job).run();
}

NvtxTree buildNvtxTree(
    const ProfilePtr& profile, const NvtxTreeOptions& options, const JobContext& job, const FocusRange& focus)
{
    return buildNvtxTree(NvtxTreeRequest { profile, options, focus, nullptr }, job);
}

Result<std::shared_ptr<const NvtxTree>> computeNvtxTree(const NvtxTreeRequest& request, const JobContext& job)
{
    if (!request.profile)
        return std::make_shared<const NvtxTree>(buildNvtxTree(request, job));
    const std::string key = "nvtx tree " + std::to_string(int(request.options.grouping)) + " "
        + std::to_string(int(request.options.normalizeNames)) + " "
        + (request.focus.isActive() ? std::to_string(request.focus.start) + " " + std::to_string(request.focus.end)
                                    : std::string("capture"));
    std::shared_ptr<const NvtxTree> tree = request.profile->derived.getWhileHeld<NvtxTree>(
        key, job.cancelToken(), [&]() -> std::shared_ptr<const NvtxTree> {
            auto built = std::make_shared<const NvtxTree>(buildNvtxTree(request, job));
            return job.isCancelled() ? nullptr : built;
        });
    if (!tree)
        return Result<std::shared_ptr<const NvtxTree>>::cancelled();
    return tree;
}

FocusRange nvtxFirstInstanceFocus(const NvtxTree& tree, std::int32_t node)
{
    if (node < 0 || std::size_t(node) >= tree.nodes.size() || !tree.profile)
        return {};
    const NvtxNode& n = tree.nodes[std::size_t(node)];
    if (n.kind != NvtxNode::Kind::Range || n.firstRow < 0)
        return {};
    const NvtxTable& nvtx = tree.profile->nvtx;
    const auto row = std::size_t(n.firstRow);
    FocusRange focus;
    focus.start = nvtx.start[row];
    focus.end = nvtx.end[row] == kNoTime ? std::max(nvtx.maxTimestamp, focus.start) : nvtx.end[row];
    const QString path = tree.path(node);
    focus.label = n.instances > 1 ? QStringLiteral("%1 (first of %2 instances)").arg(path).arg(n.instances) : path;
    return focus;
}

std::vector<qint64> nvtxNodeDurations(const NvtxTree& tree, std::int32_t node)
{
    std::vector<qint64> durations;
    if (node < 0 || std::size_t(node) >= tree.nodes.size())
        return durations;
    const NvtxNode& n = tree.nodes[std::size_t(node)];
    const Profile& p = *tree.profile;
    durations.reserve(std::size_t(n.instances));
    if (n.kind == NvtxNode::Kind::Kernel) {
        for (std::size_t row = 0; row < tree.kernelLeafPlusOne.size(); ++row)
            if (tree.kernelLeaf(row) == node)
                durations.push_back(p.kernels.end[row] - p.kernels.start[row]);
    } else if (n.kind == NvtxNode::Kind::Range) {
        const PackedRows::Slice rows = tree.placedRanges();
        for (std::size_t i = 0; i < std::min(rows.size(), tree.rangeNode.size()); ++i)
            if (tree.rangeNode[i] == std::uint32_t(node))
                durations.push_back(p.nvtx.resolvedEnd(rows[i]) - p.nvtx.start[rows[i]]);
    }
    std::sort(durations.begin(), durations.end());
    return durations;
}

std::vector<char> nvtxKernelRows(const NvtxTree& tree, std::int32_t node)
{
    const Profile& p = *tree.profile;
    std::vector<char> rows(p.kernels.size(), 0);
    if (node < 0 || std::size_t(node) >= tree.nodes.size())
        return rows;
    // Parents come before their children, so one forward pass marks the subtree.
    std::vector<char> inside(tree.nodes.size(), 0);
    inside[std::size_t(node)] = 1;
    for (std::size_t i = std::size_t(node) + 1; i < tree.nodes.size(); ++i)
        inside[i] = inside[std::size_t(tree.nodes[i].parent)];
    for (std::size_t row = 0; row < std::min(rows.size(), tree.kernelLeafPlusOne.size()); ++row) {
        const std::int32_t leaf = tree.kernelLeaf(row);
        rows[row] = leaf >= 0 && inside[std::size_t(leaf)];
    }
    return rows;
}

namespace {
void appendWithAncestors(const NvtxTree& tree, std::int32_t node, std::vector<std::int32_t>& out)
{
    for (std::int32_t i = node; i > 0; i = tree.nodes[std::size_t(i)].parent)
        out.push_back(i);
}
} // namespace

std::vector<std::int32_t> nvtxNodesContainingKernel(const NvtxTree& tree, std::uint32_t kernelRow)
{
    std::vector<std::int32_t> nodes;
    if (const std::int32_t leaf = tree.kernelLeaf(kernelRow); leaf >= 0)
        appendWithAncestors(tree, leaf, nodes);
    return nodes;
}

std::vector<std::int32_t> nvtxNodesWithKernelName(const NvtxTree& tree, const QString& name)
{
    std::vector<std::int32_t> nodes;
    const Profile& p = *tree.profile;
    const StringRef ref = p.strings.find(name);
    if (ref < 0)
        return nodes;
    // The name may be the demangled, short or mangled one, depending on the kernel table's name mode.
    const KernelTable& k = p.kernels;
    std::vector<char> leaves(tree.nodes.size(), 0);
    for (std::size_t row = 0; row < tree.kernelLeafPlusOne.size(); ++row)
        if (const std::int32_t leaf = tree.kernelLeaf(row);
            leaf >= 0 && (k.demangledName[row] == ref || k.shortName[row] == ref || k.mangledName[row] == ref))
            leaves[std::size_t(leaf)] = 1;
    std::vector<char> marked(tree.nodes.size(), 0);
    for (std::size_t leaf = 0; leaf < leaves.size(); ++leaf) {
        if (!leaves[leaf])
            continue;
        for (auto i = std::int32_t(leaf); i > 0 && !marked[std::size_t(i)]; i = tree.nodes[std::size_t(i)].parent) {
            marked[std::size_t(i)] = 1;
            nodes.push_back(i);
        }
    }
    return nodes;
}

} // namespace nsw
