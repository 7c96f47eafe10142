// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <vector>

namespace nsw {

/// One column of a GPU activity table: a std::vector whose storage is shared between copies and copied on the
/// first write to a shared one. A staged load publishes the kernel and memory tables early, then builds the whole
/// profile around the *same* columns: no copy of millions of rows, and no write into what other threads read
/// (issue 12). Reads go through const access; any non-const access detaches when the storage is shared.
template <typename T> class Column
{
public:
    using value_type = T;
    using size_type = std::size_t;
    using const_iterator = typename std::vector<T>::const_iterator;
    using iterator = typename std::vector<T>::iterator;

    Column() = default;
    Column(std::initializer_list<T> values)
        : m_data(std::make_shared<std::vector<T>>(values))
    { }
    Column(std::vector<T> values)
        : m_data(std::make_shared<std::vector<T>>(std::move(values)))
    { }

    const std::vector<T>& vec() const { return m_data ? *m_data : emptyVector(); }
    operator const std::vector<T>&() const { return vec(); }
    std::size_t size() const { return m_data ? m_data->size() : 0; }
    bool empty() const { return size() == 0; }
    const T& operator[](std::size_t i) const { return (*m_data)[i]; }
    const T* data() const { return vec().data(); }
    const_iterator begin() const { return vec().begin(); }
    const_iterator end() const { return vec().end(); }
    const_iterator cbegin() const { return vec().begin(); }
    const_iterator cend() const { return vec().end(); }
    const T& front() const { return vec().front(); }
    const T& back() const { return vec().back(); }

    /// The storage for writing, copied first when another column shares it.
    std::vector<T>& mut()
    {
        if (!m_data)
            m_data = std::make_shared<std::vector<T>>();
        else if (m_data.use_count() > 1)
            m_data = std::make_shared<std::vector<T>>(*m_data);
        return *m_data;
    }
    T& operator[](std::size_t i) { return mut()[i]; }
    iterator begin() { return mut().begin(); }
    iterator end() { return mut().end(); }
    void push_back(const T& value) { mut().push_back(value); }
    template <typename... Args> T& emplace_back(Args&&... args)
    {
        return mut().emplace_back(std::forward<Args>(args)...);
    }
    void reserve(std::size_t n) { mut().reserve(n); }
    void resize(std::size_t n) { mut().resize(n); }
    void resize(std::size_t n, const T& value) { mut().resize(n, value); }
    void assign(std::size_t n, const T& value) { mut().assign(n, value); }
    template <typename It> void assign(It first, It last) { mut().assign(first, last); }
    void clear() { m_data.reset(); }
    /// Frees this column's storage (other columns sharing it keep theirs).
    void release() { m_data.reset(); }

    /// True when both use one storage (a column of a staged load's first profile and of its whole profile).
    bool sharesStorageWith(const Column& other) const { return m_data && m_data == other.m_data; }
    std::size_t capacity() const { return m_data ? m_data->capacity() : 0; }

    friend bool operator==(const Column& a, const Column& b) { return a.vec() == b.vec(); }
    friend bool operator==(const Column& a, const std::vector<T>& b) { return a.vec() == b; }

private:
    static const std::vector<T>& emptyVector()
    {
        static const std::vector<T> empty;
        return empty;
    }
    std::shared_ptr<std::vector<T>> m_data;
};

} // namespace nsw
