// SPDX-License-Identifier: GPL-3.0-or-later
// NVF1 bytes written from the documented layout (nvlink-inputs.md §1): a packed 12-byte header ("NVF1", u16 version,
// u16 field size, i32 host timestamp size) then 48-byte records (u64 host ts + a raw nvmlFieldValue_t: u32 fieldId,
// u32 scopeId, i64 timestamp µs, i64 latency µs, u32 valueType, u32 nvmlReturn, 8-byte value), little-endian.
#pragma once

#include "core/nvlink/throughputseries.h"

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

namespace nsw::test {

/// A plain std::vector of any container's elements, for QCOMPARE against expected values.
template <typename C> auto vec(const C& c)
{
    return std::vector<std::remove_cv_t<std::remove_reference_t<decltype(*std::begin(c))>>>(std::begin(c), std::end(c));
}

inline std::vector<qint64> vec(const IntervalBytes& b)
{
    return b.toVector();
}

/// UTF-8 literals for expectations (the project builds with QT_NO_CAST_FROM_ASCII).
inline QString qs(const char* utf8)
{
    return QString::fromUtf8(utf8);
}
inline QStringList qsl(std::initializer_list<const char*> items)
{
    QStringList out;
    for (const char* i : items)
        out.append(QString::fromUtf8(i));
    return out;
}

struct Nvf1TestRecord
{
    std::uint64_t hostTs = 0;
    std::uint32_t field = 138;
    std::uint32_t link = 0;
    std::int64_t timestampUs = 0;
    std::int64_t latencyUs = 0;
    std::uint32_t valueType = 3;
    std::uint32_t nvmlReturn = 0;
    std::uint64_t value = 0;
};

template <typename T> void appendLe(QByteArray& out, T v)
{
    using U = std::make_unsigned_t<T>;
    U u = U(v);
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        out.append(char(u & 0xFF));
        u = U(u >> 8);
    }
}

inline QByteArray nvf1Header(
    const char* magic = "NVF1", std::uint16_t version = 1, std::uint16_t fieldSize = 40, std::int32_t hostTsSize = 8)
{
    QByteArray h(magic, 4);
    appendLe(h, version);
    appendLe(h, fieldSize);
    appendLe(h, hostTsSize);
    return h;
}

inline void appendRecord(QByteArray& out, const Nvf1TestRecord& r)
{
    appendLe(out, r.hostTs);
    appendLe(out, r.field);
    appendLe(out, r.link);
    appendLe(out, r.timestampUs);
    appendLe(out, r.latencyUs);
    appendLe(out, r.valueType);
    appendLe(out, r.nvmlReturn);
    appendLe(out, r.value);
}

/// Polls as the CCL-Bench recorder writes them: TX then RX of link 0, then link 1, ...; every record of a poll has
/// the poll's host timestamp. values[link] = {tx KiB, rx KiB} (cumulative).
class Nvf1Builder
{
public:
    QByteArray bytes = nvf1Header();

    void poll(std::int64_t timestampUs, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& values)
    {
        ++m_hostTs;
        for (std::size_t link = 0; link < values.size(); ++link) {
            appendRecord(
                bytes, { m_hostTs * 1000000, 138, std::uint32_t(link), timestampUs, 5, 3, 0, values[link].first });
            appendRecord(
                bytes, { m_hostTs * 1000000, 139, std::uint32_t(link), timestampUs, 5, 3, 0, values[link].second });
        }
    }
    void record(const Nvf1TestRecord& r) { appendRecord(bytes, r); }

    bool write(const QString& path) const
    {
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
    }

private:
    std::uint64_t m_hostTs = 0;
};

} // namespace nsw::test
