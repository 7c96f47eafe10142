// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvf1records.h"

namespace nsw::nvf1 {

namespace {

QString printableMagic(const std::array<char, 4>& m)
{
    QString s;
    for (const char c : m)
        s += (c >= 0x20 && c < 0x7f) ? QChar::fromLatin1(c)
                                     : QStringLiteral("\\x%1").arg(uchar(c), 2, 16, QLatin1Char('0'));
    return s;
}

} // namespace

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
    // Version 1 is the recorder writing nvmlFieldValue_t as it is: another size is another layout, read as garbage.
    if (h.fieldSize != kNvf1FieldBytes)
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

} // namespace nsw::nvf1
