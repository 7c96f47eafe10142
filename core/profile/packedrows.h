// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/column.h"
#include "core/profile/rowiterator.h"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace nsw {

/// A sequence of uint32 table rows held in 1 or 2 bytes each when the rows near one another are close, as in the
/// lists that derived indexes keep: the NVTX ranges of a thread in nesting order, the CUDA API calls of a thread (issue
/// 33: the 4M-kernel export's 19M NVTX rows took 76 MB in one such list; issue 37: 98 % of their blocks span less than
/// 256). Rows come in blocks of 64: a block whose values span less than 256 keeps its least value and an 8-bit offset
/// per row, one spanning less than 65,536 a 16-bit offset; a block of at most 4 clusters each spanning less than
/// 16,384 (a GPU stream's kernels, memory copies and memsets: one code space over two tables, whose memsets follow
/// its copies) keeps a base per cluster and a 16-bit value per row (2-bit cluster, 14-bit offset); any other block
/// its values whole. Every value reads back exactly. Reading
/// costs one more load than a plain array; the list is built once from plain values and not changed, and copies share
/// it. plain() reads a plain Column instead (a view of a mapped profile cache file, which keeps the plain values that
/// its checks read).
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
        const Block& b = m_blocks[i >> kBlockBits];
        const unsigned code = b.start & kCodeMask;
        const std::uint8_t* block = m_bytes + (b.start & ~kCodeMask);
        const std::size_t k = i & (kBlockRows - 1);
        if (code == kClustered) {
            std::uint16_t v;
            std::memcpy(&v, block + kClusterBasesBytes + 2 * k, sizeof v);
            std::uint32_t base = b.base;
            if (const unsigned cluster = v >> kClusterOffsetBits)
                std::memcpy(&base, block + (cluster - 1) * sizeof base, sizeof base);
            return base + (v & kClusterOffsetMask);
        }
        // Any width without a branch: 4 bytes are read (the storage ends in 3 spare bytes) and masked to the width.
        std::uint32_t v;
        std::memcpy(&v, block + (k << code), sizeof v);
        return b.base + (v & (0xFFFFFFFFu >> (32 - (8u << code))));
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
    /// A block's start is a multiple of 4 (a whole block takes 64, 128, 256 or 12 + 128 bytes): its 2 low bits hold
    /// its code, the log2 of its bytes per value or kClustered.
    static constexpr std::uint32_t kCodeMask = 3;
    static constexpr std::uint32_t kClustered = 3;
    static constexpr unsigned kClusterOffsetBits = 14;
    static constexpr std::uint16_t kClusterOffsetMask = (1u << kClusterOffsetBits) - 1;
    static constexpr std::size_t kClusterBasesBytes = 3 * sizeof(std::uint32_t); ///< clusters 1-3; 0 in Block::base
    void pack(std::span<const std::uint32_t> values, bool releasePacked);
    static std::optional<std::array<std::uint32_t, 4>> clusterBases(std::span<const std::uint32_t> block);
    struct Block
    {
        std::uint32_t base = 0; ///< the least value of a block of offsets (of its first cluster), 0 for whole values
        std::uint32_t start = 0; ///< first byte | code
    };
    struct Storage
    {
        std::vector<Block> blocks;
        std::vector<std::uint8_t> bytes; ///< the blocks (clustered: bases 1-3, then values), then 3 spare bytes
    };
    std::shared_ptr<const Storage> m_storage;
    const Block* m_blocks = nullptr; ///< m_storage's, read without going through it
    const std::uint8_t* m_bytes = nullptr;
    Column<std::uint32_t> m_plainValues;
    bool m_plain = false;
    std::size_t m_size = 0;
};

} // namespace nsw
