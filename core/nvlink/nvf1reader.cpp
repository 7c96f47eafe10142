// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvf1reader.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>

namespace nsw {

namespace {

// NVML timestamps further than this from the first one are garbage (and would overflow ns arithmetic).
constexpr qint64 kMaxRelativeUs = 100LL * 24 * 3600 * 1000000;
// A counter step above this many KiB (8 PiB) in one interval cannot be real traffic; its bytes would overflow.
constexpr quint64 kMaxDeltaKiB = (quint64(1) << 53) / 1024;
constexpr int kDirectLinks = 64;
constexpr std::uint32_t kNoPoll = std::numeric_limits<std::uint32_t>::max();
constexpr int kMaxFieldSize = 4096;

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

struct Building
{
    int link = 0;
    LinkDirection direction = LinkDirection::Tx;
    std::vector<TimeNs> us; // relative to the origin
    std::vector<quint64> value; // cumulative KiB
    std::vector<std::uint32_t> poll;
    std::uint32_t lastPoll = kNoPoll;
};

class Nvf1Parser
{
public:
    Nvf1Parser(QString name, int gpu)
        : m_name(std::move(name))
        , m_gpu(gpu)
    {
        for (auto& row : m_slot)
            std::fill(std::begin(row), std::end(row), -1);
    }

    QString readHeader(const unsigned char* p, qint64 size)
    {
        if (size < kNvf1HeaderBytes)
            return QStringLiteral("%1: too short for an NVF1 header (%2 bytes, the header has %3)")
                .arg(m_name)
                .arg(size)
                .arg(kNvf1HeaderBytes);
        std::memcpy(m_header.magic.data(), p, 4);
        m_header.version = load<std::uint16_t>(p + 4);
        m_header.fieldSize = load<std::uint16_t>(p + 6);
        m_header.hostTsSize = load<std::int32_t>(p + 8);
        if (std::memcmp(m_header.magic.data(), "NVF1", 4) != 0)
            return QStringLiteral("%1: not an NVF1 NVLink recording (magic '%2', expected 'NVF1')")
                .arg(m_name, printableMagic(m_header.magic));
        if (m_header.version != 1)
            return QStringLiteral("%1: unsupported NVF1 version %2 (only version 1 exists)")
                .arg(m_name)
                .arg(m_header.version);
        if (m_header.fieldSize < kNvf1FieldBytes || m_header.fieldSize > kMaxFieldSize)
            return QStringLiteral("%1: NVF1 field size %2 is not a 64-bit nvmlFieldValue_t (%3 bytes expected)")
                .arg(m_name)
                .arg(m_header.fieldSize)
                .arg(kNvf1FieldBytes);
        if (m_header.hostTsSize != kNvf1HostTsBytes)
            return QStringLiteral("%1: NVF1 host timestamp size %2 is not supported (%3 bytes expected)")
                .arg(m_name)
                .arg(m_header.hostTsSize)
                .arg(kNvf1HostTsBytes);
        m_stride = m_header.stride();
        const qint64 body = size - kNvf1HeaderBytes;
        m_expectedRecords = body / m_stride;
        return {};
    }

    int stride() const { return m_stride; }

    void feed(const unsigned char* p, std::size_t records)
    {
        const int ts = m_header.hostTsSize;
        for (std::size_t r = 0; r < records; ++r, p += m_stride)
            ingest(p, p + ts);
        m_stats.records += qint64(records);
        if (!m_reserved && !m_building.empty()) {
            // The first poll has shown every series: size them once for the whole file.
            m_reserved = true;
            const std::size_t perSeries = std::size_t(m_expectedRecords / qint64(m_building.size())) + 64;
            for (Building& b : m_building) {
                b.us.reserve(perSeries);
                b.value.reserve(perSeries);
                b.poll.reserve(perSeries);
            }
            m_pollUs.reserve(perSeries);
        }
    }

