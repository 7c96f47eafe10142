// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>

namespace nsw {

/// XXH64 (Yann Collet's xxHash, 64-bit) of @p bytes: fast enough to check a cache file of hundreds of MB each time it
/// is opened (several GB/s), and any change of a byte changes it. Not a defence against a forger, who can also rewrite
/// the checksums: the readers bound every size and index they use, whatever the checksums say.
class Checksum
{
public:
    explicit Checksum(std::uint64_t seed = 0);
    void add(const void* bytes, std::size_t size);
    std::uint64_t value() const;

    static std::uint64_t of(const void* bytes, std::size_t size, std::uint64_t seed = 0)
    {
        Checksum c(seed);
        c.add(bytes, size);
        return c.value();
    }

private:
    std::uint64_t m_lanes[4];
    std::uint64_t m_seed;
    std::uint64_t m_total = 0;
    unsigned char m_buffer[32];
    std::size_t m_buffered = 0;
};

} // namespace nsw
