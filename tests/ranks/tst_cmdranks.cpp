// SPDX-License-Identifier: GPL-3.0-or-later
// `ranks` and `summarize`: exit codes, ranks over summaries byte for byte the same as over the exports, and the bad
// inputs of issue 34 (each named, the other ranks still analysed, nothing written next to the inputs).
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "core/ranks/summaryfile.h"
#include "rankgen.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace nsw;
using namespace nsw::tracegen;
using namespace Qt::StringLiterals;

namespace {

QByteArray readAll(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString& file, const QByteArray& bytes)
{
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

RankRunConfig run(const QString& dir, int collectives = 3, qint64 startS = 0, int ranks = 4)
{
    RankRunConfig c;
    c.outDir = dir;
    c.ranks = ranks;
    c.collectives = collectives;
    c.mode = StragglerMode::Persistent;
    c.straggler = 2;
    c.clockOffsetUs = 300;
    c.sessionStartS = startS;
    return c;
}

} // namespace

class TestCmdRanks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void exitCodes_data();
    void exitCodes();
    void summariesGiveTheSameBytes_data();
    void summariesGiveTheSameBytes();
    void badInputs_data();
    void badInputs();
    void outputThatIsAnInputIsRefused();

private:
    QString summarize(const QString& trace, const QString& name);
    /// Runs `ranks` to JSON and parses it; the exit code through @p exitCode.
    nlohmann::json ranksJson(const QStringList& inputs, int* exitCode = nullptr);

    QTemporaryDir m_dir;
    QStringList m_exports;
    QString m_summaries;
};

void TestCmdRanks::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_exports = generateRankRun(run(m_dir.filePath(u"run"_s))).files;
    m_summaries = m_dir.filePath(u"summaries"_s);
    QVERIFY(QDir().mkpath(m_summaries));
    for (const QString& e : std::as_const(m_exports))
        QVERIFY(!summarize(e, QFileInfo(e).completeBaseName()).isEmpty());
}

QString TestCmdRanks::summarize(const QString& trace, const QString& name)
{
    const QString out = m_summaries + u'/' + name + u".nswsum"_s;
    return cli::run({ u"summarize"_s, trace, u"-o"_s, out }) == cli::ExitOk ? out : QString();
}

nlohmann::json TestCmdRanks::ranksJson(const QStringList& inputs, int* exitCode)
{
    QDir().mkpath(m_dir.filePath(u"out"_s)); // apart from every input folder
    const QString out = m_dir.filePath(u"out/out.json"_s);
    QFile::remove(out);
    const int code
        = cli::run(QStringList { u"ranks"_s } + inputs + QStringList { u"--format"_s, u"json"_s, u"-o"_s, out });
    if (exitCode)
        *exitCode = code;
    const QByteArray bytes = readAll(out);
    return bytes.isEmpty() ? nlohmann::json() : nlohmann::json::parse(bytes.toStdString());
}

void TestCmdRanks::exitCodes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    const QString missing = m_dir.filePath(u"none.sqlite"_s);
    QTest::newRow("ranks without input") << QStringList { u"ranks"_s } << int(cli::ExitUsage);
    QTest::newRow("unknown format") << QStringList { u"ranks"_s, m_exports[0], u"--format"_s, u"xml"_s }
                                    << int(cli::ExitUsage);
    QTest::newRow("unknown metric") << QStringList { u"ranks"_s, m_exports[0], u"--metric"_s, u"speed"_s }
                                    << int(cli::ExitUsage);
    QTest::newRow("empty marker") << QStringList { u"ranks"_s, m_exports[0], u"--iteration-marker"_s, u" "_s }
                                  << int(cli::ExitUsage);
    QTest::newRow("only a missing input") << QStringList { u"ranks"_s, missing } << int(cli::ExitInput);
    QTest::newRow("one rank is enough") << QStringList { u"ranks"_s, m_exports[0], u"-o"_s,
        m_dir.filePath(u"one.md"_s) } << int(cli::ExitOk);
    QTest::newRow("summarize without -o") << QStringList { u"summarize"_s, m_exports[0] } << int(cli::ExitUsage);
    QTest::newRow("summarize two traces") << QStringList { u"summarize"_s, m_exports[0], m_exports[1], u"-o"_s,
        m_dir.filePath(u"x.nswsum"_s) } << int(cli::ExitUsage);
    QTest::newRow("summarize a missing trace")
        << QStringList { u"summarize"_s, missing, u"-o"_s, m_dir.filePath(u"x.nswsum"_s) } << int(cli::ExitInput);
    QTest::newRow("summarize a summary") << QStringList { u"summarize"_s, m_summaries + u"/rank_0.nswsum"_s, u"-o"_s,
        m_dir.filePath(u"x.nswsum"_s) } << int(cli::ExitUsage);
}

void TestCmdRanks::exitCodes()
{
    QFETCH(QStringList, args);
    QTEST(cli::run(args), "exitCode");
}

void TestCmdRanks::summariesGiveTheSameBytes_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::newRow("md") << QStringList { u"--format"_s, u"md"_s };
    QTest::newRow("json") << QStringList { u"--format"_s, u"json"_s };
    QTest::newRow("csv of the wait") << QStringList { u"--format"_s, u"csv"_s, u"--metric"_s, u"wait"_s };
}

