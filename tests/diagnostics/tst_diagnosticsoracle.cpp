// SPDX-License-Identifier: GPL-3.0-or-later
// The diagnostics' counts and sums against plain SQL on every export of oracleExports() (generated ones for every
// schema version, the demo, ../shared/traces when present).
#include "core/diagnostics/diagnostics.h"
#include "core/profile/profileloader.h"
#include "oracleexports.h"
#include "sqlitefixture.h"

#include <QTest>
#include <map>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

bool hasTable(const QString& file, const QString& table)
{
    return !test::queryRows(file, u"SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '%1'"_s.arg(table))
                .isEmpty();
}

struct CountTotal
{
    qint64 count = 0;
    qint64 total = 0;
    bool operator==(const CountTotal&) const = default;
};

CountTotal countTotal(const QString& file, const QString& sql)
{
    const QStringList row = test::queryRows(file, sql).value(0);
    return { row.value(0).toLongLong(), row.value(1).toLongLong() };
}

/// The device a row ran on, as DiagnosticsDevice::key: the nsys GPU id through TARGET_INFO_CUDA_DEVICE, else the
/// CUDA ordinal.
QString deviceKeySql(const QString& file)
{
    if (!hasTable(file, u"TARGET_INFO_CUDA_DEVICE"_s))
        return u"deviceId"_s;
    return u"coalesce((SELECT d.gpuId FROM TARGET_INFO_CUDA_DEVICE d WHERE d.cudaId = o.deviceId AND d.pid = "
           "((o.globalPid >> 24) & 16777215) AND d.gpuId IN (SELECT id FROM TARGET_INFO_GPU)), o.deviceId)"_s;
}

/// Kernels, memcpys and memsets as one relation (start, end, deviceId, streamId, globalPid).
QString gpuOpsSql(const QString& file)
{
    QStringList parts;
    for (const QString& t :
        { u"CUPTI_ACTIVITY_KIND_KERNEL"_s, u"CUPTI_ACTIVITY_KIND_MEMCPY"_s, u"CUPTI_ACTIVITY_KIND_MEMSET"_s })
        if (hasTable(file, t))
            parts << u"SELECT start, end, deviceId, streamId, globalPid FROM %1"_s.arg(t);
    return parts.join(u" UNION ALL "_s);
}

/// Gaps of a series: rows whose start is after the latest end of the rows before them in start order.
CountTotal gapsBySql(const QString& file, const QString& partition)
{
    const QString sql = u"WITH o AS (%1), k AS (SELECT start, end, streamId, %2 AS dev FROM o o), "
                        "w AS (SELECT start, max(end) OVER (PARTITION BY %3 ORDER BY start, end ROWS BETWEEN "
                        "UNBOUNDED PRECEDING AND 1 PRECEDING) AS prevEnd FROM k) "
                        "SELECT count(*), coalesce(sum(start - prevEnd), 0) FROM w WHERE start > prevEnd"_s.arg(
                            gpuOpsSql(file), deviceKeySql(file), partition);
    return countTotal(file, sql);
}

const QString kSyncNames
    = u"(n LIKE 'cudaDeviceSynchronize%' OR n LIKE 'cudaStreamSynchronize%' OR n LIKE "
      "'cudaEventSynchronize%' OR n LIKE 'cudaThreadSynchronize%' OR n LIKE 'cudaStreamWaitEvent%' "
      "OR n LIKE 'cuCtxSynchronize%' OR n LIKE 'cuStreamSynchronize%' OR n LIKE "
      "'cuEventSynchronize%' OR n LIKE 'cuStreamWaitEvent%' OR n LIKE 'cuStreamWaitValue%' OR "
      "((n LIKE 'cudaMemcpy%' OR n LIKE 'cuMemcpy%' OR n LIKE 'cudaMemset%' OR n LIKE "
      "'cuMemset%') AND n NOT LIKE '%async%'))"_s;

/// The @p p th percentile of all kernel durations, numpy's default (linear between the closest ranks), in SQL.
double kernelDurationPercentileBySql(const QString& file, int p)
{
    const QString sql
        = u"WITH d AS (SELECT end - start AS v, row_number() OVER (ORDER BY end - start) - 1 AS i, count(*) OVER () "
          "AS n FROM CUPTI_ACTIVITY_KIND_KERNEL), r AS (SELECT (n - 1) * %1 / 100.0 AS rank, n FROM d LIMIT 1), "
          "b AS (SELECT rank, CAST(rank AS INTEGER) AS lo, min(CAST(rank AS INTEGER) + 1, n - 1) AS hi FROM r) "
          "SELECT (SELECT v FROM d WHERE i = lo) + (rank - lo) * ((SELECT v FROM d WHERE i = hi) - (SELECT v FROM d "
          "WHERE i = lo)) FROM b"_s.arg(p);
    return test::queryRows(file, sql).value(0).value(0).toDouble();
}

