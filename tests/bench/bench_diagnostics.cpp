// SPDX-License-Identifier: GPL-3.0-or-later
// Times `report`'s pipeline (load what it reads, diagnosticsLoadOptions(), then runDiagnostics: every analysis of
// issue 15 §2 and the findings) on a (large) export against the floor of an in-process SQLite scan of the columns it
// reads, in the same run.
// Target (issue 15): within 1.5x of the scan. Also prints the analyses alone on the loaded profile.
//   bench_diagnostics [EXPORT] [--iterations N]
#include "benchargs.h"
#include "core/diagnostics/diagnostics.h"
#include "core/profile/profileloader.h"
#include "core/sqlite/sqlitedb.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStringList>
#include <algorithm>
#include <cstdio>
#include <sqlite3.h>

using namespace nsw;

namespace {

constexpr double kTarget = 1.5;

using TableColumns = std::vector<std::pair<const char*, const char*>>;

/// The columns the pipeline reads: what the loader reads with diagnosticsLoadOptions() (core/profile/tablereaders.cpp)
/// and the memcpy kinds the memory-transfer analysis reads again.
const TableColumns& scannedColumns()
{
    static const TableColumns columns {
        { "StringIds", "id, value" },
        { "CUPTI_ACTIVITY_KIND_KERNEL",
            "start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName" },
        { "CUPTI_ACTIVITY_KIND_RUNTIME", "start, end, globalTid, correlationId, nameId, eventClass" },
        { "CUPTI_ACTIVITY_KIND_MEMCPY",
            "start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind" },
        { "CUPTI_ACTIVITY_KIND_MEMSET", "start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes" },
        { "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
            "start, end, deviceId, contextId, streamId, correlationId, globalPid, graphId, graphExecId" },
        { "NVTX_EVENTS", "start, end, eventType, text, textId, globalTid, endGlobalTid, domainId" },
    };
    return columns;
}

/// A narrower floor, for comparison with earlier figures: the analyses' numeric columns and the names' lengths only
/// (no name text, no columns only the loader's bookkeeping reads).
const TableColumns& numericColumns()
{
    static const TableColumns columns {
        { "StringIds", "id, length(value)" },
        { "CUPTI_ACTIVITY_KIND_KERNEL",
            "start, end, globalPid, deviceId, streamId, correlationId, demangledName, shortName" },
        { "CUPTI_ACTIVITY_KIND_RUNTIME", "start, end, globalTid, correlationId, nameId" },
        { "CUPTI_ACTIVITY_KIND_MEMCPY",
            "start, end, bytes, copyKind, srcKind, dstKind, globalPid, deviceId, streamId, correlationId" },
        { "CUPTI_ACTIVITY_KIND_MEMSET", "start, end, bytes, globalPid, deviceId, streamId, correlationId" },
        { "NVTX_EVENTS", "start, end, globalTid, textId, eventType, domainId" },
    };
    return columns;
}

double scanFloorMs(const QString& path, const TableColumns& columns, qint64* rows)
{
    QElapsedTimer t;
    t.start();
    QString error;
    const auto db = SqliteDb::open(path, &error);
    quint64 sum = 0; // wraps
    *rows = 0;
    for (const auto& [table, cols] : columns) {
        if (!db || !db->hasTable(QString::fromLatin1(table)))
            continue;
        const QByteArray sql = QByteArray("SELECT ") + cols + " FROM " + table;
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db->handle(), sql.constData(), -1, &st, nullptr) != SQLITE_OK)
            continue;
        const int n = sqlite3_column_count(st);
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < n; ++c) // text is stepped over as the loader does, not parsed as a number
                sum += sqlite3_column_type(st, c) == SQLITE_TEXT ? sqlite3_column_bytes(st, c)
                                                                 : sqlite3_column_int64(st, c);
            ++*rows;
        }
        sqlite3_finalize(st);
    }
    if (sum == 42)
        std::printf(" ");
    return double(t.nsecsElapsed()) / 1e6;
}

/// Time spent in each stage the diagnostics report (in the order first reported), to see which analysis is slow.
class StageClock
{
public:
    void enter(const QString& stage)
    {
        if (m_clock.isValid()) {
            auto it
                = std::find_if(m_stages.begin(), m_stages.end(), [&](const auto& s) { return s.first == m_current; });
            if (it == m_stages.end())
                it = m_stages.insert(m_stages.end(), { m_current, 0.0 });
            it->second += double(m_clock.nsecsElapsed()) / 1e6;
        }
        m_current = stage;
        m_clock.start();
    }
    QString text() const
    {
        QStringList parts;
        for (const auto& [stage, ms] : m_stages)
            parts << QStringLiteral("%1 %2 ms").arg(stage).arg(ms, 0, 'f', 0);
        return parts.join(QStringLiteral(", "));
    }

private:
    std::vector<std::pair<QString, double>> m_stages;
    QString m_current;
    QElapsedTimer m_clock;
};

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const bench::BenchArgs parsed = bench::parseBenchArgs(app.arguments().mid(1));
    const QString& path = parsed.path;
    const int iterations = parsed.iterations;
    std::vector<double> total, analyses, floor, numericFloor;
    qint64 rows = 0, numericRows = 0;
    std::size_t findings = 0, kernels = 0;
    QString stageLine;
    for (int i = 0; i < iterations; ++i) {
        floor.push_back(scanFloorMs(path, scannedColumns(), &rows));
        numericFloor.push_back(scanFloorMs(path, numericColumns(), &numericRows));
        QElapsedTimer t;
        t.start();
        const LoadResult load = ProfileLoader::load(path, diagnosticsLoadOptions());
        if (!load.ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(load.errorMessage()));
            return 2;
        }
        const qint64 loaded = t.nsecsElapsed();
        DiagnosticsRequest request;
        request.profile = load->profile;
        StageClock stages;
        const Result<DiagnosticsResult> r
            = runDiagnostics(request, JobContext(CancelToken(), [&](const Progress& p) { stages.enter(p.stage); }));
        stages.enter(QString());
        if (!r) {
            std::fprintf(stderr, "%s\n", qPrintable(r.errorMessage()));
            return 2;
        }
        total.push_back(double(t.nsecsElapsed()) / 1e6);
        analyses.push_back(double(t.nsecsElapsed() - loaded) / 1e6);
        stageLine = stages.text();
        findings = r->findings.size();
        kernels = load->profile->kernels.size();
    }
    const double ratio = bench::median(total) / bench::median(floor);
    std::printf(
        "%s: %zu kernels, %lld rows scanned by the floor, %zu findings\n", qPrintable(path), kernels, rows, findings);
    std::printf("sqlite scan floor %.1f ms; load + diagnostics %.1f ms (diagnostics alone %.1f ms)\n",
        bench::median(floor), bench::median(total), bench::median(analyses));
    std::printf("diagnostics stages (last run): %s\n", qPrintable(stageLine));
    std::printf("against the numeric columns alone (no name text; %.1f ms): %.2f x\n", bench::median(numericFloor),
        bench::median(total) / bench::median(numericFloor));
    std::printf(
        "report pipeline %.2f x scan (target %.1f x: %s)\n", ratio, kTarget, ratio <= kTarget ? "met" : "MISSED");
    return 0;
}
