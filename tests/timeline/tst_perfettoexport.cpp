// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "core/timeline/perfettoexport.h"
#include "generator.h"
#include "oracleexports.h"
#include "sqlitefixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

struct CategoryTotals
{
    qint64 count = 0;
    qint64 durationNs = 0;
    qint64 firstStartNs = std::numeric_limits<qint64>::max();
};

/// Events per category of an exported trace, parsed back from its JSON; also checks that metadata names every pid
/// and tid the events use.
std::map<std::string, CategoryTotals> parseTrace(const QString& file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file));
    const auto j = nlohmann::json::parse(f.readAll().toStdString());
    std::map<std::string, CategoryTotals> totals;
    std::set<std::pair<int, int>> named;
    std::set<int> processes;
    for (const auto& e : j["traceEvents"]) {
        const std::string ph = e["ph"].get<std::string>();
        if (ph == "M") {
            if (e["name"] == "process_name")
                processes.insert(e["pid"].get<int>());
            else
                named.emplace(e["pid"].get<int>(), e["tid"].get<int>());
            continue;
        }
        if (ph != "X")
            qFatal("unexpected event phase %s", ph.c_str());
        if (!named.count({ e["pid"].get<int>(), e["tid"].get<int>() }) || !processes.count(e["pid"].get<int>()))
            qFatal("an event on an unnamed row");
        CategoryTotals& t = totals[e["cat"].get<std::string>()];
        ++t.count;
        t.durationNs += std::llround(e["dur"].get<double>() * 1000);
        t.firstStartNs = std::min(t.firstStartNs, qint64(std::llround(e["ts"].get<double>() * 1000)));
    }
    return totals;
}

/// One integer from plain SQL on the file; 0 for a table the export lacks.
qint64 sqlValue(const QString& file, const QString& sql)
{
    const QList<QStringList> rows = test::queryRows(file, sql);
    return rows.isEmpty() ? 0 : rows.first().value(0).toLongLong();
}

} // namespace

class TestPerfettoExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void countsAndSumsMatchSql_data();
    void countsAndSumsMatchSql();
    void rangeKeepsOverlappingEvents();
    void microsecondsKeepNanoseconds_data();
    void microsecondsKeepNanoseconds();
    void badArguments_data();
    void badArguments();

private:
    QTemporaryDir m_dir;
    QString m_inference;
    QString m_training;
};

void TestPerfettoExport::initTestCase()
{
    tracegen::GeneratorConfig c;
    c.kernels = 2000;
    c.layers = 2;
    c.cudaGraphs = true;
    c.outPath = m_inference = m_dir.filePath(u"inference-2026.2.sqlite"_s);
    tracegen::generateExport(c);
    c.schemaVersion = u"2022.4"_s;
    c.workload = tracegen::Workload::Training;
    c.cudaGraphs = false;
    c.outPath = m_training = m_dir.filePath(u"training-2022.4.sqlite"_s);
    tracegen::generateExport(c);
}

void TestPerfettoExport::countsAndSumsMatchSql_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("demo") << test::demoExport();
    QTest::newRow("generated 2026.2 inference, CUDA graphs") << m_inference;
    QTest::newRow("generated 2022.4 training") << m_training;
}

void TestPerfettoExport::countsAndSumsMatchSql()
{
    QFETCH(QString, file);
    const QString out = m_dir.filePath(u"trace.json"_s);
    QCOMPARE(cli::run({ u"export"_s, u"--format"_s, u"perfetto"_s, file, u"-o"_s, out }), int(cli::ExitOk));
    std::map<std::string, CategoryTotals> totals = parseTrace(out);

    const auto check = [&](const std::string& cat, const QString& table) {
        QCOMPARE(totals[cat].count, sqlValue(file, u"SELECT count(*) FROM %1"_s.arg(table)));
        QCOMPARE(totals[cat].durationNs, sqlValue(file, u"SELECT coalesce(sum(end - start), 0) FROM %1"_s.arg(table)));
    };
    check("kernel", u"CUPTI_ACTIVITY_KIND_KERNEL"_s);
    check("memcpy", u"CUPTI_ACTIVITY_KIND_MEMCPY"_s);
    check("memset", u"CUPTI_ACTIVITY_KIND_MEMSET"_s);
    check("cuda_graph", u"CUPTI_ACTIVITY_KIND_GRAPH_TRACE"_s);
    check("cuda_api", u"CUPTI_ACTIVITY_KIND_RUNTIME"_s);
    check("osrt", u"OSRT_API"_s);
    // Unterminated ranges are drawn to the last timestamp, so only the count is an independent fact.
    QCOMPARE(totals["nvtx"].count,
        sqlValue(file, u"SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60, 70, 71)"_s));
    QVERIFY(totals["kernel"].count > 0);
    QCOMPARE(totals["kernel"].firstStartNs, sqlValue(file, u"SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"_s));
}

