// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace nsw {

/// Little-endian values appended to a byte array: the small, structured parts of a profile cache file (metadata,
/// processes, threads, GPUs), which are read back with ByteReader.
class ByteWriter
{
public:
    template <typename T> void put(T value)
    {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
        m_bytes.append(reinterpret_cast<const char*>(&value), qsizetype(sizeof value));
    }
    void put(const QString& text)
    {
        const QByteArray utf8 = text.toUtf8();
        put(std::uint32_t(utf8.size()));
        m_bytes.append(utf8);
    }
    void put(const QStringList& texts)
    {
        put(std::uint32_t(texts.size()));
        for (const QString& t : texts)
            put(t);
    }
    const QByteArray& bytes() const { return m_bytes; }

    // The writing side of a format written once for both directions (ByteReader has the same three): a function
    // template taking `Io& io` calls them on a ByteWriter with const values, on a ByteReader with the ones to fill.
    /// Each value as put() writes it.
    template <typename... T> void fields(const T&... values) { (put(values), ...); }
    /// The count, then @p each(item) for every item.
    template <class List, class Each> void list(const List& items, std::size_t /*minBytes*/, Each&& each)
    {
        put(std::uint32_t(items.size()));
        for (const auto& item : items)
            each(item);
    }
    /// The count, then each key and value.
    template <class Map> void map(const Map& entries, std::size_t /*minBytes*/)
    {
        put(std::uint32_t(entries.size()));
        for (const auto& [key, value] : entries)
            fields(key, value);
    }

private:
    QByteArray m_bytes;
};

/// Reads what ByteWriter wrote. Never reads past the end: a read that would sets failed() and yields zero or empty,
/// and a count is only believed when that many of the smallest element could still follow.
class ByteReader
{
public:
    explicit ByteReader(const QByteArray& bytes)
        : m_bytes(bytes)
    { }
    template <typename T> T get()
    {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
        T value {};
        if (!have(sizeof value))
            return value;
        std::memcpy(&value, m_bytes.constData() + m_at, sizeof value);
        m_at += qsizetype(sizeof value);
        return value;
    }
    QString getString()
    {
        const auto size = get<std::uint32_t>();
        if (!have(size))
            return {};
        QString text = QString::fromUtf8(m_bytes.constData() + m_at, qsizetype(size));
        m_at += qsizetype(size);
        return text;
    }
    QStringList getStringList()
    {
        QStringList texts;
        const std::uint32_t count = getCount(4);
        for (std::uint32_t i = 0; i < count && !m_failed; ++i)
            texts.append(getString());
        return texts;
    }
    /// A count of elements of at least @p minBytes each.
    std::uint32_t getCount(std::size_t minBytes)
    {
        const auto count = get<std::uint32_t>();
        if (!m_failed && std::uint64_t(count) * minBytes > std::uint64_t(m_bytes.size() - m_at)) {
            m_failed = true;
            return 0;
        }
        return count;
    }
    bool failed() const { return m_failed; }
    bool atEnd() const { return m_at == m_bytes.size(); }

    /// Reads what ByteWriter::fields wrote of values of these types.
    template <typename... T> void fields(T&... values) { (read(values), ...); }
    /// Reads a count of items of at least @p minBytes each, then fills each appended item with @p each(item).
    template <class List, class Each> void list(List& items, std::size_t minBytes, Each&& each)
    {
        const std::uint32_t count = getCount(minBytes);
        for (std::uint32_t i = 0; i < count && !m_failed; ++i) {
            typename List::value_type item {};
            each(item);
            items.push_back(std::move(item));
        }
    }
    /// Reads a count of entries of at least @p minBytes each, then each key and value.
    template <class Map> void map(Map& entries, std::size_t minBytes)
    {
        const std::uint32_t count = getCount(minBytes);
        for (std::uint32_t i = 0; i < count && !m_failed; ++i) {
            typename Map::key_type key {};
            read(key);
            read(entries[key]);
        }
    }

private:
    template <typename T> void read(T& value) { value = get<T>(); }
    void read(bool& value) { value = get<std::uint8_t>() != 0; }
    void read(QString& text) { text = getString(); }
    void read(QStringList& texts) { texts = getStringList(); }
    bool have(std::size_t bytes)
    {
        if (m_failed || std::uint64_t(bytes) > std::uint64_t(m_bytes.size() - m_at))
            m_failed = true;
        return !m_failed;
    }
    const QByteArray& m_bytes;
    qsizetype m_at = 0;
    bool m_failed = false;
};

} // namespace nsw
