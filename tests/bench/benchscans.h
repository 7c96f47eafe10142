// SPDX-License-Identifier: GPL-3.0-or-later
// The floors the window benchmarks measure in the same run: plain SQLite scans of what the loader reads.
#pragma once

#include "core/util/procstatus.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <cstddef>
#include <iterator>
#include <sqlite3.h>
#include <sys/resource.h>

namespace nsw::bench {

struct TableColumns
{
    const char* table;
    const char* columns;
};

// What the loader reads (core/profile/tablereaders.cpp); the kernel line is also what the Kernels pane needs.
inline const TableColumns kKernelScan[] = {
    { "StringIds", "id, value" },
    { "CUPTI_ACTIVITY_KIND_KERNEL",
        "start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName, mangledName, "
        "gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread, staticSharedMemory, dynamicSharedMemory" },
};
inline const TableColumns kFullScan[] = {
    { "CUPTI_ACTIVITY_KIND_MEMCPY",
        "start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes, copyKind" },
    { "CUPTI_ACTIVITY_KIND_MEMSET", "start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes" },
    { "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
        "start, end, deviceId, contextId, streamId, correlationId, globalPid, graphId, graphExecId" },
    { "CUPTI_ACTIVITY_KIND_RUNTIME", "start, end, globalTid, correlationId, nameId, eventClass" },
    { "NVTX_EVENTS", "start, end, eventType, text, textId, globalTid, endGlobalTid, domainId" },
    { "OSRT_API", "start, end, globalTid, nameId" },
};

/// Steps through every row reading every column, as the loader's scans do; tables or columns the file lacks are
/// skipped. Returns seconds.
inline double scan(sqlite3* db, const TableColumns* tables, std::size_t count)
{
    QElapsedTimer t;
    t.start();
    volatile quint64 sink = 0; // wraps: a sum that only keeps the reads from being optimised away
    for (std::size_t i = 0; i < count; ++i) {
        sqlite3_stmt* stmt = nullptr;
        const QByteArray sql = QByteArray("SELECT ") + tables[i].columns + " FROM " + tables[i].table;
        if (sqlite3_prepare_v2(db, sql.constData(), -1, &stmt, nullptr) != SQLITE_OK)
            continue;
        const int columns = sqlite3_column_count(stmt);
        while (sqlite3_step(stmt) == SQLITE_ROW)
            for (int c = 0; c < columns; ++c)
                sink = sink
                    + quint64(sqlite3_column_type(stmt, c) == SQLITE_TEXT ? sqlite3_column_bytes(stmt, c)
                                                                          : sqlite3_column_int64(stmt, c));
        sqlite3_finalize(stmt);
    }
    return double(t.nsecsElapsed()) / 1e9;
}

/// The peak resident memory of this process's address space (VmHWM). Not getrusage()'s ru_maxrss: Linux carries that
/// across exec from the forked parent, so a child benchmark process (bench_load's reopen) reported its parent's peak.
inline double peakRssBytes()
{
    if (const qint64 kib = procStatusKiB("VmHWM"); kib >= 0)
        return double(kib) * 1024.0;
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) * 1024.0;
}

/// What the process holds now, as /proc/self/status splits it: "anon A MiB, file F MiB" (file: mapped files such as
/// the profile cache; anon: the heap). Tells a figure of pages touched in a mapping from one of memory allocated.
inline QByteArray residentSplit()
{
    const auto mib = [](const QByteArray& name) {
        const qint64 kib = procStatusKiB(name);
        return kib < 0 ? QByteArray("?") : QByteArray::number(kib / 1024);
    };
    return "anon " + mib("RssAnon") + " MiB, file " + mib("RssFile") + " MiB";
}

/// The scans of the kernel columns (kscan) and of every column the loader reads (fullScan), in seconds, on a warm
/// page cache (a first scan of the kernels warms it).
struct Floors
{
    bool ok = false;
    double kscan = 0;
    double fullScan = 0;
};

inline Floors measureFloors(const QString& path)
{
    Floors f;
    sqlite3* db = nullptr;
    const QByteArray uri = QByteArray("file:") + path.toUtf8() + "?immutable=1";
    if (sqlite3_open_v2(uri.constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return f;
    }
    scan(db, kKernelScan, std::size(kKernelScan)); // warm the page cache
    f.kscan = scan(db, kKernelScan, std::size(kKernelScan));
    f.fullScan = f.kscan + scan(db, kFullScan, std::size(kFullScan));
    sqlite3_close(db);
    f.ok = true;
    return f;
}

} // namespace nsw::bench
