// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/samples/samplecounts.h"

#include <QString>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

namespace nsw {

/// A row of a tree view as the exports write it: parents before children, siblings by total samples (then by
/// function name).
struct SampleTreeRow
{
    std::int32_t node = 0; ///< in the tree it comes from
    std::int32_t parentRow = -1; ///< the row of its parent, -1 at the top
    std::uint32_t depth = 0; ///< 0 at the top
    std::int32_t function = -1; ///< -1: the samples without a call stack
    qint64 self = 0;
    qint64 total = 0;
};

/// The top-down tree (outermost frames at the top) of the counted samples.
std::vector<SampleTreeRow> topDownRows(const Profile& profile, const SampleCallTree& tree, const SampleCounts& counts);
/// The bottom-up tree (the functions that were running at the top, their callers below).
std::vector<SampleTreeRow> bottomUpRows(const Profile& profile, const SampleBottomUp& tree);

/// The function as a frame of the exports: "[unknown]" without a symbol, plus " [kernel]" for a kernel-mode frame
/// and " [unresolved]" for an address nsys could not resolve.
QString sampleFrameLabel(const Profile& profile, std::int32_t function);
bool sampleIsKernel(const Profile& profile, std::int32_t function);
bool sampleIsUnresolved(const Profile& profile, std::int32_t function);

/// "Depth,Function,Module,Self,Total,Self %,Total %", one line per row (percentages of @p samples, 2 decimals).
QString sampleTreeCsv(const Profile& profile, std::span<const SampleTreeRow> rows, qint64 samples);
/// The folded stacks flame-graph tools read: one line per distinct stack, outermost frame first, frames joined by
/// ';' (a ';' inside a name becomes ':'), then a space and the samples; kernel-mode frames end in "_[k]" (as
/// stackcollapse-perf writes them). Samples without a stack are "[no call stack]". Lines sorted.
QString sampleCollapsed(const Profile& profile, const SampleCallTree& tree, const SampleCounts& counts);
/// A markdown table of the flat list or of a tree's rows, under @p heading.
QString sampleFlatMarkdown(
    const Profile& profile, std::span<const FunctionCount> functions, qint64 samples, const QString& heading);
QString sampleTreeMarkdown(
    const Profile& profile, std::span<const SampleTreeRow> rows, qint64 samples, const QString& heading);
/// JSON arrays: the flat list ({function, module, self, total, self_pct, total_pct, kernel, unresolved}) and a
/// tree's rows (the same keys plus id, parent, depth; nested by parent id, not by nesting: stacks can be 10,000
/// frames deep).
nlohmann::ordered_json sampleFlatJson(const Profile& profile, std::span<const FunctionCount> functions, qint64 samples);
nlohmann::ordered_json sampleTreeJson(const Profile& profile, std::span<const SampleTreeRow> rows, qint64 samples);

} // namespace nsw
