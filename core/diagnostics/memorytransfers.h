// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/jobs/result.h"

namespace nsw {

/// Whether the export's memcpy table has its memory kinds (CUPTI_ACTIVITY_KIND_MEMCPY.srcKind and dstKind): the
/// loaded profile holds them (MemOpTable::srcKind/dstKind) but cannot tell a table or column that is missing (said as
/// such in MemoryResult::kindsMissing) from NULL values. True, or NoData when the export has no memcpy table or no
/// srcKind/dstKind column (the message says which), Input on an SQLite error naming the file.
Result<bool> memcpyKindsExported(const QString& sqlitePath);

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

/// Memory operations that overlap the focus. With @p kindsKnown (memcpyKindsExported()), the memcpys' memory kinds
/// (MemOpTable::srcKind/dstKind) add the by-kind table and the pageable counts; else @p kindsMissing says why not.
MemoryResult computeMemoryTransfers(
    const AnalysisContext& context, bool kindsKnown, const QString& kindsMissing = {}, const JobContext& job = {});

} // namespace nsw
