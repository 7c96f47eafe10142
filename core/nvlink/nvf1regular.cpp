// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvf1regular.h"

#include "core/jobs/sidejob.h"

#include <QThread>
#include <algorithm>
#include <atomic>
#include <map>
#include <thread>
#include <tuple>

namespace nsw::nvf1 {

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

namespace {

/// What one thread computes over polls [from, to).
struct ChunkResult
{
    Nvf1Stats stats;
    std::vector<std::tuple<int, std::size_t, qint64>> large; // (series, interval, bytes) not in compact form
    std::vector<std::vector<std::uint32_t>> resets; // per series
    std::map<int, std::vector<TimeNs>> ownTimes; // series whose field times differ from the poll's: [from, to)
};

/// @p absolute (µs) made relative to the recording's origin; false when that is out of any plausible range.
bool relativeToOrigin(qint64 absolute, qint64 origin, qint64& relative)
{
    return !__builtin_sub_overflow(absolute, origin, &relative) && relative <= kMaxRelativeUs
        && relative >= -kMaxRelativeUs;
}

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
    class ChunkScan;

    void allocate();
    /// Scans the polls over two threads when the file is large enough; returns where the second chunk starts.
    qint64 scanChunks(ChunkResult& first, ChunkResult& second, const CancelToken& cancel);
    ThroughputSeries linkSeries(int k, int gpu, const std::shared_ptr<const SampleVector>& pollTimes, qint64 split,
        ChunkResult& first, ChunkResult& second);
    ThroughputSeries totalSeries(
        Nvf1Recording& rec, LinkDirection dir, int gpu, const std::shared_ptr<const SampleVector>& pollTimes) const;
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

/// One thread's scan of polls [from, to): the state carried from one poll to the next, per series and per direction.
class RegularParser::ChunkScan
{
public:
    ChunkScan(RegularParser& parser, qint64 from, qint64 to, ChunkResult& out);
    /// False when the file leaves the regular layout somewhere (or on cancel): the general path takes over.
    bool run(const CancelToken& cancel);

private:
    bool scanPoll(qint64 p, const unsigned char* poll);
    bool unusualRecord(
        std::size_t k, qint64 p, bool counting, const unsigned char* rec, std::uint64_t hostTs, qint64 pollTs);
    void keepOwnTimes(std::size_t k, qint64 p);
    void finishPoll(qint64 p, qint64 pollTs, std::size_t records, bool counting);

    /// One counter step of series k at poll p (p > 0, in range): the common case inline, the rare ones apart.
    __attribute__((always_inline)) void step(std::size_t k, qint64 p, quint64 value)
    {
        const quint64 a = m_prev[k], d = value - a;
        if (__builtin_expect(value >= a && d < 0xFFFFFFFFu, 1)) {
            m_compact[k][p - 1] = std::uint32_t(d);
            m_sumKiB[m_dirOf[k]] += d;
        } else {
            rareStep(k, p, value);
        }
    }
    /// A reset, an absurd jump, or a step too large for 32-bit KiB.
    void rareStep(std::size_t k, qint64 p, quint64 value);

