// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvf1reader.h"

#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace nsw {

namespace {

// NVML timestamps further than this from the first one are garbage (and would overflow ns arithmetic).
constexpr qint64 kMaxRelativeUs = 100LL * 24 * 3600 * 1000000;
// A counter step above this many KiB (8 PiB) in one interval cannot be real traffic; its bytes would overflow.
constexpr quint64 kMaxDeltaKiB = (quint64(1) << 53) / 1024;
constexpr int kDirectLinks = 64;
constexpr std::uint32_t kNoPoll = std::numeric_limits<std::uint32_t>::max();
constexpr int kMaxFieldSize = 4096;
constexpr int kMaxRegularPoll = 4096; // records per poll the fast path accepts

qint64 saturatingAdd(qint64 a, qint64 b)
{
    qint64 r = 0;
    return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<qint64>::max() : r;
}

template <typename T> T load(const unsigned char* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v; // NVF1 is little-endian, as is every platform the workbench builds on
}

QString printableMagic(const std::array<char, 4>& m)
{
    QString s;
    for (const char c : m)
        s += (c >= 0x20 && c < 0x7f) ? QChar::fromLatin1(c)
                                     : QStringLiteral("\\x%1").arg(uchar(c), 2, 16, QLatin1Char('0'));
    return s;
}

/// Decodes the value union per NVML's valueType; false when it is not a usable counter.
bool decodeValue(std::uint32_t type, const unsigned char* p, quint64& out)
{
    switch (type) {
    case 0: { // double
        const double d = load<double>(p);
        if (!(d >= 0.0 && d < 18446744073709549568.0))
            return false;
        out = quint64(d);
        return true;
    }
    case 1: // unsigned int
        out = load<std::uint32_t>(p);
        return true;
    case 2: // unsigned long (8 bytes on the LP64 hosts the recorder runs on)
    case 3: // unsigned long long
        out = load<std::uint64_t>(p);
        return true;
    case 4: { // signed long long
        const std::int64_t v = load<std::int64_t>(p);
        if (v < 0)
            return false;
        out = quint64(v);
        return true;
    }
    case 5: { // signed int
        const std::int32_t v = load<std::int32_t>(p);
        if (v < 0)
            return false;
        out = quint64(v);
        return true;
    }
    case 6: // unsigned short
        out = load<std::uint16_t>(p);
        return true;
    default:
        return false;
    }
}

/// Bytes of one counter step, as the series count them (0 for a reset or an absurd jump).
inline qint64 stepBytes(quint64 prev, quint64 cur)
{
    return cur < prev || cur - prev > kMaxDeltaKiB ? 0 : qint64(cur - prev) * 1024;
}

QString checkHeader(const unsigned char* p, qint64 size, const QString& name, Nvf1Header& h)
{
    if (size < kNvf1HeaderBytes)
        return QStringLiteral("%1: too short for an NVF1 header (%2 bytes, the header has %3)")
            .arg(name)
            .arg(size)
            .arg(kNvf1HeaderBytes);
    std::memcpy(h.magic.data(), p, 4);
    h.version = load<std::uint16_t>(p + 4);
    h.fieldSize = load<std::uint16_t>(p + 6);
    h.hostTsSize = load<std::int32_t>(p + 8);
    if (std::memcmp(h.magic.data(), "NVF1", 4) != 0)
        return QStringLiteral("%1: not an NVF1 NVLink recording (magic '%2', expected 'NVF1')")
            .arg(name, printableMagic(h.magic));
    if (h.version != 1)
        return QStringLiteral("%1: unsupported NVF1 version %2 (only version 1 exists)").arg(name).arg(h.version);
    if (h.fieldSize < kNvf1FieldBytes || h.fieldSize > kMaxFieldSize)
        return QStringLiteral("%1: NVF1 field size %2 is not a 64-bit nvmlFieldValue_t (%3 bytes expected)")
            .arg(name)
            .arg(h.fieldSize)
            .arg(kNvf1FieldBytes);
    if (h.hostTsSize != kNvf1HostTsBytes)
        return QStringLiteral("%1: NVF1 host timestamp size %2 is not supported (%3 bytes expected)")
            .arg(name)
            .arg(h.hostTsSize)
            .arg(kNvf1HostTsBytes);
    return {};
}

/// Reads whole records: @p count records from record @p first into @p out. False on an I/O error.
using RecordReader = std::function<bool(qint64 first, std::size_t count, unsigned char* out)>;

/// A usable record, decoded.
struct Decoded
{
    std::uint64_t hostTs;
    std::uint32_t field;
    std::uint32_t link;
    qint64 ts;
    quint64 value;
};

enum class RecordStatus
{
    Ok,
    Failed,
    OtherField,
    BadValue
};

inline RecordStatus decode(const unsigned char* rec, Decoded& d)
{
    const unsigned char* f = rec + kNvf1HostTsBytes;
    if (load<std::uint32_t>(f + 28) != 0)
        return RecordStatus::Failed;
    d.field = load<std::uint32_t>(f);
    if (d.field != kNvmlFieldNvlinkTx && d.field != kNvmlFieldNvlinkRx)
        return RecordStatus::OtherField;
    if (!decodeValue(load<std::uint32_t>(f + 24), f + 32, d.value))
        return RecordStatus::BadValue;
    d.hostTs = load<std::uint64_t>(rec);
    d.link = load<std::uint32_t>(f + 4);
    d.ts = load<std::int64_t>(f + 8);
    return RecordStatus::Ok;
}

/// Shared by both paths: span, identical-link detection support, warnings.
void finalize(Nvf1Recording& rec, qint64 tailBytes)
{
    bool any = false;
    for (const ThroughputSeries& s : rec.links) {
        if (s.time.empty())
            continue;
        const qint64 a = s.wallUs(0), z = s.wallUs(s.time.size() - 1);
        rec.firstUs = any ? std::min(rec.firstUs, a) : a;
        rec.lastUs = any ? std::max(rec.lastUs, z) : z;
        any = true;
    }
    const Nvf1Stats& st = rec.stats;
    QStringList& w = rec.warnings;
    if (tailBytes > 0)
        w << QStringLiteral("the last record is incomplete (%1 of %2 bytes): ignored")
                 .arg(tailBytes)
                 .arg(rec.header.stride());
    if (st.failedRecords > 0)
        w << QStringLiteral("%1 of %2 records have nvmlReturn != 0 (value undefined): skipped")
                 .arg(st.failedRecords)
                 .arg(st.records);
    if (st.otherFieldRecords > 0)
        w << QStringLiteral("%1 records of fields other than NVLink TX/RX data (138/139): skipped")
                 .arg(st.otherFieldRecords);
    if (st.badValueRecords > 0)
        w << QStringLiteral("%1 records with an unusable value type: skipped").arg(st.badValueRecords);
    if (st.badTimestampRecords > 0)
        w << QStringLiteral("%1 records with an NVML timestamp over 100 days from the first: skipped")
                 .arg(st.badTimestampRecords);
    if (st.counterResets > 0)
        w << QStringLiteral("%1 counter resets (a counter went backwards): those intervals count 0 bytes")
                 .arg(st.counterResets);
    if (st.implausibleJumps > 0)
        w << QStringLiteral("%1 implausible counter jumps (over 8 PiB in one interval): counted as 0 bytes")
                 .arg(st.implausibleJumps);
    if (st.reorderedSeries > 0)
        w << QStringLiteral("%1 series had NVML timestamps out of file order: sorted").arg(st.reorderedSeries);
    if (rec.linksIdentical)
        w << QStringLiteral(
            "every link reports the same counter (GPU-wide counters): totals are not summed over links");
    if (st.records > 0 && st.usedRecords == 0)
        w << QStringLiteral("no usable NVLink TX/RX record");
}

/// GPU-wide counters reported once per link would be counted N times: the members of a direction all equal.
bool identicalSeries(const Nvf1Recording& rec, const std::vector<std::size_t>& members)
{
    if (members.size() < 2)
        return false;
    const ThroughputSeries& first = rec.links[members[0]];
    for (std::size_t m = 1; m < members.size(); ++m) {
        const ThroughputSeries& s = rec.links[members[m]];
        if (s.bytes != first.bytes
            || !(s.time.sharesWith(first.time) ? s.time.size() == first.time.size() : s.time == first.time))
            return false;
    }
    for (std::size_t i = 0; i < first.bytes.size(); ++i)
        if (first.bytes[i] > 0)
            return true;
    return false;
}

std::vector<std::size_t> membersOf(const Nvf1Recording& rec, LinkDirection dir)
{
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < rec.links.size(); ++i)
        if (rec.links[i].direction == dir)
            members.push_back(i);
    return members;
}

