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
/// processes, GPUs, streams and names). Reading returns values; every value reads back exactly either way. The
/// values are Columns (shared between copies, or views of a mapped profile cache file: parts() and fromParts()).
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

    std::size_t size() const { return m_wide ? m_wideValues.size() : m_narrow.size(); }
    bool empty() const { return size() == 0; }
    T operator[](std::size_t row) const { return m_wide ? m_wideValues[row] : T(std::int32_t(m_narrow[row]) - 1); }
    T front() const { return (*this)[0]; }
    T back() const { return (*this)[size() - 1]; }
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, size()); }
    std::vector<T> toVector() const { return std::vector<T>(begin(), end()); }
    bool isWide() const { return m_wide; }
    bool sharesStorageWith(const IndexColumn& other) const
    {
        return m_wide == other.m_wide
            && (m_wide ? m_wideValues.sharesStorageWith(other.m_wideValues)
                       : m_narrow.sharesStorageWith(other.m_narrow));
    }

    void push_back(T value)
    {
        if (!m_wide && fits(value))
            m_narrow.push_back(std::uint16_t(value + 1));
        else
            widen().push_back(value);
    }
    void reserve(std::size_t rows)
    {
        if (m_wide)
            reserveHugePages(m_wideValues, rows);
        else
            reserveHugePages(m_narrow, rows);
    }
    /// Replaces every value v by @p f(v), in row order. Writes through the storage's pointer (a detach check per row
    /// doubled a load's remapping passes); widens once, at the first value that does not fit.
    template <typename F> void transform(F&& f)
    {
        const std::size_t n = size();
        std::size_t row = 0;
        if (!m_wide) {
            std::uint16_t* narrow = m_narrow.data();
            for (; row < n; ++row) {
                const T value = f(T(std::int32_t(narrow[row]) - 1));
                if (!fits(value)) {
                    widen()[row] = value;
                    ++row;
                    break;
                }
                narrow[row] = std::uint16_t(value + 1);
            }
        }
        if (!m_wide)
            return;
        T* wide = m_wideValues.data();
        for (; row < n; ++row)
            wide[row] = f(wide[row]);
    }
    /// Holds a wide column in 2 bytes a row again when every value fits (string ids remapped to a small pool).
    void narrowIfFits()
    {
        if (!m_wide || !std::all_of(std::as_const(m_wideValues).begin(), std::as_const(m_wideValues).end(), fits))
            return;
        std::vector<std::uint16_t> narrow;
        reserveHugePages(narrow, m_wideValues.size());
        for (const T v : std::as_const(m_wideValues))
            narrow.push_back(std::uint16_t(v + 1));
        m_wideValues.release();
        m_narrow = Column<std::uint16_t>(std::move(narrow));
        m_wide = false;
    }
    void append(const IndexColumn& other)
    {
        if (!m_wide && other.m_wide)
            widen();
        reserve(size() + other.size());
        // A load's chunks are appended to one another: copied whole when both are narrow or both wide.
        if (m_wide && other.m_wide)
            m_wideValues.append(other.m_wideValues.begin(), other.m_wideValues.end());
        else if (!m_wide && !other.m_wide)
            m_narrow.append(other.m_narrow.begin(), other.m_narrow.end());
        else
            for (const T v : other)
                push_back(v);
    }
    void clear() { release(); }
    void release()
    {
        m_narrow.release();
        m_wideValues.release();
        m_wide = false;
    }
    /// Heap bytes held (a view's mapped values are not counted).
    std::size_t memoryBytes() const
    {
        return m_narrow.capacity() * sizeof(std::uint16_t) + m_wideValues.capacity() * sizeof(T);
    }

    /// The encoding, sharing this column's storage: a column is fromParts(parts()).
    struct Parts
    {
        bool wide = false;
        Column<std::uint16_t> narrow; ///< value + 1, while !wide
        Column<T> wideValues;
    };
    Parts parts() const { return { m_wide, m_narrow, m_wideValues }; }
    /// Nothing when @p parts is not an encoding (narrow values in a wide column or the reverse). Any value reads
    /// back as some index: the readers check indices against their tables as they do for a load's.
    static std::optional<IndexColumn> fromParts(Parts parts)
    {
        if (parts.wide ? !parts.narrow.empty() : !parts.wideValues.empty())
            return std::nullopt;
        IndexColumn column;
        column.m_wide = parts.wide;
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
    static bool fits(T value)
    {
        if constexpr (std::is_signed_v<T>)
            return value >= -1 && value < 0xFFFF;
        else
            return value < 0xFFFF || value == T(-1);
    }
    Column<T>& widen()
    {
        if (!m_wide) {
            std::vector<T> wide;
            reserveHugePages(wide, std::max(m_narrow.capacity(), m_narrow.size() + 1));
            for (const std::uint16_t v : std::as_const(m_narrow))
                wide.push_back(T(std::int32_t(v) - 1));
            m_narrow.release();
            m_wideValues = Column<T>(std::move(wide));
            m_wide = true;
        }
        return m_wideValues;
    }
    bool m_wide = false;
    Column<std::uint16_t> m_narrow; ///< value + 1
    Column<T> m_wideValues;
};

/// reserveHugePages() (core/util/hugepages.h) of an index column.
template <typename T> void reserveHugePages(IndexColumn<T>& column, std::size_t rows)
{
    column.reserve(rows);
}

} // namespace nsw
