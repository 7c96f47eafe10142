// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvtx/nvtxphases.h"
#include "core/nvtx/nvtxtree.h"

#include <QIODevice>
#include <QString>
#include <nlohmann/json.hpp>
#include <vector>

namespace nsw {

/// A node in a flattened tree and its depth (1 = a child of the root).
struct NvtxFlatRow
{
    std::int32_t node = 0;
    std::int32_t depth = 0;
};

/// The exports write a tree this deep at most: what lies deeper is folded into its ancestor at this depth, and the
/// output says so. Each node's path and indentation grow with its depth, so 10,000 nested ranges wrote 3.2 GB of JSON.
inline constexpr int kMaxExportedNvtxDepth = 256;

/// What lies below @p maxDepth under @p node (or the whole tree's root): how many nodes, and how many levels.
struct NvtxFolding
{
    qint64 nodes = 0;
    int levels = 0;
};
NvtxFolding nvtxFoldedBelow(
    const NvtxTree& tree, int maxDepth = kMaxExportedNvtxDepth, std::int32_t node = 0, int nodeDepth = 0);

/// Every node but the root down to @p maxDepth, parents before children, siblings by GPU time (then CPU time, then
/// label) descending: the order of the CSV, JSON and Markdown exports.
std::vector<NvtxFlatRow> nvtxPreorder(const NvtxTree& tree, int maxDepth = kMaxExportedNvtxDepth);

/// Share of all kernel time in the profile, in percent.
double nvtxGpuPercent(const NvtxTree& tree, std::int32_t node);

QString nvtxGroupingName(NvtxGrouping grouping);
QString nvtxKindName(NvtxNode::Kind kind);

/// Writes {"file", "grouping", "normalized", "coverage": {attributed_ns, total_ns, pct}, "kernels", "ranges",
/// "marks", "unterminated", "cross_thread", ["phases": [...]], "tree": [{kind, name, path, instances, cpu_ns, gpu_ns,
/// projected_ns, kernels, mem_ops, gpu_pct, children}...]} as nlohmann's dump(2) would, streamed: a tree of
/// millions of distinct paths (PyTorch op_ids without --normalize) never exists as a JSON document in memory.
/// Returns false when @p out fails. The members of @p context (an object: "focus", "warnings"), when given, are
/// written after "normalized".
bool writeNvtxTreeJson(const NvtxTree& tree, const std::vector<NvtxPhaseRow>* phases, QIODevice& out,
    const nlohmann::ordered_json* context = nullptr);

/// The tree as an indented Markdown list (ranges in bold, kernels as code), with coverage and phases on top,
/// streamed to @p out. Returns false when @p out fails.
bool writeNvtxTreeMarkdown(const NvtxTree& tree, const std::vector<NvtxPhaseRow>* phases, QIODevice& out);

} // namespace nsw
