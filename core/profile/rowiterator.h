// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <iterator>

namespace nsw {

/// Random access over the rows of an encoded column (TimeColumn, IndexColumn) whose operator[] returns values, not
/// references: dereferencing yields the row's value. Enough for range-for and std algorithms such as lower_bound.
template <typename Column, typename T> class RowIterator
{
public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using reference = T;
    using pointer = void;

    RowIterator() = default;
    RowIterator(const Column* column, std::size_t row)
        : m_column(column)
        , m_row(row)
    { }

    T operator*() const { return (*m_column)[m_row]; }
    T operator[](difference_type n) const { return (*m_column)[std::size_t(difference_type(m_row) + n)]; }

    RowIterator& operator++()
    {
        ++m_row;
        return *this;
    }
    RowIterator operator++(int)
    {
        RowIterator old = *this;
        ++m_row;
        return old;
    }
    RowIterator& operator--()
    {
        --m_row;
        return *this;
    }
    RowIterator operator--(int)
    {
        RowIterator old = *this;
        --m_row;
        return old;
    }
    RowIterator& operator+=(difference_type n)
    {
        m_row = std::size_t(difference_type(m_row) + n);
        return *this;
    }
    RowIterator& operator-=(difference_type n) { return *this += -n; }
    friend RowIterator operator+(RowIterator it, difference_type n) { return it += n; }
    friend RowIterator operator+(difference_type n, RowIterator it) { return it += n; }
    friend RowIterator operator-(RowIterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const RowIterator& a, const RowIterator& b)
    {
        return difference_type(a.m_row) - difference_type(b.m_row);
    }
    friend bool operator==(const RowIterator& a, const RowIterator& b) { return a.m_row == b.m_row; }
    friend bool operator<(const RowIterator& a, const RowIterator& b) { return a.m_row < b.m_row; }
    friend bool operator>(const RowIterator& a, const RowIterator& b) { return a.m_row > b.m_row; }
    friend bool operator<=(const RowIterator& a, const RowIterator& b) { return a.m_row <= b.m_row; }
    friend bool operator>=(const RowIterator& a, const RowIterator& b) { return a.m_row >= b.m_row; }

private:
    const Column* m_column = nullptr;
    std::size_t m_row = 0;
};

} // namespace nsw
