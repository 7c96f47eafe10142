// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvtx/nvtxreports.h"
#include "core/profile/profileloader.h"
#include "core/reports/reportregistry.h"
#include "core/stats/reportformat.h"
#include "core/stats/reports.h"
#include "nvtxfixture.h"
#include "oracleexports.h"
#include "profilebuilder.h"
#include "testutils.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <map>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

ReportTable run(const QString& name, const Profile& p)
{
    const ReportSpec* spec = findReport(name, nullptr);
    if (!spec)
        return {};
    return spec->compute(p, {}, {});
}

QString cell(const ReportTable& t, std::size_t row, const QString& header)
{
    const int c = t.columnIndex(header);
    return reportCellText(t.rows[row][std::size_t(c)], t.columns[std::size_t(c)]);
}

/// Values that nsys rounds to one decimal: equal when @p got is @p exact rounded (ties either way).
bool roundsTo(const QString& got, double exact)
{
    return std::fabs(got.toDouble() - exact) <= 0.05 + 1e-6;
}

const char* const kRangeLabelSql = "coalesce(d.name, '') || ':' || coalesce(st.value, n.text, '')";
const char* const kDomainsSql
    = "domains AS (SELECT domainId AS id, globalTid AS gt, coalesce(s.value, n.text) AS name FROM NVTX_EVENTS n "
      "LEFT JOIN StringIds s ON s.id = n.textId WHERE eventType = 75 GROUP BY 1, 2)";
const char* const kDomainJoinSql
    = "LEFT JOIN domains d ON n.domainId = d.id AND (n.globalTid & 0x0000FFFFFF000000) = (d.gt & "
      "0x0000FFFFFF000000) LEFT JOIN StringIds st ON n.textId = st.id";

} // namespace

class TestNvtxReports : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void registered();
    void nvtxSumOnFixture();
    void projSumOnFixture();
    void projectionRows();
    void identicalRangesHaveNoLevel();
    void duplicateCorrelationRows();
    void skipped_data();
    void skipped();
    void nvtxSumMatchesSql_data();
    void nvtxSumMatchesSql();
    void projSumMatchesSql_data();
    void projSumMatchesSql();
};

void TestNvtxReports::registered()
{
    QStringList args;
    const ReportSpec* sum = findReport(u"nvtx_sum"_s, &args);
    QVERIFY(sum);
    QCOMPARE(sum->title, u"NVTX Range Summary"_s);
    QCOMPARE(findReport(u"nvtxsum"_s, nullptr), sum);
    const ReportSpec* proj = findReport(u"nvtx_gpu_proj_sum"_s, nullptr);
    QVERIFY(proj);
    QVERIFY(proj->loadParts & LoadNvtx);
    QVERIFY(proj->loadParts & LoadCudaApi);
    QVERIFY(proj->loadParts & LoadKernels);
    QVERIFY(proj->loadParts & LoadMemOps);
}

void TestNvtxReports::nvtxSumOnFixture()
{
    // Durations (see nvtxfixture.h); the unterminated "tail" ends at the table's maximum timestamp, the mark at
    // 8000: 1000 ns. Grand total 6153. Ties (step_2, tail: 1000) in label order. "x" is in a domain without a
    // create event: empty domain name.
    const QString expected = u"Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),"
                             "Style,Range\n"
                             "32.5,2000,2,1000.0,1000.0,1000,1000,0.0,PushPop,:step_1\n"
                             "16.3,1000,1,1000.0,1000.0,1000,1000,0.0,PushPop,:step_2\n"
                             "16.3,1000,1,1000.0,1000.0,1000,1000,0.0,PushPop,:tail\n"
                             "13.0,800,2,400.0,400.0,400,400,0.0,PushPop,:forward\n"
                             "9.8,600,1,600.0,600.0,600,600,0.0,StartEnd,:async_io\n"
                             "4.9,300,1,300.0,300.0,300,300,0.0,PushPop,:worker\n"
                             "3.4,210,2,105.0,105.0,100,110,7.1,PushPop,:layer_1\n"
                             "2.3,140,1,140.0,140.0,140,140,0.0,PushPop,:layer_2\n"
                             "1.6,100,1,100.0,100.0,100,100,0.0,PushPop,NCCL:ncclAllReduce\n"
                             "0.0,3,1,3.0,3.0,3,3,0.0,PushPop,:x\n"_s;
    const ReportTable t = run(u"nvtx_sum"_s, *test::nvtxFixture());
    QVERIFY2(t.skipped.isEmpty(), qPrintable(t.skipped));
    QCOMPARE(reportToCsv(t), expected);
}

