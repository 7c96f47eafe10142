// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/jobs/result.h"

namespace nsw {

/// The memory kinds of each memcpy (CUPTI_ACTIVITY_KIND_MEMCPY.srcKind/dstKind), read from the export again, only the
/// columns needed. The loaded profile holds the kinds too (MemOpTable::srcKind/dstKind), but it cannot tell a table
/// or column that is missing (said as such in MemoryResult::kindsMissing) from NULL values.
struct MemcpyKindRows
{
    std::vector<TimeNs> start;
    std::vector<TimeNs> end;
    std::vector<qint64> bytes;
    std::vector<std::int16_t> copyKind; ///< ENUM_CUDA_MEMCPY_OPER, -1 when NULL
    std::vector<std::int16_t> srcKind; ///< ENUM_CUDA_MEM_KIND (0 pageable, 1 pinned, 2 device...), -1 when NULL
    std::vector<std::int16_t> dstKind;
    std::vector<int> pid;
    std::vector<std::uint32_t> correlation;
    std::size_t size() const { return start.size(); }
};

/// Reads the memcpy table's kinds; NoData when the export has no memcpy table or no srcKind/dstKind columns (the
/// message says which), Input on an SQLite error naming the file.
Result<MemcpyKindRows> readMemcpyKinds(const QString& sqlitePath, const JobContext& job = {});

/// "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static", "Unknown" (as nsys).
QString memoryKindName(int kind);

struct MemoryTransferRow
{
    QString direction; ///< "Host-to-Device", as the profile's ENUM_CUDA_MEMCPY_OPER labels, or "memset"
    QString memoryKind; ///< "Pageable -> Device"; empty in the by-direction table
    qint64 count = 0;
    qint64 bytes = 0;
    TimeNs totalNs = 0;
    /// bytes / time, GB/s (10^9 bytes per second); 0 when no time.
    double gbPerSecond() const { return totalNs > 0 ? double(bytes) / double(totalNs) : 0.0; }
};

struct MemoryResult
{
    std::vector<MemoryTransferRow> byDirection; ///< memcpys per direction and memsets, by time descending
    std::vector<MemoryTransferRow> byKind; ///< memcpys per direction and source/destination kinds
    bool kindsKnown = false;
    QString kindsMissing; ///< why byKind is empty (when !kindsKnown)
    qint64 pageableCopies = 0; ///< memcpys with a pageable side
    qint64 pageableBytes = 0;
    TimeNs pageableNs = 0;
    qint64 pageableAsyncCopies = 0; ///< of them, issued by an *Async call (which then runs synchronously)
    qint64 syncCopyCalls = 0; ///< memcpy/memset calls that block the host (ApiSync and ApiMemory)
    TimeNs syncCopyApiNs = 0;
    /// The thread with the most time in those calls (its label and time), and how many threads make them.
    QString syncCopyThread;
    TimeNs syncCopyThreadNs = 0;
    int syncCopyThreads = 0;
    QStringList syncCopyApis; ///< their names, most time first
    qint64 copies = 0;
};

/// Memory operations that overlap the focus; @p kinds (may be null) adds the by-kind table and the pageable counts.
MemoryResult computeMemoryTransfers(const AnalysisContext& context, const MemcpyKindRows* kinds,
    const QString& kindsMissing = {}, const JobContext& job = {});

} // namespace nsw
