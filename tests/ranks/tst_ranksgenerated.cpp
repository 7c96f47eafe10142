// SPDX-License-Identifier: GPL-3.0-or-later
// Ranks of runs made by nsys-tracegen's multi-rank output, compared exactly with the truth the generator wrote (the
// waits, stragglers and clock offsets it built the run from), and the same output over summaries of the exports.
#include "core/ranks/ranksexport.h"
#include "core/ranks/ranksrun.h"
#include "core/ranks/summaryfile.h"
#include "rankgen.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;
using namespace nsw::tracegen;
using namespace Qt::StringLiterals;
using Json = nlohmann::ordered_json;

Q_DECLARE_METATYPE(nsw::tracegen::RankRunConfig)

namespace {

Json readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return Json::parse(f.readAll().toStdString());
}

/// The fields of @p truth found in @p ours, compared one by one (the path names what differs).
void compareFields(const Json& truth, const Json& ours, const QString& path, const QStringList& keys)
{
    for (const QString& k : keys) {
        const std::string key = k.toStdString();
        QVERIFY2(ours.contains(key), qPrintable(path + u": no "_s + k));
        QVERIFY2(ours[key] == truth[key],
            qPrintable(u"%1.%2: ours %3, truth %4"_s.arg(
                path, k, QString::fromStdString(ours[key].dump()), QString::fromStdString(truth[key].dump()))));
    }
}

} // namespace

class TestRanksGenerated : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchesTruth_data();
    void matchesTruth();
    void findings_data();
    void findings();
    void summariesGiveTheSameOutput();

private:
    QTemporaryDir m_dir;
};

void TestRanksGenerated::matchesTruth_data()
{
    QTest::addColumn<RankRunConfig>("config");
    RankRunConfig c;
    c.ranks = 4;
    c.mode = StragglerMode::Persistent;
    c.straggler = 2;
    c.clockOffsetUs = 1500;
    c.utcErrorUs = 40;
    QTest::newRow("4 exports, host straggler 2, clock offsets, node clocks off by 40 µs") << c;
    c = RankRunConfig {};
    c.ranks = 8;
    c.oneFile = true;
    c.mode = StragglerMode::Rotating;
    c.iterations = 8;
    QTest::newRow("one export of 8 ranks, rotating straggler") << c;
    c = RankRunConfig {};
    c.ranks = 6;
    c.gpusPerNode = 4;
    c.mode = StragglerMode::Persistent;
    c.straggler = 5;
    c.cause = StragglerCause::Compute;
    c.commStreams = 2;
    c.collectives = 4;
    c.clockOffsetUs = 250;
    QTest::newRow("6 exports on 2 nodes, compute straggler 5, two NCCL streams") << c;
    c = RankRunConfig {};
    c.ranks = 3;
    c.jitterPct = 0;
    QTest::newRow("3 ranks arriving together: the lowest rank counts as last") << c;
}

void TestRanksGenerated::matchesTruth()
{
    QFETCH(RankRunConfig, config);
    config.outDir = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()).left(12));
    const RankRunStats stats = generateRankRun(config);
    const Result<RanksResult> r = computeRanks({ stats.files, {} });
    QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    QVERIFY(r->problems.empty());
    const Json ours = ranksJson(*r, RankMetric::Time);
    const Json truth = readJson(config.outDir + u"/truth.json"_s);
    QCOMPARE(ours["ranks"].size(), truth["ranks"].size());
    for (std::size_t i = 0; i < truth["ranks"].size(); ++i) {
        const Json& t = truth["ranks"][i];
        const Json& o = ours["ranks"][i];
        const QString where = u"rank %1"_s.arg(i);
        compareFields(t, o, where,
            { u"rank"_s, u"file"_s, u"pid"_s, u"gpu"_s, u"host"_s, u"clock_offset_ns"_s, u"collectives"_s,
                u"last_arrivals"_s, u"wait_ns"_s });
        QCOMPARE(o["iterations"].size(), t["iterations"].size());
        for (std::size_t k = 0; k < t["iterations"].size(); ++k)
            compareFields(t["iterations"][k], o["iterations"][k], where + u" iteration %1"_s.arg(k),
                { u"iteration"_s, u"start_ns"_s, u"duration_ns"_s, u"compute_ns"_s, u"communication_ns"_s, u"wait_ns"_s,
                    u"transfer_ns"_s, u"memory_ns"_s, u"idle_ns"_s });
    }
    QCOMPARE(ours["collectives"].size(), truth["collectives"].size());
    QCOMPARE(qint64(ours["collectives"].size()), stats.collectives);
    for (std::size_t i = 0; i < truth["collectives"].size(); ++i)
        compareFields(truth["collectives"][i], ours["collectives"][i], u"collective %1"_s.arg(i),
            { u"index"_s, u"straggler"_s, u"first_arrival_ns"_s, u"last_arrival_ns"_s, u"skew_ns"_s, u"transfer_ns"_s,
                u"arrivals_ns"_s, u"waits_ns"_s });
}

