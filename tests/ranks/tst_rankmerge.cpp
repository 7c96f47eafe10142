// SPDX-License-Identifier: GPL-3.0-or-later
// mergeRanks on hand-made rank files whose waits, stragglers and clock offsets are worked out by hand below.
#include "core/ranks/rankextract.h"
#include "core/ranks/rankmerge.h"

#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

constexpr TimeNs kEpoch = 1'767'225'600'000'000'000;
constexpr TimeNs kDay = 86'400'000'000'000;
const QString kAllReduce = u"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"_s;

using Spans = std::vector<std::pair<TimeNs, TimeNs>>;
using Files = std::vector<std::shared_ptr<const RankFile>>;

/// One rank in a file of its own: iterations (start, end, compute, communication) and AllReduce kernels on its first
/// NCCL stream, on its own clock.
std::shared_ptr<const RankFile> rankFile(
    const QString& name, TimeNs utc, const std::vector<RankIteration>& iterations, const Spans& collectives)
{
    RankFile f;
    f.exportPath = u"/runs/"_s + name;
    f.sessionStartUtcNs = utc;
    f.host = u"node"_s;
    f.names = { kAllReduce };
    RankSummary r;
    r.rankFromName = rankFromFileName(name);
    r.pid = 100;
    r.iterations = iterations;
    for (const auto& [start, end] : collectives)
        r.collectives.push_back({ start, end, 0, 0 });
    f.ranks.push_back(std::move(r));
    return std::make_shared<const RankFile>(std::move(f));
}

/// The three ranks worked out by hand. True time = rank 0's clock. Rank 1's clock started 2000 ns later (own = true -
/// 2000), rank 2's 1000 ns earlier (own = true + 1000); rank 2's node clock recorded its session start 7 ns late.
/// AllReduce #0 arrives at true 100, 150, 120 and ends at 200 on all; #1 at 500, 450, 560 and ends at 600.
Files threeRanks(TimeNs utcError = 7, bool rank1HasUtc = true)
{
    return {
        rankFile(u"rank0.sqlite"_s, kEpoch, { { 0, 300, 50, 100, 0 }, { 300, 700, 100, 100, 0 } },
            { { 100, 200 }, { 500, 600 } }),
        rankFile(u"rank1.sqlite"_s, rank1HasUtc ? kEpoch + 2000 : kNoTime,
            { { -2000, -1700, 40, 50, 0 }, { -1700, -1300, 200, 150, 0 } }, { { -1850, -1800 }, { -1550, -1400 } }),
        rankFile(u"rank2.sqlite"_s, kEpoch - 1000 + utcError, { { 1000, 1300, 60, 80, 0 }, { 1300, 1700, 90, 40, 0 } },
            { { 1120, 1200 }, { 1560, 1600 } }),
    };
}

QString problemsText(const RanksResult& r)
{
    QStringList lines;
    for (const RankProblem& p : r.problems)
        lines << p.message;
    return lines.join(u'\n');
}

} // namespace

class TestRankMerge : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void waitsAndStragglers();
    void iterationCells();
    void clockOffsets_data();
    void clockOffsets();
    void badInputs_data();
    void badInputs();
    void numbering_data();
    void numbering();
    void nothingLeft();
};

void TestRankMerge::waitsAndStragglers()
{
    const Result<RanksResult> r = mergeRanks(threeRanks(), {}, {});
    QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    QVERIFY2(r->problems.empty(), qPrintable(problemsText(*r)));
    QCOMPARE(r->ranks.size(), 3u);
    QCOMPARE(r->matched, (std::vector<int> { 0, 1, 2 }));
    QCOMPARE(r->referenceRank, 0);
    QCOMPARE(r->collectives.size(), 2u);
    const CollectiveInstance& c0 = r->collectives[0];
    QCOMPARE(c0.firstArrival, 100);
    QCOMPARE(c0.lastArrival, 150);
    QCOMPARE(c0.straggler, 1);
    QCOMPARE(c0.transferNs, 50);
    QCOMPARE(c0.iteration, 0);
    const CollectiveInstance& c1 = r->collectives[1];
    QCOMPARE(c1.firstArrival, 450);
    QCOMPARE(c1.lastArrival, 560);
    QCOMPARE(c1.straggler, 2);
    QCOMPARE(c1.transferNs, 40);
    QCOMPARE(c1.iteration, 1);
    QCOMPARE(r->arrivals, (std::vector<TimeNs> { 100, 150, 120, 500, 450, 560 }));
    const std::vector<TimeNs> waits { 110, 110, 30 };
    const std::vector<qint64> last { 0, 1, 1 };
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(r->ranks[i].collectives, 2);
        QCOMPARE(r->ranks[i].waitNs, waits[std::size_t(i)]);
        QCOMPARE(r->ranks[i].lastArrivals, last[std::size_t(i)]);
    }
}