    RegularParser& m_parser;
    const RegularLayout& m_layout;
    const qint64 m_from, m_to;
    ChunkResult& m_out;
    const std::size_t m_series, m_stride, m_pollSize;
    std::vector<quint64> m_prev;
    std::vector<qint64> m_prevTs; // kept for series with their own times only
    std::vector<std::uint64_t> m_key; // fieldId | scopeId << 32, as the record holds them
    std::vector<int> m_dirOf;
    std::vector<std::uint32_t*> m_compact;
    std::vector<std::vector<TimeNs>*> m_own;
    qint64 m_prevPollTs = 0;
    bool m_havePrevPoll = false;
    quint64 m_sumKiB[2] = { 0, 0 }; // this poll's common steps
    qint64 m_sumOther[2] = { 0, 0 }; // this poll's rare steps, in bytes
};

RegularParser::ChunkScan::ChunkScan(RegularParser& parser, qint64 from, qint64 to, ChunkResult& out)
    : m_parser(parser)
    , m_layout(parser.m_layout)
    , m_from(from)
    , m_to(to)
    , m_out(out)
    , m_series(std::size_t(m_layout.seriesPerPoll))
    , m_stride(std::size_t(parser.m_stride))
    , m_pollSize(m_series * m_stride)
    , m_prev(m_series, 0)
    , m_prevTs(m_series, 0)
    , m_key(m_series)
    , m_dirOf(m_series)
    , m_compact(m_series)
    , m_own(m_series, nullptr)
{
    for (std::size_t k = 0; k < m_series; ++k) {
        m_key[k] = std::uint64_t(m_layout.keys[k].first) | (std::uint64_t(m_layout.keys[k].second) << 32);
        m_dirOf[k] = m_layout.keys[k].first == kNvmlFieldNvlinkTx ? 0 : 1;
        m_compact[k] = parser.m_bytes[k].compactSlots();
    }
    out.resets.resize(m_series);
}

bool RegularParser::ChunkScan::run(const CancelToken& cancel)
{
    const qint64 S = m_layout.seriesPerPoll;
    const qint64 perBlock
        = std::min<qint64>(std::max<qint64>(1, qint64((std::size_t(1) << 22) / m_pollSize)), m_to - m_from + 1);
    std::vector<unsigned char> buffer(std::size_t(perBlock) * m_pollSize);
    // The seed poll before the range (the other thread reads and checks it too) only sets prev.
    qint64 p = m_from > 0 ? m_from - 1 : m_from;
    while (p < m_to) {
        if (m_parser.m_abort.load(std::memory_order_relaxed) || cancel.isCancelled())
            return false;
        const qint64 n = std::min(perBlock, m_to - p);
        const qint64 firstRecord = p * S;
        const std::size_t count = std::size_t(std::min<qint64>(n * S, m_layout.records - firstRecord));
        if (!m_parser.m_read(firstRecord, count, buffer.data()))
            return false;
        for (qint64 q = 0; q < n; ++q, ++p)
            if (!scanPoll(p, buffer.data() + std::size_t(q) * m_pollSize))
                return false;
    }
    return true;
}

bool RegularParser::ChunkScan::scanPoll(qint64 p, const unsigned char* poll)
{
    const std::size_t records
        = p == m_layout.polls - 1 && m_layout.lastPollRecords ? std::size_t(m_layout.lastPollRecords) : m_series;
    const std::uint64_t hostTs = load<std::uint64_t>(poll);
    const qint64 pollAbs = load<std::int64_t>(poll + kNvf1HostTsBytes + 8);
    qint64 pollTs = 0;
    if (!relativeToOrigin(pollAbs, m_layout.origin, pollTs))
        return false;
    if (m_havePrevPoll && pollTs <= m_prevPollTs)
        return false; // polls out of order or at one time: the general path sorts and merges
    const bool counting = p >= m_from && p > 0;
    m_sumKiB[0] = m_sumKiB[1] = 0;
    m_sumOther[0] = m_sumOther[1] = 0;
    for (std::size_t k = 0; k < records; ++k) {
        const unsigned char* rec = poll + k * m_stride;
        const unsigned char* f = rec + kNvf1HostTsBytes;
        // fieldId and scopeId, then valueType 3 (unsigned long long) with nvmlReturn 0, one host and NVML time.
        // Bitwise on ints on purpose: one branch for the five tests in this hot loop.
        const bool usual = (int(load<std::uint64_t>(f) == m_key[k]) & int(load<std::uint64_t>(f + 24) == 3)
                               & int(load<std::uint64_t>(rec) == hostTs) & int(load<std::int64_t>(f + 8) == pollAbs)
                               & int(!m_own[k]))
            != 0;
        if (__builtin_expect(usual, 1)) {
            const quint64 value = load<std::uint64_t>(f + 32);
            if (counting)
                step(k, p, value);
            m_prev[k] = value;
        } else if (!unusualRecord(k, p, counting, rec, hostTs, pollTs)) {
            return false;
        }
    }
    if (p >= m_from)
        finishPoll(p, pollTs, records, counting);
    m_prevPollTs = pollTs;
    m_havePrevPoll = true;
    return true;
}

bool RegularParser::ChunkScan::unusualRecord(
    std::size_t k, qint64 p, bool counting, const unsigned char* rec, std::uint64_t hostTs, qint64 pollTs)
{
    Decoded d {};
    if (decode(rec, d) != RecordStatus::Ok || d.field != m_layout.keys[k].first || d.link != m_layout.keys[k].second
        || d.hostTs != hostTs)
        return false;
    qint64 rel = 0;
    if (!relativeToOrigin(d.ts, m_layout.origin, rel))
        return false;
    if (p >= m_from) {
        if (rel != pollTs && !m_own[k])
            keepOwnTimes(k, p);
        if (m_own[k] && p > 0) {
            if (rel < m_prevTs[k])
                return false;
            if (rel == m_prevTs[k])
                ++m_out.stats.zeroDurationIntervals;
        }
        if (counting)
            step(k, p, d.value);
        if (m_own[k])
            m_own[k]->push_back(rel * 1000);
    }
    m_prev[k] = d.value;
    m_prevTs[k] = rel;
    return true;
}

/// Series k is stamped apart from its poll at poll p: from now on it keeps its own times.
void RegularParser::ChunkScan::keepOwnTimes(std::size_t k, qint64 p)
{
    std::vector<TimeNs>& t = m_out.ownTimes[int(k)];
    m_own[k] = &t;
    t.reserve(std::size_t(m_to - m_from));
    for (qint64 r = m_from; r < p; ++r)
        t.push_back(m_parser.m_pollTimes[std::size_t(r)]);
    m_prevTs[k] = m_prevPollTs;
}

void RegularParser::ChunkScan::rareStep(std::size_t k, qint64 p, quint64 value)
{
    const quint64 a = m_prev[k], d = value - a;
    qint64 bytes = 0;
    if (value < a) {
        ++m_out.stats.counterResets;
        m_out.resets[k].push_back(std::uint32_t(p - 1));
    } else if (d > kMaxDeltaKiB) {
        ++m_out.stats.implausibleJumps;
        m_out.resets[k].push_back(std::uint32_t(p - 1));
    } else {
        bytes = qint64(d) * 1024;
    }
    if (bytes == 0)
        m_compact[k][p - 1] = 0;
    else
        m_out.large.emplace_back(int(k), std::size_t(p - 1), bytes);
    m_sumOther[m_dirOf[k]] = saturatingAdd(m_sumOther[m_dirOf[k]], bytes);
}

void RegularParser::ChunkScan::finishPoll(qint64 p, qint64 pollTs, std::size_t records, bool counting)
{
    m_parser.m_pollTimes[std::size_t(p)] = pollTs * 1000;
    m_out.stats.records += qint64(records);
    if (!counting)
        return;
    for (int dir = 0; dir < 2; ++dir) {
        // At most 4096 fields × 4 TiB: the KiB sum cannot overflow, its bytes can (saturated).
        const quint64 kib = m_sumKiB[dir];
        const qint64 bytes = kib > quint64(std::numeric_limits<qint64>::max() / 1024)
            ? std::numeric_limits<qint64>::max()
            : qint64(kib) * 1024;
        m_parser.m_pollBytes[dir][std::size_t(p)] = saturatingAdd(bytes, m_sumOther[dir]);
    }
}

void RegularParser::allocate()
{
    const int S = m_layout.seriesPerPoll;
    // Every slot is written by exactly one thread before it is read, so nothing is zeroed first.
    m_pollTimes.resize(std::size_t(m_layout.polls));
    m_bytes.resize(std::size_t(S));
    for (int k = 0; k < S; ++k)
        m_bytes[std::size_t(k)].resizeForOverwrite(std::size_t(std::max(0, samplesOf(k) - 1)));
    for (ByteCounts& b : m_pollBytes)
        b.assign(std::size_t(m_layout.polls), 0);
}

qint64 RegularParser::scanChunks(ChunkResult& first, ChunkResult& second, const CancelToken& cancel)
{
    const qint64 polls = m_layout.polls;
    const qint64 split = QThread::idealThreadCount() > 1 && polls >= 4096 ? polls / 2 : polls;
    auto scan = [&](qint64 from, qint64 to, ChunkResult& out, const CancelToken& stop) {
        if (!ChunkScan(*this, from, to, out).run(stop))
            m_abort.store(true, std::memory_order_relaxed);
    };
    // The second half on a side job: stopped and joined whatever this thread's half does (throws included), and
    // what it throws comes back here through wait().
    const CancelToken helperStop = cancel.child();
    SideJob helper(helperStop);
    if (split < polls)
        helper.start([&]() { scan(split, polls, second, helperStop); });
    scan(0, split, first, cancel);
    helper.wait();
    return split;
}

ThroughputSeries RegularParser::linkSeries(int k, int gpu, const std::shared_ptr<const SampleVector>& pollTimes,
    qint64 split, ChunkResult& first, ChunkResult& second)
{
    const std::size_t series = std::size_t(k);
    ThroughputSeries s;
    s.gpu = gpu;
    s.link = int(std::min<std::uint32_t>(m_layout.keys[series].second, INT32_MAX));
    s.direction = m_layout.keys[series].first == kNvmlFieldNvlinkTx ? LinkDirection::Tx : LinkDirection::Rx;
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
            times.insert(times.end(), pollTimes->begin() + std::min<qint64>(split, m_layout.polls), pollTimes->end());
        times.resize(samples);
        s.time = SampleTimes(std::move(times));
    }
    s.bytes = std::move(m_bytes[series]);
    s.resets = std::move(first.resets[series]);
    if (!second.resets.empty())
        s.resets.insert(s.resets.end(), second.resets[series].begin(), second.resets[series].end());
    return s;
}

ThroughputSeries RegularParser::totalSeries(
    Nvf1Recording& rec, LinkDirection dir, int gpu, const std::shared_ptr<const SampleVector>& pollTimes) const
{
    const std::vector<std::size_t> members = membersOf(rec, dir);
    ThroughputSeries total;
    total.gpu = gpu;
    total.link = kAllLinks;
    total.direction = dir;
    total.originUs = m_layout.origin;
    if (identicalSeries(rec, members)) {
        rec.linksIdentical = true;
        total.time = rec.links[members[0]].time;
        total.bytes = rec.links[members[0]].bytes;
    } else {
        total.time = SampleTimes(pollTimes, std::size_t(m_layout.polls));
        const ByteCounts& sums = m_pollBytes[int(dir)];
        total.bytes.reserve(sums.size());
        for (std::size_t p = 1; p < sums.size(); ++p)
            total.bytes.push_back(sums[p]);
    }
    return total;
}

std::shared_ptr<Nvf1Recording> RegularParser::parse(const QString& name, const Nvf1Header& header, int gpu,
    qint64 fileBytes, qint64 tailBytes, const CancelToken& cancel)
{
    allocate();
    ChunkResult first, second;
    const qint64 split = scanChunks(first, second, cancel);
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
    st.polls = m_layout.polls;
    st.regularLayout = true;
    for (const ChunkResult* c : { &first, &second }) {
        st.counterResets += c->stats.counterResets;
        st.implausibleJumps += c->stats.implausibleJumps;
        st.zeroDurationIntervals += c->stats.zeroDurationIntervals;
    }
    const auto pollTimes = std::make_shared<const SampleVector>(std::move(m_pollTimes));
    for (int k = 0; k < m_layout.seriesPerPoll; ++k)
        rec->links.push_back(linkSeries(k, gpu, pollTimes, split, first, second));
    for (const LinkDirection dir : { LinkDirection::Tx, LinkDirection::Rx })
        if (!membersOf(*rec, dir).empty())
            rec->totals.push_back(totalSeries(*rec, dir, gpu, pollTimes));
    finalize(*rec, tailBytes);
    return rec;
}

} // namespace

std::shared_ptr<Nvf1Recording> parseRegular(const RegularLayout& layout, int stride, const RecordReader& read,
    const QString& name, const Nvf1Header& header, int gpu, qint64 fileBytes, qint64 tailBytes,
    const CancelToken& cancel)
{
    RegularParser parser(layout, stride, read);
    return parser.parse(name, header, gpu, fileBytes, tailBytes, cancel);
}

} // namespace nsw::nvf1
