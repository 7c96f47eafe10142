// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <cstdint>
#include <cstdio>

namespace nsw::tracegen {

/// One NVF1 record (nvlink-inputs.md §1.2): host timestamp + a raw 40-byte nvmlFieldValue_t.
struct Nvf1Record
{
    std::uint64_t hostTsNs = 0; // CLOCK_MONOTONIC after the poll
    std::uint32_t fieldId = 0; // 138 = NVLink TX data, 139 = RX data
    std::uint32_t scopeId = 0; // link index
    std::int64_t timestampUs = 0; // NVML wall clock, µs since 1970
    std::int64_t latencyUs = 0;
    std::uint32_t valueType = 3; // unsigned long long
    std::uint32_t nvmlReturn = 0;
    std::uint64_t value = 0; // cumulative KiB
};

constexpr std::uint32_t kNvf1FieldTx = 138;
constexpr std::uint32_t kNvf1FieldRx = 139;
constexpr int kNvf1HeaderSize = 12;
constexpr int kNvf1RecordSize = 48;

/// Deliberate defects, for tests of readers.
struct Nvf1Faults
{
    bool badMagic = false; // header magic "NVF0" instead of "NVF1"
    bool truncateLast = false; // the last record is cut short (recorder killed mid-write)
    int badReturnEvery = 0; // every Nth record gets nvmlReturn = 3 (NOT_SUPPORTED) and a garbage value
};

/// Writes the NVML NVLink recording format of the CCL-Bench `utilization` recorder: a packed 12-byte header
/// ("NVF1", u16 version 1, u16 field size 40, i32 host_ts_size 8) followed by 48-byte little-endian records.
class Nvf1Writer
{
public:
    explicit Nvf1Writer(const QString& path, Nvf1Faults faults = {});
    ~Nvf1Writer();
    Nvf1Writer(const Nvf1Writer&) = delete;
    Nvf1Writer& operator=(const Nvf1Writer&) = delete;

    void write(const Nvf1Record& r);
    /// Flushes and closes; applies truncateLast. Throws std::runtime_error on I/O errors.
    void close();

    std::uint64_t recordsWritten() const { return m_count; }
    std::uint64_t badReturnRecords() const { return m_badReturns; }

    static void encode(const Nvf1Record& r, unsigned char out[kNvf1RecordSize]);

private:
    QString m_path;
    Nvf1Faults m_faults;
    std::FILE* m_file = nullptr;
    std::uint64_t m_count = 0;
    std::uint64_t m_badReturns = 0;
};

} // namespace nsw::tracegen
