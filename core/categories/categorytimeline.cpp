// SPDX-License-Identifier: GPL-3.0-or-later
#include "categorytimeline.h"

#include "core/profile/gpukey.h"
#include "core/util/hugepages.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace nsw {

namespace {
constexpr TimeNs kNever = std::numeric_limits<TimeNs>::min();

/// Maps (process, CUDA ordinal) to a dense index of its GPU (Profile::gpuKey); consecutive rows mostly share one.
class DeviceMapper
{
public:
    explicit DeviceMapper(const Profile& p)
        : m_keyOf(p)
    { }

    std::uint32_t operator()(ProcessIndex process, std::int32_t device)
    {
        const int id = m_keyOf(process, device);
        if (!ids.empty() && id == ids[m_lastIndex])
            return m_lastIndex;
        auto idIt = std::find(ids.begin(), ids.end(), id); // a handful of GPUs
        if (idIt == ids.end()) {
            ids.push_back(id);
            idIt = ids.end() - 1;
        }
        m_lastIndex = std::uint32_t(idIt - ids.begin());
        return m_lastIndex;
    }

    std::vector<int> ids; ///< in order of first appearance

private:
    GpuKeyOfRow m_keyOf;
    std::uint32_t m_lastIndex = 0;
};
} // namespace

namespace {

using Names = std::vector<CategoryTimeline::Name>;

/// Gives each kernel its name, one per distinct (demangled, short) pair added to @p names, and its device as
/// numbered by @p devices.
std::shared_ptr<IndexColumn<std::uint32_t>> nameKernels(
    const Profile& p, Names& names, DeviceMapper& devices, IndexColumn<std::uint32_t>& kernelDevice)
{
    const KernelTable& k = p.kernels;
    // Nearly always one short name per demangled name: index by demangled name first and fall back to a map of pairs.
    std::vector<std::int32_t> byDemangled(p.strings.size(), -1);
    std::unordered_map<std::uint64_t, std::uint32_t> byPair;
    std::vector<StringRef> shortOfName;
    auto kernelName = std::make_shared<IndexColumn<std::uint32_t>>();
    kernelName->reserve(k.size());
    kernelDevice.reserve(k.size());
    for (std::size_t i = 0; i < k.size(); ++i) {
        const StringRef d = k.demangledName[i];
        const StringRef s = k.shortName[i];
        std::int32_t name = d >= 0 ? byDemangled[std::size_t(d)] : -1;
        if (name < 0 || shortOfName[std::size_t(name)] != s) {
            const std::uint64_t pair = (std::uint64_t(std::uint32_t(d)) << 32) | std::uint32_t(s);
            const auto [it, inserted] = byPair.try_emplace(pair, std::uint32_t(names.size()));
            if (inserted) {
                const QString& demangled = p.strings.at(d >= 0 ? d : s);
                names.push_back(
                    CategoryTimeline::Name { demangled, s >= 0 ? p.strings.at(s) : shortNameOf(demangled), false });
                shortOfName.push_back(s);
            }
            name = std::int32_t(it->second);
            if (d >= 0 && byDemangled[std::size_t(d)] < 0)
                byDemangled[std::size_t(d)] = name;
        }
        kernelName->push_back(std::uint32_t(name));
        kernelDevice.push_back(devices(k.process[i], k.device[i]));
    }
    return kernelName;
}

/// Gives each copy kind of the memory operations a name (@p nameOfCopyKind) and returns each operation's device.
IndexColumn<std::uint32_t> nameCopyKinds(
    const Profile& p, Names& names, DeviceMapper& devices, std::array<std::uint32_t, 256>& nameOfCopyKind)
{
    const MemOpTable& m = p.memops;
    std::array<bool, 256> named {};
    IndexColumn<std::uint32_t> memOpDevice;
    memOpDevice.reserve(m.size());
    for (std::size_t j = 0; j < m.size(); ++j) {
        const std::uint8_t kind = m.copyKind[j];
        if (!named[kind]) {
            named[kind] = true;
            nameOfCopyKind[kind] = std::uint32_t(names.size());
            const QString label = p.memOpName(kind);
            names.push_back(CategoryTimeline::Name { label, label, true });
        }
        memOpDevice.push_back(devices(m.process[j], m.device[j]));
    }
    return memOpDevice;
}

/// The dense device numbers of @p devices in ascending id order: the ids in that order (@p ids) and each number's
/// rank.
std::vector<std::uint32_t> rankDevices(const DeviceMapper& devices, std::vector<int>& ids)
{
    std::vector<std::uint32_t> rank(devices.ids.size());
    std::vector<std::uint32_t> byId(devices.ids.size());
    std::iota(byId.begin(), byId.end(), 0u);
    std::sort(
        byId.begin(), byId.end(), [&](std::uint32_t a, std::uint32_t b) { return devices.ids[a] < devices.ids[b]; });
    ids.clear();
    for (std::size_t r = 0; r < byId.size(); ++r) {
        rank[byId[r]] = std::uint32_t(r);
        ids.push_back(devices.ids[byId[r]]);
    }
    return rank;
}

} // namespace

