// SPDX-License-Identifier: GPL-3.0-or-later
// Times `analyze` (all six rules, defaults) on a (large) export against the floor of an in-process SQLite scan of
// the columns the rules read, in the same run. Target (issue 15): within 1.5x of the scan.
//   bench_analyze [EXPORT] [--iterations N]
#include "benchargs.h"
#include "core/analysis/analysisrun.h"
#include "core/sqlite/sqlitedb.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <sqlite3.h>

using namespace nsw;

namespace {

constexpr double kTarget = 1.5;

/// The columns the rules read, per table (what a hand-written SQL scan would have to touch at least once).
const std::vector<std::pair<const char*, const char*>>& scannedColumns()
{
    static const std::vector<std::pair<const char*, const char*>> columns {
        { "StringIds", "id, length(value)" },
        { "CUPTI_ACTIVITY_KIND_RUNTIME", "start, end, globalTid, correlationId, nameId" },
        { "CUPTI_ACTIVITY_KIND_MEMCPY",
            "start, end, srcKind, dstKind, bytes, globalPid, deviceId, contextId, streamId, correlationId, copyKind, "
            "srcDeviceId, dstDeviceId" },
        { "CUPTI_ACTIVITY_KIND_MEMSET",
            "start, end, memKind, bytes, globalPid, deviceId, contextId, streamId, correlationId" },
        { "CUPTI_ACTIVITY_KIND_KERNEL", "start, end, globalPid, deviceId, contextId" },
        { "PROFILER_OVERHEAD", "start, end, globalTid, nameId" },
    };
    return columns;
}

/// One pass over every table's columns, reading each value as the rules do.
double scanFloorMs(const QString& path, qint64* rows)
{
    QElapsedTimer t;
    t.start();
    QString error;
    const auto db = SqliteDb::open(path, &error);
    quint64 sum = 0; // wraps
    *rows = 0;
    for (const auto& [table, cols] : scannedColumns()) {
        if (!db->hasTable(QString::fromLatin1(table)))
            continue;
        const QByteArray sql = QByteArray("SELECT ") + cols + " FROM " + table;
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db->handle(), sql.constData(), -1, &st, nullptr) != SQLITE_OK)
            continue;
        const int n = sqlite3_column_count(st);
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < n; ++c)
                sum += quint64(sqlite3_column_int64(st, c));
            ++*rows;
        }
        sqlite3_finalize(st);
    }
    if (sum == 42)
        std::printf(" ");
    return double(t.nsecsElapsed()) / 1e6;
}

double analyzeMs(const QString& path, size_t* found)
{
    QElapsedTimer t;
    t.start();
    const auto plan = planRules({});
    const auto result = computeAnalysis({ path, plan.value(), {}, {} });
    *found = 0;
    if (result)
        for (const RuleTable& r : result->rules)
            *found += r.rows.size();
    return double(t.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const bench::BenchArgs parsed = bench::parseBenchArgs(app.arguments().mid(1));
    const QString& path = parsed.path;
    const int iterations = parsed.iterations;
    std::vector<double> ours, floor;
    qint64 rows = 0;
    size_t found = 0;
    for (int i = 0; i < iterations; ++i) {
        floor.push_back(scanFloorMs(path, &rows));
        ours.push_back(analyzeMs(path, &found));
    }
    const double ratio = bench::median(ours) / bench::median(floor);
    std::printf("%s: %lld rows scanned by the floor, %zu rule rows found\n", qPrintable(path), rows, found);
    std::printf("sqlite scan floor %.1f ms; analyze (6 rules) %.1f ms\n", bench::median(floor), bench::median(ours));
    std::printf("analyze %.2f x scan (target %.1f x: %s)\n", ratio, kTarget, ratio <= kTarget ? "met" : "MISSED");
    return 0;
}
