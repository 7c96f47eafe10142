// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace nsw {

/// One column of a table: a vector whose storage is shared between copies and copied on the first write to a shared
/// one. A staged load publishes the kernel and memory tables early, then builds the whole profile around the *same*
/// columns: no copy of millions of rows, and no write into what other threads read (issue 12). Reads go through
/// const access; any non-const access detaches when the storage is shared.
///
/// The storage is either owned (a std::vector) or a view of memory someone else keeps alive (a profile cache file
/// mapped into memory, issue 37: the columns are read in place, and only the pages read become resident). A write to
/// a view copies it into owned storage first. Reads see one pointer and size either way (m_begin, m_size), kept in
/// step by every operation that can move or resize the owned vector.
template <typename T> class Column
{
public:
    using value_type = T;
    using size_type = std::size_t;
    using const_iterator = const T*;
    using iterator = T*;

    Column() = default;
    Column(std::initializer_list<T> values)
        : m_owned(std::make_shared<std::vector<T>>(values))
    {
        sync();
    }
    Column(std::vector<T> values)
        : m_owned(std::make_shared<std::vector<T>>(std::move(values)))
    {
        sync();
    }
    Column(const Column&) = default;
    Column& operator=(const Column&) = default;
    /// A moved-from column is empty.
    Column(Column&& other) noexcept
        : m_owned(std::move(other.m_owned))
        , m_keepAlive(std::move(other.m_keepAlive))
        , m_begin(std::exchange(other.m_begin, nullptr))
        , m_size(std::exchange(other.m_size, 0))
    { }
    Column& operator=(Column&& other) noexcept
    {
        if (this != &other) {
            m_owned = std::move(other.m_owned);
            m_keepAlive = std::move(other.m_keepAlive);
            m_begin = std::exchange(other.m_begin, nullptr);
            m_size = std::exchange(other.m_size, 0);
        }
        return *this;
    }
    /// A column reading @p count values at @p data, which @p keepAlive keeps valid (a mapped file).
    static Column view(std::shared_ptr<const void> keepAlive, const T* data, std::size_t count)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        Column c;
        c.m_keepAlive = std::move(keepAlive);
        c.m_begin = data;
        c.m_size = count;
        return c;
    }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const T& operator[](std::size_t i) const { return m_begin[i]; }
    const T* data() const { return m_begin; }
    const_iterator begin() const { return m_begin; }
    const_iterator end() const { return m_begin + m_size; }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }
    const T& front() const { return m_begin[0]; }
    const T& back() const { return m_begin[m_size - 1]; }
    std::vector<T> toVector() const { return std::vector<T>(begin(), end()); }
    /// True when the values are read in place from memory this column does not own (a mapped cache file).
    bool isView() const { return m_keepAlive != nullptr; }

    T& operator[](std::size_t i) { return writable()[i]; }
    T* data() { return writable(); }
    iterator begin() { return writable(); }
    iterator end() { return writable() + m_size; }
    void push_back(const T& value)
    {
        owned().push_back(value);
        sync();
    }
    template <typename... Args> T& emplace_back(Args&&... args)
    {
        T& added = owned().emplace_back(std::forward<Args>(args)...);
        sync();
        return added;
    }
    /// Appends [first, last), which must not point into this column.
    template <typename It> void append(It first, It last)
    {
        owned().insert(owned().end(), first, last);
        sync();
    }
    void reserve(std::size_t n)
    {
        owned().reserve(n);
        sync();
    }
    void resize(std::size_t n)
    {
        owned().resize(n);
        sync();
    }
    void resize(std::size_t n, const T& value)
    {
        owned().resize(n, value);
        sync();
    }
    void assign(std::size_t n, const T& value)
    {
        owned().assign(n, value);
        sync();
    }
    template <typename It> void assign(It first, It last)
    {
        std::vector<T> values(first, last);
        *this = Column(std::move(values));
    }
    void clear() { release(); }
    /// Frees this column's storage (other columns sharing it keep theirs).
    void release() { *this = Column(); }

    /// True when both use one storage (a column of a staged load's first profile and of its whole profile).
    bool sharesStorageWith(const Column& other) const
    {
        return (m_owned && m_owned == other.m_owned) || (m_keepAlive && m_begin == other.m_begin);
    }
    /// Bytes of heap this column holds (0 for a view).
    std::size_t capacity() const { return m_owned ? m_owned->capacity() : 0; }

    friend bool operator==(const Column& a, const Column& b) { return equal(a, b.begin(), b.size()); }
    friend bool operator==(const Column& a, const std::vector<T>& b) { return equal(a, b.data(), b.size()); }

private:
    static bool equal(const Column& a, const T* b, std::size_t n)
    {
        if (a.size() != n)
            return false;
        for (std::size_t i = 0; i < n; ++i)
            if (!(a.m_begin[i] == b[i]))
                return false;
        return true;
    }
    /// The owned vector, made unshared (a copy of a shared vector or of a view) before any write.
    std::vector<T>& owned()
    {
        if (!m_owned || m_owned.use_count() > 1) {
            m_owned = std::make_shared<std::vector<T>>(m_begin, m_begin + m_size);
            m_keepAlive.reset();
            sync();
        }
        return *m_owned;
    }
    /// For writes that keep the size: the storage, detached.
    T* writable() { return owned().data(); }
    void sync()
    {
        m_begin = m_owned->data();
        m_size = m_owned->size();
    }

    std::shared_ptr<std::vector<T>> m_owned;
    std::shared_ptr<const void> m_keepAlive; ///< what keeps a view's memory valid
    const T* m_begin = nullptr;
    std::size_t m_size = 0;
};

} // namespace nsw