/// The profile's kernels, then its memory operations, as the time modes read rows: in place, with the names and
/// devices the timeline gave them.
struct CategoryTimeline::SourceRows
{
    const Profile& profile;
    const CategoryTimeline& timeline;
    const IndexColumn<std::uint32_t>& memOpDevice;

    std::size_t size() const { return profile.kernels.size() + profile.memops.size(); }
    TimeNs startOf(std::size_t i) const { return timeline.sourceStart(std::uint32_t(i)); }
    TimeNs endOf(std::size_t i) const { return timeline.sourceEnd(std::uint32_t(i)); }
    std::uint32_t groupOf(std::size_t i) const { return timeline.sourceName(std::uint32_t(i)); }
    std::uint32_t deviceOf(std::size_t i) const
    {
        const std::size_t kernels = profile.kernels.size();
        return i < kernels ? (*timeline.m_kernelDevice)[i] : memOpDevice[i - kernels];
    }
};

std::shared_ptr<const CategoryTimeline> CategoryTimeline::build(const ProfilePtr& profile, const CancelToken& cancel)
{
    auto t = std::make_shared<CategoryTimeline>();
    t->m_profile = profile;
    const Profile& p = *profile;
    t->m_graphLaunches = p.graphLaunches.size();
    t->m_sourceKernels = p.kernels.size();

    DeviceMapper devices(p);
    auto kernelDevice = std::make_shared<IndexColumn<std::uint32_t>>();
    t->m_kernelName = nameKernels(p, t->m_names, devices, *kernelDevice);
    IndexColumn<std::uint32_t> memOpDevice = nameCopyKinds(p, t->m_names, devices, t->m_nameOfCopyKind);
    if (cancel.isCancelled())
        return nullptr;
    const std::vector<std::uint32_t> rank = rankDevices(devices, t->m_devices);
    kernelDevice->transform([&](std::uint32_t d) { return rank[d]; });
    memOpDevice.transform([&](std::uint32_t d) { return rank[d]; });
    t->m_kernelDevice = std::move(kernelDevice);

    if (cancel.isCancelled())
        return nullptr;
    // The modes are measured on the profile's rows in place, through their order; the timeline then keeps only that
    // order (a sorted copy of every start, end, device and name took 96 MB on a 4M-kernel export).
    const SourceRows rows { p, *t, memOpDevice };
    DeviceOrder order = sortByDeviceAndStart(rows, t->m_devices.size());
    for (const TimeMode mode : kAllTimeModes) {
        if (cancel.isCancelled())
            return nullptr;
        t->m_nameTimes[std::size_t(mode)] = computeGroupTimes(rows, order, t->m_names.size(), mode);
    }
    t->m_deviceBegin = std::move(order.deviceBegin);
    t->m_source = PackedRows(std::move(order.order));
    return t;
}

std::shared_ptr<const CategoryTimeline> CategoryTimeline::focused(const FocusRange& focus) const
{
    auto t = std::make_shared<CategoryTimeline>();
    t->m_profile = m_profile;
    t->m_names = m_names;
    t->m_devices = m_devices;
    t->m_kernelName = m_kernelName;
    t->m_kernelDevice = m_kernelDevice;
    t->m_nameOfCopyKind = m_nameOfCopyKind;
    t->m_graphLaunches = m_graphLaunches;
    t->m_focus = focus;
    const std::size_t deviceCount = m_devices.size();
    const std::size_t nameCount = m_names.size();
    IntervalColumns& rows = t->m_rows; // clipped, still sorted by (device, start): clipping keeps the order
    t->m_deviceBegin.assign(deviceCount + 1, 0);
    GroupTimes sum;
    sum.deviceCount = deviceCount;
    sum.groupCount = nameCount;
    sum.time.assign(deviceCount * nameCount, 0);
    sum.count.assign(deviceCount * nameCount, 0);
    // Rows starting at or after the range's end cannot overlap it (end >= start here).
    std::vector<std::size_t> stops(deviceCount);
    std::size_t candidates = 0;
    const TimeNs stopAt = focus.isActive() ? focus.end : std::numeric_limits<TimeNs>::max();
    for (std::size_t d = 0; d < deviceCount; ++d) {
        std::size_t low = m_deviceBegin[d], high = m_deviceBegin[d + 1];
        while (low < high) {
            const std::size_t mid = low + (high - low) / 2;
            if (startAt(mid) < stopAt)
                low = mid + 1;
            else
                high = mid;
        }
        stops[d] = low;
        candidates += stops[d] - m_deviceBegin[d];
    }
    reserveHugePages(rows.start, candidates);
    reserveHugePages(rows.end, candidates);
    reserveHugePages(rows.device, candidates);
    reserveHugePages(rows.group, candidates);
    for (std::size_t d = 0; d < deviceCount; ++d) {
        const std::size_t stop = stops[d];
        for (std::size_t p = m_deviceBegin[d]; p < stop; ++p) {
            const TimeNs s = startAt(p), e = endAt(p);
            if (!focus.overlaps(s, e))
                continue;
            const std::uint32_t g = nameAt(p);
            sum.time[d * nameCount + g] += e - s;
            ++sum.count[d * nameCount + g];
            const auto [cs, ce] = focus.clip(s, e);
            rows.start.push_back(cs);
            rows.end.push_back(ce);
            rows.device.push_back(std::uint32_t(d));
            rows.group.push_back(g);
        }
        t->m_deviceBegin[d + 1] = rows.size();
    }
    DeviceOrder identity { {}, t->m_deviceBegin };
    reserveHugePages(identity.order, rows.size());
    identity.order.resize(rows.size());
    std::iota(identity.order.begin(), identity.order.end(), 0u);
    t->m_nameTimes[std::size_t(TimeMode::Sum)] = std::move(sum);
    for (const TimeMode mode : { TimeMode::Busy, TimeMode::Exclusive, TimeMode::Global })
        t->m_nameTimes[std::size_t(mode)] = computeGroupTimes(rows, identity, nameCount, mode);
    rows.device = {};
    return t;
}

