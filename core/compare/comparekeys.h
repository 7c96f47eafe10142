// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorybreakdown.h"
#include "core/nvtx/nvtxtree.h"
#include "core/profile/loadtypes.h"
#include "core/stats/kernelindex.h"

#include <QString>
#include <QStringList>
#include <limits>
#include <optional>
#include <vector>

namespace nsw {

/// What the rows of a comparison are.
enum class CompareBy : std::uint8_t
{
    Category, ///< kernel categories of a rule set, in one time mode
    Kernel, ///< kernel names (demangled or short, optionally normalized)
    Nvtx ///< NVTX paths, all threads merged (GPU time of the kernels launched inside)
};

/// "category", "kernel", "nvtx".
QString compareByName(CompareBy by);
std::optional<CompareBy> parseCompareBy(const QString& name);

struct KeyValue
{
    TimeNs total = 0;
    std::int64_t instances = 0;
    /// Median duration of one instance; NaN when the key kind has no per-instance durations (categories, NVTX).
    double median = std::numeric_limits<double>::quiet_NaN();
};

/// How much of the compared span (the focus, else the capture) one GPU ran nothing: no kernel, no memory operation.
struct GpuIdle
{
    int gpu = 0; ///< the GPU's id, or the CUDA ordinal when the process's devices cannot be mapped to GPUs
    double idlePercent = 0;
};

/// One profile's GPU time per key: what a comparison lines up. Computed once per profile and key choice (it is what
/// the workbench caches per session), so that adding a profile to a comparison never recomputes the others.
struct ProfileKeys
{
    CompareBy by = CompareBy::Kernel;
    std::vector<QString> keys; ///< distinct
    std::vector<KeyValue> values; ///< per key
    /// Per key: 1 when the key's time is disjoint from the other top-level keys' (every kernel and category; the
    /// outermost NVTX ranges), so that stacking them never counts a kernel twice.
    std::vector<char> topLevel;
    /// All the GPU time the key kind counts (kernels; kernels and memory operations for categories, in the time
    /// mode): the denominator of shares and the comparison's totals row.
    KeyValue gpu;
    TimeNs captureNs = 0; ///< Profile::captureDurationNs(), for per-second normalization
    std::vector<GpuIdle> gpuIdle; ///< per GPU with activity, by id (gpuIdleShares())
    QStringList warnings;

    std::size_t size() const { return keys.size(); }
};

/// Per kernel name of @p index (its name mode), merged by normalizeKernelName() when @p normalizeNames. Kernels
/// without a name get the key "(unnamed)". @p keyOfGroup, when given, receives the key of each index group (-1 for a
/// group without a kernel in the focus). With an active @p focus only the kernels that overlap it count (whole
/// durations; medians of those executions); captureNs stays the capture's.
ProfileKeys kernelKeys(const KernelIndex& index, bool normalizeNames, std::vector<std::int32_t>* keyOfGroup = nullptr,
    const FocusRange& focus = {});
/// The same from kernelTotalsByName() (no index to build).
ProfileKeys kernelKeys(const Profile& profile, const std::vector<KernelNameTotal>& totals, bool normalizeNames);

/// Per category of a whole-profile breakdown (categorize() without perDevice: its first bar), in the breakdown's
/// time mode; categories without time or instances are left out. The CPU (non-GPU) segment is not a key.
ProfileKeys categoryKeys(const CategoryBreakdown& breakdown, TimeNs captureNs);

/// Per NVTX path ("a > b > c", names as the tree made them: normalized when its options say so) of a tree, with
/// the GPU time of the kernels attributed to the range or below it. Meant for a tree built with
/// NvtxGrouping::Merged, so that threads and processes (which differ between runs) do not split a region; other
/// groupings add up the paths of every thread. @p keyOfNode, when given, receives the key of each node (-1 for
/// nodes that are not ranges).
ProfileKeys nvtxKeys(const NvtxTree& tree, std::vector<std::int32_t>* keyOfNode = nullptr);

/// Everything that decides a profile's keys.
struct CompareKeyOptions
{
    CompareBy by = CompareBy::Kernel;
    KernelNameMode kernelNames = KernelNameMode::Demangled;
    /// Kernel names through normalizeKernelName(), NVTX names through normalizeNvtxName(); categories ignore it.
    bool normalizeNames = false;
    RuleList rules; ///< CompareBy::Category
    TimeMode timeMode = TimeMode::Global; ///< CompareBy::Category
    /// CompareBy::Kernel: also the median per instance (KeyValue::median), which needs the kernel index.
    bool medians = false;
};

/// Only the tables and kernel columns the keys need (plus the NVTX table when an iteration marker is counted).
LoadOptions compareLoadOptions(const CompareKeyOptions& options, bool iterationMarker);

/// The iterations "per iteration" divides by: the iterations of @p marker exactly as the `iterations` command and
/// the Iterations pane list them (findMarkerRanges(): the process with the most instances, nested instances
/// folded into the outermost, unterminated and library ranges left out), with an active @p focus those that
/// overlap it; 0 without a marker or when nothing matches. Needs the NVTX table.
std::int64_t countIterations(const Profile& profile, const QString& marker, const FocusRange& focus = {});

} // namespace nsw
