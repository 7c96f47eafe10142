// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/throughputseries.h"
#include "core/profile/loadtypes.h"

#include <QStringList>
#include <array>
#include <memory>

namespace nsw {

/// NVML field ids the CCL-Bench recorder polls (nvlink-inputs.md §1.2).
inline constexpr std::uint32_t kNvmlFieldNvlinkTx = 138;
inline constexpr std::uint32_t kNvmlFieldNvlinkRx = 139;
inline constexpr int kNvf1HeaderBytes = 12;
inline constexpr int kNvf1FieldBytes = 40; ///< sizeof(nvmlFieldValue_t) on x86-64
inline constexpr int kNvf1HostTsBytes = 8;

struct Nvf1Header
{
    std::array<char, 4> magic {};
    std::uint16_t version = 0;
    std::uint16_t fieldSize = 0;
    std::int32_t hostTsSize = 0;
    int stride() const { return hostTsSize + fieldSize; }
};

struct Nvf1Stats
{
    qint64 fileBytes = 0;
    qint64 records = 0; ///< complete records in the file
    qint64 usedRecords = 0;
    qint64 failedRecords = 0; ///< nvmlReturn != 0: the value is undefined, skipped
    qint64 otherFieldRecords = 0; ///< fields other than 138/139, skipped
    qint64 badValueRecords = 0; ///< unknown valueType or a negative signed value, skipped
    qint64 badTimestampRecords = 0; ///< NVML timestamp more than 100 days away from the first one, skipped
    qint64 partialTailBytes = 0; ///< bytes of an incomplete last record (recorder killed mid-write), ignored
    qint64 polls = 0;
    qint64 counterResets = 0; ///< intervals whose counter went backwards: counted as 0 bytes
    qint64 implausibleJumps = 0; ///< intervals whose counter jumped by more than 8 PiB: counted as 0 bytes
    qint64 zeroDurationIntervals = 0; ///< repeated NVML timestamps: no throughput can be computed
    qint64 reorderedSeries = 0; ///< series whose NVML timestamps were not in file order (sorted)
    bool regularLayout = false; ///< every poll had the same fields, all valid: read by the parallel fast path
};

/// A parsed NVF1 recording: one series per (link, direction) in order of first appearance in the file (the order
/// the ccl-bench tools break ties in), and per direction the sum over links at each poll.
struct Nvf1Recording
{
    QString path;
    Nvf1Header header;
    Nvf1Stats stats;
    qint64 originUs = 0; ///< NVML µs of series time 0 (the first usable record)
    qint64 firstUs = 0; ///< first and last NVML timestamps of usable records
    qint64 lastUs = 0;
    std::vector<ThroughputSeries> links;
    std::vector<ThroughputSeries> totals; ///< one per direction present, link = kAllLinks
    /// Every link reported exactly the same counter: the counters are GPU-wide, so totals are not summed.
    bool linksIdentical = false;
    QStringList warnings;

    int linkCount() const;
    std::size_t memoryBytes() const;
};

struct Nvf1ReadResult
{
    std::shared_ptr<Nvf1Recording> recording; ///< null on error or cancel
    QString error; ///< "<file>: <what is wrong>"
    bool cancelled = false;
};

/// Reads an NVF1 file in large blocks (no per-record allocation). @p gpu is stored in every series.
Nvf1ReadResult readNvf1File(const QString& path, int gpu = -1, const CancelToken& cancel = CancelToken::never());
/// The same parser over bytes in memory (tests, fuzzing); @p name is used in messages.
Nvf1ReadResult parseNvf1Bytes(const char* data, std::size_t size, const QString& name, int gpu = -1);

/// Checks only the 12-byte header of @p path; returns an empty string when it is a readable NVF1 file.
QString checkNvf1Header(const QString& path);

} // namespace nsw
