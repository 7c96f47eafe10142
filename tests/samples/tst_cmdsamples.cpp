// SPDX-License-Identifier: GPL-3.0-or-later
// `nsys-workbench samples`: its CSV, folded stacks and JSON against plain SQL on the exports with samples.
#include "app/cli/cli.h"
#include "oracleexports.h"
#include "samplesoracle.h"
#include "sqlitefixture.h"
#include "testutils.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace nsw;
using namespace nsw::test;
using namespace Qt::StringLiterals;

namespace {

QByteArray readAll(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// The records of an RFC 4180 CSV (quoted fields may hold commas and doubled quotes).
QList<QStringList> parseCsv(const QString& text)
{
    QList<QStringList> records;
    QStringList fields;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text[i + 1] == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            fields << std::exchange(field, QString());
        } else if (c == u'\n') {
            fields << std::exchange(field, QString());
            records << std::exchange(fields, QStringList());
        } else {
            field += c;
        }
    }
    return records;
}

/// Exports with samples: the generated ones and the real ones when present.
void addSampleExports()
{
    QTest::addColumn<QString>("path");
    for (const OracleExport& e : oracleExports())
        if (hasSampleTables(e.path))
            QTest::newRow(qPrintable(e.label)) << e.path;
}

QString percent(qint64 part, qint64 whole)
{
    return QString::number(100.0 * double(part) / double(whole), 'f', 2);
}

} // namespace

class TestCmdSamples : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void badArguments_data();
    void badArguments();
    void flatCsvMatchesSql_data() { addSampleExports(); }
    void flatCsvMatchesSql();
    void threadAndProcessFilters();
    void rangeFocus();
    void collapsedStacksMatchSql_data() { addSampleExports(); }
    void collapsedStacksMatchSql();
    void treesAndJson();
    void duringGpuIdle();
    void exportWithoutSamples();

private:
    QString run(const QStringList& args, int expectedExit = cli::ExitOk);
    QTemporaryDir m_dir;
    int m_outputs = 0;
};

QString TestCmdSamples::run(const QStringList& args, int expectedExit)
{
    const QString out = m_dir.filePath(u"out-%1"_s.arg(++m_outputs));
    const int exit = cli::run(QStringList { u"samples"_s } + args + QStringList { u"-o"_s, out });
    if (exit != expectedExit)
        qWarning("exit %d, expected %d: %s", exit, expectedExit, qPrintable(args.join(u' ')));
    return exit == expectedExit ? QString::fromUtf8(readAll(out)) : u"<exit %1>"_s.arg(exit);
}

void TestCmdSamples::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no trace") << QStringList { u"samples"_s };
    QTest::newRow("unknown view") << QStringList { u"samples"_s, u"x.sqlite"_s, u"--view"_s, u"sideways"_s };
    QTest::newRow("unknown format") << QStringList { u"samples"_s, u"x.sqlite"_s, u"--format"_s, u"svg"_s };
    QTest::newRow("thread not a number") << QStringList { u"samples"_s, u"x.sqlite"_s, u"--thread"_s, u"main"_s };
    QTest::newRow("thread and process") << QStringList { u"samples"_s, u"x.sqlite"_s, u"--thread"_s, u"1"_s,
        u"--process"_s, u"1"_s };
    QTest::newRow("during what") << QStringList { u"samples"_s, u"x.sqlite"_s, u"--during"_s, u"cpu-idle"_s };
    QTest::newRow("during which GPU") << QStringList { u"samples"_s, u"x.sqlite"_s, u"--during"_s,
        u"gpu-idle:first"_s };
    QTest::newRow("range and nvtx") << QStringList { u"samples"_s, u"x.sqlite"_s, u"--range"_s, u"1s:2s"_s, u"--nvtx"_s,
        u"step"_s };
}

void TestCmdSamples::badArguments()
{
    QFETCH(QStringList, args);
    QCOMPARE(cli::run(args), int(cli::ExitUsage));
}

