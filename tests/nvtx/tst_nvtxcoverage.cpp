// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvtx/nvtxcoverage.h"
#include "core/profile/profileloader.h"
#include "nvtxfixture.h"
#include "oracleexports.h"
#include "profilebuilder.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

/// One thread with a range [100, 200] and a zero-length range [300, 300]; each kernel has its own power-of-two
/// duration, so the attributed sum names the kernels that counted.
ProfilePtr boundaryProfile()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(10, u"p"_s), 11, u"main"_s);
    b.nvtxRange(t, 100, 200, u"range"_s);
    b.nvtxRange(t, 300, 300, u"empty"_s);
    b.kernel(t, 99, 99, 1000, 1001, u"before the range"_s);
    b.kernel(t, 100, 101, 1000, 1002, u"at its start"_s);
    b.kernel(t, 200, 201, 1000, 1004, u"at its end"_s);
    b.kernel(t, 201, 202, 1000, 1008, u"after it"_s);
    b.kernel(t, 300, 301, 1000, 1016, u"at the zero-length range"_s);
    return b.build();
}

} // namespace

class TestNvtxCoverage : public QObject
{
    Q_OBJECT

private slots:
    void handWorked_data();
    void handWorked();
    void matchesSql_data();
    void matchesSql();
    void cancelled();
};

void TestNvtxCoverage::handWorked_data()
{
    QTest::addColumn<ProfilePtr>("profile");
    QTest::addColumn<qint64>("focusStart"); // -1: no focus
    QTest::addColumn<qint64>("focusEnd");
    QTest::addColumn<qint64>("attributedNs");
    QTest::addColumn<qint64>("attributedKernels");
    QTest::addColumn<qint64>("totalNs");
    QTest::addColumn<qint64>("totalKernels");
    const ProfilePtr fixture = test::nvtxFixture();
    // The fixture's numbers are worked out in nvtxfixture.h. Whole: K10 (no range), K13 (T1's ranges do not count for
    // T2) and K15 (no launching call) are outside.
    QTest::newRow("fixture, whole capture") << fixture << -1LL << -1LL << 1660LL << 12LL << 1910LL << 15LL;
    // K1 (launched in R11), K12 (in R12) and K14 (in R13) are in; K13's call at 1400 is after R12 ends.
    QTest::newRow("fixture, focus on step_1") << fixture << 1000LL << 2050LL << 500LL << 3LL << 550LL << 4LL;
    // K9 launched in the start/end range R9 on the thread that started it; K10 outside every range.
    QTest::newRow("fixture, focus on async_io") << fixture << 5000LL << 6150LL << 100LL << 1LL << 200LL << 2LL;
    // K1 (ends at 2100), K2 and K3 overlap the focus, but their ranges (R1..R4) end before it: not placed.
    QTest::newRow("fixture, ranges outside the focus attribute nothing")
        << fixture << 2100LL << 2350LL << 0LL << 0LL << 350LL << 3LL;
    QTest::newRow("bounds: a call at a range's start or end, or at a zero-length range, is inside")
        << boundaryProfile() << -1LL << -1LL << 22LL << 3LL << 31LL << 5LL;
    QTest::newRow("empty profile") << std::make_shared<const Profile>() << -1LL << -1LL << 0LL << 0LL << 0LL << 0LL;
}

void TestNvtxCoverage::handWorked()
{
    QFETCH(ProfilePtr, profile);
    QFETCH(qint64, focusStart);
    QFETCH(qint64, focusEnd);
    QFETCH(qint64, attributedNs);
    QFETCH(qint64, attributedKernels);
    QFETCH(qint64, totalNs);
    QFETCH(qint64, totalKernels);
    FocusRange focus;
    if (focusStart >= 0) {
        focus.start = focusStart;
        focus.end = focusEnd;
    }
    const Result<NvtxCoverage> c = computeNvtxCoverage(profile, focus);
    QVERIFY(c);
    QCOMPARE(qint64(c->attributedNs), attributedNs);
    QCOMPARE(c->attributedKernels, attributedKernels);
    QCOMPARE(qint64(c->totalNs), totalNs);
    QCOMPARE(c->totalKernels, totalKernels);
}

void TestNvtxCoverage::matchesSql_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("from"); // focus as fractions of the capture; < 0: none
    QTest::addColumn<double>("to");
    for (const test::OracleExport& e : test::oracleExports()) {
        QTest::addRow("%s", qPrintable(e.label)) << e.path << -1.0 << -1.0;
        QTest::addRow("%s, middle tenth", qPrintable(e.label)) << e.path << 0.45 << 0.55;
    }
}

