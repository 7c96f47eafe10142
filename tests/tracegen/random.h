// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace nsw::tracegen {

/// xoshiro256** seeded through splitmix64. Self-contained so that a seed gives the same trace with any standard
/// library (std::uniform_*_distribution is implementation-defined).
class Rng
{
public:
    explicit Rng(std::uint64_t seed)
    {
        for (std::uint64_t& s : m_s) {
            seed += 0x9E3779B97F4A7C15ULL;
            std::uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            s = z ^ (z >> 31);
        }
    }

    std::uint64_t next()
    {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }

    /// Uniform in [0, n) (n > 0); modulo bias is irrelevant for the small ranges used here.
    std::uint64_t below(std::uint64_t n) { return next() % n; }

    /// Uniform in [lo, hi].
    std::int64_t range(std::int64_t lo, std::int64_t hi)
    {
        return lo + std::int64_t(below(std::uint64_t(hi - lo) + 1));
    }

    bool chance(int permille) { return below(1000) < std::uint64_t(permille); }

    /// v scaled by a factor uniform in [1 - pct/100, 1 + pct/100].
    std::int64_t jitter(std::int64_t v, int pct)
    {
        if (pct <= 0 || v <= 0)
            return v;
        const std::int64_t permille = range(-pct * 10, pct * 10);
        return v + v * permille / 1000;
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t m_s[4];
};

} // namespace nsw::tracegen
