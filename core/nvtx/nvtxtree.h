// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/nvtx/nvtxnames.h"
#include "core/nvtx/nvtxtreeindex.h"
#include "core/profile/focusrange.h"
#include "core/profile/profile.h"
#include "core/util/outputtext.h"

#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <vector>

namespace nsw {

/// Where the range trees of the threads are rooted: one tree per thread under its process, one per process
/// (threads merged), or a single tree (all threads of all processes merged).
enum class NvtxGrouping : std::uint8_t
{
    ByThread,
    ByProcess,
    Merged
};

struct NvtxTreeOptions
{
    NvtxGrouping grouping = NvtxGrouping::ByThread;
    /// Aggregate names that differ only by numbers ("op_id = #", see normalizeNvtxName).
    bool normalizeNames = false;
};

/// One aggregated path of the tree: every instance of the same sequence of range labels (domain + name) from
/// the thread's outermost range down, so that repeated iterations collapse into one subtree.
struct NvtxNode
{
    enum class Kind : std::uint8_t
    {
        Root,
        Process,
        Thread,
        Range,
        Kernel ///< a leaf: the kernels of one name attributed directly to the parent range
    };
    Kind kind = Kind::Root;
    std::int32_t parent = -1;
    std::int32_t row = 0; ///< position among the parent's children
    std::int32_t depth = 0; ///< root = 0
    std::int32_t domain = -1; ///< Range: index into NvtxTree::domainLabels
    /// Range: index into NvtxTree::names; Kernel: StringRef of the demangled name; Process: ProcessIndex;
    /// Thread: ThreadIndex.
    std::int32_t name = -1;
    std::vector<std::int32_t> children; ///< ranges first, then kernel leaves

    qint64 instances = 0; ///< range instances; for a kernel leaf its executions
    TimeNs cpuTime = 0; ///< sum of end - start over the instances
    TimeNs gpuTime = 0; ///< sum of the durations of the kernels attributed to the instances or their descendants
    /// Sum over instances of (last GPU end - first GPU start) over the kernels and memory operations attributed to
    /// the instance or its descendants: the GPU span the range projects to (nsys's projected duration).
    TimeNs projectedSpan = 0;
    qint64 kernels = 0;
    qint64 memOps = 0; ///< memcpy and memset operations attributed (not counted in gpuTime)
    TimeNs memOpTime = 0;
    qint64 unterminated = 0; ///< instances without an end (ended at NvtxTable::maxTimestamp)
    qint64 crossThread = 0; ///< start/end instances that ended on another thread
    /// Range: the NVTX row of its earliest instance (by start, then row), e.g. to focus on it; -1 otherwise.
    std::int64_t firstRow = -1;
};

/// Kernel time inside ranges against all kernel time.
struct NvtxCoverage
{
    TimeNs attributedNs = 0;
    TimeNs totalNs = 0;
    qint64 attributedKernels = 0;
    qint64 totalKernels = 0;
    double percent() const { return totalNs > 0 ? 100.0 * double(attributedNs) / double(totalNs) : 0.0; }
};

/// The NVTX ranges of a profile as an aggregated tree with the GPU work of each range projected onto it.
struct NvtxTree
{
    ProfilePtr profile;
    NvtxTreeOptions options;
    std::vector<NvtxNode> nodes; ///< nodes[0] is the root; a parent always has a lower index than its children
    std::vector<QString> names; ///< range names (normalized when options.normalizeNames)
    std::vector<QString> domainLabels; ///< [0] = "" (default domain)
    /// The node of each range instance placed in the tree: rangeNode[i] for the i-th row of placedRanges(). Packed:
    /// ranges near one another in nesting order are instances of nodes made near one another, even when the tree has
    /// more nodes than 16 bits count (ranges with their own names, PyTorch op ids).
    PackedRows rangeNode;
    /// Per kernel row (Profile::kernels): its kernel leaf + 1, 0 when no range has it (see kernelLeaf()). Packed: the
    /// kernels near one another in the table are leaves made near one another (2 bytes a kernel, not 4).
    PackedRows kernelLeafPlusOne;
    /// With an active focus: the NVTX rows of the ranges that overlap it (see placedRanges()).
    PackedRows focusedRanges;
    /// What the tree was built from; a tree of the same profile for another focus or options reuses it.
    std::shared_ptr<const NvtxTreeIndex> index;
    NvtxCoverage coverage;
    qint64 ranges = 0; ///< range events (push/pop and start/end) placed in the tree
    qint64 marks = 0; ///< marks: instantaneous events, not ranges
    qint64 unterminated = 0;
    qint64 crossThread = 0;
    FocusRange focus; ///< what the tree was built for (inactive: the whole capture)