void TestNvtxCoverage::matchesSql()
{
    QFETCH(QString, file);
    QFETCH(double, from);
    QFETCH(double, to);
    const LoadResult loaded = ProfileLoader::load(file, {});
    QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
    FocusRange focus;
    if (from >= 0) {
        const double span = double(loaded->profile->activityEnd - loaded->profile->activityStart);
        focus.start = loaded->profile->activityStart + TimeNs(from * span);
        focus.end = loaded->profile->activityStart + TimeNs(to * span);
    }
    const Result<NvtxCoverage> c = computeNvtxCoverage(loaded->profile, focus);
    QVERIFY(c);

    // nsys's overlap predicate on an event [s, e] (everything without a focus).
    const auto overlaps = [&](const QString& s, const QString& e) {
        if (!focus.isActive())
            return u"1"_s;
        return u"((%1 >= %3 AND %1 < %4) OR (%2 >= %3 AND %2 < %4) OR (%1 < %3 AND %2 >= %4))"_s.arg(s, e)
            .arg(focus.start)
            .arg(focus.end);
    };
    QSqlDatabase db = test::openReadOnly(file);
    QVERIFY2(db.isOpen(), qPrintable(db.lastError().text()));
    QSqlQuery q(db);
    if (!db.tables().contains(u"CUPTI_ACTIVITY_KIND_KERNEL"_s)) {
        QCOMPARE(c->totalKernels, 0);
        QCOMPARE(c->attributedKernels, 0);
        return;
    }
    QVERIFY2(q.exec(u"SELECT coalesce(sum(end - start), 0), count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE %1"_s.arg(
                 overlaps(u"start"_s, u"end"_s))),
        qPrintable(q.lastError().text()));
    QVERIFY(q.next());
    QCOMPARE(qint64(c->totalNs), q.value(0).toLongLong());
    QCOMPARE(c->totalKernels, q.value(1).toLongLong());

    const bool hasNvtx
        = db.tables().contains(u"NVTX_EVENTS"_s) && db.tables().contains(u"CUPTI_ACTIVITY_KIND_RUNTIME"_s);
    if (!hasNvtx) {
        QCOMPARE(c->attributedKernels, 0);
        return;
    }
    // Independently: a kernel counts when its (first) launching call in the same process starts inside a range
    // (push/pop or start/end, on the thread that began it; unterminated ones end at the table's last timestamp) that
    // overlaps the focus.
    QVERIFY(q.exec(u"DROP TABLE IF EXISTS temp.rng"_s));
    QVERIFY2(q.exec(u"CREATE TEMP TABLE rng AS SELECT globalTid AS tid, start AS s, coalesce(end, (SELECT "
                    "max(max(start), max(end)) FROM NVTX_EVENTS)) AS e FROM NVTX_EVENTS WHERE eventType IN (59, 60, "
                    "70, 71)"_s),
        qPrintable(q.lastError().text()));
    QVERIFY(q.exec(u"DELETE FROM rng WHERE NOT %1"_s.arg(overlaps(u"s"_s, u"e"_s))));
    // The ranges of each thread merged into disjoint islands (a new island where a range starts after every earlier
    // one ended), so that "inside some range" is "inside the last island starting at or before".
    QVERIFY(q.exec(u"DROP TABLE IF EXISTS temp.isl"_s));
    QVERIFY2(
        q.exec(u"CREATE TEMP TABLE isl AS WITH o AS (SELECT tid, s, e, max(e) OVER (PARTITION BY tid ORDER BY s, e "
               "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach FROM rng), b AS (SELECT tid, s, e, "
               "sum(reach IS NULL OR s > reach) OVER (PARTITION BY tid ORDER BY s, e ROWS UNBOUNDED PRECEDING) AS "
               "island FROM o) SELECT tid, min(s) AS s, max(e) AS e FROM b GROUP BY tid, island"_s),
        qPrintable(q.lastError().text()));
    QVERIFY(q.exec(u"CREATE INDEX temp.isl_ts ON isl(tid, s)"_s));
    QVERIFY(q.exec(u"DROP TABLE IF EXISTS temp.launch"_s));
    QVERIFY2(q.exec(u"CREATE TEMP TABLE launch AS SELECT correlationId AS c, globalTid >> 24 AS pid, min(rowid) AS id "
                    "FROM CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY 1, 2"_s),
        qPrintable(q.lastError().text()));
    QVERIFY(q.exec(u"CREATE INDEX temp.launch_c ON launch(c, pid)"_s));
    QVERIFY2(q.exec(u"SELECT coalesce(sum(k.end - k.start), 0), count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                    "launch l ON l.c = k.correlationId AND l.pid = (k.globalPid >> 24) JOIN "
                    "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.rowid = l.id WHERE %1 AND (SELECT e FROM isl WHERE isl.tid = "
                    "r.globalTid AND isl.s <= r.start ORDER BY "
                    "isl.s DESC LIMIT 1) >= r.start"_s.arg(overlaps(u"k.start"_s, u"k.end"_s))),
        qPrintable(q.lastError().text()));
    QVERIFY(q.next());
    QCOMPARE(qint64(c->attributedNs), q.value(0).toLongLong());
    QCOMPARE(c->attributedKernels, q.value(1).toLongLong());
}

void TestNvtxCoverage::cancelled()
{
    CancelToken token;
    token.cancel();
    QVERIFY(computeNvtxCoverage(test::nvtxFixture(), {}, JobContext(token)).isCancelled());
}

QTEST_GUILESS_MAIN(TestNvtxCoverage)
#include "tst_nvtxcoverage.moc"
