// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nsw {

/// A hash for integer keys whose low bits FlatIndex can use: consecutive ids land far apart, and so do keys that
/// differ only in their high half (a (parent, function) or (symbol, module) pair packed into 64 bits). A multiply
/// alone left those in a few dozen slots: a call tree with 10,000 nested frames of one function, or a million
/// symbols of one module, probed for minutes (MurmurHash3's 64-bit finalizer mixes every bit into every bit).
struct IntegerHash
{
    std::size_t operator()(std::int64_t key) const noexcept
    {
        std::uint64_t x = std::uint64_t(key);
        x ^= x >> 33;
        x *= 0xFF51AFD7ED558CCDull;
        x ^= x >> 33;
        x *= 0xC4CEB9FE1A85EC53ull;
        x ^= x >> 33;
        return std::size_t(x);
    }
};

/// Numbers the distinct keys met in a scan 0, 1, 2... in order of first appearance. Open addressing on a power-of-two
/// table (linear probing): a scan of millions of rows with a few thousand distinct keys stays in cache, where
/// std::unordered_map pays a modulo, a node and a pointer chase per lookup. @p Hash must spread the low bits.
template <typename Key, typename Hash> class FlatIndex
{
public:
    std::int32_t index(const Key& key)
    {
        if (m_lastIndex >= 0 && m_last == key)
            return m_lastIndex;
        if ((m_keys.size() + 1) * 2 > m_slots.size())
            grow();
        std::size_t slot = Hash {}(key) & (m_slots.size() - 1);
        while (m_slots[slot] >= 0 && !(m_keys[std::size_t(m_slots[slot])] == key))
            slot = (slot + 1) & (m_slots.size() - 1);
        if (m_slots[slot] < 0) {
            m_slots[slot] = std::int32_t(m_keys.size());
            m_keys.push_back(key);
        }
        m_last = key;
        m_lastIndex = m_slots[slot];
        return m_lastIndex;
    }
    /// Room for @p keys keys without growing (a table that grows by doubling rehashes every key on the way).
    void reserve(std::size_t keys)
    {
        std::size_t size = 64; // not "slots": Qt defines that word
        while (size < (keys + 1) * 2)
            size *= 2;
        if (size > m_slots.size()) {
            m_keys.reserve(keys);
            rehash(size);
        }
    }
    /// Every key, by index.
    const std::vector<Key>& keys() const { return m_keys; }

private:
    void grow() { rehash(std::max<std::size_t>(64, m_slots.size() * 2)); }

    void rehash(std::size_t size)
    {
        m_slots.assign(size, -1);
        for (std::size_t i = 0; i < m_keys.size(); ++i) {
            std::size_t slot = Hash {}(m_keys[i]) & (m_slots.size() - 1);
            while (m_slots[slot] >= 0)
                slot = (slot + 1) & (m_slots.size() - 1);
            m_slots[slot] = std::int32_t(i);
        }
    }

    std::vector<std::int32_t> m_slots; ///< index into m_keys, -1 = empty
    std::vector<Key> m_keys;
    Key m_last {};
    std::int32_t m_lastIndex = -1;
};

} // namespace nsw
