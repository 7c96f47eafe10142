// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvf1regular.h"

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

} // namespace

std::shared_ptr<Nvf1Recording> parseRegular(const RegularLayout& layout, int stride, const RecordReader& read,
    const QString& name, const Nvf1Header& header, int gpu, qint64 fileBytes, qint64 tailBytes,
    const CancelToken& cancel)
{
    RegularParser parser(layout, stride, read);
    return parser.parse(name, header, gpu, fileBytes, tailBytes, cancel);
}

} // namespace nsw::nvf1