void TestCmdRanks::summariesGiveTheSameBytes()
{
    QFETCH(QStringList, options);
    const QString a = m_dir.filePath(u"a.out"_s), b = m_dir.filePath(u"b.out"_s);
    QCOMPARE(cli::run(QStringList { u"ranks"_s, m_summaries } + options + QStringList { u"-o"_s, a }), cli::ExitOk);
    QCOMPARE(cli::run(QStringList { u"ranks"_s } + m_exports + options + QStringList { u"-o"_s, b }), cli::ExitOk);
    const QByteArray fromSummaries = readAll(a);
    QVERIFY(fromSummaries.size() > 200);
    QCOMPARE(fromSummaries, readAll(b));
}

void TestCmdRanks::badInputs_data()
{
    QTest::addColumn<QString>("input"); // added to the four good exports
    QTest::addColumn<QString>("problem"); // the start of the one problem
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("matched");
    // Rank 4 of a run with 4 collectives per iteration (32) beside ranks 0-3 of one with 3 (24).
    const QString other = generateRankRun(run(m_dir.filePath(u"other"_s), 4, 0, 5)).files[4];
    QTest::newRow("collectives that do not match")
        << other << other + u" (rank 4): its NCCL kernels do not match the other ranks': 32 ×"_s << 5 << 4;
    const QString dup = m_dir.filePath(u"dup/rank_1.sqlite"_s);
    QDir().mkpath(m_dir.filePath(u"dup"_s));
    QFile::copy(m_exports[1], dup);
    QTest::newRow("a rank number twice") << dup << u"rank 1 twice: "_s << 4 << 4;
    const QString later = generateRankRun(run(m_dir.filePath(u"later"_s), 3, 86400)).files[0];
    QTest::newRow("an export of another run") << later << later + u": from another run"_s << 4 << 4;
    const QString good = m_summaries + u"/rank_3.nswsum"_s;
    QByteArray bytes = readAll(good);
    QDir().mkpath(m_dir.filePath(u"bad"_s));
    const QString version = m_dir.filePath(u"bad/v2.nswsum"_s);
    bytes[8] = 2;
    writeAll(version, bytes);
    QTest::newRow("a summary of another version")
        << version << version + u": a rank summary of format version 2"_s << 4 << 4;
    const QString truncated = m_dir.filePath(u"bad/cut.nswsum"_s);
    writeAll(truncated, readAll(good).left(100));
    QTest::newRow("a truncated summary") << truncated << truncated + u": a truncated rank summary"_s << 4 << 4;
    // Rank 3's summary with every other collective end moved by 3 ms: no shift aligns its clock with rank 0's.
    Result<RankFile> skewed = readRankSummary(good);
    QVERIFY(skewed.ok());
    skewed->exportPath = u"/elsewhere/rank_7.sqlite"_s;
    skewed->ranks[0].rankFromName = 7;
    for (std::size_t i = 0; i < skewed->ranks[0].collectives.size(); i += 2)
        skewed->ranks[0].collectives[i].end += 3'000'000;
    const QString unaligned = m_dir.filePath(u"bad/rank_7.nswsum"_s);
    writeAll(unaligned, encodeRankSummary(*skewed));
    QTest::newRow("a clock that cannot be aligned")
        << unaligned << unaligned + u": its clock cannot be aligned with rank 0's"_s << 5 << 4;
}

void TestCmdRanks::badInputs()
{
    QFETCH(QString, input);
    QFETCH(QString, problem);
    const QStringList listing = test::folderListing(QFileInfo(m_exports[0]).path());
    const QStringList inputListing = test::folderListing(QFileInfo(input).path());
    int code = -1;
    const nlohmann::json j = ranksJson(m_exports + QStringList { input }, &code);
    QCOMPARE(code, int(cli::ExitOk));
    QVERIFY(j.contains("problems"));
    QCOMPARE(j["problems"].size(), 1u);
    const QString message = QString::fromStdString(j["problems"][0]["message"].get<std::string>());
    QVERIFY2(message.startsWith(problem), qPrintable(message));
    // Printed on stderr as a warning too, and kept with the output.
    QVERIFY(j.contains("warnings"));
    QTEST(int(j["ranks"].size()), "ranks");
    QTEST(int(j["matched_ranks"].size()), "matched");
    QCOMPARE(j["ranks"][2]["last_arrivals"].get<int>(), j["collectives"].size() > 0 ? int(j["collectives"].size()) : 0);
    QCOMPARE(test::folderListing(QFileInfo(m_exports[0]).path()), listing);
    QCOMPARE(test::folderListing(QFileInfo(input).path()), inputListing);
}

void TestCmdRanks::outputThatIsAnInputIsRefused()
{
    const QString summary = m_summaries + u"/rank_0.nswsum"_s;
    const QByteArray before = readAll(summary);
    QCOMPARE(cli::run({ u"ranks"_s, m_summaries, u"-o"_s, summary }), int(cli::ExitUsage));
    QCOMPARE(readAll(summary), before);
}

QTEST_GUILESS_MAIN(TestCmdRanks)
#include "tst_cmdranks.moc"
