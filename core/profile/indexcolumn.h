// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/column.h"
#include "core/profile/rowiterator.h"
#include "core/util/hugepages.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace nsw {

/// A column of 32-bit indices (a thread, a string, a stream) held in 2 bytes a row while every value is in [-1, 65534]
/// (for an unsigned type, -1 is its largest value), and in 4 bytes from the first value that is not (issue 12: the
/// 4M-kernel export's NVTX and CUDA API rows name a few dozen threads and strings, 26M times; its kernels, a few
/// processes, GPUs, streams and names). compact() then holds it in 1 byte a row when every value is in [-1, 254] (issue
/// 33: its threads, API names, streams and kernel names, the window 80 MiB smaller). Reading returns values; every
/// value reads back exactly at any width. The values are Columns (shared between copies, or views of a mapped profile
/// cache file: parts() and fromParts()).
template <typename T> class IndexColumn
{
    static_assert(sizeof(T) == 4 && std::is_integral_v<T>);

public:
    using const_iterator = RowIterator<IndexColumn, T>;
    using value_type = T;
    using size_type = std::size_t;

    IndexColumn() = default;
    IndexColumn(std::initializer_list<T> values)
    {
        for (const T v : values)
            push_back(v);
    }

    std::size_t size() const
    {
        return m_width == 2 ? m_narrow.size() : m_width == 1 ? m_bytes.size() : m_wideValues.size();
    }
    bool empty() const { return size() == 0; }
    T operator[](std::size_t row) const
    {
        if (m_width == 2)
            return T(std::int32_t(m_narrow[row]) - 1);
        if (m_width == 1)
            return T(std::int32_t(m_bytes[row]) - 1);
        return m_wideValues[row];
    }
    T front() const { return (*this)[0]; }
    T back() const { return (*this)[size() - 1]; }
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, size()); }
    std::vector<T> toVector() const { return std::vector<T>(begin(), end()); }
    /// Bytes a row: 1, 2 or 4.
    unsigned width() const { return m_width; }
    bool isWide() const { return m_width == 4; }
    bool sharesStorageWith(const IndexColumn& other) const
    {
        if (m_width != other.m_width)
            return false;
        return m_width == 2 ? m_narrow.sharesStorageWith(other.m_narrow)
            : m_width == 1  ? m_bytes.sharesStorageWith(other.m_bytes)
                            : m_wideValues.sharesStorageWith(other.m_wideValues);
    }

    void push_back(T value)
    {
        widenTo(widthFor(value));
        if (m_width == 2)
            m_narrow.push_back(std::uint16_t(value + 1));
        else if (m_width == 1)
            m_bytes.push_back(std::uint8_t(value + 1));
        else
            m_wideValues.push_back(value);
    }
    void reserve(std::size_t rows)
    {
        if (m_width == 2)
            reserveHugePages(m_narrow, rows);
        else if (m_width == 1)
            reserveHugePages(m_bytes, rows);
        else
            reserveHugePages(m_wideValues, rows);
    }
    /// Replaces every value v by @p f(v), in row order. Writes through the storage's pointer (a detach check per row
    /// doubled a load's remapping passes); widens once, at the first value that does not fit 2 bytes (a 1-byte
    /// column is held in 2 first: compact() again after).
    template <typename F> void transform(F&& f)
    {
        widenTo(2);
        const std::size_t n = size();
        std::size_t row = 0;
        if (m_width == 2) {
            std::uint16_t* narrow = m_narrow.data();
            for (; row < n; ++row) {
                const T value = f(T(std::int32_t(narrow[row]) - 1));
                if (widthFor(value) > 2) {
                    widenTo(4);
                    m_wideValues.data()[row] = value;
                    ++row;
                    break;
                }
                narrow[row] = std::uint16_t(value + 1);
            }
        }
        if (m_width != 4)
            return;
        T* wide = m_wideValues.data();
        for (; row < n; ++row)
            wide[row] = f(wide[row]);
    }
    /// Holds the column in as few bytes a row as its values allow (1 or 2): after a load, or after string ids were
    /// remapped to a small pool.
    void compact()
    {
        unsigned needed = 1;
        for (std::size_t row = 0, n = size(); row < n && needed < m_width; ++row)
            needed = std::max(needed, widthFor((*this)[row]));
        if (needed >= m_width)
            return;
        if (needed == 1)
            m_bytes = Column<std::uint8_t>(encoded<std::uint8_t>(size()));
        else
            m_narrow = Column<std::uint16_t>(encoded<std::uint16_t>(size()));
        releaseWidth(m_width);
        m_width = needed;
    }
    void append(const IndexColumn& other)
    {
        widenTo(other.m_width);
        reserve(size() + other.size());
        // A load's chunks are appended to one another: copied whole when both have one width.
        if (m_width == other.m_width) {
            if (m_width == 2)
                m_narrow.append(other.m_narrow.begin(), other.m_narrow.end());
            else if (m_width == 1)
                m_bytes.append(other.m_bytes.begin(), other.m_bytes.end());
            else
                m_wideValues.append(other.m_wideValues.begin(), other.m_wideValues.end());
        } else {
            for (const T v : other)
                push_back(v);
        }
    }
    void clear() { release(); }
    void release()
    {
        m_bytes.release();
        m_narrow.release();
        m_wideValues.release();
        m_width = 2;
    }
    /// Heap bytes held (a view's mapped values are not counted).
    std::size_t memoryBytes() const
    {
        return m_bytes.capacity() + m_narrow.capacity() * sizeof(std::uint16_t) + m_wideValues.capacity() * sizeof(T);
    }

    /// The encoding, sharing this column's storage: a column is fromParts(parts()). At most one part holds values
    /// (none for an empty column): its width is the column's.
    struct Parts
    {
        Column<std::uint8_t> bytes; ///< value + 1, 1 byte a row
        Column<std::uint16_t> narrow; ///< value + 1, 2 bytes a row
        Column<T> wideValues;
    };
    Parts parts() const { return { m_bytes, m_narrow, m_wideValues }; }
    /// Nothing when @p parts is not an encoding (values in more than one part). Any value reads back as some index:
    /// the readers check indices against their tables as they do for a load's.
    static std::optional<IndexColumn> fromParts(Parts parts)
    {
        if (int(!parts.bytes.empty()) + int(!parts.narrow.empty()) + int(!parts.wideValues.empty()) > 1)
            return std::nullopt;
        IndexColumn column;
        column.m_width = !parts.bytes.empty() ? 1 : !parts.wideValues.empty() ? 4 : 2;
        column.m_bytes = std::move(parts.bytes);
        column.m_narrow = std::move(parts.narrow);
        column.m_wideValues = std::move(parts.wideValues);
        return column;
    }

    friend bool operator==(const IndexColumn& a, const IndexColumn& b)
    {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
    }
    friend bool operator==(const IndexColumn& a, const std::vector<T>& b)
    {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
    }