// ------------------------------------------------------------------------------------------------------------------
// Fast path: the recorder's own layout. Every poll writes the same fields in the same order (TX, RX of link 0, then
// link 1...), all with nvmlReturn 0 and one host timestamp; so record r is series r % S of poll r / S, and two threads
// can fill the final arrays in place, each over half of the polls. Anything else (a failed field, a missing or extra
// record, samples out of order) and the general path below parses the file instead.

struct RegularLayout
{
    int seriesPerPoll = 0;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> keys; // (field, link) per position in a poll
    qint64 records = 0;
    qint64 polls = 0; ///< including a last, partial poll
    int lastPollRecords = 0;
    qint64 origin = 0;
};

bool analyzeFirstPoll(const RecordReader& read, int stride, qint64 records, RegularLayout& layout)
{
    const std::size_t probe = std::size_t(std::min<qint64>(records, kMaxRegularPoll + 1));
    if (probe == 0)
        return false;
    std::vector<unsigned char> buffer(probe * std::size_t(stride));
    if (!read(0, probe, buffer.data()))
        return false;
    Decoded first {};
    if (decode(buffer.data(), first) != RecordStatus::Ok)
        return false;
    layout.origin = first.ts;
    std::size_t s = 0;
    for (; s < probe; ++s) {
        Decoded d {};
        if (decode(buffer.data() + s * std::size_t(stride), d) != RecordStatus::Ok)
            return false;
        const auto key = std::make_pair(d.field, d.link);
        if (d.hostTs != first.hostTs || std::find(layout.keys.begin(), layout.keys.end(), key) != layout.keys.end())
            break;
        layout.keys.push_back(key);
    }
    if (s == probe && qint64(probe) < records)
        return false; // a poll longer than any recorder writes
    layout.seriesPerPoll = int(s);
    layout.records = records;
    layout.polls = records / s + (records % qint64(s) ? 1 : 0);
    layout.lastPollRecords = int(records % qint64(s));
    return records / qint64(s) >= 2;
}