/// Per device (summed over the devices): the time at least one stream is busy, and the streams' busy times added
/// (= the time-weighted sum of busy streams): each the span of the operations less the gaps between them.
CountTotal busyBySql(const QString& file)
{
    const QString span
        = u"WITH o AS (%1), k AS (SELECT start, end, streamId, %2 AS dev FROM o o) SELECT coalesce(sum(s), "
          "0) FROM (SELECT max(end) - min(start) AS s FROM k GROUP BY %3)"_s;
    const qint64 device
        = test::queryRows(file, span.arg(gpuOpsSql(file), deviceKeySql(file), u"dev"_s)).value(0).value(0).toLongLong();
    const qint64 streams = test::queryRows(file, span.arg(gpuOpsSql(file), deviceKeySql(file), u"dev, streamId"_s))
                               .value(0)
                               .value(0)
                               .toLongLong();
    return { device - gapsBySql(file, u"dev"_s).total, streams - gapsBySql(file, u"dev, streamId"_s).total };
}

DiagnosticsResult diagnose(const QString& file, const FocusRange& focus = {})
{
    LoadResult load = ProfileLoader::load(file, LoadOptions {});
    if (!load.ok())
        qFatal("%s", qPrintable(load.errorMessage()));
    DiagnosticsRequest request;
    request.profile = load->profile;
    request.focus = focus;
    request.detectIterations = false;
    Result<DiagnosticsResult> r = runDiagnostics(request);
    if (!r)
        qFatal("%s", qPrintable(r.errorMessage()));
    return std::move(*r);
}

} // namespace

class TestDiagnosticsOracle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void againstSql_data();
    void againstSql();
    void focusedKernels_data();
    void focusedKernels();
};

void TestDiagnosticsOracle::againstSql_data()
{
    QTest::addColumn<QString>("file");
    for (const test::OracleExport& e : test::oracleExports())
        QTest::newRow(qPrintable(e.label)) << e.path;
}