    bool isEmpty() const { return nodes.size() <= 1; }
    /// "NCCL:ncclSend", "forward", a kernel name, "pid 12 (python)", "tid 34".
    QString label(std::int32_t node) const;
    /// Labels from the outermost range down to @p node (process and thread nodes excluded).
    QStringList pathLabels(std::int32_t node) const;
    QString path(std::int32_t node) const;
    /// label() and path() as tree outputs write them: each name cut to kMaxOutputTextChars (cutLongText()).
    QString outputLabel(std::int32_t node) const { return cutLongText(label(node)); }
    QString outputPath(std::int32_t node) const;
    /// The kernel leaf of kernel row @p row, -1 when no range has it.
    std::int32_t kernelLeaf(std::size_t row) const
    {
        return row < kernelLeafPlusOne.size() ? std::int32_t(kernelLeafPlusOne[row]) - 1 : -1;
    }
    /// GPU time of kernels attributed directly to the range (not to its children).
    TimeNs selfGpuTime(std::int32_t node) const;
    /// The NVTX rows placed in the tree, by thread then in nesting order: every range (NvtxTreeIndex::allRanges())
    /// or, with an active focus, those that overlap it.
    PackedRows::Slice placedRanges() const
    {
        if (focus.isActive() || !index)
            return focusedRanges.slice(0, focusedRanges.size());
        return index->allRanges();
    }
};

/// What the `nvtx` command and the NVTX pane ask for.
struct NvtxTreeRequest
{
    ProfilePtr profile;
    NvtxTreeOptions options;
    FocusRange focus; ///< inactive = the whole capture
    /// The profile's index from an earlier tree (NvtxTree::index), else the one another tree of the profile holds
    /// (NvtxTreeIndex::shared), else built. An index of another profile is ignored.
    std::shared_ptr<const NvtxTreeIndex> index;
};

/// Reconstructs the ranges of every thread (push/pop and start/end, nested by time; a start/end range belongs to
/// the thread that started it), attributes each kernel and memory operation to the innermost range of its
/// launching thread that contains the start of the launching CUDA API call, and aggregates instances by path.
/// Linear in the events plus a sort of the threads whose events are not already in time order. A cancelled @p job
/// ends the build early (the result is then incomplete). With an active focus only the ranges (and marks) that
/// overlap it are placed, with their GPU work projected as usual; the coverage counts the kernels that overlap it.
/// With the profile's index, a tree for a short focus costs in proportion to the ranges and launches near it.
NvtxTree buildNvtxTree(const NvtxTreeRequest& request, const JobContext& job = {});
NvtxTree buildNvtxTree(const ProfilePtr& profile, const NvtxTreeOptions& options = {}, const JobContext& job = {},
    const FocusRange& focus = {});

/// buildNvtxTree() as a job: a cancelled job gives a cancelled result, never an incomplete tree. The tree of the same
/// profile, options and focus that another caller holds or is building is shared (the NVTX pane's and the Findings'
/// whole-capture tree are one build).
Result<std::shared_ptr<const NvtxTree>> computeNvtxTree(const NvtxTreeRequest& request, const JobContext& job = {});

/// The time span of @p node's first instance (NvtxNode::firstRow; unterminated: to NvtxTable::maxTimestamp) as a focus
/// labelled with its path ("step > forward", "… (first of 12 instances)"); inactive for nodes that are not ranges.
FocusRange nvtxFirstInstanceFocus(const NvtxTree& tree, std::int32_t node);

/// The durations of @p node's instances, ascending: each range's end - start (unterminated: to
/// NvtxTable::maxTimestamp, as its CPU time), or a kernel leaf's kernel durations; empty for other nodes. For the
/// node's duration histogram: as many values as NvtxNode::instances.
std::vector<qint64> nvtxNodeDurations(const NvtxTree& tree, std::int32_t node);

/// Kernel rows (mask by Profile::kernels row) attributed to @p node or below it; for a kernel leaf, its kernels.
std::vector<char> nvtxKernelRows(const NvtxTree& tree, std::int32_t node);
/// The nodes that contain a kernel execution: its leaf, the innermost range and every ancestor up to the root
/// (excluded), innermost first. Empty when the kernel is outside every range.
std::vector<std::int32_t> nvtxNodesContainingKernel(const NvtxTree& tree, std::uint32_t kernelRow);
/// The kernel leaves of that (demangled) name and all their ancestors (root excluded).
std::vector<std::int32_t> nvtxNodesWithKernelName(const NvtxTree& tree, const QString& name);

} // namespace nsw
