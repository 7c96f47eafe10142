// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"
#include "core/profile/focusrange.h"
#include "core/profile/loadtypes.h"
#include "core/profile/profile.h"
#include "core/stats/durationhistogram.h"
#include "core/stats/durationstats.h"

#include <memory>
#include <vector>

namespace nsw {

struct KernelGroupStats;

enum class KernelNameMode
{
    Demangled,
    Short,
    Mangled
};

/// A GPU "lane": one stream of one process on one device (schema doc §4.1: streams are per process/context).
struct KernelLane
{
    ProcessIndex process = kNoIndex;
    std::int32_t device = 0;
    std::uint32_t context = 0;
    std::uint32_t stream = 0;
};

/// The name of a kernel row in @p mode (a missing mangled name falls back to the demangled one, as nsys does).
StringRef kernelNameOf(const KernelTable& kernels, std::size_t row, KernelNameMode mode);

/// Kernels sorted once by (name, duration), so that any filter is summarised in one linear pass without sorting
/// again (the kernel table must answer a filter change on millions of kernels in well under 100 ms).
class KernelIndex
{
public:
    /// Building stops early once @p cancel is set: the index is then incomplete (isComplete() false) and must be
    /// dropped.
    KernelIndex(const ProfilePtr& profile, KernelNameMode mode, const CancelToken& cancel = CancelToken::never());

    bool isComplete() const { return m_complete; }
    const ProfilePtr& profile() const { return m_profile; }
    /// The same index for @p whole, the whole profile of a staged load whose first stage this index was built on
    /// (same kernel columns and string refs): shares the sorted data, no rebuild. Null when the kernel columns differ.
    std::shared_ptr<const KernelIndex> reboundTo(const ProfilePtr& whole) const;
    KernelNameMode mode() const { return m_mode; }
    StringRef nameOf(std::size_t kernelRow) const;

    struct Group
    {
        StringRef name = kNoString;
        std::uint32_t begin = 0; ///< range in order()
        std::uint32_t end = 0;
    };
    const Column<Group>& groups() const { return m_data->groups; }
    /// Kernel rows, grouped by name, ascending duration within a group.
    const Column<std::uint32_t>& order() const { return m_data->order; }
    /// Calls @p f with the durations in order() order: a `const std::uint32_t*` when every one fits in 4 bytes
    /// (each under 4.29 s, as kernels are), else a `const qint64*`.
    template <typename F> decltype(auto) withSortedDurations(F&& f) const
    {
        if (!m_data->narrowDurations.empty())
            return f(m_data->narrowDurations.data());
        return f(m_data->durations.data());
    }
    /// The duration at position @p p of order().
    qint64 sortedDuration(std::size_t p) const
    {
        return m_data->narrowDurations.empty() ? m_data->durations[p] : qint64(m_data->narrowDurations[p]);
    }
    /// Lane of each position in order() (a byte each while there are fewer than 255 lanes).
    const IndexColumn<std::uint32_t>& sortedLanes() const { return m_data->sortedLanes; }
    const Column<KernelLane>& lanes() const { return m_data->lanes; }
    /// Lane of a kernel row (a search over the lanes: for tests and single lookups).
    std::uint32_t laneOf(std::size_t kernelRow) const;
    /// Group index of a name, or -1.
    int groupOf(StringRef name) const;
    std::size_t memoryBytes() const;
    /// summarizeKernels() of every kernel, unfiltered and not split by device, made on the first call and kept (shared
    /// with reboundTo() copies). The load calls it on its own thread, so that the Kernels pane's first view does not
    /// pass over millions of durations on the GUI thread. Thread-safe.
    const std::vector<KernelGroupStats>& wholeProfileSummary() const;

    /// What the index holds, as Columns sharing its storage (the profile cache writes and maps them:
    /// core/profilecache).
    struct Data
    {
        Column<Group> groups;
        Column<std::uint32_t> order;
        Column<qint64> durations; ///< empty when narrowDurations holds them
        Column<std::uint32_t> narrowDurations; ///< when every duration fits, instead of durations
        IndexColumn<std::uint32_t> sortedLanes;
        Column<KernelLane> lanes;
        Column<std::int32_t> groupOfName; ///< by StringRef