/// What one thread computes over polls [from, to).
struct ChunkResult
{
    Nvf1Stats stats;
    std::vector<std::tuple<int, std::size_t, qint64>> large; // (series, interval, bytes) not in compact form
    std::vector<std::vector<std::uint32_t>> resets; // per series
    std::map<int, std::vector<TimeNs>> ownTimes; // series whose field times differ from the poll's: [from, to)
};

class RegularParser
{
public:
    RegularParser(const RegularLayout& layout, int stride, const RecordReader& read)
        : m_layout(layout)
        , m_stride(stride)
        , m_read(read)
    { }

    std::shared_ptr<Nvf1Recording> parse(const QString& name, const Nvf1Header& header, int gpu, qint64 fileBytes,
        qint64 tailBytes, const CancelToken& cancel);

private:
    void chunk(qint64 from, qint64 to, ChunkResult& out, const CancelToken& cancel);
    int samplesOf(int series) const
    {
        return int(std::min<qint64>(m_layout.polls,
            m_layout.lastPollRecords == 0 || series < m_layout.lastPollRecords ? m_layout.polls : m_layout.polls - 1));
    }

    const RegularLayout& m_layout;
    int m_stride;
    const RecordReader& m_read;
    std::atomic<bool> m_abort { false };
    SampleVector m_pollTimes;
    std::vector<IntervalBytes> m_bytes; // per series
    ByteCounts m_pollBytes[2];
};