void TestRanksGenerated::findings_data()
{
    QTest::addColumn<RankRunConfig>("config");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<int>("rank");
    QTest::addColumn<QString>("kernel");
    RankRunConfig c;
    c.ranks = 4;
    c.mode = StragglerMode::Persistent;
    c.straggler = 1;
    QTest::newRow("host-side straggler: late start")
        << c << QStringList { u"persistent_straggler"_s, u"late_start_rank"_s } << 1 << QString();
    c.cause = StragglerCause::Compute;
    c.straggler = 3;
    QTest::newRow("slow compute: the slower kernel named")
        << c << QStringList { u"persistent_straggler"_s, u"slow_compute_rank"_s, u"load_imbalance"_s } << 3
        << u"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn"_s;
    c = RankRunConfig {};
    c.ranks = 4;
    c.mode = StragglerMode::Rotating;
    QTest::newRow("rotating stragglers") << c << QStringList { u"rotating_straggler"_s } << -1 << QString();
    c = RankRunConfig {};
    c.ranks = 4;
    QTest::newRow("balanced run: nothing to say") << c << QStringList {} << -1 << QString();
}

void TestRanksGenerated::findings()
{
    QFETCH(RankRunConfig, config);
    QFETCH(QStringList, ids);
    QFETCH(int, rank);
    QFETCH(QString, kernel);
    config.outDir = m_dir.filePath(u"f-"_s + QString::fromLatin1(QTest::currentDataTag()).left(10));
    const RankRunStats stats = generateRankRun(config);
    const Result<RanksResult> r = computeRanks({ stats.files, {} });
    QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
    QStringList found;
    for (const RankFinding& f : r->findings) {
        found << f.finding.id;
        if (f.finding.id == u"persistent_straggler"_s) {
            QCOMPARE(f.ranks, std::vector<int> { rank });
            QVERIFY2(f.finding.title.startsWith(
                         u"rank %1 arrives last at 100.0 % of all-reduces; the other ranks wait "_s.arg(rank)),
                qPrintable(f.finding.title));
        }
        if (f.finding.id == u"slow_compute_rank"_s)
            QCOMPARE(f.finding.evidence.kernelNames, QStringList { kernel });
    }
    found.sort();
    ids.sort();
    QCOMPARE(found, ids);
}

void TestRanksGenerated::summariesGiveTheSameOutput()
{
    RankRunConfig c;
    c.ranks = 5;
    c.mode = StragglerMode::Persistent;
    c.straggler = 4;
    c.clockOffsetUs = 700;
    c.utcErrorUs = 15;
    c.outDir = m_dir.filePath(u"summaries"_s);
    const RankRunStats stats = generateRankRun(c);
    QStringList summaries;
    for (const QString& f : stats.files) {
        const Result<RankFile> file = summarizeTrace({ f, {} });
        QVERIFY2(file.ok(), qPrintable(file.errorMessage()));
        summaries << f + u".nswsum"_s;
        QFile out(summaries.last());
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(encodeRankSummary(*file));
    }
    const Result<RanksResult> fromExports = computeRanks({ stats.files, {} });
    const Result<RanksResult> fromSummaries = computeRanks({ summaries, {} });
    QVERIFY(fromExports.ok() && fromSummaries.ok());
    for (const RankMetric m : { RankMetric::Time, RankMetric::Bubble, RankMetric::Wait }) {
        QCOMPARE(ranksJson(*fromSummaries, m).dump(), ranksJson(*fromExports, m).dump());
        QCOMPARE(ranksMarkdown(*fromSummaries, m), ranksMarkdown(*fromExports, m));
    }
}

QTEST_GUILESS_MAIN(TestRanksGenerated)
#include "tst_ranksgenerated.moc"
