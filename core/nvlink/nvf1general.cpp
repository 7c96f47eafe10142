// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvf1general.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace nsw::nvf1 {

namespace {

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

} // namespace

Nvf1ReadResult parseGeneral(const QString& name, int gpu, const Nvf1Header& header, qint64 fileBytes, qint64 records,
    qint64 tailBytes, const RecordReader& read, const CancelToken& cancel)
{
    Nvf1ReadResult result;
    const int stride = header.stride();
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
    result.recording = parser.finish(fileBytes, tailBytes);
    return result;
}

} // namespace nsw::nvf1