void TestRankMerge::iterationCells()
{
    const Result<RanksResult> r = mergeRanks(threeRanks(), {}, {});
    QVERIFY(r.ok());
    // (wait, transfer) per rank and iteration: wait = last arrival - own arrival, transfer = own end - last arrival.
    const std::vector<std::vector<std::pair<TimeNs, TimeNs>>> expected {
        { { 50, 50 }, { 60, 40 } },
        { { 0, 50 }, { 110, 40 } },
        { { 30, 50 }, { 0, 40 } },
    };
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t it = 0; it < 2; ++it) {
            const RankIterationCell& c = r->ranks[i].iterations[it];
            QCOMPARE(c.waitNs, expected[i][it].first);
            QCOMPARE(c.transferNs, expected[i][it].second);
        }
    const RankIterationCell& c = r->ranks[1].iterations[1]; // 400 ns: compute 200, communication 150
    QCOMPARE(c.duration(), 400);
    QCOMPARE(c.idleNs, 50);
    QCOMPARE(c.bubblePercent(), 12.5);
    QCOMPARE(c.start, -1700);
}

void TestRankMerge::clockOffsets_data()
{
    QTest::addColumn<TimeNs>("utcError");
    QTest::addColumn<bool>("rank1HasUtc");
    QTest::addColumn<QString>("rank1Source");
    QTest::addColumn<QString>("rank2Source");
    QTest::newRow("session starts exact")
        << TimeNs(0) << true << u"session start (UTC), refined by 2 collective ends: +0 ns"_s
        << u"session start (UTC), refined by 2 collective ends: +0 ns"_s;
    QTest::newRow("rank 2's session start 7 ns late, refined")
        << TimeNs(7) << true << u"session start (UTC), refined by 2 collective ends: +0 ns"_s
        << u"session start (UTC), refined by 2 collective ends: -7 ns"_s;
    QTest::newRow("rank 1 without session start: its collectives alone")
        << TimeNs(0) << false << u"2 collective ends (no session start time)"_s
        << u"session start (UTC), refined by 2 collective ends: +0 ns"_s;
}

void TestRankMerge::clockOffsets()
{
    QFETCH(TimeNs, utcError);
    QFETCH(bool, rank1HasUtc);
    const Result<RanksResult> r = mergeRanks(threeRanks(utcError, rank1HasUtc), {}, {});
    QVERIFY(r.ok());
    QCOMPARE(r->ranks[0].clockOffsetNs, 0);
    QCOMPARE(r->ranks[1].clockOffsetNs, 2000);
    QCOMPARE(r->ranks[2].clockOffsetNs, -1000);
    QCOMPARE(r->ranks[0].clockSource, u"reference clock (the export of rank 0)"_s);
    QTEST(r->ranks[1].clockSource, "rank1Source");
    QTEST(r->ranks[2].clockSource, "rank2Source");
}

