// SPDX-License-Identifier: GPL-3.0-or-later
// The real two-rank exports of ../shared/traces (one process per H100): ranks, matched NCCL kernels, waits and last
// arrivals, and the NCCL time of every rank × iteration, each against a plain SQL query on the file.
#include "core/ranks/ranksrun.h"
#include "oracleexports.h"
#include "sqlitefixture.h"
#include "testutils.h"

#include <QFileInfo>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

const QString kNccl = u"SELECT (k.globalPid >> 24) & 16777215 AS pid, s.value AS name, k.start, k.end, k.streamId "
                      "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                      "WHERE lower(s.value) LIKE '%nccl%'"_s;

qint64 number(const QString& path, const QString& sql)
{
    const QList<QStringList> rows = test::queryRows(path, sql);
    return rows.isEmpty() || rows.first().isEmpty() ? -1 : rows.first().first().toLongLong();
}

} // namespace

class TestRanksReal : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void twoRankExports_data();
    void twoRankExports();
};

void TestRanksReal::twoRankExports_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("marker");
    // The mfu captures have no iteration marker (and no clear idle gaps): PyTorch's aten::to ranges stand in, so that
    // every rank has iterations to check.
    const QString to = u"aten::to, op_id = 1"_s;
    QTest::newRow("mfu before (SendRecv)") << u"nsys2026.2_h100x2_mfu_before_nccl.sqlite"_s << to;
    QTest::newRow("mfu after (SendRecv)") << u"nsys2026.2_h100x2_mfu_after_nccl.sqlite"_s << to;
    QTest::newRow("fastvideo (no NCCL)") << u"nsys2026.2_h100x2_fastvideo_window.sqlite"_s << QString();
}

void TestRanksReal::twoRankExports()
{
    QFETCH(QString, file);
    QFETCH(QString, marker);
    const QString path = test::sharedTracesDir() + u'/' + file;
    if (!QFileInfo::exists(path))
        NSW_SKIP_WITHOUT_SHARED_TRACES("needs the real two-rank exports of ../shared/traces");
    const Result<RanksResult> r = computeRanks({ { path }, marker });
    QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    QVERIFY(r->problems.empty());

    // Ranks: the processes that ran kernels, by GPU.
    const QList<QStringList> processes = test::queryRows(path,
        u"SELECT (globalPid >> 24) & 16777215, MIN(deviceId) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY globalPid "
        "ORDER BY 2, 1"_s);
    QCOMPARE(r->ranks.size(), std::size_t(processes.size()));
    QCOMPARE(r->ranks.size(), 2u);
    for (std::size_t i = 0; i < r->ranks.size(); ++i) {
        QCOMPARE(r->ranks[i].rank, int(i));
        QCOMPARE(r->summaryOf(r->ranks[i]).pid, processes[qsizetype(i)][0].toLongLong());
        QCOMPARE(r->ranks[i].clockOffsetNs, 0); // one export: one clock
    }
    const QString p0 = processes[0][0], p1 = processes[1][0];

    // Collectives: the n-th NCCL kernel of a name on one rank with the n-th on the other; rank 0 counts as last on a
    // tie (the lower rank).
    const QString pairs = u"WITH n AS (SELECT *, row_number() OVER (PARTITION BY pid, name ORDER BY start, streamId) "
                          "AS i FROM (%1)) SELECT %2 FROM n a JOIN n b ON a.name = b.name AND a.i = b.i "
                          "WHERE a.pid = %3 AND b.pid = %4"_s;
    auto pairQuery = [&](const QString& what) { return number(path, pairs.arg(kNccl, what, p0, p1)); };
    const qint64 instances = pairQuery(u"COUNT(*)"_s);
    QCOMPARE(qint64(r->collectives.size()), instances);
    if (instances == 0) {
        QVERIFY(r->matched.empty());
        QCOMPARE(number(path, u"SELECT COUNT(*) FROM (%1)"_s.arg(kNccl)), 0);
        return;
    }
    QCOMPARE(r->ranks[0].collectives, instances);
    QCOMPARE(r->ranks[0].waitNs, pairQuery(u"SUM(MAX(a.start, b.start) - a.start)"_s));
    QCOMPARE(r->ranks[1].waitNs, pairQuery(u"SUM(MAX(a.start, b.start) - b.start)"_s));
    QCOMPARE(r->ranks[0].lastArrivals, pairQuery(u"SUM(a.start >= b.start)"_s));
    QCOMPARE(r->ranks[1].lastArrivals, pairQuery(u"SUM(b.start > a.start)"_s));
    QCOMPARE(r->collectives.front().firstArrival, pairQuery(u"MIN(MIN(a.start, b.start))"_s));

    // Per rank × iteration: the NCCL kernel time split into wait and transfer adds up to the rank's NCCL kernels that
    // start in the iteration.
    for (const RankRow& row : r->ranks) {
        QVERIFY(!row.iterations.empty());
        const QString pid = QString::number(r->summaryOf(row).pid);
        for (const RankIterationCell& c : row.iterations) {
            const qint64 nccl = number(path,
                u"SELECT COALESCE(SUM(end - start), 0) FROM (%1) WHERE pid = %2 AND start >= %3 AND start < %4"_s
                    .arg(kNccl, pid)
                    .arg(c.start)
                    .arg(c.end));
            QCOMPARE(c.waitNs + c.transferNs, nccl);
            QCOMPARE(c.computeNs + c.communicationNs + c.memoryNs + c.idleNs, c.duration());
        }
    }
}

QTEST_GUILESS_MAIN(TestRanksReal)
#include "tst_ranksreal.moc"