void TestNvtxReports::projSumOnFixture()
{
    // Only ranges without an end thread (async_io excluded). "tail" has no end: it ends at the maximum over range
    // rows (its own start, 7000), so K11 (launched at 7100) is in no range. A GPU op belongs to every range that
    // contains its whole launching call.
    const QString expected
        = u"Range,Style,Total Proj Time (ns),Total Range Time (ns),Range Instances,Proj Avg (ns),Proj Med (ns),"
          "Proj Min (ns),Proj Max (ns),Proj StdDev (ns),Total GPU Ops,Avg GPU Ops,Avg Range Lvl,Avg Num Child\n"
          ":step_1,PushPop,1050,2000,2,525.0,525.0,300,750,318.2,8,4.0,0.0,1.0\n"
          ":forward,PushPop,600,800,2,300.0,300.0,200,400,141.4,6,3.0,1.0,1.5\n"
          ":layer_1,PushPop,520,210,2,260.0,260.0,200,320,84.9,4,2.0,2.0,0.5\n"
          "NCCL:ncclAllReduce,PushPop,300,100,1,300.0,300.0,300,300,0.0,1,1.0,1.0,0.0\n"
          ":step_2,PushPop,210,1000,1,210.0,210.0,210,210,0.0,2,2.0,0.0,1.0\n"
          ":worker,PushPop,100,300,1,100.0,100.0,100,100,0.0,1,1.0,0.0,0.0\n"
          ":x,PushPop,100,3,1,100.0,100.0,100,100,0.0,1,1.0,3.0,0.0\n"
          ":layer_2,PushPop,50,140,1,50.0,50.0,50,50,0.0,1,1.0,2.0,0.0\n"_s;
    const ReportTable t = run(u"nvtx_gpu_proj_sum"_s, *test::nvtxFixture());
    QVERIFY2(t.skipped.isEmpty(), qPrintable(t.skipped));
    QCOMPARE(reportToCsv(t), expected);
}

void TestNvtxReports::projectionRows()
{
    const ProfilePtr p = test::nvtxFixture();
    const std::vector<NvtxProjection> rows = nvtxGpuProjection(*p);
    // Range rows of the fixture in insertion order (marks take rows too): step_1 0, forward 1, marker 2,
    // layer_1 3, x 4, layer_2 5, ncclAllReduce 6, step_2 7, forward 8, layer_1 9, async_io 10, tail 11, end 12,
    // worker 13, step_1 (B) 14.
    struct E
    {
        std::uint32_t row;
        TimeNs start, duration;
        qint64 ops;
        int level, parent, children;
    };
    const std::vector<E> expected = {
        { 0, 2000, 750, 7, 0, -1, 2 },
        { 1, 2000, 400, 5, 1, 0, 2 },
        { 3, 2000, 320, 3, 2, 1, 1 },
        { 4, 2000, 100, 1, 3, 3, 0 },
        { 5, 2300, 50, 1, 2, 1, 0 },
        { 6, 2400, 300, 1, 1, 0, 0 },
        { 7, 4100, 210, 2, 0, -1, 1 },
        { 8, 4100, 200, 1, 1, 7, 1 },
        { 9, 4100, 200, 1, 2, 8, 0 },
        { 13, 1500, 100, 1, 0, -1, 0 },
        { 14, 1600, 300, 1, 0, -1, 0 },
    };
    QCOMPARE(rows.size(), expected.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        QCOMPARE(rows[i].row, expected[i].row);
        QCOMPARE(rows[i].projectedStart, expected[i].start);
        QCOMPARE(rows[i].projectedDuration, expected[i].duration);
        QCOMPARE(rows[i].gpuOps, expected[i].ops);
        QCOMPARE(rows[i].level, expected[i].level);
        QCOMPARE(rows[i].parentRow, expected[i].parent);
        QCOMPARE(rows[i].numChild, expected[i].children);
    }
}