private:
    /// The fewest bytes a row that hold @p value (value + 1 below the width's largest, for an unsigned type -1 too).
    static unsigned widthFor(T value)
    {
        const bool none = value == T(-1);
        if constexpr (std::is_signed_v<T>)
            if (value < -1)
                return 4;
        if (none || std::uint32_t(value) < 0xFF)
            return 1;
        return std::uint32_t(value) < 0xFFFF ? 2 : 4;
    }
    /// Every value, as value + 1 in @p Narrow (each fits it).
    template <typename Narrow> std::vector<Narrow> encoded(std::size_t capacity) const
    {
        std::vector<Narrow> values;
        reserveHugePages(values, capacity);
        for (const T v : *this)
            values.push_back(Narrow(v + 1));
        return values;
    }
    void releaseWidth(unsigned width)
    {
        if (width == 1)
            m_bytes.release();
        else if (width == 2)
            m_narrow.release();
        else
            m_wideValues.release();
    }
    /// Holds the column in at least @p width bytes a row.
    void widenTo(unsigned width)
    {
        if (width <= m_width)
            return;
        const std::size_t capacity = std::max(m_width == 1 ? m_bytes.capacity() : m_narrow.capacity(), size() + 1);
        if (width == 2) {
            m_narrow = Column<std::uint16_t>(encoded<std::uint16_t>(capacity));
        } else {
            std::vector<T> wide;
            reserveHugePages(wide, capacity);
            for (const T v : *this)
                wide.push_back(v);
            m_wideValues = Column<T>(std::move(wide));
        }
        releaseWidth(m_width);
        m_width = width;
    }
    unsigned m_width = 2; ///< bytes a row: 2 while building, 1 after compact() when the values allow, 4 when they must
    Column<std::uint8_t> m_bytes; ///< value + 1
    Column<std::uint16_t> m_narrow; ///< value + 1
    Column<T> m_wideValues;
};

/// reserveHugePages() (core/util/hugepages.h) of an index column.
template <typename T> void reserveHugePages(IndexColumn<T>& column, std::size_t rows)
{
    column.reserve(rows);
}

} // namespace nsw
