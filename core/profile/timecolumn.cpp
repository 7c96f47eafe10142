// SPDX-License-Identifier: GPL-3.0-or-later
#include "timecolumn.h"

#include "core/util/hugepages.h"

#include <algorithm>
#include <array>

namespace nsw {

TimeColumn::TimeColumn(std::initializer_list<TimeNs> values)
{
    for (const TimeNs v : values)
        push_back(v);
}

TimeColumn::TimeColumn(const std::vector<TimeNs>& values)
{
    reserve(values.size());
    for (const TimeNs v : values)
        push_back(v);
}

std::vector<TimeNs> TimeColumn::toVector() const
{
    return std::vector<TimeNs>(begin(), end());
}

TimeColumn::Storage& TimeColumn::mut()
{
    if (!m_data)
        m_data = std::make_shared<Storage>();
    else if (m_data.use_count() > 1)
        m_data = std::make_shared<Storage>(*m_data);
    return *m_data;
}

void TimeColumn::Storage::seal()
{
    TimeNs lo = std::numeric_limits<TimeNs>::max();
    TimeNs hi = std::numeric_limits<TimeNs>::min();
    for (const TimeNs v : open) {
        if (v == kNoTime)
            continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    // Unsigned, so that the span of times at both ends of the int64 range does not overflow.
    const bool narrow = lo > hi || std::uint64_t(hi) - std::uint64_t(lo) < kNoTimeOffset;
    std::array<std::uint32_t, kBlockRows> block;
    if (narrow) {
        const TimeNs base = lo > hi ? 0 : lo;
        bases.push_back(base);
        for (std::size_t i = 0; i < open.size(); ++i) {
            const TimeNs v = open[i];
            block[i] = v == kNoTime ? kNoTimeOffset : std::uint32_t(std::uint64_t(v) - std::uint64_t(base));
        }
    } else {
        bases.push_back(kWholeBlock);
        for (std::size_t i = 0; i < open.size(); ++i)
            block[i] = std::uint32_t(whole.size() + i);
        whole.append(open.begin(), open.end());
    }
    offsets.append(block.begin(), block.begin() + open.size());
    open.clear();
}

void TimeColumn::push_back(TimeNs value)
{
    Storage& s = mut();
    if (s.open.capacity() < kBlockRows)
        s.open.reserve(kBlockRows);
    s.open.push_back(value);
    if (s.open.size() == kBlockRows)
        s.seal();
}

void TimeColumn::append(const TimeColumn& other)
{
    if (other.empty())
        return;
    if (&other == this) {
        const TimeColumn copy = other;
        append(copy);
        return;
    }
    reserve(size() + other.size());
    for (const TimeNs v : other)
        push_back(v);
}

void TimeColumn::reserve(std::size_t rows)
{
    Storage& s = mut();
    s.offsets.reserve(rows);
    s.bases.reserve(rows / kBlockRows + 1);
    adviseHugePages(s.offsets.data(), s.offsets.capacity() * sizeof(std::uint32_t));
}

std::size_t TimeColumn::memoryBytes() const
{
    if (!m_data)
        return 0;
    return m_data->offsets.capacity() * sizeof(std::uint32_t)
        + (m_data->bases.capacity() + m_data->whole.capacity() + m_data->open.capacity()) * sizeof(TimeNs);
}

TimeColumn::Parts TimeColumn::parts() const
{
    if (!m_data)
        return {};
    return { m_data->offsets, m_data->bases, m_data->whole, m_data->open };
}

std::optional<TimeColumn> TimeColumn::fromParts(Parts parts)
{
    if (parts.offsets.size() != parts.bases.size() * kBlockRows || parts.open.size() >= kBlockRows)
        return std::nullopt;
    // Read through const access only: a non-const access to a view copies it (Column), which would copy a mapped
    // cache file's columns into memory.
    const Column<TimeNs>& bases = parts.bases;
    for (std::size_t block = 0; block < bases.size(); ++block) {
        if (bases[block] != kWholeBlock)
            continue;
        const std::uint32_t* offsets = std::as_const(parts.offsets).data() + block * kBlockRows;
        if (std::any_of(offsets, offsets + kBlockRows, [&](std::uint32_t i) { return i >= parts.whole.size(); }))
            return std::nullopt;
    }
    TimeColumn column;
    if (parts.offsets.empty() && parts.open.empty())
        return column;
    column.m_data = std::make_shared<Storage>(
        Storage { std::move(parts.offsets), std::move(parts.bases), std::move(parts.whole), std::move(parts.open) });
    return column;
}

bool operator==(const TimeColumn& a, const TimeColumn& b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

bool operator==(const TimeColumn& a, const std::vector<TimeNs>& b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

} // namespace nsw