void TestNvtxReports::identicalRangesHaveNoLevel()
{
    // nsys's parent query makes two identical ranges each other's parent: neither is reachable from a root, so
    // both have no level (NULL, left out of the average) and the outer range has no child with a projection.
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(1), 1);
    b.nvtxRange(t, 0, 100, u"outer"_s);
    b.nvtxRange(t, 10, 50, u"dup"_s);
    b.nvtxRange(t, 10, 50, u"dup"_s);
    b.kernel(t, 20, 30, 200, 260, u"k"_s);
    const ReportTable table = run(u"nvtx_gpu_proj_sum"_s, *b.build());
    QCOMPARE(reportToCsv(table),
        u"Range,Style,Total Proj Time (ns),Total Range Time (ns),Range Instances,Proj Avg (ns),Proj Med (ns),"
        "Proj Min (ns),Proj Max (ns),Proj StdDev (ns),Total GPU Ops,Avg GPU Ops,Avg Range Lvl,Avg Num Child\n"
        ":dup,PushPop,120,80,2,60.0,60.0,60,60,0.0,2,1.0,,1.0\n"
        ":outer,PushPop,60,100,1,60.0,60.0,60,60,0.0,1,1.0,0.0,0.0\n"_s);
}

void TestNvtxReports::duplicateCorrelationRows()
{
    // Old exports hold two API rows per call (eventClass 67 backtrace + the call, same correlation id). The loader
    // joins the kernel to the first; nsys joins it to both, so the range containing only the inner row still gets
    // the kernel, counted once.
    test::ProfileBuilder b;
    const ProcessIndex proc = b.process(1);
    const ThreadIndex t = b.thread(proc, 1);
    b.nvtxRange(t, 100, 200, u"r"_s);
    b.apiCall(t, 90, 210, u"cudaLaunchKernel"_s, 5);
    b.apiCall(t, 110, 150, u"cudaLaunchKernel_v7000"_s, 5);
    b.kernelWithoutApi(proc, 300, 340, u"k"_s, 0, 7, 5);
    const ProfilePtr p = b.build();
    QCOMPARE(p->kernels.api[0], 0); // the first row
    const std::vector<NvtxProjection> rows = nvtxGpuProjection(*p);
    QCOMPARE(rows.size(), std::size_t(1));
    QCOMPARE(rows[0].gpuOps, qint64(1));
    QCOMPARE(rows[0].projectedDuration, TimeNs(40));
}

void TestNvtxReports::skipped_data()
{
    QTest::addColumn<QString>("report");
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("message");
    const QString file = QFileInfo(u"hand-made.sqlite"_s).absoluteFilePath();
    QTest::newRow("nvtx_sum without NVTX_EVENTS")
        << u"nvtx_sum"_s << u"NVTX_EVENTS"_s << file + u" does not contain NV Tools Extension (NVTX) data."_s;
    QTest::newRow("proj without NVTX_EVENTS")
        << u"nvtx_gpu_proj_sum"_s << u"NVTX_EVENTS"_s << file + u" does not contain NV Tools Extension (NVTX) data."_s;
    QTest::newRow("proj without runtime")
        << u"nvtx_gpu_proj_sum"_s << u"CUPTI_ACTIVITY_KIND_RUNTIME"_s << file + u" does not contain CUDA API data."_s;
    QTest::newRow("nvtx_sum without StringIds")
        << u"nvtx_sum"_s << u"StringIds"_s << file + u" file does not contain StringIds table."_s;
}

void TestNvtxReports::skipped()
{
    QFETCH(QString, report);
    QFETCH(QString, table);
    QFETCH(QString, message);
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(1), 1);
    b.nvtxRange(t, 0, 100, u"r"_s);
    b.kernel(t, 10, 20, 30, 40, u"k"_s);
    const ProfilePtr built = b.build();
    auto p = std::make_shared<Profile>(*built);
    p->meta.tables.removeAll(table);
    QCOMPARE(run(report, *p).skipped, message);
}

