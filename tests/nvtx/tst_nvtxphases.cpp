// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvtx/nvtxphases.h"
#include "nvtxfixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace nsw;
using namespace Qt::StringLiterals;

class TestNvtxPhases : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parseErrors_data();
    void parseErrors();
    void phaseOf_data();
    void phaseOf();
    void loadNamesTheFile();
    void catastrophicPatternIsFlagged();
    void manyCatastrophicPatternsShareOneBudget();
    void specialFilesRefused_data();
    void specialFilesRefused();
    void phaseTimes();
};

void TestNvtxPhases::parseErrors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("not JSON") << QByteArray("{\"a\": [") << u"not valid JSON"_s;
    QTest::newRow("array at the top") << QByteArray("[\"decode\"]") << u"expected a JSON object"_s;
    QTest::newRow("no phase") << QByteArray("{}") << u"defines no phase"_s;
    QTest::newRow("patterns not an array")
        << QByteArray("{\"decode\": \"decode\"}") << u"phase \"decode\": expected an array of patterns"_s;
    QTest::newRow("pattern not a string")
        << QByteArray("{\"decode\": [1]}") << u"phase \"decode\": every pattern must be a string"_s;
    QTest::newRow("invalid regex") << QByteArray("{\"decode\": [\"re:(unclosed\"]}")
                                   << u"phase \"decode\": invalid regular expression \"(unclosed\""_s;
    QTest::newRow("empty pattern") << QByteArray("{\"decode\": [\"\"]}") << u"phase \"decode\": empty pattern"_s;
    QTest::newRow("recursion") << QByteArray("{\"decode\": [\"re:a(?R)?b\"]}")
                               << u"phase \"decode\": regular expression \"a(?R)?b\": recursion at offset 1"_s;
    QTest::newRow("subroutine call") << QByteArray("{\"decode\": [\"re:(x)(?1)\"]}")
                                     << u"phase \"decode\": regular expression \"(x)(?1)\": recursion at offset 3"_s;
    QTest::newRow("empty phase name") << QByteArray("{\"\": [\"x\"]}") << u"a phase has an empty name"_s;
}

void TestNvtxPhases::parseErrors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    QString got;
    const NvtxPhaseMap map = NvtxPhaseMap::fromJson(json, &got);
    QVERIFY(map.isEmpty());
    QVERIFY2(got.startsWith(error), qPrintable(got));
}

void TestNvtxPhases::phaseOf_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("phase");
    // prefill: substring "prefill" or regex ^ctx_; decode: substring "DECODE" or regex step_\d+$; both match "decode
    // after prefill", the first phase in the file wins.
    QTest::newRow("substring, case-insensitive") << u"Prefill batch"_s << 0;
    QTest::newRow("regex") << u"ctx_encode"_s << 0;
    QTest::newRow("regex not anchored elsewhere") << u"my_ctx_encode"_s << -1;
    QTest::newRow("second phase substring") << u"model.decode"_s << 1;
    QTest::newRow("second phase regex") << u"step_12"_s << 1;
    QTest::newRow("regex is case-sensitive") << u"STEP_12"_s << -1;
    QTest::newRow("regex with inline flag") << u"SAMPLER"_s << 2;
    QTest::newRow("first phase wins") << u"decode after prefill"_s << 0;
    QTest::newRow("unmapped") << u"optimizer"_s << -1;
}

void TestNvtxPhases::phaseOf()
{
    QFETCH(QString, name);
    QFETCH(int, phase);
    QString error;
    const NvtxPhaseMap map = NvtxPhaseMap::fromJson(
        "{\"prefill\": [\"prefill\", \"re:^ctx_\"], \"decode\": [\"DECODE\", \"re:step_\\\\d+$\"], "
        "\"sample\": [\"re:(?i)sampler\"]}",
        &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(map.phases(), (QStringList { u"prefill"_s, u"decode"_s, u"sample"_s }));
    QCOMPARE(map.phaseOf(name), phase);
}

void TestNvtxPhases::loadNamesTheFile()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(u"missing.json"_s);
    QString error;
    QVERIFY(NvtxPhaseMap::load(missing, &error).isEmpty());
    QVERIFY2(error.startsWith(missing + u": "_s), qPrintable(error));
    const QString bad = dir.filePath(u"bad.json"_s);
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"decode\": 3}");
    f.close();
    error.clear();
    QVERIFY(NvtxPhaseMap::load(bad, &error).isEmpty());
    QCOMPARE(error, bad + u": phase \"decode\": expected an array of patterns"_s);
}

