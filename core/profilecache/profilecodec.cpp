// SPDX-License-Identifier: GPL-3.0-or-later
#include "profilecodec.h"

#include "core/profilecache/bytecodec.h"
#include "core/profilecache/cachefile.h"
#include "core/profilecache/checksum.h"
#include "core/profilecache/profilefacts.h"

#include <QFileInfo>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <type_traits>

namespace nsw {

namespace {

using cachefile::Section;
using cachefile::ValueCheck;

const QByteArray kKeySection = "key";
const QByteArray kFactsSection = "facts";
const QByteArray kStringOffsets = "strings.offsets";
const QByteArray kStringUnits = "strings.units";
const QByteArray kLaunchShapes = "launchShapes";
// The timeline index (TimelineIndex::Data): its rows, lanes and extent in one small section, then its columns.
const QByteArray kTimelineLayout = "tl.layout";
const QByteArray kTimelineRefs = "tl.refs";
const QByteArray kTimelineBusyEnds = "tl.busyEnds";
const QByteArray kTimelineGapTrees = "tl.gapTrees";

// Section names: "t.<table>.<column>" for the profile's tables, "ki.<column>" for the kernel index; encoded columns
// add a part (".offsets", ".narrow", ...).
QByteArray tableSection(const char* table, const char* column)
{
    return QByteArray("t.") + table + '.' + column;
}
QByteArray kernelIndexSection(const char* column)
{
    return QByteArray("ki.") + column;
}

template <typename T> constexpr bool isScalar = std::is_arithmetic_v<T>;
template <typename T> struct IsIndexColumn : std::false_type
{ };
template <typename T> struct IsIndexColumn<IndexColumn<T>> : std::true_type
{ };
template <typename T> struct IsColumn : std::false_type
{ };
template <typename T> struct IsColumn<Column<T>> : std::true_type
{ };

/// Calls @p visit(sectionName, member, into) for every column and extra of every table of @p profile.
template <typename P, typename Visit> void forEachProfileColumn(P& profile, Visit&& visit)
{
    Profile::forEachTable(profile, [&](const char* table, auto& t) {
        forEachTableMember(
            t, [&](const char* column, auto& c, IndexInto into, bool) { visit(tableSection(table, column), c, into); });
    });
}
template <typename D, typename Visit> void forEachIndexColumn(D& data, Visit&& visit)
{
    KernelIndex::Data::forEachColumn(data, [&](const char* column, auto& c) { visit(kernelIndexSection(column), c); });
}

/// The timeline index's layout in file order, written once for both directions: @p io is a ByteWriter (and @p d
/// const) or a ByteReader.
template <class Io, class D> void visitTimelineLayout(Io& io, D& d)
{
    io.fields(d.start, d.end, d.eventCount);
    io.list(d.lanes, 17, [&](auto& l) { io.fields(l.source, l.begin, l.count, l.busyBegin, l.treeBegin); });
    io.list(d.rows, 37, [&](auto& r) {
        io.fields(r.label, r.kind, r.parent, r.level, r.firstLane, r.laneCount, r.events, r.counter, r.thread);
    });
}

// ------------------------------------------------------------------------------------------------------ writing

class SectionSink
{
public:
    explicit SectionSink(cachefile::Writer& writer)
        : m_writer(writer)
    { }
    template <typename T> void add(const QByteArray& name, const Column<T>& c)
    {
        m_writer.add(name, c.data(), c.size() * sizeof(T), sizeof(T));
    }
    template <typename T> void add(const QByteArray& name, const std::vector<T>& v)
    {
        m_writer.add(name, v.data(), v.size() * sizeof(T), sizeof(T));
    }
    void add(const QByteArray& name, const TimeColumn& c)
    {
        const TimeColumn::Parts p = c.parts();
        add(name + ".offsets", p.offsets);
        add(name + ".bases", p.bases);
        add(name + ".whole", p.whole);
        add(name + ".open", p.open);
    }
    template <typename T> void add(const QByteArray& name, const IndexColumn<T>& c)
    {
        const typename IndexColumn<T>::Parts p = c.parts();
        add(name + ".byte", p.bytes);
        add(name + ".narrow", p.narrow);
        add(name + ".wide", p.wideValues);
    }
    /// As plain uint32 values (what the reader checks and maps), decoded a part at a time.
    void add(const QByteArray& name, const PackedRows& rows)
    {
        m_writer.add(name, std::uint64_t(rows.size()) * 4, 4, [&](std::uint64_t offset, char* out, std::size_t n) {
            std::vector<std::uint32_t> values(n / 4);
            rows.copyTo(std::size_t(offset / 4), values.size(), values.data());
            std::memcpy(out, values.data(), n);
        });
    }
    template <typename T> requires isScalar<T> void add(const QByteArray& name, const T& value)
    {
        m_writer.add(name, &value, sizeof value, sizeof value);
    }

private:
    cachefile::Writer& m_writer;
};

QByteArray encodeKey(const ProfileCacheKey& key, std::uint64_t fingerprint)
{
    ByteWriter w;
    w.put(kProfileCacheFormatVersion);
    w.put(fingerprint);
    w.put(key.identity.canonicalPath);
    w.put(key.identity.size);
    w.put(key.identity.modifiedNs);
    w.put(key.identity.inode);
    w.put(key.identity.device);
    w.put(key.identity.changeCounter);
    w.put(key.identity.headerChecksum);
    w.put(key.parts);
    w.put(key.kernelColumns);
    return w.bytes();
}

/// False when the bytes are not a key of this format version and fingerprint.
bool decodeKey(const QByteArray& bytes, ProfileCacheKey& key)
{
    ByteReader r(bytes);
    if (r.get<std::uint32_t>() != kProfileCacheFormatVersion || r.get<std::uint64_t>() != profileCacheFingerprint())
        return false;
    key.identity.canonicalPath = r.getString();
    key.identity.size = r.get<std::int64_t>();
    key.identity.modifiedNs = r.get<std::int64_t>();
    key.identity.inode = r.get<std::uint64_t>();
    key.identity.device = r.get<std::uint64_t>();
    key.identity.changeCounter = r.get<std::uint32_t>();
    key.identity.headerChecksum = r.get<std::uint64_t>();
    key.parts = r.get<unsigned>();
    key.kernelColumns = r.get<unsigned>();
    return !r.failed() && r.atEnd();
}

// ------------------------------------------------------------------------------------------------------ reading

/// Rows of a column as the directory gives them (-1 when a section is missing).
class RowCounts
{
public:
    explicit RowCounts(const cachefile::Reader& reader)
        : m_reader(reader)
    { }
    template <typename T> std::int64_t of(const QByteArray& name, const Column<T>&) const
    {
        return count(name, sizeof(T));
    }
    std::int64_t of(const QByteArray& name, const TimeColumn&) const
    {
        const std::int64_t sealed = count(name + ".offsets", 4), open = count(name + ".open", 8);
        return sealed < 0 || open < 0 ? -1 : sealed + open;
    }
    template <typename T> std::int64_t of(const QByteArray& name, const IndexColumn<T>&) const
    {
        const std::int64_t bytes = count(name + ".byte", 1), narrow = count(name + ".narrow", 2),
                           wide = count(name + ".wide", sizeof(T));
        return bytes < 0 || narrow < 0 || wide < 0 ? -1 : bytes + narrow + wide;
    }
    std::int64_t count(const QByteArray& name, std::size_t elementSize) const
    {
        const Section* s = m_reader.find(name);
        return s && s->elementSize == elementSize ? std::int64_t(s->count()) : -1;
    }

private:
    const cachefile::Reader& m_reader;
};

/// The value check for a column whose values index a table of @p rows rows (@p lowest is -1, "none", or 0).
/// Index columns are int16, int32 or uint32; a column of another type said to index a table fails every check, so
/// that its cache files are refused (and the round-trip tests fail) until it is given a check here.
template <typename T> ValueCheck checkFor(std::int64_t rows, std::int64_t lowest = -1)
{
    if constexpr (std::is_same_v<T, std::int16_t>)
        return { ValueCheck::Type::Int16, lowest, rows - 1, {} };
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return { ValueCheck::Type::Int32, lowest, rows - 1, {} };
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return { ValueCheck::Type::UInt32, 0, rows - 1, {} };
    else
        return { ValueCheck::Type::Int32, 1, 0, {} };
}

/// Views of the mapped sections as columns.
class SectionSource
{
public:
    SectionSource(const cachefile::Reader& reader, std::shared_ptr<const cachefile::Mapping> mapping)
        : m_reader(reader)
        , m_mapping(std::move(mapping))
    { }
    template <typename T> bool get(const QByteArray& name, Column<T>& out) const
    {
        const Section* s = m_reader.find(name);
        if (!s || s->elementSize != sizeof(T))
            return false;
        out = s->bytes == 0
            ? Column<T>()
            : Column<T>::view(m_mapping, reinterpret_cast<const T*>(m_mapping->at(s->offset)), std::size_t(s->count()));
        return true;
    }
    template <typename T> bool get(const QByteArray& name, std::vector<T>& out) const
    {
        Column<T> c;
        if (!get(name, c))
            return false;
        out = c.toVector();
        return true;
    }
    bool get(const QByteArray& name, TimeColumn& out) const
    {
        TimeColumn::Parts p;
        if (!get(name + ".offsets", p.offsets) || !get(name + ".bases", p.bases) || !get(name + ".whole", p.whole)
            || !get(name + ".open", p.open))
            return false;
        std::optional<TimeColumn> c = TimeColumn::fromParts(std::move(p));
        if (c)
            out = std::move(*c);
        return c.has_value();
    }
    bool get(const QByteArray& name, PackedRows& out) const
    {
        Column<std::uint32_t> values;
        if (!get(name, values))
            return false;
        out = PackedRows::plain(std::move(values));
        return true;
    }
    template <typename T> bool get(const QByteArray& name, IndexColumn<T>& out) const
    {
        typename IndexColumn<T>::Parts p;
        if (!get(name + ".byte", p.bytes) || !get(name + ".narrow", p.narrow) || !get(name + ".wide", p.wideValues))
            return false;
        std::optional<IndexColumn<T>> c = IndexColumn<T>::fromParts(std::move(p));
        if (c)
            out = std::move(*c);
        return c.has_value();
    }
    template <typename T> requires isScalar<T> bool get(const QByteArray& name, T& out) const
    {
        const Section* s = m_reader.find(name);
        if (!s || s->bytes != sizeof(T))
            return false;
        std::memcpy(&out, m_mapping->at(s->offset), sizeof(T));
        return true;
    }

private:
    const cachefile::Reader& m_reader;
    std::shared_ptr<const cachefile::Mapping> m_mapping;
};

/// Reads one cache file; every step either passes or says why the file is refused.
class ProfileFileReader
{
public:
    ProfileFileReader(const QString& path, const ProfileCacheKey& expected, const QString& exportPath)
        : m_path(path)
        , m_expected(expected)
        , m_exportPath(exportPath)
    { }
    Result<CachedLoad> read(const CancelToken& cancel);

private:
    Result<CachedLoad> refuse(const QString& why) const
    {
        return Result<CachedLoad>::failure(
            ErrorKind::Input, why.startsWith(m_path) ? why : QStringLiteral("%1: %2").arg(m_path, why));
    }
    Status readKey();
    Status readSmallParts();
    /// Row counts of every table from the directory: each column must hold the table's rows or none.
    Status checkRowCounts();
    std::map<QByteArray, ValueCheck> valueChecks() const;
    std::int64_t rowsOf(IndexInto into) const;
    Status mapColumns();
    Status checkEndThreads() const;
    Status checkSampleStacks() const;
    void mapKernelIndex();
    /// The timeline index's layout, when the entry holds one: read and checked against the profile's threads and
    /// the sizes of the index's columns (before verify(), whose checks of the references need the lanes).
    Status readTimelineLayout();
    /// The timeline index of the mapped profile (null when the entry has none).
    Status mapTimelineIndex(const ProfilePtr& profile);