void RegularParser::chunk(qint64 from, qint64 to, ChunkResult& out, const CancelToken& cancel)
{
    const int S = m_layout.seriesPerPoll;
    const std::size_t series = std::size_t(S);
    const std::size_t stride = std::size_t(m_stride);
    const std::size_t pollBytes = series * stride;
    const qint64 perBlock
        = std::min<qint64>(std::max<qint64>(1, qint64((std::size_t(1) << 22) / pollBytes)), to - from + 1);
    std::vector<unsigned char> buffer(std::size_t(perBlock) * pollBytes);
    std::vector<quint64> prev(series, 0);
    std::vector<qint64> prevTs(series, 0); // kept for series with their own times only
    std::vector<std::uint64_t> key(series); // fieldId | scopeId << 32, as the record holds them
    std::vector<int> dirOf(series);
    std::vector<std::uint32_t*> compact(series);
    for (std::size_t k = 0; k < series; ++k) {
        key[k] = std::uint64_t(m_layout.keys[k].first) | (std::uint64_t(m_layout.keys[k].second) << 32);
        dirOf[k] = m_layout.keys[k].first == kNvmlFieldNvlinkTx ? 0 : 1;
        compact[k] = m_bytes[k].compactSlots();
    }
    std::vector<std::vector<TimeNs>*> own(series, nullptr);
    out.resets.resize(series);
    qint64 prevPollTs = 0;
    bool havePrevPoll = false;
    auto fail = [this]() { m_abort.store(true, std::memory_order_relaxed); };

    // One counter step of series k at poll p (p > 0, in range): the rare cases (reset, absurd jump, a step too
    // large for 32-bit KiB) and the common one.
    quint64 sumKiB[2] = { 0, 0 };
    qint64 sumOther[2] = { 0, 0 };
    auto rareStep = [&](std::size_t k, qint64 p, quint64 value) {
        const quint64 a = prev[k], d = value - a;
        qint64 bytes = 0;
        if (value < a) {
            ++out.stats.counterResets;
            out.resets[k].push_back(std::uint32_t(p - 1));
        } else if (d > kMaxDeltaKiB) {
            ++out.stats.implausibleJumps;
            out.resets[k].push_back(std::uint32_t(p - 1));
        } else {
            bytes = qint64(d) * 1024;
        }
        if (bytes == 0)
            compact[k][p - 1] = 0;
        else
            out.large.emplace_back(int(k), std::size_t(p - 1), bytes);
        sumOther[dirOf[k]] = saturatingAdd(sumOther[dirOf[k]], bytes);
    };
    auto step = [&](std::size_t k, qint64 p, quint64 value) __attribute__((always_inline))
    {
        const quint64 a = prev[k], d = value - a;
        if (__builtin_expect(value >= a && d < 0xFFFFFFFFu, 1)) {
            compact[k][p - 1] = std::uint32_t(d);
            sumKiB[dirOf[k]] += d;
        } else {
            rareStep(k, p, value);
        }
    };

    // The seed poll before the range (the other thread reads and checks it too) only sets prev.
    qint64 p = from > 0 ? from - 1 : from;
    while (p < to) {
        if (m_abort.load(std::memory_order_relaxed) || cancel.isCancelled())
            return fail();
        const qint64 n = std::min(perBlock, to - p);
        const qint64 firstRecord = p * S;
        const std::size_t count = std::size_t(std::min<qint64>(n * S, m_layout.records - firstRecord));
        if (!m_read(firstRecord, count, buffer.data()))
            return fail();
        for (qint64 q = 0; q < n; ++q, ++p) {
            const unsigned char* poll = buffer.data() + std::size_t(q) * pollBytes;
            const std::size_t records
                = p == m_layout.polls - 1 && m_layout.lastPollRecords ? std::size_t(m_layout.lastPollRecords) : series;
            const std::uint64_t hostTs = load<std::uint64_t>(poll);
            const qint64 pollAbs = load<std::int64_t>(poll + kNvf1HostTsBytes + 8);
            qint64 pollTs = 0;
            if (__builtin_sub_overflow(pollAbs, m_layout.origin, &pollTs) || pollTs > kMaxRelativeUs
                || pollTs < -kMaxRelativeUs)
                return fail();
            if (havePrevPoll && pollTs <= prevPollTs)
                return fail(); // polls out of order or at one time: the general path sorts and merges
            const bool counting = p >= from && p > 0;
            sumKiB[0] = sumKiB[1] = 0;
            sumOther[0] = sumOther[1] = 0;
            for (std::size_t k = 0; k < records; ++k) {
                const unsigned char* rec = poll + k * stride;
                const unsigned char* f = rec + kNvf1HostTsBytes;
                const quint64 value = load<std::uint64_t>(f + 32);
                // fieldId and scopeId, then valueType 3 (unsigned long long) with nvmlReturn 0, one host and NVML time.
                // Bitwise on ints on purpose: one branch for the five tests in this hot loop.
                const bool usual = (int(load<std::uint64_t>(f) == key[k]) & int(load<std::uint64_t>(f + 24) == 3)
                                       & int(load<std::uint64_t>(rec) == hostTs)
                                       & int(load<std::int64_t>(f + 8) == pollAbs) & int(!own[k]))
                    != 0;
                if (__builtin_expect(usual, 1)) {
                    if (counting)
                        step(k, p, value);
                    prev[k] = value;
                    continue;
                }
                Decoded d {};
                if (decode(rec, d) != RecordStatus::Ok || d.field != m_layout.keys[k].first
                    || d.link != m_layout.keys[k].second || d.hostTs != hostTs)
                    return fail();
                qint64 rel = 0;
                if (__builtin_sub_overflow(d.ts, m_layout.origin, &rel) || rel > kMaxRelativeUs
                    || rel < -kMaxRelativeUs)
                    return fail();
                if (p >= from) {
                    if (rel != pollTs && !own[k]) {
                        // This field is stamped apart from its poll: from now on it keeps its own times.
                        std::vector<TimeNs>& t = out.ownTimes[int(k)];
                        own[k] = &t;
                        t.reserve(std::size_t(to - from));
                        for (qint64 r = from; r < p; ++r)
                            t.push_back(m_pollTimes[std::size_t(r)]);
                        prevTs[k] = prevPollTs;
                    }
                    if (own[k] && p > 0) {
                        if (rel < prevTs[k])
                            return fail();
                        if (rel == prevTs[k])
                            ++out.stats.zeroDurationIntervals;
                    }
                    if (counting)
                        step(k, p, d.value);
                    if (own[k])
                        own[k]->push_back(rel * 1000);
                }
                prev[k] = d.value;
                prevTs[k] = rel;
            }
            if (p >= from) {
                m_pollTimes[std::size_t(p)] = pollTs * 1000;
                out.stats.records += qint64(records);
                if (counting)
                    for (int dir = 0; dir < 2; ++dir) {
                        // At most 4096 fields × 4 TiB: the KiB sum cannot overflow, its bytes can (saturated).
                        const quint64 kib = sumKiB[dir];
                        const qint64 bytes = kib > quint64(std::numeric_limits<qint64>::max() / 1024)
                            ? std::numeric_limits<qint64>::max()
                            : qint64(kib) * 1024;
                        m_pollBytes[dir][std::size_t(p)] = saturatingAdd(bytes, sumOther[dir]);
                    }
            }
            prevPollTs = pollTs;
            havePrevPoll = true;
        }
    }
}