QStringList CategoryTimeline::demangledNames() const
{
    QStringList list;
    list.reserve(qsizetype(m_names.size()));
    for (const Name& n : m_names)
        list.append(n.demangled);
    return list;
}

QStringList CategoryTimeline::shortNames() const
{
    QStringList list;
    list.reserve(qsizetype(m_names.size()));
    for (const Name& n : m_names)
        list.append(n.shortName);
    return list;
}

QString CategoryTimeline::deviceLabel(std::size_t device) const
{
    return QStringLiteral("GPU %1").arg(m_devices[device]);
}

GroupTimes CategoryTimeline::busyTimes(const std::vector<std::uint32_t>& groupOfName, std::size_t groupCount,
    const std::vector<std::uint32_t>* groupOfNameB, std::size_t groupCountB, GroupTimes* resultB) const
{
    const std::size_t deviceCount = m_devices.size();
    GroupTimes a;
    a.deviceCount = deviceCount;
    a.groupCount = groupCount;
    a.time.assign(deviceCount * groupCount, 0);
    a.count.assign(deviceCount * groupCount, 0);
    GroupTimes b;
    const bool withB = groupOfNameB && resultB;
    if (withB) {
        b.deviceCount = deviceCount;
        b.groupCount = groupCountB;
        b.time.assign(deviceCount * groupCountB, 0);
        b.count.assign(deviceCount * groupCountB, 0);
    }
    std::vector<TimeNs> runningA(groupCount);
    std::vector<TimeNs> runningB(withB ? groupCountB : 0);
    for (std::size_t d = 0; d < deviceCount; ++d) {
        std::fill(runningA.begin(), runningA.end(), kNever);
        std::fill(runningB.begin(), runningB.end(), kNever);
        TimeNs* timeA = a.time.data() + d * groupCount;
        std::int64_t* countA = a.count.data() + d * groupCount;
        TimeNs* timeB = withB ? b.time.data() + d * groupCountB : nullptr;
        std::int64_t* countB = withB ? b.count.data() + d * groupCountB : nullptr;
        for (std::size_t p = m_deviceBegin[d]; p < m_deviceBegin[d + 1]; ++p) {
            const std::uint32_t name = nameAt(p);
            const std::uint32_t g = groupOfName[name];
            const TimeNs start = startAt(p), end = endAt(p);
            ++countA[g];
            if (end > runningA[g]) {
                timeA[g] += end - std::max(start, runningA[g]);
                runningA[g] = end;
            }
            if (withB) {
                const std::uint32_t h = (*groupOfNameB)[name];
                ++countB[h];
                if (end > runningB[h]) {
                    timeB[h] += end - std::max(start, runningB[h]);
                    runningB[h] = end;
                }
            }
        }
    }
    if (withB)
        *resultB = std::move(b);
    return a;
}

QString shortNameOf(const QString& demangled)
{
    // Cut the argument list and template arguments at depth 0, then the return type and the qualification.
    QString head;
    int depth = 0;
    for (const QChar c : demangled) {
        if (c == QLatin1Char('<') || c == QLatin1Char('(')) {
            if (depth == 0 && c == QLatin1Char('(') && !head.trimmed().isEmpty())
                break;
            ++depth;
            continue;
        }
        if (c == QLatin1Char('>') || c == QLatin1Char(')')) {
            depth = std::max(0, depth - 1);
            continue;
        }
        if (depth == 0)
            head.append(c);
    }
    head = head.trimmed();
    const qsizetype space = head.lastIndexOf(QLatin1Char(' '));
    if (space >= 0)
        head = head.mid(space + 1);
    const qsizetype scope = head.lastIndexOf(QStringLiteral("::"));
    if (scope >= 0)
        head = head.mid(scope + 2);
    return head.isEmpty() ? demangled : head;
}

} // namespace nsw