void TestCmdSamples::flatCsvMatchesSql()
{
    QFETCH(QString, path);
    const QList<QStringList> csv = parseCsv(run({ path, u"--format"_s, u"csv"_s }));
    QVERIFY(!csv.isEmpty());
    QCOMPARE(
        csv.first(), (QStringList { u"Function"_s, u"Module"_s, u"Self"_s, u"Total"_s, u"Self %"_s, u"Total %"_s }));
    const SqlSampleCounts sql = sqlSampleCounts(path);
    std::map<FunctionKey, std::pair<qint64, qint64>> counted;
    for (qsizetype i = 1; i < csv.size(); ++i) {
        const QStringList& r = csv[i];
        QCOMPARE(r.size(), 6);
        const qint64 self = r[2].toLongLong(), total = r[3].toLongLong();
        QCOMPARE(r[4], percent(self, sql.samples));
        QCOMPARE(r[5], percent(total, sql.samples));
        if (r[0] == u"[no call stack]"_s && r[1].isEmpty()) {
            QCOMPARE(self, sql.withoutStack);
            continue;
        }
        counted[{ r[0], r[1] }] = { self, total };
    }
    QCOMPARE(counted, sql.functions);
    // By self samples, most first.
    for (qsizetype i = 2; i < csv.size(); ++i)
        QVERIFY(csv[i - 1][2].toLongLong() >= csv[i][2].toLongLong());
}

void TestCmdSamples::threadAndProcessFilters()
{
    const QString path = generatedExport(u"2026.2"_s);
    const QStringList busiest = queryRows(path,
        u"SELECT globalTid, (globalTid & 16777215), ((globalTid >> 24) & 16777215) FROM COMPOSITE_EVENTS "
        "GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"_s)
                                    .value(0);
    QCOMPARE(busiest.size(), 3);
    const auto countsOf = [&](const QString& csvText) {
        std::map<FunctionKey, std::pair<qint64, qint64>> out;
        const QList<QStringList> csv = parseCsv(csvText);
        for (qsizetype i = 1; i < csv.size(); ++i)
            out[{ csv[i][0], csv[i][1] }] = { csv[i][2].toLongLong(), csv[i][3].toLongLong() };
        return out;
    };
    QCOMPARE(countsOf(run({ path, u"--format"_s, u"csv"_s, u"--thread"_s, busiest[1] })),
        sqlSampleCounts(path, u"e.globalTid = %1"_s.arg(busiest[0])).functions);
    QCOMPARE(countsOf(run({ path, u"--format"_s, u"csv"_s, u"--process"_s, busiest[2] })),
        sqlSampleCounts(path, u"((e.globalTid >> 24) & 16777215) = %1"_s.arg(busiest[2])).functions);
    QCOMPARE(cli::run({ u"samples"_s, path, u"--thread"_s, u"999999"_s }), int(cli::ExitNoData));
}

void TestCmdSamples::rangeFocus()
{
    const QString path = generatedExport(u"2025.1"_s);
    const auto j
        = nlohmann::json::parse(run({ path, u"--format"_s, u"json"_s, u"--range"_s, u"100ms:300ms"_s }).toStdString());
    const qint64 start = j["focus"]["start_ns"].get<qint64>(), end = j["focus"]["end_ns"].get<qint64>();
    QCOMPARE(end - start, qint64(200'000'000));
    const SqlSampleCounts sql = sqlSampleCounts(path, u"e.start >= %1 AND e.start < %2"_s.arg(start).arg(end));
    QVERIFY(sql.samples > 0);
    QCOMPARE(j["samples"].get<qint64>(), sql.samples);
    std::map<FunctionKey, std::pair<qint64, qint64>> counted;
    for (const auto& f : j["functions"])
        counted[{ QString::fromStdString(f["function"].get<std::string>()),
            QString::fromStdString(f["module"].get<std::string>()) }]
            = { f["self"].get<qint64>(), f["total"].get<qint64>() };
    QCOMPARE(counted, sql.functions);
}

