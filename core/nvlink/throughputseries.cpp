// SPDX-License-Identifier: GPL-3.0-or-later
#include "throughputseries.h"

#include <algorithm>

namespace nsw {

SampleTimes::SampleTimes(std::vector<TimeNs> times)
    : m_data(std::make_shared<const SampleVector>(times.begin(), times.end()))
    , m_count(times.size())
{ }

SampleTimes::SampleTimes(SampleVector&& times)
    : m_count(times.size())
{
    m_data = std::make_shared<const SampleVector>(std::move(times));
}

SampleTimes::SampleTimes(std::shared_ptr<const SampleVector> shared, std::size_t count)
    : m_data(std::move(shared))
    , m_count(m_data ? std::min(count, m_data->size()) : 0)
{ }

bool SampleTimes::operator==(const SampleTimes& other) const
{
    return m_count == other.m_count && std::equal(begin(), end(), other.begin());
}

IntervalBytes::IntervalBytes(std::initializer_list<qint64> values)
{
    m_kib.reserve(values.size());
    for (const qint64 v : values)
        push_back(v);
}

void IntervalBytes::push_back(qint64 bytes)
{
    m_kib.push_back(0);
    set(m_kib.size() - 1, bytes);
}

void IntervalBytes::assign(std::size_t n, qint64 bytes)
{
    m_kib.clear();
    m_large.clear();
    m_kib.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        push_back(bytes);
}

void IntervalBytes::set(std::size_t i, qint64 bytes)
{
    const auto at = std::lower_bound(m_large.begin(), m_large.end(), std::uint32_t(i),
        [](const std::pair<std::uint32_t, qint64>& e, std::uint32_t index) { return e.first < index; });
    const bool listed = at != m_large.end() && at->first == i;
    if (trySetFast(i, bytes)) {
        if (listed)
            m_large.erase(at);
        return;
    }
    m_kib[i] = kSideTable;
    if (listed)
        at->second = bytes;
    else
        m_large.insert(at, { std::uint32_t(i), bytes });
}

qint64 IntervalBytes::large(std::size_t i) const
{
    const auto at = std::lower_bound(m_large.begin(), m_large.end(), std::uint32_t(i),
        [](const std::pair<std::uint32_t, qint64>& e, std::uint32_t index) { return e.first < index; });
    return at != m_large.end() && at->first == i ? at->second : 0;
}

std::vector<qint64> IntervalBytes::toVector() const
{
    std::vector<qint64> out(size());
    for (std::size_t i = 0; i < size(); ++i)
        out[i] = (*this)[i];
    return out;
}

bool IntervalBytes::operator==(const IntervalBytes& other) const
{
    return m_kib == other.m_kib && m_large == other.m_large;
}

QString directionLabel(LinkDirection direction)
{
    return direction == LinkDirection::Tx ? QStringLiteral("TX") : QStringLiteral("RX");
}

QString ThroughputSeries::label() const
{
    const QString where = link == kAllLinks ? QStringLiteral("all links") : QStringLiteral("link %1").arg(link);
    return QStringLiteral("%1 %2").arg(where, directionLabel(direction));
}

std::size_t ThroughputSeries::memoryBytes() const
{
    return time.memoryBytes() + bytes.memoryBytes() + percent.capacity() * sizeof(float)
        + resets.capacity() * sizeof(std::uint32_t);
}

} // namespace nsw
