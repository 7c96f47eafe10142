// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/column.h"
#include "core/profile/rowiterator.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

namespace nsw {

/// A sequence of uint32 table rows held in 1 or 2 bytes each when the rows near one another are close, as in the
/// lists that derived indexes keep: the NVTX ranges of a thread in nesting order, the CUDA API calls of a thread (issue
/// 33: the 4M-kernel export's 19M NVTX rows took 76 MB in one such list; issue 37: 98 % of their blocks span less than
/// 256). Rows come in blocks of 64: a block whose values span less than 256 keeps its least value and an 8-bit offset
/// per row, one spanning less than 65,536 a 16-bit offset, any other block its values whole, so every value reads
/// back exactly. Reading costs one more load than a plain array; the list is built once from plain values and not
/// changed, and copies share it. plain() reads a plain Column instead (a view of a mapped
/// profile cache file, which keeps the plain values that its checks read).
class PackedRows
{
public:
    using const_iterator = RowIterator<PackedRows, std::uint32_t>;
    using value_type = std::uint32_t;
    using size_type = std::size_t;

    static constexpr unsigned kBlockBits = 6;
    static constexpr std::size_t kBlockRows = std::size_t(1) << kBlockBits;

    PackedRows() = default;
    explicit PackedRows(std::span<const std::uint32_t> values);
    /// As from a span, but @p values is emptied, and the pages of it already packed are given back while the rest is
    /// packed: the plain values (4 bytes a row) and the packed ones (about 2) are not held whole at the same time.
    explicit PackedRows(std::vector<std::uint32_t>&& values);
    static PackedRows plain(Column<std::uint32_t> values);

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::uint32_t operator[](std::size_t i) const
    {
        if (m_plain)
            return m_plainValues[i];
        // Without a branch: 4 bytes are read whatever the block's width (the storage ends in 3 spare bytes) and
        // masked to it.
        const Block& b = m_blocks[i >> kBlockBits];
        const unsigned widthCode = b.start & kWidthMask;
        std::uint32_t v;
        std::memcpy(&v, m_bytes + (b.start & ~kWidthMask) + ((i & (kBlockRows - 1)) << widthCode), sizeof v);
        return b.base + (v & (0xFFFFFFFFu >> (32 - (8u << widthCode))));
    }
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, m_size); }
    std::vector<std::uint32_t> toVector() const { return { begin(), end() }; }
    /// Writes values [first, first + count) to @p out.
    void copyTo(std::size_t first, std::size_t count, std::uint32_t* out) const;
    /// True for plain values read in place from memory it does not own (a mapped cache file).
    bool isView() const { return m_plain && m_plainValues.isView(); }
    /// Bytes of heap it holds (shared with its copies).
    std::size_t memoryBytes() const;

    /// Rows [begin, begin + count) of a PackedRows, read in place. Its iterators are those of the PackedRows, so they
    /// stay valid after a temporary slice is gone.
    class Slice
    {
    public:
        using const_iterator = PackedRows::const_iterator;
        using value_type = std::uint32_t;
        Slice() = default;
        Slice(const PackedRows* rows, std::size_t begin, std::size_t count)
            : m_rows(rows)
            , m_begin(begin)
            , m_count(count)
        { }
        std::size_t size() const { return m_count; }
        bool empty() const { return m_count == 0; }
        std::uint32_t operator[](std::size_t i) const { return (*m_rows)[m_begin + i]; }
        std::uint32_t front() const { return (*this)[0]; }
        std::uint32_t back() const { return (*this)[m_count - 1]; }
        const_iterator begin() const { return const_iterator(m_rows, m_begin); }
        const_iterator end() const { return const_iterator(m_rows, m_begin + m_count); }

    private:
        const PackedRows* m_rows = nullptr;
        std::size_t m_begin = 0;
        std::size_t m_count = 0;
    };
    Slice slice(std::size_t begin, std::size_t count) const { return { this, begin, count }; }

private:
    static_assert(std::endian::native == std::endian::little, "a value's low bytes are read first");
    /// A block's start is a multiple of 4 (a whole block takes 64, 128 or 256 bytes): its 2 low bits hold the
    /// log2 of its bytes per value.
    static constexpr std::uint32_t kWidthMask = 3;
    void pack(std::span<const std::uint32_t> values, bool releasePacked);
    struct Block
    {
        std::uint32_t base = 0; ///< the least value of a block of offsets, 0 for whole values
        std::uint32_t start = 0; ///< first byte | log2 of its bytes per value
    };
    struct Storage
    {
        std::vector<Block> blocks;
        std::vector<std::uint8_t> bytes; ///< the values, then 3 spare bytes
    };
    std::shared_ptr<const Storage> m_storage;
    const Block* m_blocks = nullptr; ///< m_storage's, read without going through it
    const std::uint8_t* m_bytes = nullptr;
    Column<std::uint32_t> m_plainValues;
    bool m_plain = false;
    std::size_t m_size = 0;
};

} // namespace nsw