void TestNvtxReports::nvtxSumMatchesSql_data()
{
    QTest::addColumn<QString>("file");
    for (const test::OracleExport& e : test::oracleExports())
        if (!e.label.startsWith(QLatin1String("nsys")) || e.label.contains(QLatin1String("nvtx"))
            || e.label.contains(QLatin1String("nsys2026.2_h100x2")))
            QTest::newRow(qPrintable(e.label)) << e.path;
}

void TestNvtxReports::nvtxSumMatchesSql()
{
    QFETCH(QString, file);
    LoadOptions options;
    options.parts = findReport(u"nvtx_sum"_s, nullptr)->loadParts;
    const LoadResult loaded = ProfileLoader::load(file, options);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
    const ReportTable t = run(u"nvtx_sum"_s, *loaded->profile);
    QVERIFY2(t.skipped.isEmpty(), qPrintable(t.skipped));

    QSqlDatabase db = test::openReadOnly(file);
    QSqlQuery q(db);
    const QString ranges
        = QStringLiteral(
            "WITH maxts AS (SELECT max(max(start), max(end)) AS m FROM NVTX_EVENTS), %1, r AS (SELECT %2 AS label, "
            "CASE WHEN n.eventType IN (59, 70) THEN 'PushPop' ELSE 'StartEnd' END AS style, coalesce(n.end, (SELECT m "
            "FROM maxts)) - n.start AS dur FROM NVTX_EVENTS n %3 WHERE n.eventType IN (59, 60, 70, 71)) ")
              .arg(QLatin1String(kDomainsSql), QLatin1String(kRangeLabelSql), QLatin1String(kDomainJoinSql));
    QVERIFY2(q.exec(ranges
                 + u"SELECT label, style, sum(dur), count(*), avg(dur), min(dur), max(dur), "
                   "sum(dur) * 100.0 / (SELECT sum(dur) FROM r) FROM r GROUP BY label, style"_s),
        qPrintable(q.lastError().text()));
    std::map<std::pair<QString, QString>, QStringList> expected;
    while (q.next())
        expected[{ q.value(0).toString(), q.value(1).toString() }]
            = { q.value(2).toString(), q.value(3).toString(), test::roundedText(q.value(4).toDouble()),
                  q.value(5).toString(), q.value(6).toString(), test::roundedText(q.value(7).toDouble()) };
    std::map<std::pair<QString, QString>, std::vector<qint64>> durations;
    QVERIFY(q.exec(ranges + u"SELECT label, style, dur FROM r"_s));
    while (q.next())
        durations[{ q.value(0).toString(), q.value(1).toString() }].push_back(q.value(2).toLongLong());

    QCOMPARE(t.rows.size(), expected.size());
    qint64 previousTotal = std::numeric_limits<qint64>::max();
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const std::pair<QString, QString> key { cell(t, r, u"Range"_s), cell(t, r, u"Style"_s) };
        QVERIFY2(expected.count(key), qPrintable(key.first));
        const QStringList& e = expected[key];
        QCOMPARE(cell(t, r, u"Total Time (ns)"_s), e[0]);
        QCOMPARE(cell(t, r, u"Instances"_s), e[1]);
        QCOMPARE(cell(t, r, u"Avg (ns)"_s), e[2]);
        QCOMPARE(cell(t, r, u"Min (ns)"_s), e[3]);
        QCOMPARE(cell(t, r, u"Max (ns)"_s), e[4]);
        QCOMPARE(cell(t, r, u"Time (%)"_s), e[5]);
        std::vector<qint64> d = durations[key];
        std::sort(d.begin(), d.end());
        const std::size_t n = d.size();
        const double median = n % 2 ? double(d[n / 2]) : (double(d[n / 2 - 1]) + double(d[n / 2])) / 2;
        double mean = 0;
        for (const qint64 v : d)
            mean += double(v) / double(n);
        double squares = 0;
        for (const qint64 v : d)
            squares += (double(v) - mean) * (double(v) - mean);
        const double stddev = n > 1 ? std::sqrt(squares / double(n - 1)) : 0.0;
        QVERIFY(roundsTo(cell(t, r, u"Med (ns)"_s), median));
        QVERIFY(roundsTo(cell(t, r, u"StdDev (ns)"_s), stddev));
        const qint64 total = cell(t, r, u"Total Time (ns)"_s).toLongLong();
        QVERIFY(total <= previousTotal); // sorted by total, descending
        previousTotal = total;
    }
}