void TestCmdSamples::collapsedStacksMatchSql()
{
    QFETCH(QString, path);
    std::map<QString, qint64> expected;
    for (const QStringList& row :
        queryRows(path,
            u"SELECT stack, count(*) FROM (SELECT id, group_concat(name, ';') AS stack FROM ("
            "SELECT c.id, replace(coalesce(s.value, '[unknown]'), ';', ':') || "
            "CASE WHEN c.kernelMode THEN '_[k]' ELSE '' END AS name FROM SAMPLING_CALLCHAINS c "
            "LEFT JOIN StringIds s ON s.id = c.symbol ORDER BY c.id, c.stackDepth DESC) GROUP BY id) GROUP BY stack"_s))
        expected[row[0]] += row[1].toLongLong();
    if (const qint64 without = sqlSampleCounts(path).withoutStack; without > 0)
        expected[u"[no call stack]"_s] = without;
    std::map<QString, qint64> folded;
    for (const QString& line : run({ path, u"--format"_s, u"collapsed"_s }).split(u'\n', Qt::SkipEmptyParts)) {
        const qsizetype space = line.lastIndexOf(u' ');
        QVERIFY(space > 0);
        folded[line.left(space)] += line.mid(space + 1).toLongLong();
    }
    QCOMPARE(folded, expected);
}

void TestCmdSamples::treesAndJson()
{
    const QString path = generatedExport(u"2024.6"_s);
    const SqlSampleCounts sql = sqlSampleCounts(path);
    const QList<QStringList> topDown = parseCsv(run({ path, u"--view"_s, u"top-down"_s, u"--format"_s, u"csv"_s }));
    QCOMPARE(topDown.first().join(u','), u"Depth,Function,Module,Self,Total,Self %,Total %"_s);
    qint64 topTotal = 0, selfSum = 0;
    for (qsizetype i = 1; i < topDown.size(); ++i) {
        topTotal += topDown[i][0] == u"0"_s ? topDown[i][4].toLongLong() : 0;
        selfSum += topDown[i][3].toLongLong();
    }
    QCOMPARE(topTotal, sql.samples);
    QCOMPARE(selfSum, sql.samples);
    const auto j
        = nlohmann::json::parse(run({ path, u"--view"_s, u"bottom-up"_s, u"--format"_s, u"json"_s }).toStdString());
    QCOMPARE(j["samples"].get<qint64>(), sql.samples);
    std::map<FunctionKey, qint64> roots, selfs;
    for (const auto& n : j["nodes"])
        if (n["parent"].get<int>() < 0)
            roots[{ QString::fromStdString(n["function"].get<std::string>()),
                QString::fromStdString(n["module"].get<std::string>()) }]
                += n["total"].get<qint64>();
    for (const auto& [key, counts] : sql.functions)
        if (counts.first > 0)
            selfs[key] = counts.first;
    QCOMPARE(roots, selfs);
    const QString md = run({ path });
    QVERIFY(md.startsWith(u"# CPU samples: "_s));
    QVERIFY(md.contains(u"| Function | Module | Self | Total | Self % | Total % |"_s));
    QVERIFY(md.contains(u"do_syscall_64 [kernel]"_s));
    QVERIFY(md.contains(u"0x7f3a2c001234 [unresolved]"_s));
}

void TestCmdSamples::duringGpuIdle()
{
    const QString path = generatedExport(u"2026.2"_s);
    const auto j
        = nlohmann::json::parse(run({ path, u"--during"_s, u"gpu-idle"_s, u"--format"_s, u"json"_s }).toStdString());
    QVERIFY(j["idle_gaps"].get<qint64>() > 0);
    QVERIFY(j["samples"].get<qint64>() > 0);
    QVERIFY(j["samples"].get<qint64>() < j["profile_samples"].get<qint64>());
    QCOMPARE(cli::run({ u"samples"_s, path, u"--during"_s, u"gpu-idle:99"_s }), int(cli::ExitUsage));
}

void TestCmdSamples::exportWithoutSamples()
{
    const QString path = generatedExport(u"2021"_s);
    QVERIFY(!hasSampleTables(path));
    QCOMPARE(cli::run({ u"samples"_s, path }), int(cli::ExitNoData));
}

QTEST_GUILESS_MAIN(TestCmdSamples)
#include "tst_cmdsamples.moc"
