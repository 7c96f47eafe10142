// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/column.h"
#include "core/profile/rowiterator.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace nsw {

/// Nanoseconds on the export's session timeline (t = 0 at capture start; may be negative). Never a double.
using TimeNs = std::int64_t;
inline constexpr TimeNs kNoTime = std::numeric_limits<TimeNs>::min();

/// A column of int64 nanosecond times held in about 4 bytes a row (issue 12: the 4M-kernel export's 19M NVTX rows
/// alone took 290 MB of start and end times). Rows come in blocks of 1024: each sealed block keeps its least time as a
/// 64-bit base and each row its 32-bit offset from it. A block whose times span 2^32 - 1 ns (4.3 s) or more keeps
/// its times whole instead, so every value reads back exactly; kNoTime (a mark's end) has an offset of its own. The
/// block being filled stays whole until it is full.
///
/// Reading returns values, not references. Copies share storage, and a write to a shared column copies it first
/// (as Column does): a staged load's first and whole profiles hold the same kernel times. The sealed blocks are
/// Columns, so they may be views of a mapped profile cache file (parts() and fromParts() are the encoding).
class TimeColumn
{
public:
    using const_iterator = RowIterator<TimeColumn, TimeNs>;
    using value_type = TimeNs;
    using size_type = std::size_t;

    static constexpr unsigned kBlockBits = 10;
    static constexpr std::size_t kBlockRows = std::size_t(1) << kBlockBits;

    TimeColumn() = default;
    TimeColumn(std::initializer_list<TimeNs> values);
    explicit TimeColumn(const std::vector<TimeNs>& values);

    std::size_t size() const { return m_data ? m_data->sealedRows() + m_data->open.size() : 0; }
    bool empty() const { return size() == 0; }
    TimeNs operator[](std::size_t row) const { return m_data->at(row); }
    TimeNs front() const { return (*this)[0]; }
    TimeNs back() const { return (*this)[size() - 1]; }
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, size()); }
    std::vector<TimeNs> toVector() const;

    void push_back(TimeNs value);
    /// Appends every row of @p other.
    void append(const TimeColumn& other);
    void reserve(std::size_t rows);
    void clear() { m_data.reset(); }
    /// Frees this column's storage (other columns sharing it keep theirs).
    void release() { m_data.reset(); }

    bool sharesStorageWith(const TimeColumn& other) const { return m_data && m_data == other.m_data; }
    /// Heap bytes held (a view's mapped blocks are not counted).
    std::size_t memoryBytes() const;

    /// The encoding, sharing this column's storage: a column is fromParts(parts()).
    struct Parts
    {
        Column<std::uint32_t> offsets; ///< per sealed row (kBlockRows per block)
        Column<TimeNs> bases; ///< per sealed block
        Column<TimeNs> whole;
        std::vector<TimeNs> open; ///< fewer than kBlockRows
    };
    Parts parts() const;
    /// A column of @p parts, or nothing when they are not a valid encoding (row counts that do not match, an offset
    /// of a whole block past the whole times): parts read from a file are checked before any row is read.
    static std::optional<TimeColumn> fromParts(Parts parts);

    friend bool operator==(const TimeColumn& a, const TimeColumn& b);
    friend bool operator==(const TimeColumn& a, const std::vector<TimeNs>& b);

private:
    static constexpr std::uint32_t kNoTimeOffset = std::numeric_limits<std::uint32_t>::max();
    static constexpr TimeNs kWholeBlock = std::numeric_limits<TimeNs>::min();

    struct Storage
    {
        Column<std::uint32_t> offsets; ///< sealed rows: offset from the block's base, or index into whole
        Column<TimeNs> bases; ///< per sealed block: its least time, or kWholeBlock
        Column<TimeNs> whole; ///< the times of the blocks kept whole
        std::vector<TimeNs> open; ///< the block being filled

        std::size_t sealedRows() const { return offsets.size(); }
        TimeNs at(std::size_t row) const
        {
            const std::size_t sealed = offsets.size();
            if (row >= sealed)
                return open[row - sealed];
            const TimeNs base = bases[row >> kBlockBits];
            const std::uint32_t offset = offsets[row];
            if (base == kWholeBlock)
                return whole[offset];
            return offset == kNoTimeOffset ? kNoTime : base + TimeNs(offset);
        }
        void seal();
    };

    Storage& mut();

    std::shared_ptr<Storage> m_data;
};

/// reserveHugePages() (core/util/hugepages.h) of a time column: reserve() advises them already.
inline void reserveHugePages(TimeColumn& column, std::size_t rows)
{
    column.reserve(rows);
}

} // namespace nsw