std::shared_ptr<Nvf1Recording> RegularParser::parse(const QString& name, const Nvf1Header& header, int gpu,
    qint64 fileBytes, qint64 tailBytes, const CancelToken& cancel)
{
    const int S = m_layout.seriesPerPoll;
    const qint64 polls = m_layout.polls;
    // Every slot is written by exactly one thread before it is read, so nothing is zeroed first.
    m_pollTimes.resize(std::size_t(polls));
    m_bytes.resize(std::size_t(S));
    for (int k = 0; k < S; ++k)
        m_bytes[std::size_t(k)].resizeForOverwrite(std::size_t(std::max(0, samplesOf(k) - 1)));
    for (ByteCounts& b : m_pollBytes)
        b.assign(std::size_t(polls), 0);

    const qint64 split = QThread::idealThreadCount() > 1 && polls >= 4096 ? polls / 2 : polls;
    ChunkResult first, second;
    std::thread helper;
    if (split < polls)
        helper = std::thread([&]() { chunk(split, polls, second, cancel); });
    chunk(0, split, first, cancel);
    if (helper.joinable())
        helper.join();
    if (m_abort.load())
        return nullptr;
    for (const ChunkResult* c : { &first, &second })
        for (const auto& [k, i, bytes] : c->large)
            m_bytes[std::size_t(k)].set(i, bytes);

    auto rec = std::make_shared<Nvf1Recording>();
    rec->path = name;
    rec->header = header;
    rec->originUs = m_layout.origin;
    Nvf1Stats& st = rec->stats;
    st.fileBytes = fileBytes;
    st.partialTailBytes = tailBytes;
    st.records = first.stats.records + second.stats.records;
    st.usedRecords = st.records;
    st.polls = polls;
    st.regularLayout = true;
    for (const ChunkResult* c : { &first, &second }) {
        st.counterResets += c->stats.counterResets;
        st.implausibleJumps += c->stats.implausibleJumps;
        st.zeroDurationIntervals += c->stats.zeroDurationIntervals;
    }
    auto pollTimes = std::make_shared<const SampleVector>(std::move(m_pollTimes));
    for (int k = 0; k < S; ++k) {
        ThroughputSeries s;
        s.gpu = gpu;
        s.link = int(std::min<std::uint32_t>(m_layout.keys[std::size_t(k)].second, INT32_MAX));
        s.direction = m_layout.keys[std::size_t(k)].first == kNvmlFieldNvlinkTx ? LinkDirection::Tx : LinkDirection::Rx;
        s.unit = ThroughputUnit::GBps;
        s.originUs = m_layout.origin;
        const std::size_t samples = std::size_t(samplesOf(k));
        const auto a = first.ownTimes.find(k), b = second.ownTimes.find(k);
        if (a == first.ownTimes.end() && b == second.ownTimes.end()) {
            s.time = SampleTimes(pollTimes, samples);
        } else {
            SampleVector times;
            times.reserve(samples);
            if (a != first.ownTimes.end())
                times.insert(times.end(), a->second.begin(), a->second.end());
            else
                times.insert(times.end(), pollTimes->begin(), pollTimes->begin() + split);
            if (b != second.ownTimes.end())
                times.insert(times.end(), b->second.begin(), b->second.end());
            else
                times.insert(times.end(), pollTimes->begin() + std::min<qint64>(split, polls), pollTimes->end());
            times.resize(samples);
            s.time = SampleTimes(std::move(times));
        }
        s.bytes = std::move(m_bytes[std::size_t(k)]);
        s.resets = std::move(first.resets[std::size_t(k)]);
        if (!second.resets.empty())
            s.resets.insert(s.resets.end(), second.resets[std::size_t(k)].begin(), second.resets[std::size_t(k)].end());
        rec->links.push_back(std::move(s));
    }
    for (const LinkDirection dir : { LinkDirection::Tx, LinkDirection::Rx }) {
        const std::vector<std::size_t> members = membersOf(*rec, dir);
        if (members.empty())
            continue;
        ThroughputSeries total;
        total.gpu = gpu;
        total.link = kAllLinks;
        total.direction = dir;
        total.originUs = m_layout.origin;
        if (identicalSeries(*rec, members)) {
            rec->linksIdentical = true;
            total.time = rec->links[members[0]].time;
            total.bytes = rec->links[members[0]].bytes;
        } else {
            total.time = SampleTimes(pollTimes, std::size_t(polls));
            const ByteCounts& sums = m_pollBytes[int(dir)];
            total.bytes.reserve(sums.size());
            for (std::size_t p = 1; p < sums.size(); ++p)
                total.bytes.push_back(sums[p]);
        }
        rec->totals.push_back(std::move(total));
    }
    finalize(*rec, tailBytes);
    return rec;
}

// ------------------------------------------------------------------------------------------------------------------
// General path: any record order, failed fields, gaps; one vector per series, sorted when out of order.

struct Building
{
    int link = 0;
    LinkDirection direction = LinkDirection::Tx;
    SampleVector ns; // relative to the origin
    ByteCounts value; // cumulative KiB (bit pattern of the u64); becomes the bytes per interval in place
    TimeNs lastNs = 0;
    quint64 lastValue = 0;
    std::uint32_t lastPoll = kNoPoll;
};

class Nvf1Parser
{
public:
    Nvf1Parser(QString name, int gpu, const Nvf1Header& header, qint64 expectedRecords)
        : m_name(std::move(name))
        , m_gpu(gpu)
        , m_header(header)
        , m_stride(header.stride())
        , m_expectedRecords(expectedRecords)
    {
        for (auto& row : m_slot)
            std::fill(std::begin(row), std::end(row), -1);
    }

