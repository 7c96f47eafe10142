// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernelindex.h"

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <unordered_map>

namespace nsw {

struct KernelIndex::WholeSummary
{
    std::once_flag made;
    std::vector<KernelGroupStats> groups;
};

KernelIndex::KernelIndex(const ProfilePtr& profile, KernelNameMode mode, const CancelToken& cancel)
    : m_profile(profile)
    , m_mode(mode)
    , m_whole(std::make_shared<WholeSummary>())
{
    const std::vector<std::uint32_t> laneOfRow = buildLanes(cancel);
    if (cancel.isCancelled())
        return;
    buildGroups(laneOfRow, cancel);
    if (cancel.isCancelled())
        return;
    m_data->groupOfName.assign(profile->strings.size(), -1);
    for (std::size_t g = 0; g < m_data->groups.size(); ++g)
        if (m_data->groups[g].name >= 0)
            m_data->groupOfName[std::size_t(m_data->groups[g].name)] = int(g);
    m_complete = true;
}

std::shared_ptr<const KernelIndex> KernelIndex::fromData(const ProfilePtr& profile, KernelNameMode mode, Data data)
{
    const std::size_t rows = profile->kernels.size();
    const std::size_t strings = profile->strings.size();
    // groupOfName may be shorter than the pool: the index of a staged load's first stage, rebound to the whole
    // profile (reboundTo()), covers the first stage's strings, the only ones kernels name.
    const bool narrow = !data.narrowDurations.empty();
    if (data.order.size() != rows || (narrow ? data.narrowDurations.size() : data.durations.size()) != rows
        || (narrow && !data.durations.empty()) || data.sortedLanes.size() != rows || data.groupOfName.size() > strings)
        return nullptr;
    std::uint32_t covered = 0;
    for (const Group& g : data.groups) {
        // Groups tile order() from its start, each name (or no name) once.
        if (g.begin != covered || g.end <= g.begin || g.end > rows || g.name < kNoString
            || (g.name >= 0 && std::size_t(g.name) >= strings))
            return nullptr;
        covered = g.end;
    }
    if (covered != rows)
        return nullptr;
    for (const KernelLane& lane : std::as_const(data.lanes)) // const: a view must not be copied
        if (lane.process < kNoIndex || (lane.process >= 0 && std::size_t(lane.process) >= profile->processes.size()))
            return nullptr;
    auto index = std::shared_ptr<KernelIndex>(new KernelIndex);
    index->m_profile = profile;
    index->m_mode = mode;
    index->m_data = std::make_shared<Data>(std::move(data));
    index->m_whole = std::make_shared<WholeSummary>();
    index->m_complete = true;
    return index;
}

std::shared_ptr<const KernelIndex> KernelIndex::reboundTo(const ProfilePtr& whole) const
{
    const KernelTable& mine = m_profile->kernels;
    const KernelTable& theirs = whole->kernels;
    const bool sameRows = mine.size() == theirs.size()
        && (mine.size() == 0 || (mine.start.sharesStorageWith(theirs.start) && mine.end.sharesStorageWith(theirs.end)));
    if (!m_complete || !sameRows || whole->strings.size() < m_profile->strings.size())
        return nullptr;
    auto rebound = std::shared_ptr<KernelIndex>(new KernelIndex);
    rebound->m_profile = whole;
    rebound->m_mode = m_mode;
    rebound->m_data = m_data;
    rebound->m_whole = m_whole;
    rebound->m_complete = true;
    return rebound;
}

std::vector<std::uint32_t> KernelIndex::buildLanes(const CancelToken& cancel)
{
    const KernelTable& k = m_profile->kernels;
    const std::size_t n = k.size();
    // Lanes are few; rows of one lane tend to come in runs, so remember the last few keys before hashing.
    std::unordered_map<std::uint64_t, std::uint32_t> laneIndex;
    auto laneKey = [&](std::size_t i) {
        // Process and device fit in 16 bits each in practice; the full key is checked against the lane itself.
        return (std::uint64_t(std::uint16_t(k.process[i])) << 48) ^ (std::uint64_t(std::uint16_t(k.device[i])) << 32)
            ^ (std::uint64_t(k.context[i]) << 20) ^ std::uint64_t(k.stream[i]);
    };
    auto sameLane = [&](const KernelLane& l, std::size_t i) {
        return l.process == k.process[i] && l.device == k.device[i] && l.context == k.context[i]
            && l.stream == k.stream[i];
    };
    // Lane of each row, only while building: the index keeps lanes in sorted order (sortedLanes) instead.
    std::vector<std::uint32_t> laneOfRow(n);
    std::uint32_t last = std::uint32_t(-1);
    for (std::size_t i = 0; i < n; ++i) {
        if ((i & 0xFFFF) == 0 && cancel.isCancelled())
            return laneOfRow;
        if (last != std::uint32_t(-1) && sameLane(m_data->lanes[last], i)) {
            laneOfRow[i] = last;
            continue;
        }
        const std::uint64_t key = laneKey(i);
        auto it = laneIndex.find(key);
        if (it == laneIndex.end() || !sameLane(m_data->lanes[it->second], i)) {
            // New lane, or a hash-key collision: fall back to a linear search, then add.
            std::uint32_t found = std::uint32_t(-1);
            for (std::uint32_t l = 0; l < m_data->lanes.size() && found == std::uint32_t(-1); ++l)
                if (sameLane(m_data->lanes[l], i))
                    found = l;
            if (found == std::uint32_t(-1)) {
                found = std::uint32_t(m_data->lanes.size());
                m_data->lanes.push_back({ k.process[i], k.device[i], k.context[i], k.stream[i] });
            }
            laneIndex[key] = found;
            last = found;
        } else {
            last = it->second;
        }
        laneOfRow[i] = last;
    }
    return laneOfRow;
}

void KernelIndex::buildGroups(const std::vector<std::uint32_t>& laneOfRow, const CancelToken& cancel)
{
    const KernelTable& k = m_profile->kernels;
    const std::size_t n = k.size();
    // Bucket rows by name (counting sort, stable), then sort each bucket by (duration, row): contiguous keys,
    // no random access in the comparator.
    // nameOf() is two loads; calling it twice beats a temporary 4-byte-per-kernel array at peak memory.
    StringRef maxName = -1;
    for (std::size_t i = 0; i < n; ++i)
        maxName = std::max(maxName, nameOf(i));
    // Slot 0 holds kernels without a name; slot r + 1 the name r.
    std::vector<std::uint32_t> offsets(std::size_t(maxName + 2) + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
        ++offsets[std::size_t(nameOf(i) + 1) + 1];
    for (std::size_t b = 1; b < offsets.size(); ++b)
        offsets[b] += offsets[b - 1];
    m_data->order.resize(n);
    std::uint32_t* order = m_data->order.data();
    {
        std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
        for (std::size_t i = 0; i < n; ++i)
            order[fill[std::size_t(nameOf(i) + 1)]++] = std::uint32_t(i);
    }
    bool narrow = true;
    for (std::size_t i = 0; i < n && narrow; ++i) {
        const qint64 d = k.end[i] - k.start[i];
        narrow = d >= 0 && d <= qint64(std::numeric_limits<std::uint32_t>::max());
    }
    if (narrow)
        m_data->narrowDurations.resize(n);
    else
        m_data->durations.resize(n);
    m_data->sortedLanes.reserve(n);
    qint64* durations = narrow ? nullptr : m_data->durations.data();
    std::uint32_t* narrowDurations = narrow ? m_data->narrowDurations.data() : nullptr;
    std::vector<std::pair<qint64, std::uint32_t>> bucket;
    for (std::size_t b = 0; b + 1 < offsets.size(); ++b) {
        const std::uint32_t begin = offsets[b], end = offsets[b + 1];
        if (begin == end)
            continue;
        if (cancel.isCancelled())
            return;
        bucket.clear();
        for (std::uint32_t p = begin; p < end; ++p)
            bucket.emplace_back(k.end[order[p]] - k.start[order[p]], order[p]);
        std::sort(bucket.begin(), bucket.end());
        for (std::uint32_t p = begin; p < end; ++p) {
            const auto& [duration, row] = bucket[p - begin];
            order[p] = row;
            if (narrow)
                narrowDurations[p] = std::uint32_t(duration);
            else
                durations[p] = duration;
            m_data->sortedLanes.push_back(laneOfRow[row]); // positions come in order: the buckets tile order()
        }
        m_data->groups.push_back({ StringRef(b) - 1, begin, end });
    }
    m_data->sortedLanes.compact();
}

StringRef kernelNameOf(const KernelTable& k, std::size_t row, KernelNameMode mode)
{
    switch (mode) {
    case KernelNameMode::Short:
        return k.shortName[row];
    case KernelNameMode::Mangled:
        // nsys falls back to the demangled name when the mangled one is not available.
        return k.mangledName[row] != kNoString ? k.mangledName[row] : k.demangledName[row];
    case KernelNameMode::Demangled:
        break;
    }
    return k.demangledName[row];
}

StringRef KernelIndex::nameOf(std::size_t row) const
{
    return kernelNameOf(m_profile->kernels, row, m_mode);
}

std::vector<KernelNameTotal> kernelTotalsByName(const Profile& profile, KernelNameMode mode, const FocusRange& focus)
{
    const KernelTable& k = profile.kernels;
    std::vector<KernelNameTotal> totals;
    // Slot of each name; slot 0 of the table is "no name".
    std::vector<std::int32_t> slot(profile.strings.size() + 1, -1);
    for (std::size_t i = 0; i < k.size(); ++i) {
        if (!focus.overlaps(k.start[i], k.end[i]))
            continue;
        const StringRef name = kernelNameOf(k, i, mode);
        std::int32_t& s = slot[std::size_t(name + 1)];
        if (s < 0) {
            s = std::int32_t(totals.size());
            totals.push_back({ name, 0, 0 });
        }
        KernelNameTotal& t = totals[std::size_t(s)];
        t.total += k.end[i] - k.start[i];
        ++t.count;
    }
    return totals;
}

std::uint32_t KernelIndex::laneOf(std::size_t row) const
{
    const KernelTable& k = m_profile->kernels;
    for (std::uint32_t l = 0; l < m_data->lanes.size(); ++l) {
        const KernelLane& lane = m_data->lanes[l];
        if (lane.process == k.process[row] && lane.device == k.device[row] && lane.context == k.context[row]
            && lane.stream == k.stream[row])
            return l;
    }
    return std::uint32_t(-1);
}

int KernelIndex::groupOf(StringRef name) const
{
    return name >= 0 && std::size_t(name) < m_data->groupOfName.size() ? m_data->groupOfName[std::size_t(name)] : -1;
}

std::size_t KernelIndex::memoryBytes() const
{
    return m_data->order.capacity() * 4 + m_data->durations.capacity() * 8 + m_data->narrowDurations.capacity() * 4
        + m_data->sortedLanes.size() * m_data->sortedLanes.width() + m_data->groups.capacity() * sizeof(Group)
        + m_data->lanes.capacity() * sizeof(KernelLane) + m_data->groupOfName.capacity() * 4;
}

namespace {
/// Small groups (most names of a big table) are never multimodal: no histogram is made for them.
template <typename Duration> std::vector<DurationMode> modesIfMultimodal(const Duration* sorted, std::size_t count)
{
    if (qint64(count) < HistogramOptions().minCountForModes)
        return {};
    std::vector<DurationMode> modes = durationModesSorted(sorted, count);
    if (modes.size() < 2)
        modes.clear();
    return modes;
}

std::vector<KernelGroupStats> summarizeGroups(const KernelIndex& index, const KernelFilter& filter, bool splitByDevice)
{
    std::vector<KernelGroupStats> result;
    const auto& lanes = index.sortedLanes();
    const auto& order = index.order();
    const auto& laneInfo = index.lanes();
    const bool checkLanes = !filter.lanes.empty();
    const bool checkRows = filter.restrictsRows();
    std::vector<qint64> picked;
    std::map<std::int32_t, std::vector<qint64>> perDevice;
    for (std::size_t g = 0; g < index.groups().size(); ++g) {
        const KernelIndex::Group& group = index.groups()[g];
        if (!filter.allowsName(group.name))
            continue;
        if (!checkLanes && !checkRows && !splitByDevice) {
            index.withSortedDurations([&](const auto* durations) {
                const auto* values = durations + group.begin;
                const std::size_t count = group.end - group.begin;
                result.push_back(
                    { group.name, -1, int(g), summarizeSorted(values, count), modesIfMultimodal(values, count) });
            });
            continue;
        }
        picked.clear();
        perDevice.clear();
        for (std::uint32_t p = group.begin; p < group.end; ++p) {
            if ((checkLanes && !filter.allowsLane(lanes[p])) || (checkRows && !filter.allowsRow(order[p])))
                continue;
            if (splitByDevice)
                perDevice[laneInfo[lanes[p]].device].push_back(index.sortedDuration(p));
            else
                picked.push_back(index.sortedDuration(p));
        }
        const qint64* values = picked.data();
        const std::size_t count = picked.size();
        if (splitByDevice) {
            for (const auto& [device, deviceValues] : perDevice)
                result.push_back(
                    { group.name, device, int(g), summarizeSorted(deviceValues.data(), deviceValues.size()),
                        durationModesSorted(deviceValues.data(), deviceValues.size()) });
        } else if (count > 0) {
            result.push_back(
                { group.name, -1, int(g), summarizeSorted(values, count), modesIfMultimodal(values, count) });
        }
    }
    return result;
}

} // namespace

const std::vector<KernelGroupStats>& KernelIndex::wholeProfileSummary() const
{
    std::call_once(m_whole->made, [this]() { m_whole->groups = summarizeGroups(*this, KernelFilter(), false); });
    return m_whole->groups;
}

std::vector<KernelGroupStats> summarizeKernels(const KernelIndex& index, const KernelFilter& filter, bool splitByDevice)
{
    if (filter.isEmpty() && !splitByDevice)
        return index.wholeProfileSummary();
    return summarizeGroups(index, filter, splitByDevice);
}

std::shared_ptr<const std::vector<char>> kernelRowsOverlapping(
    const KernelTable& kernels, const FocusRange& focus, const CancelToken& cancel)
{
    auto rows = std::make_shared<std::vector<char>>(kernels.size(), 0);
    CancelPoll<65536> stop(cancel);
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        if (stop())
            return nullptr;
        (*rows)[i] = focus.overlaps(kernels.start[i], kernels.end[i]) ? 1 : 0;
    }
    return rows;
}

std::vector<std::uint32_t> kernelInstances(
    const KernelIndex& index, int group, const KernelFilter& filter, std::int32_t device)
{
    std::vector<std::uint32_t> rows;
    if (group < 0 || std::size_t(group) >= index.groups().size())
        return rows;
    const KernelIndex::Group& g = index.groups()[std::size_t(group)];
    const std::uint32_t* order = index.order().data();
    if (filter.lanes.empty() && !filter.restrictsRows() && device < 0)
        return { order + g.begin, order + g.end }; // a million executions: one copy, no growth on the GUI thread
    rows.reserve(g.end - g.begin);
    for (std::uint32_t p = g.begin; p < g.end; ++p) {
        const std::uint32_t lane = index.sortedLanes()[p];
        const std::uint32_t row = order[p];
        if (!filter.allowsLane(lane) || !filter.allowsRow(row))
            continue;
        if (device >= 0 && index.lanes()[lane].device != device)
            continue;
        rows.push_back(row);
    }
    return rows;
}

} // namespace nsw