/// "^(a+)+$" backtracks exponentially on 40 a's and a '!': each such name is undecided (flagged, falls through to
/// the next phase); after three, the pattern is not tried again.
void TestNvtxPhases::catastrophicPatternIsFlagged()
{
    QString error;
    const NvtxPhaseMap map
        = NvtxPhaseMap::fromJson(R"j({"slow": ["re:^(a+)+$"], "bang": ["!"], "gemm": ["re:gemm"]})j", &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString run(40, QLatin1Char('a'));
    NvtxPhaseMap::Budget budget;
    const QList<std::pair<bool, bool>> expected { { true, false }, { true, false }, { true, false }, { false, true },
        { false, true } }; // (over budget, not tried) per name
    for (int k = 0; k < expected.size(); ++k) {
        QCOMPARE(map.phaseOf(run + u'!' + QString::number(k), &budget), 1);
        QCOMPARE(budget.lastOverBudget, expected[k].first);
        QCOMPARE(budget.lastNotTried, expected[k].second);
    }
    QCOMPARE(budget.overBudget, (std::vector<int> { 3, 0 }));
    QCOMPARE(map.phaseOf(u"sgemm_128"_s, &budget), 2);
    QCOMPARE(map.phaseOf(u"aaaa"_s, &budget), -1); // the pattern is no longer tried...
    QVERIFY(budget.lastNotTried);
    NvtxPhaseMap::Budget fresh;
    QCOMPARE(map.phaseOf(u"aaaa"_s, &fresh), 0); // ...though it decides a short run, and matches it
    QCOMPARE(map.phaseOf(run + u"!x"_s), 1); // without a budget record: still undecided, still falls through
}

/// Forty catastrophic patterns: the first kMaxOverBudgetTotal over-budget searches (ten patterns, three names each)
/// have the full budget, the later ones the spent one, and an ordinary pattern after them still decides its names.
void TestNvtxPhases::manyCatastrophicPatternsShareOneBudget()
{
    QString json = u"{"_s;
    for (int p = 0; p < 40; ++p)
        json += u"\"slow %1\": [\"re:^(a+)+$|zz%1\"], "_s.arg(p);
    json += u"\"gemm\": [\"re:gemm\"]}"_s;
    QString error;
    const NvtxPhaseMap map = NvtxPhaseMap::fromJson(json.toUtf8(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString run(40, QLatin1Char('a'));
    NvtxPhaseMap::Budget budget;
    for (int k = 0; k < 3; ++k) {
        QCOMPARE(budget.matchLimit(), k == 0 ? BoundedRegex::kMatchLimit : BoundedRegex::kSpentMatchLimit);
        QCOMPARE(map.phaseOf(run + u'!' + QString::number(k), &budget), -1);
        QCOMPARE(budget.overBudgetTotal, 40 * (k + 1)); // every pattern over budget on every name
    }
    QCOMPARE(map.phaseOf(u"sgemm_128"_s, &budget), 40); // every slow pattern is now not tried
    QVERIFY(budget.lastNotTried);
}

void TestNvtxPhases::specialFilesRefused_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("character device") << u"/dev/urandom"_s;
    QTest::newRow("FIFO") << u"fifo"_s;
}

/// A FIFO would block the read until a writer comes, a device would be read until memory runs out.
void TestNvtxPhases::specialFilesRefused()
{
    QFETCH(QString, path);
    QTemporaryDir dir;
    if (path == u"fifo"_s) {
        path = dir.filePath(path);
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    }
    QString error;
    QVERIFY(NvtxPhaseMap::load(path, &error).isEmpty());
    QCOMPARE(error, path + u": not a regular file"_s);
}

void TestNvtxPhases::phaseTimes()
{
    // On the fixture (see nvtxfixture.h), thread-grouped: "step" covers step_1 and step_2 of T1 and step_1 of B;
    // "layers" matches layer_1/layer_2 nested in steps; "comm" matches the NCCL domain label only.
    QString error;
    const NvtxPhaseMap map = NvtxPhaseMap::fromJson(
        "{\"layers\": [\"re:^layer_\"], \"step\": [\"STEP\"], \"comm\": [\"re:^NCCL:\"]}", &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture());
    const std::vector<NvtxPhaseRow> rows = nvtxPhaseTimes(tree, map);
    QCOMPARE(rows.size(), std::size_t(4));
    QCOMPARE(rows[0].phase, u"layers"_s);
    QCOMPARE(rows[1].phase, u"step"_s);
    QCOMPARE(rows[2].phase, u"comm"_s);
    QCOMPARE(rows[3].phase, kUnmappedPhase);
    // layers: layer_1 (100), layer_2 (140), step_2's layer_1 (110) are the outermost "layers" ranges: 3 instances,
    // CPU 350; kernels directly in them or in "domain 7:x" (unmapped name, inherits layers): K1 100, K2 200, K3 50,
    // K7 200 = 550, 4 kernels.
    QCOMPARE(rows[0].instances, qint64(3));
    QCOMPARE(qint64(rows[0].cpuTime), qint64(350));
    QCOMPARE(qint64(rows[0].gpuTime), qint64(550));
    QCOMPARE(rows[0].kernels, qint64(4));
    // step: step_1 (T1), step_2, step_1 (B): CPU 3000; kernels directly in steps or in forward (inherits step):
    // K4 50, K6 50, K8 10, K14 300 = 410, 4 kernels.
    QCOMPARE(rows[1].instances, qint64(3));
    QCOMPARE(qint64(rows[1].cpuTime), qint64(3000));
    QCOMPARE(qint64(rows[1].gpuTime), qint64(410));
    QCOMPARE(rows[1].kernels, qint64(4));
    // comm: NCCL:ncclAllReduce, CPU 100, K5 300.
    QCOMPARE(rows[2].instances, qint64(1));
    QCOMPARE(qint64(rows[2].cpuTime), qint64(100));
    QCOMPARE(qint64(rows[2].gpuTime), qint64(300));
    QCOMPARE(rows[2].kernels, qint64(1));
    // unmapped top-level ranges: async_io 600, tail 1000, worker 300; their kernels K9 100, K11 200, K12 100.
    QCOMPARE(rows[3].instances, qint64(3));
    QCOMPARE(qint64(rows[3].cpuTime), qint64(1900));
    QCOMPARE(qint64(rows[3].gpuTime), qint64(400));
    QCOMPARE(rows[3].kernels, qint64(3));
    // Phases add up to the attributed kernel time.
    TimeNs sum = 0;
    for (const NvtxPhaseRow& r : rows)
        sum += r.gpuTime;
    QCOMPARE(sum, tree.coverage.attributedNs);
}

QTEST_GUILESS_MAIN(TestNvtxPhases)
#include "tst_nvtxphases.moc"
