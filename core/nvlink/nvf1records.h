// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the two NVF1 parsers (nvf1regular.cpp, nvf1general.cpp) share: the record layout, its decoding, and the
// finishing of a recording. Internal to core/nvlink.

#include "core/nvlink/nvf1reader.h"

#include <cstring>
#include <functional>
#include <limits>

namespace nsw::nvf1 {

// NVML timestamps further than this from the first one are garbage (and would overflow ns arithmetic).
constexpr qint64 kMaxRelativeUs = 100LL * 24 * 3600 * 1000000;
// A counter step above this many KiB (8 PiB) in one interval cannot be real traffic; its bytes would overflow.
constexpr quint64 kMaxDeltaKiB = (quint64(1) << 53) / 1024;
constexpr int kDirectLinks = 64;
constexpr std::uint32_t kNoPoll = std::numeric_limits<std::uint32_t>::max();
constexpr int kMaxRegularPoll = 4096; // records per poll the fast path accepts

inline qint64 saturatingAdd(qint64 a, qint64 b)
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

/// Decodes the value union per NVML's valueType; false when it is not a usable counter.
inline bool decodeValue(std::uint32_t type, const unsigned char* p, quint64& out)
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

/// Checks a header of @p size bytes (the whole file's size, for the message); an empty string when it is usable.
QString checkHeader(const unsigned char* p, qint64 size, const QString& name, Nvf1Header& h);

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
void finalize(Nvf1Recording& rec, qint64 tailBytes);

/// GPU-wide counters reported once per link would be counted N times: the members of a direction all equal.
bool identicalSeries(const Nvf1Recording& rec, const std::vector<std::size_t>& members);

std::vector<std::size_t> membersOf(const Nvf1Recording& rec, LinkDirection dir);

} // namespace nsw::nvf1