void TestPerfettoExport::rangeKeepsOverlappingEvents()
{
    const QString file = m_inference;
    const qint64 lo = sqlValue(file, u"SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"_s);
    const qint64 hi = sqlValue(file, u"SELECT max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL"_s);
    const qint64 a = lo + (hi - lo) / 3, b = (lo + 2 * (hi - lo) / 3) / 1000 * 1000;
    const QString out = m_dir.filePath(u"range.json"_s);
    // Bare numbers are ns, relative to the capture start (0 for this export: ANALYSIS_DETAILS).
    QCOMPARE(cli::run({ u"export"_s, file, u"--range"_s, u"%1:%2us"_s.arg(a).arg(b / 1000), u"-o"_s, out }),
        int(cli::ExitOk));
    std::map<std::string, CategoryTotals> totals = parseTrace(out);
    // nsys's range filter: starts in [a, b), ends in it, or spans it.
    const QString overlap
        = u"((start >= %1 AND start < %2) OR (end >= %1 AND end < %2) OR (start < %1 AND end >= %2))"_s.arg(a).arg(b);
    QCOMPARE(
        totals["kernel"].count, sqlValue(file, u"SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE "_s + overlap));
    QCOMPARE(totals["cuda_api"].count,
        sqlValue(file, u"SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE "_s + overlap));
    QVERIFY(totals["kernel"].count > 0);
    QVERIFY(totals["kernel"].count < sqlValue(file, u"SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"_s));
}

void TestPerfettoExport::microsecondsKeepNanoseconds_data()
{
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("zero") << 0ll << QByteArray("0.000");
    QTest::newRow("one ns") << 1ll << QByteArray("0.001");
    QTest::newRow("µs and ns") << 12345ll << QByteArray("12.345");
    QTest::newRow("negative") << -1500ll << QByteArray("-1.500");
    QTest::newRow("beyond double precision in µs") << 9007199254740993ll << QByteArray("9007199254740.993");
}

void TestPerfettoExport::microsecondsKeepNanoseconds()
{
    QFETCH(qint64, ns);
    QFETCH(QByteArray, text);
    QCOMPARE(microsecondsText(ns), text);
}

void TestPerfettoExport::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("no trace") << QStringList { u"export"_s } << int(cli::ExitUsage);
    QTest::newRow("unknown format") << QStringList { u"export"_s, u"x.sqlite"_s, u"--format"_s, u"xml"_s }
                                    << int(cli::ExitUsage);
    QTest::newRow("range without colon") << QStringList { u"export"_s, u"x.sqlite"_s, u"--range"_s, u"5"_s }
                                         << int(cli::ExitUsage);
    QTest::newRow("range backwards") << QStringList { u"export"_s, u"x.sqlite"_s, u"--range"_s, u"2s:1s"_s }
                                     << int(cli::ExitUsage);
    QTest::newRow("range with an unknown unit")
        << QStringList { u"export"_s, u"x.sqlite"_s, u"--range"_s, u"1h:2h"_s } << int(cli::ExitUsage);
    QTest::newRow("range with a fractional bare number (ns)")
        << QStringList { u"export"_s, u"x.sqlite"_s, u"--range"_s, u"1.5:2"_s } << int(cli::ExitUsage);
    QTest::newRow("range and nvtx together") << QStringList { u"export"_s, u"x.sqlite"_s, u"--range"_s, u"1:2"_s,
        u"--nvtx"_s, u"step"_s } << int(cli::ExitUsage);
    QTest::newRow("trace missing") << QStringList { u"export"_s, m_dir.filePath(u"none.sqlite"_s) }
                                   << int(cli::ExitInput);
}

void TestPerfettoExport::badArguments()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QCOMPARE(cli::run(args), exitCode);
}

QTEST_MAIN(TestPerfettoExport)
#include "tst_perfettoexport.moc"
