// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"
#include "core/util/hugeallocator.h"

#include <QString>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

namespace nsw {

enum class LinkDirection : std::uint8_t
{
    Tx,
    Rx
};
/// "TX" / "RX", as the ccl-bench tools name directions.
QString directionLabel(LinkDirection direction);

enum class ThroughputUnit : std::uint8_t
{
    GBps, ///< bytes per interval are known (NVML counters): decimal GB/s
    PercentOfPeak ///< nsys GPU metrics: percent of the link bandwidth
};

/// link value of a series that covers every link of the GPU.
inline constexpr int kAllLinks = -1;

using SampleVector = std::vector<TimeNs, HugeAllocator<TimeNs>>;
using ByteCounts = std::vector<qint64, HugeAllocator<qint64>>;

/// Sample times of a series: a read-only view of a shared array, because NVML stamps every field of one poll
/// alike and the 24 series of a recording then share one array instead of holding 24 copies.
class SampleTimes
{
public:
    SampleTimes() = default;
    SampleTimes(std::vector<TimeNs> times); // NOLINT: implicit, for building series by hand
    SampleTimes(SampleVector&& times);
    /// The first @p count samples of @p shared.
    SampleTimes(std::shared_ptr<const SampleVector> shared, std::size_t count);

    std::size_t size() const { return m_count; }
    bool empty() const { return m_count == 0; }
    TimeNs operator[](std::size_t i) const { return m_data->data()[i]; }
    TimeNs front() const { return (*this)[0]; }
    TimeNs back() const { return (*this)[m_count - 1]; }
    const TimeNs* begin() const { return m_data ? m_data->data() : nullptr; }
    const TimeNs* end() const { return begin() + m_count; }
    std::vector<TimeNs> toVector() const { return std::vector<TimeNs>(begin(), end()); }
    bool sharesWith(const SampleTimes& other) const { return m_data == other.m_data; }
    const void* storage() const { return m_data.get(); }
    bool operator==(const SampleTimes& other) const;
    /// Bytes held (a shared array counts fully for each holder).
    std::size_t memoryBytes() const { return m_data ? m_data->capacity() * sizeof(TimeNs) : 0; }

private:
    std::shared_ptr<const SampleVector> m_data;
    std::size_t m_count = 0;
};

/// Bytes moved per interval. NVML counts KiB, so a step is kept as 32-bit KiB (4 bytes per interval, which is most
/// of a recording's memory); a step that is not whole KiB or exceeds 4 TiB goes to a small side table.
class IntervalBytes
{
public:
    IntervalBytes() = default;
    IntervalBytes(std::initializer_list<qint64> values);

    std::size_t size() const { return m_kib.size(); }
    bool empty() const { return m_kib.empty(); }
    qint64 operator[](std::size_t i) const
    {
        const std::uint32_t k = m_kib[i];
        return k != kSideTable ? qint64(k) * 1024 : large(i);
    }
    void push_back(qint64 bytes);
    void reserve(std::size_t n) { m_kib.reserve(n); }
    void assign(std::size_t n, qint64 bytes);
    /// Sizes without initialising: every slot must then be set (by set() or trySetFast()).
    void resizeForOverwrite(std::size_t n) { m_kib.resize(n); }
    void set(std::size_t i, qint64 bytes);
    /// Sets slot i when @p bytes fits the compact form (true); callable from several threads on distinct slots.
    bool trySetFast(std::size_t i, qint64 bytes)
    {
        if (bytes < 0 || (bytes & 1023) != 0 || (bytes >> 10) >= kSideTable)
            return false;
        m_kib[i] = std::uint32_t(bytes >> 10);
        return true;
    }
    /// The compact KiB slots (after resizeForOverwrite), for a parser filling them from several threads; 0xFFFFFFFF
    /// is reserved (set() such slots).
    std::uint32_t* compactSlots() { return m_kib.data(); }
    std::vector<qint64> toVector() const;
    bool operator==(const IntervalBytes& other) const;
    std::size_t memoryBytes() const
    {
        return m_kib.capacity() * sizeof(std::uint32_t) + m_large.capacity() * sizeof(m_large[0]);
    }

private:
    static constexpr std::uint32_t kSideTable = 0xFFFFFFFFu;
    qint64 large(std::size_t i) const;
    std::vector<std::uint32_t, HugeAllocator<std::uint32_t>> m_kib;
    std::vector<std::pair<std::uint32_t, qint64>> m_large; ///< by index
};

/// One NVLink throughput series, whatever its source (NVF1 counters or nsys GPU_METRICS): the samples of one GPU,
/// one link (or all links) and one direction. Interval i spans [time[i], time[i+1]). Times are ns relative to the
/// series' own origin; a ClockAlignment gives the shift onto the export's session timeline.
struct ThroughputSeries
{
    int gpu = -1; ///< NVML index for NVF1 (as chosen by the user), nsys GPU id for GPU_METRICS
    int link = kAllLinks;
    LinkDirection direction = LinkDirection::Tx;
    ThroughputUnit unit = ThroughputUnit::GBps;
    /// Wall-clock µs (NVML timestamps) of time 0; only meaningful for NVF1 series.
    qint64 originUs = 0;
    SampleTimes time; ///< sample points, non-decreasing
    IntervalBytes bytes; ///< GBps: bytes moved in interval i
    std::vector<float> percent; ///< PercentOfPeak: value of interval i
    std::vector<std::uint32_t> resets; ///< intervals whose counter went backwards (counted as 0 bytes)

    std::size_t intervalCount() const { return time.size() < 2 ? 0 : time.size() - 1; }
    TimeNs duration(std::size_t i) const { return time[i + 1] - time[i]; }
    /// Wall-clock µs of sample i (exact for NVF1, whose times are whole µs).
    qint64 wallUs(std::size_t i) const { return originUs + time[i] / 1000; }
    /// GB/s of interval i computed exactly as the ccl-bench tools do (bytes × 1e6 / µs / 1e9); 0 for empty intervals.
    double gbps(std::size_t i) const
    {
        const TimeNs d = duration(i);
        return d <= 0 ? 0.0 : double(bytes[i]) * 1e6 / (double(d) / 1000.0) / 1e9;
    }
    /// The value in the series' own unit (GB/s or percent).
    double value(std::size_t i) const { return unit == ThroughputUnit::GBps ? gbps(i) : double(percent[i]); }
    QString label() const;
    /// Bytes held, times included (shared times count for each series that shares them).
    std::size_t memoryBytes() const;
};

} // namespace nsw