void TestNvtxReports::projSumMatchesSql_data()
{
    nvtxSumMatchesSql_data();
}

void TestNvtxReports::projSumMatchesSql()
{
    QFETCH(QString, file);
    LoadOptions options;
    options.parts = findReport(u"nvtx_gpu_proj_sum"_s, nullptr)->loadParts;
    const LoadResult loaded = ProfileLoader::load(file, options);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
    const ReportTable t = run(u"nvtx_gpu_proj_sum"_s, *loaded->profile);
    QVERIFY2(t.skipped.isEmpty(), qPrintable(t.skipped));

    // nsys's projection written plainly (no rtree): same thread, whole launching call inside the range, every
    // enclosing range, span of the ops, distinct correlation ids.
    QSqlDatabase db = test::openReadOnly(file);
    QSqlQuery q(db);
    for (const char* drop : { "DROP TABLE IF EXISTS temp.prng", "DROP TABLE IF EXISTS temp.proj",
             "DROP TABLE IF EXISTS temp.parent", "DROP TABLE IF EXISTS temp.calls" })
        QVERIFY(q.exec(QLatin1String(drop)));
    QVERIFY2(q.exec(QStringLiteral(
                 "CREATE TEMP TABLE prng AS WITH mm AS (SELECT max(max(start), max(end)) AS mx FROM NVTX_EVENTS "
                 "WHERE eventType IN (59, 60, 70, 71)), %1 SELECT n.rowid AS rangeId, n.start AS s, ifnull(n.end, "
                 "(SELECT mx FROM mm)) AS e, n.globalTid AS tid, %2 AS name, CASE WHEN n.eventType IN (59, 70) THEN "
                 "'PushPop' ELSE 'StartEnd' END AS style FROM NVTX_EVENTS n %3 WHERE n.eventType IN (59, 60, 70, 71) "
                 "AND n.endGlobalTid IS NULL")
                        .arg(QLatin1String(kDomainsSql), QLatin1String(kRangeLabelSql), QLatin1String(kDomainJoinSql))),
        qPrintable(q.lastError().text()));
    // Calls by thread and start, so that each range visits only the calls inside it (a plain join of every call
    // with every range of its thread is quadratic: minutes on the demo).
    QVERIFY(q.exec(u"DROP TABLE IF EXISTS temp.calls"_s));
    QVERIFY2(q.exec(u"CREATE TEMP TABLE calls AS SELECT globalTid AS tid, start, end, correlationId FROM "
                    "CUPTI_ACTIVITY_KIND_RUNTIME"_s),
        qPrintable(q.lastError().text()));
    QVERIFY(q.exec(u"CREATE INDEX temp.calls_ts ON calls(tid, start)"_s));
    QStringList ops;
    for (const char* table :
        { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET" })
        if (db.tables().contains(QLatin1String(table)))
            ops.append(QStringLiteral("SELECT start, end, correlationId, globalPid FROM %1").arg(QLatin1String(table)));
    QVERIFY2(q.exec(QStringLiteral(
                 "CREATE TEMP TABLE proj AS WITH gpuops AS (%1), inside AS (SELECT rt.rangeId AS rangeId, c.tid AS "
                 "tid, c.correlationId AS cid FROM prng rt CROSS JOIN calls c ON c.tid = rt.tid AND c.start >= rt.s "
                 "AND c.start <= rt.e AND c.end <= rt.e) SELECT rt.rangeId AS rangeId, rt.name AS name, rt.style AS "
                 "style, rt.e - rt.s AS dur, max(op.end) - min(op.start) AS pd, count(DISTINCT i.cid) AS ops FROM "
                 "inside i JOIN gpuops op ON op.correlationId = i.cid AND op.globalPid = (i.tid & "
                 "0xFFFFFFFFFF000000) JOIN prng rt ON rt.rangeId = i.rangeId GROUP BY rt.rangeId")
                        .arg(ops.join(u" UNION ALL "_s))),
        qPrintable(q.lastError().text()));
    QVERIFY(q.exec(u"SELECT name, style, sum(pd), sum(dur), count(*), avg(pd), min(pd), max(pd), sum(ops), "
                   "avg(ops) FROM proj GROUP BY name, style"_s));
    std::map<std::pair<QString, QString>, QStringList> expected;
    while (q.next()) {
        QStringList values;
        for (int c = 2; c <= 9; ++c)
            values.append(c == 5 || c == 9 ? test::roundedText(q.value(c).toDouble()) : q.value(c).toString());
        expected[{ q.value(0).toString(), q.value(1).toString() }] = values;
    }
    const QStringList headers = { u"Total Proj Time (ns)"_s, u"Total Range Time (ns)"_s, u"Range Instances"_s,
        u"Proj Avg (ns)"_s, u"Proj Min (ns)"_s, u"Proj Max (ns)"_s, u"Total GPU Ops"_s, u"Avg GPU Ops"_s };
    QCOMPARE(t.rows.size(), expected.size());
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const std::pair<QString, QString> key { cell(t, r, u"Range"_s), cell(t, r, u"Style"_s) };
        QVERIFY2(expected.count(key), qPrintable(key.first));
        QStringList got;
        for (const QString& h : headers)
            got.append(cell(t, r, h));
        QCOMPARE(got, expected[key]);
    }

    // Levels and children need nsys's parent relation (tightest enclosing range on the thread; for a fixed child
    // the tightness (c.s - p.s) + (p.e - c.e) orders like p's length): quadratic in SQL, so only on small traces.
    QVERIFY(q.exec(u"SELECT count(*) FROM prng"_s) && q.next());
    if (q.value(0).toLongLong() > 2000)
        return;
    QVERIFY2(q.exec(u"CREATE TEMP TABLE parent AS SELECT c.rangeId AS cid, (SELECT p.rangeId FROM prng p WHERE "
                    "p.rangeId != c.rangeId AND p.tid = c.tid AND p.s <= c.s AND p.e >= c.e ORDER BY p.e - p.s "
                    "LIMIT 1) AS pid FROM prng c"_s),
        qPrintable(q.lastError().text()));
    QVERIFY2(q.exec(u"WITH RECURSIVE tree(id, lvl) AS (SELECT cid, 0 FROM parent WHERE pid IS NULL UNION ALL SELECT "
                    "parent.cid, tree.lvl + 1 FROM parent JOIN tree ON parent.pid = tree.id), child AS (SELECT "
                    "parent.pid AS id, count(*) AS n FROM proj JOIN parent ON parent.cid = proj.rangeId GROUP BY "
                    "parent.pid) SELECT proj.name, proj.style, avg(tree.lvl), avg(ifnull(child.n, "
                    "0)) FROM proj LEFT JOIN tree ON tree.id = proj.rangeId LEFT JOIN child ON child.id = "
                    "proj.rangeId GROUP BY proj.name, proj.style"_s),
        qPrintable(q.lastError().text()));
    std::map<std::pair<QString, QString>, QStringList> levels;
    while (q.next())
        levels[{ q.value(0).toString(), q.value(1).toString() }]
            = { test::roundedText(q.value(2).toDouble()), test::roundedText(q.value(3).toDouble()) };
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const std::pair<QString, QString> key { cell(t, r, u"Range"_s), cell(t, r, u"Style"_s) };
        QCOMPARE((QStringList { cell(t, r, u"Avg Range Lvl"_s), cell(t, r, u"Avg Num Child"_s) }), levels[key]);
    }
}

QTEST_GUILESS_MAIN(TestNvtxReports)
#include "tst_nvtxreports.moc"