void TestRankMerge::badInputs_data()
{
    QTest::addColumn<std::shared_ptr<const RankFile>>("extra");
    QTest::addColumn<QString>("problem");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<std::vector<int>>("matched");
    const std::vector<RankIteration> its { { 0, 300, 0, 0, 0 } };
    QTest::newRow("collectives do not match")
        << rankFile(u"rank3.sqlite"_s, kEpoch, its, { { 100, 200 }, { 500, 600 }, { 800, 900 } })
        << u"/runs/rank3.sqlite (rank 3): its NCCL kernels do not match the other ranks': 3 × "
           "ncclDevKernel_AllReduce_Sum_f32_RING_LL on its NCCL stream 0 where 3 other rank(s) have 2; its "
           "collectives are left unmatched (no waits)"_s
        << 4 << std::vector<int> { 0, 1, 2 };
    QTest::newRow("a rank number twice")
        << rankFile(u"again/rank1.sqlite"_s, kEpoch, its, { { 100, 200 }, { 500, 600 } })
        << u"rank 1 twice: /runs/rank1.sqlite and /runs/again/rank1.sqlite both name it; "
           "/runs/again/rank1.sqlite left out"_s
        << 3 << std::vector<int> { 0, 1, 2 };
    QTest::newRow("an export of another run")
        << rankFile(u"rank3.sqlite"_s, kEpoch + kDay, its, { { 100, 200 }, { 500, 600 } })
        << u"/runs/rank3.sqlite: from another run: its capture started at 2026-01-02T00:00:00Z, 86400.000 s from "
           "the run of the other 3 input(s) (the first started at 2025-12-31T23:59:59Z); left out"_s
        << 3 << std::vector<int> { 0, 1, 2 };
    // Its ends differ from rank 0's by 0 and by 5 ms: no single shift puts both together.
    QTest::newRow("a clock that cannot be aligned")
        << rankFile(u"rank3.sqlite"_s, kEpoch, its, { { 100, 200 }, { 500, 5'000'600 } })
        << u"/runs/rank3.sqlite: its clock cannot be aligned with rank 0's: session start (UTC) (its collectives end "
           "5.00 ms apart from the reference rank's after any shift); its collectives are left unmatched (no waits)"_s
        << 4 << std::vector<int> { 0, 1, 2 };
    QTest::newRow("the same export twice")
        << rankFile(u"rank2.sqlite"_s, kEpoch, its, {})
        << u"/runs/rank2.sqlite holds the same ranks as /runs/rank2.sqlite (both of /runs/rank2.sqlite): "
           "/runs/rank2.sqlite left out"_s
        << 3 << std::vector<int> { 0, 1, 2 };
}

void TestRankMerge::badInputs()
{
    QFETCH(std::shared_ptr<const RankFile>, extra);
    QFETCH(int, ranks);
    Files files = threeRanks(0);
    files.push_back(extra);
    const Result<RanksResult> r = mergeRanks(files, {}, {});
    QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    QVERIFY2(r->problems.size() == 1, qPrintable(problemsText(*r)));
    QTEST(r->problems.front().message, "problem");
    QCOMPARE(int(r->ranks.size()), ranks);
    QTEST(r->matched, "matched");
    // The ranks that can be analysed still are: the three good ones keep their waits.
    QCOMPARE(r->row(1)->waitNs, 110);
    QCOMPARE(r->row(2)->waitNs, 30);
}

void TestRankMerge::numbering_data()
{
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QList<int>>("ranks"); // by input order
    QTest::newRow("numbers from the names")
        << QStringList { u"run_7.sqlite"_s, u"run_3.sqlite"_s } << QList<int> { 7, 3 };
    QTest::newRow("rank in the name") << QStringList { u"RANK-12_gpu0.sqlite"_s, u"rank2.nsys-rep"_s }
                                      << QList<int> { 12, 2 };
    QTest::newRow("consecutive when a name has no number")
        << QStringList { u"run_7.sqlite"_s, u"profile.sqlite"_s, u"run_3.sqlite"_s } << QList<int> { 1, 2, 0 };
}

void TestRankMerge::numbering()
{
    QFETCH(QStringList, names);
    QFETCH(QList<int>, ranks);
    Files files;
    for (const QString& n : names)
        files.push_back(rankFile(n, kEpoch, {}, {}));
    std::vector<RankProblem> problems;
    const std::vector<RankRow> rows = numberRanks(files, problems);
    QVERIFY(problems.empty());
    QCOMPARE(rows.size(), std::size_t(names.size()));
    for (const RankRow& row : rows)
        QCOMPARE(row.rank, ranks[row.file]);
}

void TestRankMerge::nothingLeft()
{
    const Result<RanksResult> r
        = mergeRanks({}, { { { u"/runs/a.sqlite"_s }, u"/runs/a.sqlite: not an export"_s } }, {});
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::NoData);
    QCOMPARE(r.errorMessage(), u"no rank can be analysed: /runs/a.sqlite: not an export"_s);
}

QTEST_GUILESS_MAIN(TestRankMerge)
#include "tst_rankmerge.moc"