    void feed(const unsigned char* p, std::size_t records)
    {
        for (std::size_t r = 0; r < records; ++r, p += m_stride)
            ingest(p);
        m_stats.records += qint64(records);
        if (!m_reserved && !m_building.empty()) {
            // The first poll has shown every series: size them once for the whole file.
            m_reserved = true;
            const std::size_t perSeries = std::size_t(m_expectedRecords / qint64(m_building.size())) + 64;
            for (Building& b : m_building) {
                b.ns.reserve(perSeries);
                b.value.reserve(perSeries);
            }
            m_pollUs.reserve(perSeries);
            for (auto& v : m_pollBytes)
                v.reserve(perSeries);
        }
    }

    std::shared_ptr<Nvf1Recording> finish(qint64 fileBytes, qint64 tailBytes);

private:
    void ingest(const unsigned char* rec)
    {
        Decoded d {};
        switch (decode(rec, d)) {
        case RecordStatus::Failed:
            ++m_stats.failedRecords;
            return;
        case RecordStatus::OtherField:
            ++m_stats.otherFieldRecords;
            return;
        case RecordStatus::BadValue:
            ++m_stats.badValueRecords;
            return;
        case RecordStatus::Ok:
            break;
        }
        if (!m_haveOrigin) {
            m_origin = d.ts;
            m_haveOrigin = true;
        }
        qint64 rel = 0;
        if (__builtin_sub_overflow(d.ts, m_origin, &rel) || rel > kMaxRelativeUs || rel < -kMaxRelativeUs) {
            ++m_stats.badTimestampRecords;
            return;
        }
        const int dir = d.field == kNvmlFieldNvlinkTx ? 0 : 1;
        Building& b = series(d.link, dir);
        if (m_poll == kNoPoll || d.hostTs != m_lastHostTs || b.lastPoll == m_poll) {
            m_poll = m_poll == kNoPoll ? 0 : m_poll + 1;
            m_pollUs.push_back(rel);
            m_pollBytes[0].push_back(0);
            m_pollBytes[1].push_back(0);
        } else if (rel < m_pollUs.back()) {
            m_pollUs.back() = rel;
        }
        m_lastHostTs = d.hostTs;
        const TimeNs ns = rel * 1000;
        // The sums over links are built while reading, from the same steps the series will hold; a series whose
        // samples are out of time order makes them be rebuilt after sorting.
        if (b.lastPoll != kNoPoll) {
            if (ns < b.lastNs)
                m_unordered = true;
            else
                m_pollBytes[dir].back() = saturatingAdd(m_pollBytes[dir].back(), stepBytes(b.lastValue, d.value));
        }
        b.lastPoll = m_poll;
        b.lastNs = ns;
        b.lastValue = d.value;
        b.ns.push_back(ns);
        b.value.push_back(qint64(d.value));
        ++m_stats.usedRecords;
    }

    Building& series(std::uint32_t link, int dir)
    {
        if (link < kDirectLinks) {
            int& slot = m_slot[dir][link];
            if (slot < 0)
                slot = addSeries(int(link), dir);
            return m_building[std::size_t(slot)];
        }
        const auto key = std::make_pair(link, dir);
        auto it = m_far.find(key);
        if (it == m_far.end())
            it = m_far.emplace(key, addSeries(int(std::min<std::uint32_t>(link, INT32_MAX)), dir)).first;
        return m_building[std::size_t(it->second)];
    }

    int addSeries(int link, int dir)
    {
        Building b;
        b.link = link;
        b.direction = dir == 0 ? LinkDirection::Tx : LinkDirection::Rx;
        m_building.push_back(std::move(b));
        return int(m_building.size()) - 1;
    }

    ThroughputSeries finishSeries(Building& b);
    void buildTotals(Nvf1Recording& rec);

    QString m_name;
    int m_gpu;
    Nvf1Header m_header;
    Nvf1Stats m_stats;
    int m_stride = 0;
    qint64 m_expectedRecords = 0;
    bool m_reserved = false;
    bool m_haveOrigin = false;
    qint64 m_origin = 0;
    std::uint64_t m_lastHostTs = 0;
    std::uint32_t m_poll = kNoPoll;
    std::vector<TimeNs> m_pollUs;
    std::vector<qint64> m_pollBytes[2]; // per direction, bytes of the steps ending in each poll
    bool m_unordered = false;
    int m_slot[2][kDirectLinks];
    std::map<std::pair<std::uint32_t, int>, int> m_far;
    std::vector<Building> m_building;
};