void TestDiagnosticsOracle::againstSql()
{
    QFETCH(QString, file);
    const DiagnosticsResult r = diagnose(file);
    const bool kernels = hasTable(file, u"CUPTI_ACTIVITY_KIND_KERNEL"_s);

    if (kernels) {
        // Kernels by demangled name.
        std::map<QString, CountTotal> sql;
        for (const QStringList& row : test::queryRows(file,
                 u"SELECT s.value, count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
                 "ON s.id = k.demangledName GROUP BY k.demangledName"_s))
            sql[row[0]] = { row[1].toLongLong(), row[2].toLongLong() };
        std::map<QString, CountTotal> ours;
        for (const NamedDurations& k : r.perProcess.kernels)
            ours[k.name] = { k.count, k.total };
        QCOMPARE(ours, sql);

        // NCCL kernels (SQLite's LIKE is case-insensitive for ASCII).
        const CountTotal nccl = countTotal(file,
            u"SELECT count(*), coalesce(sum(k.end - k.start), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
            "ON s.id = k.demangledName WHERE s.value LIKE '%nccl%'"_s);
        QCOMPARE((CountTotal { r.nccl.total.count, r.nccl.total.total }), nccl);
    }

    if (kernels && hasTable(file, u"CUPTI_ACTIVITY_KIND_RUNTIME"_s)) {
        // Launch and queue time: each kernel's launching call in its own process (correlation id); when several
        // calls share the id (old exports record cudaLaunchKernel and its _v7000 inner call), the first by rowid.
        const QStringList row = test::queryRows(file,
            u"WITH f AS (SELECT correlationId AS c, globalTid >> 24 AS p, min(rowid) AS id FROM "
            "CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY 1, 2) "
            "SELECT count(*), coalesce(sum(r.end - r.start), 0), coalesce(sum(max(k.start - r.end, 0)), 0) FROM "
            "CUPTI_ACTIVITY_KIND_KERNEL k JOIN f ON f.c = k.correlationId AND f.p = (k.globalPid >> 24) "
            "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.rowid = f.id"_s)
                                    .value(0);
        qint64 launches = 0, api = 0, queue = 0;
        for (const LaunchCostRow& k : r.launchCost.kernels) {
            launches += k.launchCalls.count;
            api += k.launchCalls.total;
            queue += k.queue.total;
        }
        QCOMPARE(launches, row[0].toLongLong());
        QCOMPARE(api, row[1].toLongLong());
        QCOMPARE(queue, row[2].toLongLong());
    }

    if (hasTable(file, u"CUPTI_ACTIVITY_KIND_RUNTIME"_s)) {
        const CountTotal sync = countTotal(file,
            u"SELECT count(*), coalesce(sum(d), 0) FROM (SELECT s.value AS n, r.end - r.start AS d FROM "
            "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId) WHERE %1"_s.arg(kSyncNames));
        QCOMPARE((CountTotal { r.sync.calls.count, r.sync.calls.total }), sync);
        const CountTotal api
            = countTotal(file, u"SELECT count(*), sum(end - start) FROM CUPTI_ACTIVITY_KIND_RUNTIME"_s);
        QCOMPARE(r.sync.apiNs, api.total);
    }

    if (hasTable(file, u"CUPTI_ACTIVITY_KIND_MEMCPY"_s)) {
        const QStringList row = test::queryRows(file,
            u"SELECT count(*), coalesce(sum(bytes), 0), coalesce(sum(end - start), 0) FROM "
            "CUPTI_ACTIVITY_KIND_MEMCPY"_s)
                                    .value(0);
        qint64 count = 0, bytes = 0, time = 0;
        for (const MemoryTransferRow& m : r.memory.byDirection) {
            if (m.direction == QLatin1String("memset"))
                continue;
            count += m.count;
            bytes += m.bytes;
            time += m.totalNs;
        }
        QCOMPARE(count, row[0].toLongLong());
        QCOMPARE(bytes, row[1].toLongLong());
        QCOMPARE(time, row[2].toLongLong());
        if (r.memory.kindsKnown) {
            const QList<QStringList> groups = test::queryRows(file,
                u"SELECT count(*), sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY copyKind, srcKind, dstKind "
                "ORDER BY 1, 2"_s);
            QList<QStringList> ours;
            for (const MemoryTransferRow& m : r.memory.byKind)
                ours << QStringList { QString::number(m.count), QString::number(m.bytes) };
            std::sort(ours.begin(), ours.end(), [](const QStringList& a, const QStringList& b) {
                return std::pair(a[0].toLongLong(), a[1].toLongLong())
                    < std::pair(b[0].toLongLong(), b[1].toLongLong());
            });
            QCOMPARE(ours, groups);
            const CountTotal pageable = countTotal(file,
                u"SELECT count(*), coalesce(sum(bytes), 0) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE srcKind = 0 OR "
                "dstKind = 0"_s);
            QCOMPARE((CountTotal { r.memory.pageableCopies, r.memory.pageableBytes }), pageable);
        }
    }

    if (kernels) {
        // Issue 36 §3: the longest kernels, the kernel-duration percentiles, the tensor-core table's kernel time.
        QList<qint64> longest;
        for (const QStringList& row : test::queryRows(
                 file, u"SELECT end - start FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY end - start DESC LIMIT 20"_s))
            longest << row[0].toLongLong();
        QList<qint64> ours;
        for (const LongestKernel& k : r.kernelTiming.longest)
            ours << k.duration();
        QCOMPARE(ours, longest);
        QCOMPARE(r.kernelTiming.percentiles.front().pid, 0);
        const Percentiles& all = r.kernelTiming.percentiles.front().kernelDurations;
        QCOMPARE(all.p50, kernelDurationPercentileBySql(file, 50));
        QCOMPARE(all.p90, kernelDurationPercentileBySql(file, 90));
        QCOMPARE(all.p99, kernelDurationPercentileBySql(file, 99));
        const CountTotal kernelTime
            = countTotal(file, u"SELECT count(*), coalesce(sum(end - start), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL"_s);
        QCOMPARE(r.tensorCores.total.kernelNs, kernelTime.total);
        QCOMPARE(all.count, kernelTime.count);
    }

    if (hasTable(file, u"CUPTI_ACTIVITY_KIND_MEMCPY"_s)) {
        // Host-to-device bytes (HtoD, HtoA, unified HtoD), before the first kernel and from it on.
        const QString firstKernel = kernels ? u"(SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL)"_s : u"NULL"_s;
        const QStringList row = test::queryRows(file,
            u"SELECT coalesce(sum(start < %1 OR %1 IS NULL), 0), coalesce(sum(CASE WHEN start < %1 OR %1 IS NULL THEN "
            "bytes END), 0), coalesce(sum(start >= %1), 0), coalesce(sum(CASE WHEN start >= %1 THEN bytes END), 0) "
            "FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind IN (1, 3, 11)"_s.arg(firstKernel))
                                    .value(0);
        QCOMPARE((QList<qint64> { r.h2d.initial.count, r.h2d.initial.total, r.h2d.steady.count, r.h2d.steady.total }),
            (QList<qint64> { row[0].toLongLong(), row[1].toLongLong(), row[2].toLongLong(), row[3].toLongLong() }));
        qint64 binned = 0;
        for (const H2dBin& b : r.h2d.bins)
            binned += b.copies.total;
        QCOMPARE(binned, row[1].toLongLong() + row[3].toLongLong());
    }

    if (!gpuOpsSql(file).isEmpty()) {
        // Stream concurrency: time with at least one stream busy, and the busy streams weighted by time.
        CountTotal ours;
        for (const DeviceConcurrency& d : r.streamConcurrency)
            for (std::size_t k = 1; k < d.timeWithStreams.size(); ++k)
                ours = { ours.count + d.timeWithStreams[k], ours.total + qint64(k) * d.timeWithStreams[k] };
        QCOMPARE(ours, busyBySql(file));
    }

    if (!gpuOpsSql(file).isEmpty()) {
        qint64 gaps = 0, gapNs = 0;
        for (const DeviceIdle& d : r.idleGaps.devices) {
            gaps += d.gaps;
            gapNs += d.gapNs;
        }
        QCOMPARE((CountTotal { gaps, gapNs }), gapsBySql(file, u"dev"_s));
        QCOMPARE(
            (CountTotal { r.idleGaps.streamGapCount, r.idleGaps.streamGapNs }), gapsBySql(file, u"dev, streamId"_s));
    }
}

