// SPDX-License-Identifier: GPL-3.0-or-later
#include "checksum.h"

#include <cstring>

namespace nsw {

namespace {
constexpr std::uint64_t kPrime1 = 11400714785074694791ULL;
constexpr std::uint64_t kPrime2 = 14029467366897019727ULL;
constexpr std::uint64_t kPrime3 = 1609587929392839161ULL;
constexpr std::uint64_t kPrime4 = 9650029242287828579ULL;
constexpr std::uint64_t kPrime5 = 2870177450012600261ULL;

std::uint64_t rotl(std::uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}
std::uint64_t read64(const unsigned char* p)
{
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
std::uint32_t read32(const unsigned char* p)
{
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
std::uint64_t round(std::uint64_t acc, std::uint64_t input)
{
    return rotl(acc + input * kPrime2, 31) * kPrime1;
}
std::uint64_t mergeRound(std::uint64_t acc, std::uint64_t lane)
{
    return (acc ^ round(0, lane)) * kPrime1 + kPrime4;
}
} // namespace

Checksum::Checksum(std::uint64_t seed)
    : m_lanes { seed + kPrime1 + kPrime2, seed + kPrime2, seed, seed - kPrime1 }
    , m_seed(seed)
{ }

void Checksum::add(const void* bytes, std::size_t size)
{
    if (size == 0)
        return; // bytes may be null (an empty column); memcpy must not see it
    const auto* p = static_cast<const unsigned char*>(bytes);
    const unsigned char* const end = p + size;
    m_total += size;
    if (m_buffered + size < 32) {
        std::memcpy(m_buffer + m_buffered, p, size);
        m_buffered += size;
        return;
    }
    if (m_buffered > 0) {
        const std::size_t fill = 32 - m_buffered;
        std::memcpy(m_buffer + m_buffered, p, fill);
        for (int i = 0; i < 4; ++i)
            m_lanes[i] = round(m_lanes[i], read64(m_buffer + 8 * i));
        p += fill;
        m_buffered = 0;
    }
    std::uint64_t v0 = m_lanes[0], v1 = m_lanes[1], v2 = m_lanes[2], v3 = m_lanes[3];
    for (; end - p >= 32; p += 32) {
        v0 = round(v0, read64(p));
        v1 = round(v1, read64(p + 8));
        v2 = round(v2, read64(p + 16));
        v3 = round(v3, read64(p + 24));
    }
    m_lanes[0] = v0, m_lanes[1] = v1, m_lanes[2] = v2, m_lanes[3] = v3;
    m_buffered = std::size_t(end - p);
    std::memcpy(m_buffer, p, m_buffered);
}

std::uint64_t Checksum::value() const
{
    std::uint64_t h;
    if (m_total >= 32) {
        h = rotl(m_lanes[0], 1) + rotl(m_lanes[1], 7) + rotl(m_lanes[2], 12) + rotl(m_lanes[3], 18);
        for (const std::uint64_t lane : m_lanes)
            h = mergeRound(h, lane);
    } else {
        h = m_seed + kPrime5;
    }
    h += m_total;
    const unsigned char* p = m_buffer;
    const unsigned char* const end = m_buffer + m_buffered;
    for (; end - p >= 8; p += 8)
        h = rotl(h ^ round(0, read64(p)), 27) * kPrime1 + kPrime4;
    if (end - p >= 4) {
        h = rotl(h ^ (std::uint64_t(read32(p)) * kPrime1), 23) * kPrime2 + kPrime3;
        p += 4;
    }
    for (; p < end; ++p)
        h = rotl(h ^ (*p * kPrime5), 11) * kPrime1;
    h ^= h >> 33;
    h *= kPrime2;
    h ^= h >> 29;
    h *= kPrime3;
    h ^= h >> 32;
    return h;
}

} // namespace nsw