    QString m_path;
    ProfileCacheKey m_expected;
    QString m_exportPath;
    std::unique_ptr<cachefile::Reader> m_reader;
    std::shared_ptr<Profile> m_profile = std::make_shared<Profile>();
    QStringList m_warnings;
    std::map<QByteArray, std::int64_t> m_tableRows;
    std::shared_ptr<const KernelIndex> m_kernelIndex;
    std::shared_ptr<const cachefile::Mapping> m_mapping;
    std::optional<TimelineIndex::Data> m_timeline; ///< its layout until mapTimelineIndex()
    TimelineIndexPtr m_timelineIndex;
};

Status ProfileFileReader::readKey()
{
    const Result<QByteArray> bytes = m_reader->read(kKeySection);
    if (!bytes)
        return bytes.failureAs<Done>();
    ProfileCacheKey key;
    if (!decodeKey(*bytes, key))
        return Status::failure(ErrorKind::Input, QStringLiteral("written by another version of the workbench"));
    if (key.identity != m_expected.identity)
        return Status::failure(ErrorKind::Input, QStringLiteral("made from %1 before it changed").arg(m_exportPath));
    if (key.parts != m_expected.parts || key.kernelColumns != m_expected.kernelColumns)
        return Status::failure(ErrorKind::Input, QStringLiteral("holds other parts of the export"));
    return success();
}

Status ProfileFileReader::readSmallParts()
{
    const Result<QByteArray> facts = m_reader->read(kFactsSection);
    if (!facts)
        return facts.failureAs<Done>();
    if (!decodeProfileFacts(*facts, *m_profile, m_warnings))
        return Status::failure(ErrorKind::Input, QStringLiteral("malformed profile facts"));
    const Result<QByteArray> offsets = m_reader->read(kStringOffsets);
    const Result<QByteArray> units = m_reader->read(kStringUnits);
    if (!offsets || !units)
        return (offsets ? units : offsets).failureAs<Done>();
    std::optional<StringPool> strings
        = decodeStrings(reinterpret_cast<const std::uint64_t*>(offsets->constData()), std::size_t(offsets->size()) / 8,
            reinterpret_cast<const char16_t*>(units->constData()), std::size_t(units->size()) / 2);
    if (!strings || m_reader->find(kStringOffsets)->elementSize != 8 || m_reader->find(kStringUnits)->elementSize != 2)
        return Status::failure(ErrorKind::Input, QStringLiteral("malformed string pool"));
    m_profile->strings = std::move(*strings);
    const Result<QByteArray> shapes = m_reader->read(kLaunchShapes);
    if (!shapes || m_reader->find(kLaunchShapes)->elementSize != sizeof(LaunchShape))
        return Status::failure(ErrorKind::Input, QStringLiteral("malformed launch shapes"));
    m_profile->launchShapes.resize(std::size_t(shapes->size()) / sizeof(LaunchShape));
    if (!shapes->isEmpty()) // an export without kernels has no shapes: memcpy must not see a null pointer
        std::memcpy(m_profile->launchShapes.data(), shapes->constData(), std::size_t(shapes->size()));
    return success();
}

Status ProfileFileReader::checkRowCounts()
{
    const RowCounts counts(*m_reader);
    QString wrong;
    Profile::forEachTable(std::as_const(*m_profile), [&](const char* table, const auto& t) {
        std::int64_t rows = 0;
        std::vector<std::pair<const char*, std::int64_t>> columnRows;
        forEachTableMember(t, [&](const char* column, const auto& c, IndexInto, bool perRow) {
            if constexpr (isScalar<std::remove_cvref_t<decltype(c)>>) {
                if (counts.count(tableSection(table, column), sizeof c) != 1)
                    wrong = QString::fromLatin1(tableSection(table, column));
            } else if (perRow) {
                columnRows.emplace_back(column, counts.of(tableSection(table, column), c));
                rows = std::max(rows, columnRows.back().second);
            } else if (counts.of(tableSection(table, column), c) < 0) {
                wrong = QString::fromLatin1(tableSection(table, column));
            }
        });
        for (const auto& [column, n] : columnRows)
            if (n != 0 && n != rows)
                wrong = QString::fromLatin1(tableSection(table, column));
        if (rows > std::int64_t(std::numeric_limits<std::uint32_t>::max()))
            wrong = QString::fromLatin1(table);
        m_tableRows[table] = rows;
    });
    return wrong.isEmpty() ? success()
                           : Status::failure(ErrorKind::Input,
                               QStringLiteral("its columns disagree on their table's row count (%1)").arg(wrong));
}

std::int64_t ProfileFileReader::rowsOf(IndexInto into) const
{
    const Profile& p = *m_profile;
    switch (into) {
    case IndexInto::Nothing:
        break;
    case IndexInto::Strings:
        return std::int64_t(p.strings.size());
    case IndexInto::Processes:
        return std::int64_t(p.processes.size());
    case IndexInto::Threads:
        return std::int64_t(p.threads.size());
    case IndexInto::LaunchShapes:
        return std::int64_t(p.launchShapes.size());
    case IndexInto::NvtxDomains:
        return std::int64_t(p.nvtxDomains.size());
    case IndexInto::CudaApiCalls:
        return m_tableRows.at("cudaApi");
    case IndexInto::CpuFunctions:
        return m_tableRows.at("cpuFunctions");
    }
    return 0;
}

std::map<QByteArray, ValueCheck> ProfileFileReader::valueChecks() const
{
    std::map<QByteArray, ValueCheck> checks;
    forEachProfileColumn(std::as_const(*m_profile), [&](const QByteArray& name, const auto& c, IndexInto into) {
        using C = std::remove_cvref_t<decltype(c)>;
        if (into == IndexInto::Nothing)
            return;
        const std::int64_t rows = rowsOf(into);
        const std::int64_t lowest = into == IndexInto::CpuFunctions ? 0 : -1;
        if constexpr (IsIndexColumn<C>::value) {
            checks[name + ".byte"]
                = { ValueCheck::Type::UInt8PlusOne, lowest, std::min<std::int64_t>(rows - 1, 254), {} };
            checks[name + ".narrow"]
                = { ValueCheck::Type::UInt16PlusOne, lowest, std::min<std::int64_t>(rows - 1, 65534), {} };
            checks[name + ".wide"] = checkFor<typename C::value_type>(rows, lowest);
        } else if constexpr (IsColumn<C>::value) {
            checks[name] = checkFor<typename C::value_type>(rows, lowest);
        } else {
            checks[name] = checkFor<void>(rows); // a time or a scalar indexes nothing
        }
    });
    const RowCounts counts(*m_reader);
    if (m_reader->find(kernelIndexSection("order"))) {
        const std::int64_t lanes = counts.count(kernelIndexSection("lanes"), sizeof(KernelLane));
        const std::int64_t groups = counts.count(kernelIndexSection("groups"), sizeof(KernelIndex::Group));
        checks[kernelIndexSection("order")] = checkFor<std::uint32_t>(m_tableRows.at("kernels"));
        const QByteArray sortedLanes = kernelIndexSection("sortedLanes");
        checks[sortedLanes + ".byte"]
            = { ValueCheck::Type::UInt8PlusOne, 0, std::min<std::int64_t>(lanes - 1, 254), {} };
        checks[sortedLanes + ".narrow"]
            = { ValueCheck::Type::UInt16PlusOne, 0, std::min<std::int64_t>(lanes - 1, 65534), {} };
        checks[sortedLanes + ".wide"] = checkFor<std::uint32_t>(lanes);
        checks[kernelIndexSection("groupOfName")] = checkFor<std::int32_t>(groups);
    }
    if (m_timeline) {
        // Each reference names a row of the table its lane reads: bounds per lane, checked as the values are read.
        const auto rows = [&](const char* table) {
            const TimeColumn none;
            return std::uint64_t(std::max<std::int64_t>(0,
                std::min(counts.of(tableSection(table, "start"), none), counts.of(tableSection(table, "end"), none))));
        };
        const TimelineRefCheck::TableRows tableRows { rows("kernels"), rows("memops"), rows("graphLaunches"),
            rows("cudaApi"),
            std::min<std::uint64_t>(rows("nvtx"),
                std::uint64_t(std::max<std::int64_t>(0, counts.count(tableSection("nvtx", "eventType"), 1)))),
            rows("osrt") };
        for (const auto& [name, of] : { std::pair { kTimelineRefs, TimelineRefCheck::Of::Refs },
                 std::pair { kTimelineBusyEnds, TimelineRefCheck::Of::BusyEnds } }) {
            auto check = std::make_shared<const TimelineRefCheck>(m_timeline->lanes, of, tableRows);
            ValueCheck v { ValueCheck::Type::UInt32, 0, 0, {} };
            v.custom = [check](std::uint64_t first, const void* values, std::size_t count) {
                return (*check)(first, static_cast<const std::uint32_t*>(values), count);
            };
            checks[name] = std::move(v);
        }
    }
    return checks;
}

Status ProfileFileReader::readTimelineLayout()
{
    if (!m_reader->find(kTimelineLayout))
        return success();
    const Result<QByteArray> bytes = m_reader->read(kTimelineLayout);
    if (!bytes)
        return bytes.failureAs<Done>();
    TimelineIndex::Data d;
    ByteReader r(*bytes);
    visitTimelineLayout(r, d);
    const RowCounts counts(*m_reader);
    const std::int64_t refs = counts.count(kTimelineRefs, 4), busyEnds = counts.count(kTimelineBusyEnds, 4),
                       trees = counts.count(kTimelineGapTrees, 4);
    if (r.failed() || !r.atEnd() || refs < 0 || busyEnds < 0 || trees < 0
        || !TimelineIndex::checkLayout(
            *m_profile, d.rows, d.lanes, std::uint64_t(refs), std::uint64_t(busyEnds), std::uint64_t(trees)))
        return Status::failure(ErrorKind::Input, QStringLiteral("malformed timeline index"));
    m_timeline = std::move(d);
    return success();
}

Status ProfileFileReader::mapTimelineIndex(const ProfilePtr& profile)
{
    if (!m_timeline)
        return success();
    const SectionSource source(*m_reader, m_mapping);
    TimelineIndex::Data d = std::move(*m_timeline);
    m_timeline.reset();
    if (source.get(kTimelineRefs, d.refs) && source.get(kTimelineBusyEnds, d.busyEnds)
        && source.get(kTimelineGapTrees, d.gapTrees))
        m_timelineIndex = TimelineIndex::fromData(profile, std::move(d));
    return m_timelineIndex ? success() : Status::failure(ErrorKind::Input, QStringLiteral("malformed timeline index"));
}

Status ProfileFileReader::mapColumns()
{
    Result<std::shared_ptr<const cachefile::Mapping>> mapping = m_reader->map();
    if (!mapping)
        return mapping.failureAs<Done>();
    m_mapping = *mapping;
    const SectionSource source(*m_reader, m_mapping);
    bool ok = true;
    forEachProfileColumn(*m_profile, [&](const QByteArray& name, auto& c, IndexInto) { ok &= source.get(name, c); });
    if (!ok)
        return Status::failure(ErrorKind::Input, QStringLiteral("a column is missing or malformed"));
    if (Status s = checkEndThreads(); !s)
        return s;
    return checkSampleStacks();
}

Status ProfileFileReader::checkEndThreads() const
{
    const NvtxTable& nvtx = m_profile->nvtx;
    std::int64_t previous = -1;
    for (const NvtxEndThread& e : nvtx.endThread) {
        if (std::int64_t(e.row) <= previous || e.row >= nvtx.size() || e.thread < kNoIndex
            || (e.thread >= 0 && std::size_t(e.thread) >= m_profile->threads.size()))
            return Status::failure(ErrorKind::Input, QStringLiteral("malformed NVTX end threads"));
        previous = e.row;
    }
    return success();
}

/// Sample i's stack is frames[stackBegin[i], stackBegin[i + 1]): the bounds start at 0, never go down and end at the
/// last frame, one more than the samples (or none when there are no samples).
Status ProfileFileReader::checkSampleStacks() const
{
    const CpuSamples& samples = m_profile->cpuSamples;
    const Column<std::uint32_t>& begin = samples.stackBegin;
    const bool none = begin.size() == 0 && samples.frames.size() == 0;
    bool ok = none || begin.size() == samples.size() + 1;
    if (ok && !none) {
        ok = begin[0] == 0 && begin[begin.size() - 1] == samples.frames.size();
        for (std::size_t i = 1; ok && i < begin.size(); ++i)
            ok = begin[i - 1] <= begin[i];
    }
    return ok ? success() : Status::failure(ErrorKind::Input, QStringLiteral("malformed CPU sample stacks"));
}

void ProfileFileReader::mapKernelIndex()
{
    if (!m_reader->find(kernelIndexSection("order")))
        return;
    const SectionSource source(*m_reader, m_mapping);
    KernelIndex::Data data;
    bool ok = true;
    forEachIndexColumn(data, [&](const QByteArray& name, auto& c) { ok &= source.get(name, c); });
    if (ok)
        m_kernelIndex = KernelIndex::fromData(m_profile, KernelNameMode::Demangled, std::move(data));
}

Result<CachedLoad> ProfileFileReader::read(const CancelToken& cancel)
{
    Result<std::unique_ptr<cachefile::Reader>> opened = cachefile::Reader::open(m_path);
    if (!opened)
        return opened.failureAs<CachedLoad>();
    m_reader = std::move(*opened);
    for (Status (ProfileFileReader::*step)() : { &ProfileFileReader::readKey, &ProfileFileReader::readSmallParts,
             &ProfileFileReader::checkRowCounts, &ProfileFileReader::readTimelineLayout })
        if (Status s = (this->*step)(); !s)
            return s.isCancelled() ? s.failureAs<CachedLoad>() : refuse(s.errorMessage());
    if (Status s = m_reader->verify(valueChecks(), cancel); !s)
        return s.failureAs<CachedLoad>();
    if (Status s = mapColumns(); !s)
        return refuse(s.errorMessage());
    mapKernelIndex();
    if (m_reader->find(kernelIndexSection("order")) && !m_kernelIndex)
        return refuse(QStringLiteral("malformed kernel index"));
    m_profile->meta.filePath = m_exportPath;
    m_profile->meta.fileSize = m_expected.identity.size;
    CachedLoad load;
    load.kernelIndex = m_kernelIndex;
    // The index holds the profile; the profile is handed over as const from here on.
    load.profile = m_kernelIndex ? m_kernelIndex->profile() : ProfilePtr(m_profile);
    if (Status s = mapTimelineIndex(load.profile); !s)
        return refuse(s.errorMessage());
    load.timelineIndex = m_timelineIndex;
    load.warnings = m_warnings;
    return load;
}

} // namespace

std::uint64_t profileCacheFingerprint()
{
    static const std::uint64_t fingerprint = [] {
        Checksum sum(kProfileCacheFormatVersion);
        auto addName = [&](const QByteArray& name, std::size_t elementSize) {
            sum.add(name.constData(), std::size_t(name.size()) + 1);
            sum.add(&elementSize, sizeof elementSize);
        };
        const Profile profile;
        forEachProfileColumn(profile, [&](const QByteArray& name, const auto& c, IndexInto into) {
            using C = std::remove_cvref_t<decltype(c)>;
            if constexpr (isScalar<C>)
                addName(name, sizeof(C));
            else
                addName(name, sizeof(typename C::value_type));
            sum.add(&into, sizeof into);
        });
        const KernelIndex::Data data;
        forEachIndexColumn(data, [&](const QByteArray& name, const auto& c) {
            addName(name, sizeof(typename std::remove_cvref_t<decltype(c)>::value_type));
        });
        addName(kLaunchShapes, sizeof(LaunchShape));
        addName(kTimelineLayout, 1);
        addName(kTimelineRefs, sizeof(std::uint32_t));
        addName(kTimelineBusyEnds, sizeof(std::uint32_t));
        addName(kTimelineGapTrees, sizeof(float));
        return sum.value();
    }();
    return fingerprint;
}

Status writeProfileCacheFile(
    const QString& path, const ProfileCacheKey& key, const CachedLoad& load, const CancelToken& hurry)
{
    // The timeline index is waited for before anything is written: in the window the Timeline pane is building it,
    // and the writer's copies into the page cache (a full core for a second on the 4M-kernel export, even under
    // SCHED_IDLE) then no longer compete with the panes' first seconds.
    TimelineIndexPtr timeline = load.timelineIndex;
    if (!timeline && load.timelineIndexWhenWriting)
        timeline = load.timelineIndexWhenWriting(hurry);
    Result<std::unique_ptr<cachefile::Writer>> created = cachefile::Writer::create(path);
    if (!created)
        return created.failureAs<Done>();
    cachefile::Writer& writer = **created;
    const Profile& profile = *load.profile;
    const QByteArray keyBytes = encodeKey(key, profileCacheFingerprint());
    const QByteArray facts = encodeProfileFacts(profile, load.warnings);
    const EncodedStrings strings = encodeStrings(profile.strings);
    writer.add(kKeySection, keyBytes.constData(), std::size_t(keyBytes.size()), 1);
    writer.add(kFactsSection, facts.constData(), std::size_t(facts.size()), 1);
    writer.add(kStringOffsets, strings.offsets.data(), strings.offsets.size() * 8, 8);
    writer.add(kStringUnits, strings.units.data(), strings.units.size() * 2, 2);
    writer.add(kLaunchShapes, profile.launchShapes.data(), profile.launchShapes.size() * sizeof(LaunchShape),
        sizeof(LaunchShape));
    SectionSink sink(writer);
    forEachProfileColumn(profile, [&](const QByteArray& name, const auto& c, IndexInto) { sink.add(name, c); });
    if (load.kernelIndex && load.kernelIndex->isComplete() && load.kernelIndex->mode() == KernelNameMode::Demangled)
        forEachIndexColumn(load.kernelIndex->data(), [&](const QByteArray& name, const auto& c) { sink.add(name, c); });
    if (timeline && timeline->profilePtr() == load.profile) {
        const TimelineIndex::Data d = timeline->data();
        ByteWriter layout;
        visitTimelineLayout(layout, d);
        writer.add(kTimelineLayout, layout.bytes().constData(), std::size_t(layout.bytes().size()), 1);
        sink.add(kTimelineRefs, d.refs);
        sink.add(kTimelineBusyEnds, d.busyEnds);
        sink.add(kTimelineGapTrees, d.gapTrees);
    }
    return writer.commit();
}

Result<CachedLoad> readProfileCacheFile(
    const QString& path, const ProfileCacheKey& expected, const QString& exportPath, const CancelToken& cancel)
{
    ProfileFileReader reader(path, expected, exportPath);
    return reader.read(cancel);
}

Result<ProfileCacheKey> readProfileCacheKey(const QString& path)
{
    Result<std::unique_ptr<cachefile::Reader>> opened = cachefile::Reader::open(path);
    if (!opened)
        return opened.failureAs<ProfileCacheKey>();
    const Result<QByteArray> bytes = (*opened)->read(kKeySection);
    if (!bytes)
        return bytes.failureAs<ProfileCacheKey>();
    ProfileCacheKey key;
    if (!decodeKey(*bytes, key))
        return Result<ProfileCacheKey>::failure(
            ErrorKind::Input, QStringLiteral("%1: written by another version of the workbench").arg(path));
    return key;
}

} // namespace nsw