    std::shared_ptr<Nvf1Recording> finish(qint64 fileBytes, qint64 tailBytes);

private:
    void ingest(const unsigned char* rec, const unsigned char* f)
    {
        const std::uint32_t ret = load<std::uint32_t>(f + 28);
        if (ret != 0) {
            ++m_stats.failedRecords;
            return;
        }
        const std::uint32_t field = load<std::uint32_t>(f);
        if (field != kNvmlFieldNvlinkTx && field != kNvmlFieldNvlinkRx) {
            ++m_stats.otherFieldRecords;
            return;
        }
        quint64 value = 0;
        if (!decodeValue(load<std::uint32_t>(f + 24), f + 32, value)) {
            ++m_stats.badValueRecords;
            return;
        }
        const qint64 ts = load<std::int64_t>(f + 8);
        if (!m_haveOrigin) {
            m_origin = ts;
            m_haveOrigin = true;
        }
        qint64 rel = 0;
        if (__builtin_sub_overflow(ts, m_origin, &rel) || rel > kMaxRelativeUs || rel < -kMaxRelativeUs) {
            ++m_stats.badTimestampRecords;
            return;
        }
        const std::uint32_t scope = load<std::uint32_t>(f + 4);
        const int dir = field == kNvmlFieldNvlinkTx ? 0 : 1;
        Building& b = series(scope, dir);
        const std::uint64_t hostTs = load<std::uint64_t>(rec);
        if (m_poll == kNoPoll || hostTs != m_lastHostTs || b.lastPoll == m_poll) {
            m_poll = m_poll == kNoPoll ? 0 : m_poll + 1;
            m_pollUs.push_back(rel);
        } else if (rel < m_pollUs.back()) {
            m_pollUs.back() = rel;
        }
        m_lastHostTs = hostTs;
        b.lastPoll = m_poll;
        b.us.push_back(rel);
        b.value.push_back(value);
        b.poll.push_back(m_poll);
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
    void buildTotals(Nvf1Recording& rec, const std::vector<std::vector<std::uint32_t>>& polls);

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
    const std::size_t n = b.us.size();
    if (!std::is_sorted(b.us.begin(), b.us.end())) {
        // Same tie order as a stable sort by timestamp (the ccl-bench tools sort each series that way).
        std::vector<std::uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(
            order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t c) { return b.us[a] < b.us[c]; });
        std::vector<TimeNs> us(n);
        std::vector<quint64> value(n);
        std::vector<std::uint32_t> poll(n);
        for (std::size_t i = 0; i < n; ++i) {
            us[i] = b.us[order[i]];
            value[i] = b.value[order[i]];
            poll[i] = b.poll[order[i]];
        }
        b.us = std::move(us);
        b.value = std::move(value);
        b.poll = std::move(poll);
        ++m_stats.reorderedSeries;
    }
    s.time = std::move(b.us);
    for (TimeNs& t : s.time)
        t *= 1000;
    if (n >= 2) {
        s.bytes.resize(n - 1);
        for (std::size_t i = 1; i < n; ++i) {
            const quint64 prev = b.value[i - 1], cur = b.value[i];
            qint64 bytes = 0;
            if (cur < prev) {
                ++m_stats.counterResets;
                s.resets.push_back(std::uint32_t(i - 1));
            } else if (cur - prev > kMaxDeltaKiB) {
                ++m_stats.implausibleJumps;
                s.resets.push_back(std::uint32_t(i - 1));
            } else {
                bytes = qint64(cur - prev) * 1024;
            }
            s.bytes[i - 1] = bytes;
            if (s.time[i] == s.time[i - 1])
                ++m_stats.zeroDurationIntervals;
        }
    }
    b.value = {};
    return s;
}

void Nvf1Parser::buildTotals(Nvf1Recording& rec, const std::vector<std::vector<std::uint32_t>>& polls)
{
    const std::size_t pollCount = m_pollUs.size();
    for (const LinkDirection dir : { LinkDirection::Tx, LinkDirection::Rx }) {
        std::vector<std::size_t> members;
        for (std::size_t i = 0; i < rec.links.size(); ++i)
            if (rec.links[i].direction == dir)
                members.push_back(i);
        if (members.empty())
            continue;
        ThroughputSeries total;
        total.gpu = m_gpu;
        total.link = kAllLinks;
        total.direction = dir;
        total.originUs = m_origin;
        // GPU-wide counters reported once per link would be counted N times: detect and do not sum them.
        bool identical = members.size() > 1;
        qint64 sum = 0;
        for (std::size_t m = 1; identical && m < members.size(); ++m)
            identical = rec.links[members[m]].bytes == rec.links[members[0]].bytes
                && rec.links[members[m]].time == rec.links[members[0]].time;
        for (const qint64 v : rec.links[members[0]].bytes)
            sum = saturatingAdd(sum, v);
        if (identical && sum > 0) {
            rec.linksIdentical = true;
            total.time = rec.links[members[0]].time;
            total.bytes = rec.links[members[0]].bytes;
            rec.totals.push_back(std::move(total));
            continue;
        }
        std::vector<qint64> pollBytes(pollCount, 0);
        for (const std::size_t m : members) {
            const ThroughputSeries& s = rec.links[m];
            const std::vector<std::uint32_t>& p = polls[m];
            for (std::size_t i = 0; i < s.bytes.size(); ++i)
                pollBytes[p[i + 1]] = saturatingAdd(pollBytes[p[i + 1]], s.bytes[i]);
        }
        std::vector<std::uint32_t> order(pollCount);
        std::iota(order.begin(), order.end(), 0u);
        if (!std::is_sorted(m_pollUs.begin(), m_pollUs.end()))
            std::stable_sort(order.begin(), order.end(),
                [&](std::uint32_t a, std::uint32_t b) { return m_pollUs[a] < m_pollUs[b]; });
        total.time.reserve(pollCount);
        total.bytes.reserve(pollCount);
        for (std::size_t k = 0; k < pollCount; ++k) {
            const TimeNs t = m_pollUs[order[k]] * 1000;
            const qint64 b = pollBytes[order[k]];
            if (!total.time.empty() && t == total.time.back()) {
                // Two polls with the same NVML time: one interval, so no bytes are lost to a zero-length one.
                if (!total.bytes.empty())
                    total.bytes.back() = saturatingAdd(total.bytes.back(), b);
                continue;
            }
            if (!total.time.empty())
                total.bytes.push_back(b);
            total.time.push_back(t);
        }
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
    std::vector<std::vector<std::uint32_t>> polls;
    rec->links.reserve(m_building.size());
    for (Building& b : m_building) {
        rec->links.push_back(finishSeries(b)); // may reorder the samples, poll ids included
        polls.push_back(std::move(b.poll));
    }
    m_building.clear();
    buildTotals(*rec, polls);
    bool any = false;
    for (const ThroughputSeries& s : rec->links) {
        if (s.time.empty())
            continue;
        const qint64 a = s.wallUs(0), z = s.wallUs(s.time.size() - 1);
        rec->firstUs = any ? std::min(rec->firstUs, a) : a;
        rec->lastUs = any ? std::max(rec->lastUs, z) : z;
        any = true;
    }
    const Nvf1Stats& st = m_stats;
    QStringList& w = rec->warnings;
    if (tailBytes > 0)
        w << QStringLiteral("the last record is incomplete (%1 of %2 bytes): ignored").arg(tailBytes).arg(m_stride);
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
    if (rec->linksIdentical)
        w << QStringLiteral(
            "every link reports the same counter (GPU-wide counters): totals are not summed over links");
    if (st.records > 0 && st.usedRecords == 0)
        w << QStringLiteral("no usable NVLink TX/RX record");
    rec->stats = st;
    return rec;
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
    for (const ThroughputSeries& s : links)
        n += s.memoryBytes();
    for (const ThroughputSeries& s : totals)
        n += s.memoryBytes();
    return n;
}

Nvf1ReadResult parseNvf1Bytes(const char* data, std::size_t size, const QString& name, int gpu)
{
    Nvf1ReadResult result;
    Nvf1Parser parser(name, gpu);
    const auto* p = reinterpret_cast<const unsigned char*>(data);
    result.error = parser.readHeader(p, qint64(size));
    if (!result.error.isEmpty())
        return result;
    const std::size_t body = size - kNvf1HeaderBytes;
    const std::size_t records = body / std::size_t(parser.stride());
    parser.feed(p + kNvf1HeaderBytes, records);
    result.recording = parser.finish(qint64(size), qint64(body - records * std::size_t(parser.stride())));
    return result;
}

Nvf1ReadResult readNvf1File(const QString& path, int gpu, const CancelFlag* cancel)
{
    Nvf1ReadResult result;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        result.error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return result;
    }
    const qint64 size = file.size();
    unsigned char header[kNvf1HeaderBytes] = {};
    const qint64 got = file.read(reinterpret_cast<char*>(header), kNvf1HeaderBytes);
    Nvf1Parser parser(path, gpu);
    result.error = parser.readHeader(header, got < kNvf1HeaderBytes ? std::max<qint64>(got, 0) : size);
    if (!result.error.isEmpty())
        return result;
    const std::size_t stride = std::size_t(parser.stride());
    // Blocks of whole records (~8 MiB): one read() per block, records never straddle a block.
    const std::size_t perBlock = std::max<std::size_t>(1, (std::size_t(8) << 20) / stride);
    std::vector<unsigned char> buffer(perBlock * stride);
    qint64 tail = 0;
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            result.cancelled = true;
            return result;
        }
        std::size_t filled = 0;
        while (filled < buffer.size()) {
            const qint64 n = file.read(reinterpret_cast<char*>(buffer.data() + filled), qint64(buffer.size() - filled));
            if (n < 0) {
                result.error = QStringLiteral("%1: read error: %2").arg(path, file.errorString());
                return result;
            }
            if (n == 0)
                break;
            filled += std::size_t(n);
        }
        const std::size_t records = filled / stride;
        parser.feed(buffer.data(), records);
        if (filled < buffer.size()) {
            tail = qint64(filled - records * stride);
            break;
        }
    }
    result.recording = parser.finish(size, tail);
    return result;
}

QString checkNvf1Header(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    const QByteArray head = file.read(kNvf1HeaderBytes);
    Nvf1Parser parser(path, -1);
    return parser.readHeader(reinterpret_cast<const unsigned char*>(head.constData()),
        head.size() < kNvf1HeaderBytes ? head.size() : file.size());
}

} // namespace nsw