        /// Calls @p visit(name, column) for every column, as Profile::forEachTable's tables do.
        template <typename Self, typename Visit> static void forEachColumn(Self& self, Visit&& visit)
        {
            visit("groups", self.groups);
            visit("order", self.order);
            visit("durations", self.durations);
            visit("narrowDurations", self.narrowDurations);
            visit("sortedLanes", self.sortedLanes);
            visit("lanes", self.lanes);
            visit("groupOfName", self.groupOfName);
        }
    };
    const Data& data() const { return *m_data; }
    /// The index of @p profile made of @p data (read back from a cache), or null when @p data cannot be its index:
    /// sizes that do not match the profile's kernels and strings, groups or lanes out of range. The values of order,
    /// sortedLanes and groupOfName must have been checked already (they are read only when used).
    static std::shared_ptr<const KernelIndex> fromData(const ProfilePtr& profile, KernelNameMode mode, Data data);

private:
    KernelIndex() = default;
    ProfilePtr m_profile;
    KernelNameMode m_mode = KernelNameMode::Demangled;
    std::shared_ptr<Data> m_data = std::make_shared<Data>(); ///< shared with reboundTo() copies
    bool m_complete = false;
    struct WholeSummary;
    std::shared_ptr<WholeSummary> m_whole; ///< shared with reboundTo() copies, as m_data

    std::vector<std::uint32_t> buildLanes(const CancelToken& cancel);
    void buildGroups(const std::vector<std::uint32_t>& laneOfRow, const CancelToken& cancel);
};

/// Which kernels count. Empty masks allow everything.
struct KernelFilter
{
    std::vector<char> lanes; ///< by lane index
    std::vector<char> names; ///< by StringRef of the index's name mode (e.g. a category's kernels)
    std::shared_ptr<const std::vector<char>> rows; ///< by kernel row (e.g. kernels under an NVTX range)
    /// By kernel row: the kernels that overlap the profile's focus range (kernelRowsOverlapping), on top of rows.
    std::shared_ptr<const std::vector<char>> focusRows;

    bool allowsLane(std::uint32_t lane) const { return lanes.empty() || (lane < lanes.size() && lanes[lane]); }
    bool allowsName(StringRef name) const
    {
        return names.empty() || (name >= 0 && std::size_t(name) < names.size() && names[std::size_t(name)]);
    }
    bool allowsRow(std::uint32_t row) const
    {
        return (!rows || (row < rows->size() && (*rows)[row]))
            && (!focusRows || (row < focusRows->size() && (*focusRows)[row]));
    }
    bool restrictsRows() const { return rows || focusRows; }
    bool isEmpty() const { return lanes.empty() && names.empty() && !restrictsRows(); }
};

struct KernelGroupStats
{
    StringRef name = kNoString;
    std::int32_t device = -1; ///< -1 = all devices
    int group = -1; ///< index into KernelIndex::groups()
    DurationSummary stats;
    /// The groups the durations fall into (durationModesSorted) when there are two or more (a multimodal kernel);
    /// empty otherwise.
    std::vector<DurationMode> modes;
};

/// Summaries per kernel name (or per name and device), in the index's group order. Groups with no kernel left
/// after filtering are omitted.
std::vector<KernelGroupStats> summarizeKernels(
    const KernelIndex& index, const KernelFilter& filter, bool splitByDevice);

/// Total duration and count of one kernel name.
struct KernelNameTotal
{
    StringRef name = kNoString;
    qint64 total = 0;
    qint64 count = 0;
};
/// Totals per name in @p mode, in order of first appearance, in one pass without sorting: for summaries that need
/// no percentiles (e.g. a comparison from the command line, where building a KernelIndex would cost more). With an
/// active @p focus only the kernels that overlap it (durations not clipped).
std::vector<KernelNameTotal> kernelTotalsByName(
    const Profile& profile, KernelNameMode mode, const FocusRange& focus = {});

/// Mask by kernel row of the kernels that overlap @p focus (FocusRange::overlaps: nsys's range filter, durations
/// not clipped); null when @p cancel is set before the end.
std::shared_ptr<const std::vector<char>> kernelRowsOverlapping(
    const KernelTable& kernels, const FocusRange& focus, const CancelToken& cancel);

/// Kernel rows of one group that pass the filter (and belong to @p device unless it is -1), ascending duration.
std::vector<std::uint32_t> kernelInstances(
    const KernelIndex& index, int group, const KernelFilter& filter, std::int32_t device = -1);

} // namespace nsw