ThroughputSeries Nvf1Parser::finishSeries(Building& b)
{
    ThroughputSeries s;
    s.gpu = m_gpu;
    s.link = b.link;
    s.direction = b.direction;
    s.unit = ThroughputUnit::GBps;
    s.originUs = m_origin;
    const std::size_t n = b.ns.size();
    if (!std::is_sorted(b.ns.begin(), b.ns.end())) {
        // Same tie order as a stable sort by timestamp (the ccl-bench tools sort each series that way).
        std::vector<std::uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(
            order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t c) { return b.ns[a] < b.ns[c]; });
        SampleVector ns(n);
        ByteCounts value(n);
        for (std::size_t i = 0; i < n; ++i) {
            ns[i] = b.ns[order[i]];
            value[i] = b.value[order[i]];
        }
        b.ns = std::move(ns);
        b.value = std::move(value);
        ++m_stats.reorderedSeries;
    }
    // Counters to bytes per interval: interval i - 1 takes the step from sample i - 1 to i.
    const ByteCounts& v = b.value;
    s.bytes.reserve(n);
    for (std::size_t i = 1; i < n; ++i) {
        const quint64 prev = quint64(v[i - 1]), cur = quint64(v[i]);
        if (cur < prev) {
            ++m_stats.counterResets;
            s.resets.push_back(std::uint32_t(i - 1));
        } else if (cur - prev > kMaxDeltaKiB) {
            ++m_stats.implausibleJumps;
            s.resets.push_back(std::uint32_t(i - 1));
        }
        s.bytes.push_back(stepBytes(prev, cur));
        if (b.ns[i] == b.ns[i - 1])
            ++m_stats.zeroDurationIntervals;
    }
    b.value = {};
    s.time = SampleTimes(std::move(b.ns));
    return s;
}

void Nvf1Parser::buildTotals(Nvf1Recording& rec)
{
    const std::size_t pollCount = m_pollUs.size();
    std::vector<std::uint32_t> order(pollCount);
    std::iota(order.begin(), order.end(), 0u);
    if (!std::is_sorted(m_pollUs.begin(), m_pollUs.end()))
        std::stable_sort(
            order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return m_pollUs[a] < m_pollUs[b]; });
    for (const LinkDirection dir : { LinkDirection::Tx, LinkDirection::Rx }) {
        const std::vector<std::size_t> members = membersOf(rec, dir);
        if (members.empty())
            continue;
        ThroughputSeries total;
        total.gpu = m_gpu;
        total.link = kAllLinks;
        total.direction = dir;
        total.originUs = m_origin;
        if (identicalSeries(rec, members)) {
            rec.linksIdentical = true;
            total.time = rec.links[members[0]].time;
            total.bytes = rec.links[members[0]].bytes;
            rec.totals.push_back(std::move(total));
            continue;
        }
        std::vector<qint64>& pollBytes = m_pollBytes[int(dir)];
        if (m_unordered) {
            // Samples were out of order, so the sums made while reading followed file order: rebuild them from the
            // sorted series, each step going to the last poll that started at or before its end.
            std::vector<TimeNs> sortedTimes(pollCount);
            for (std::size_t k = 0; k < pollCount; ++k)
                sortedTimes[k] = m_pollUs[order[k]] * 1000;
            std::fill(pollBytes.begin(), pollBytes.end(), 0);
            for (const std::size_t m : members) {
                const ThroughputSeries& s = rec.links[m];
                for (std::size_t i = 0; i < s.bytes.size(); ++i) {
                    const auto it = std::upper_bound(sortedTimes.begin(), sortedTimes.end(), s.time[i + 1]);
                    const std::size_t k = it == sortedTimes.begin() ? 0 : std::size_t(it - sortedTimes.begin()) - 1;
                    pollBytes[order[k]] = saturatingAdd(pollBytes[order[k]], s.bytes[i]);
                }
            }
        }
        SampleVector times;
        std::vector<qint64> sums;
        times.reserve(pollCount);
        sums.reserve(pollCount);
        for (std::size_t k = 0; k < pollCount; ++k) {
            const TimeNs t = m_pollUs[order[k]] * 1000;
            const qint64 b = pollBytes[order[k]];
            if (!times.empty() && t == times.back()) {
                // Two polls with the same NVML time: one interval, so no bytes are lost to a zero-length one.
                if (!sums.empty())
                    sums.back() = saturatingAdd(sums.back(), b);
                continue;
            }
            if (!times.empty())
                sums.push_back(b);
            times.push_back(t);
        }
        total.bytes.reserve(sums.size());
        for (const qint64 b : sums)
            total.bytes.push_back(b);
        total.time = SampleTimes(std::move(times));
        rec.totals.push_back(std::move(total));
    }
}

std::shared_ptr<Nvf1Recording> Nvf1Parser::finish(qint64 fileBytes, qint64 tailBytes)
{
    auto rec = std::make_shared<Nvf1Recording>();
    rec->path = m_name;
    rec->header = m_header;
    m_stats.fileBytes = fileBytes;
    m_stats.partialTailBytes = tailBytes;
    m_stats.polls = qint64(m_pollUs.size());
    rec->originUs = m_origin;
    rec->links.reserve(m_building.size());
    for (Building& b : m_building)
        rec->links.push_back(finishSeries(b));
    m_building.clear();
    buildTotals(*rec);
    rec->stats = m_stats;
    finalize(*rec, tailBytes);
    return rec;
}