void TestDiagnosticsOracle::focusedKernels_data()
{
    // A focus on the middle third of the kernels: the exports that have kernels.
    QTest::addColumn<QString>("file");
    for (const test::OracleExport& e : test::oracleExports())
        if (hasTable(e.path, u"CUPTI_ACTIVITY_KIND_KERNEL"_s))
            QTest::newRow(qPrintable(e.label)) << e.path;
}

void TestDiagnosticsOracle::focusedKernels()
{
    QFETCH(QString, file);
    const QStringList span
        = test::queryRows(file, u"SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL"_s).value(0);
    const TimeNs a = span[0].toLongLong(), b = span[1].toLongLong();
    const FocusRange focus { a + (b - a) / 3, a + 2 * (b - a) / 3, u"middle"_s };
    const DiagnosticsResult r = diagnose(file, focus);
    // nsys's range filter: starts in the range, ends in it, or spans it.
    const QString inFocus
        = u"((start >= %1 AND start < %2) OR (end >= %1 AND end < %2) OR (start < %1 AND end >= %2))"_s.arg(focus.start)
              .arg(focus.end);
    const CountTotal sql = countTotal(file,
        u"SELECT count(*), coalesce(sum(end - start), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE %1"_s.arg(inFocus));
    QCOMPARE((CountTotal { r.launchCost.totalKernels, r.launchCost.totalKernelNs }), sql);
    for (const DeviceTimeBreakdown& d : r.temporal)
        QCOMPARE(d.computeNs + d.communicationNs + d.memoryNs + d.idleNs, focus.durationNs());

    // The other tables each analysis reads through the profile's zone maps.
    if (hasTable(file, u"CUPTI_ACTIVITY_KIND_RUNTIME"_s)) {
        const CountTotal api = countTotal(file,
            u"SELECT count(*), coalesce(sum(end - start), 0) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE %1"_s.arg(inFocus));
        QCOMPARE(r.sync.apiNs, api.total);
    }
    if (hasTable(file, u"CUPTI_ACTIVITY_KIND_MEMCPY"_s)) {
        const CountTotal copies = countTotal(file,
            u"SELECT count(*), coalesce(sum(end - start), 0) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE %1"_s.arg(inFocus));
        CountTotal ours;
        for (const MemoryTransferRow& m : r.memory.byDirection)
            if (m.direction != QLatin1String("memset"))
                ours = { ours.count + m.count, ours.total + m.totalNs };
        QCOMPARE(ours, copies);
        if (r.memory.kindsKnown) {
            const CountTotal pageable = countTotal(file,
                u"SELECT count(*), coalesce(sum(bytes), 0) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE (srcKind = 0 OR "
                "dstKind = 0) AND %1"_s.arg(inFocus));
            QCOMPARE((CountTotal { r.memory.pageableCopies, r.memory.pageableBytes }), pageable);
        }
    }
    if (hasTable(file, u"NVTX_EVENTS"_s)) {
        const CountTotal ranges = countTotal(file,
            u"SELECT count(*), coalesce(sum(end - start), 0) FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71) AND "
            "end IS NOT NULL AND end >= start AND %1"_s.arg(inFocus));
        CountTotal ours;
        for (const ProcessBreakdownRow& p : r.perProcess.processes)
            ours = { ours.count + p.nvtxRanges.count, ours.total + p.nvtxRanges.total };
        QCOMPARE(ours, ranges);
    }
}

QTEST_GUILESS_MAIN(TestDiagnosticsOracle)
#include "tst_diagnosticsoracle.moc"