/// Both paths over one source of records.
Nvf1ReadResult parseRecords(const QString& name, int gpu, const Nvf1Header& header, qint64 fileBytes,
    const RecordReader& read, const CancelToken& cancel)
{
    Nvf1ReadResult result;
    const int stride = header.stride();
    const qint64 records = (fileBytes - kNvf1HeaderBytes) / stride;
    const qint64 tail = (fileBytes - kNvf1HeaderBytes) - records * stride;
    RegularLayout layout;
    if (analyzeFirstPoll(read, stride, records, layout)) {
        RegularParser regular(layout, stride, read);
        if (auto rec = regular.parse(name, header, gpu, fileBytes, tail, cancel)) {
            result.recording = std::move(rec);
            return result;
        }
    }
    if (cancel.isCancelled()) {
        result.cancelled = true;
        return result;
    }
    Nvf1Parser parser(name, gpu, header, records);
    const std::size_t perBlock = std::size_t(std::min<qint64>(
        std::max<qint64>(1, qint64((std::size_t(1) << 20) / std::size_t(stride))), std::max<qint64>(records, 1)));
    std::vector<unsigned char> buffer(perBlock * std::size_t(stride));
    for (qint64 done = 0; done < records;) {
        if (cancel.isCancelled()) {
            result.cancelled = true;
            return result;
        }
        const std::size_t n = std::size_t(std::min<qint64>(qint64(perBlock), records - done));
        if (!read(done, n, buffer.data())) {
            result.error = QStringLiteral("%1: read error").arg(name);
            return result;
        }
        parser.feed(buffer.data(), n);
        done += qint64(n);
    }
    result.recording = parser.finish(fileBytes, tail);
    return result;
}

} // namespace

int Nvf1Recording::linkCount() const
{
    std::vector<int> ids;
    for (const ThroughputSeries& s : links)
        ids.push_back(s.link);
    std::sort(ids.begin(), ids.end());
    return int(std::unique(ids.begin(), ids.end()) - ids.begin());
}

std::size_t Nvf1Recording::memoryBytes() const
{
    std::size_t n = sizeof(*this);
    std::vector<const void*> seen;
    for (const std::vector<ThroughputSeries>* list : { &links, &totals })
        for (const ThroughputSeries& s : *list) {
            n += s.memoryBytes() - s.time.memoryBytes();
            if (std::find(seen.begin(), seen.end(), s.time.storage()) == seen.end()) {
                seen.push_back(s.time.storage());
                n += s.time.memoryBytes();
            }
        }
    return n;
}

Nvf1ReadResult parseNvf1Bytes(const char* data, std::size_t size, const QString& name, int gpu)
{
    Nvf1ReadResult result;
    Nvf1Header header;
    const auto* bytes = reinterpret_cast<const unsigned char*>(data);
    result.error = checkHeader(bytes, qint64(size), name, header);
    if (!result.error.isEmpty())
        return result;
    const std::size_t stride = std::size_t(header.stride());
    const RecordReader read = [&](qint64 first, std::size_t count, unsigned char* out) {
        std::memcpy(out, bytes + kNvf1HeaderBytes + std::size_t(first) * stride, count * stride);
        return true;
    };
    return parseRecords(name, gpu, header, qint64(size), read, CancelToken::never());
}

Nvf1ReadResult readNvf1File(const QString& path, int gpu, const CancelToken& cancel)
{
    Nvf1ReadResult result;
    // Opening a FIFO blocks until a writer comes, and a device never ends: only regular files are recordings.
    if (const QFileInfo info(path); info.exists() && !info.isFile()) {
        result.error = QStringLiteral("%1: not a regular file").arg(path);
        return result;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        result.error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return result;
    }
    const qint64 size = file.size();
    unsigned char head[kNvf1HeaderBytes] = {};
    const qint64 got = file.read(reinterpret_cast<char*>(head), kNvf1HeaderBytes);
    Nvf1Header header;
    result.error = checkHeader(head, got < kNvf1HeaderBytes ? std::max<qint64>(got, 0) : size, path, header);
    if (!result.error.isEmpty())
        return result;
    const std::size_t stride = std::size_t(header.stride());
    const int fd = file.handle();
    // pread: the two threads of the fast path read their halves through one descriptor, in ~1 MiB blocks that stay
    // in cache while they are parsed.
    const RecordReader read = [&](qint64 first, std::size_t count, unsigned char* out) {
        std::size_t done = 0;
        const std::size_t want = count * stride;
        const off_t offset = off_t(kNvf1HeaderBytes) + off_t(first) * off_t(stride);
        while (done < want) {
            const ssize_t n = pread(fd, out + done, want - done, offset + off_t(done));
            if (n <= 0)
                return false;
            done += std::size_t(n);
        }
        return true;
    };
    result = parseRecords(path, gpu, header, size, read, cancel);
    if (!result.error.isEmpty() && !result.cancelled)
        result.error = QStringLiteral("%1: read error: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    return result;
}

QString checkNvf1Header(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    const QByteArray head = file.read(kNvf1HeaderBytes);
    Nvf1Header header;
    return checkHeader(reinterpret_cast<const unsigned char*>(head.constData()),
        head.size() < kNvf1HeaderBytes ? head.size() : file.size(), path, header);
}

} // namespace nsw
