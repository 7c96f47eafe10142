// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "nvtxfixture.h"
#include "oracleexports.h"
#include "testutils.h"

#include <QFile>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

QString trace(const QString& name)
{
    const QString dir = test::sharedTracesDir();
    return dir.isEmpty() ? QString() : dir + u"/"_s + name;
}

QByteArray readAll(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCmdNvtx : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void badArguments_data();
    void badArguments();
    void jsonHasCoverage();
    void csvAndMarkdown();
    void phaseMap();
    void traceWithoutNvtx();
    void statsReports();

private:
    QTemporaryDir m_dir;
};

void TestCmdNvtx::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    const QString missing = m_dir.filePath(u"missing.json"_s);
    const QString badJson = m_dir.filePath(u"bad.json"_s);
    QFile f(badJson);
    f.open(QIODevice::WriteOnly);
    f.write("{\"decode\": [\"re:(\"]}");
    f.close();
    QTest::newRow("no trace") << QStringList { u"nvtx"_s } << int(cli::ExitUsage);
    QTest::newRow("unknown format") << QStringList { u"nvtx"_s, u"x.sqlite"_s, u"--format"_s, u"xml"_s }
                                    << int(cli::ExitUsage);
    QTest::newRow("unknown grouping") << QStringList { u"nvtx"_s, u"x.sqlite"_s, u"--group"_s, u"gpu"_s }
                                      << int(cli::ExitUsage);
    // Checked before the trace is even opened: exit 2 with the file and the reason on stderr.
    QTest::newRow("phase map missing") << QStringList { u"nvtx"_s, u"x.sqlite"_s, u"--phase-map"_s, missing }
                                       << int(cli::ExitInput);
    QTest::newRow("phase map invalid regex")
        << QStringList { u"nvtx"_s, u"x.sqlite"_s, u"--phase-map"_s, badJson } << int(cli::ExitInput);
    QTest::newRow("trace missing") << QStringList { u"nvtx"_s, m_dir.filePath(u"none.sqlite"_s) }
                                   << int(cli::ExitInput);
}

void TestCmdNvtx::badArguments()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QCOMPARE(cli::run(args), exitCode);
}

void TestCmdNvtx::jsonHasCoverage()
{
    const QString file = test::pairBefore();
    const QString out = m_dir.filePath(u"tree.json"_s);
    QCOMPARE(cli::run({ u"nvtx"_s, file, u"--format"_s, u"json"_s, u"-o"_s, out }), int(cli::ExitOk));
    const auto j = nlohmann::json::parse(readAll(out).toStdString());
    QSqlQuery q(test::openReadOnly(file));
    QVERIFY(q.exec(u"SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"_s) && q.next());
    const qint64 total = q.value(0).toLongLong();
    QCOMPARE(j["coverage"]["total_ns"].get<qint64>(), total);
    const qint64 attributed = j["coverage"]["attributed_ns"].get<qint64>();
    QVERIFY(attributed > 0 && attributed <= total);
    QCOMPARE(j["coverage"]["pct"].get<double>(), std::round(10000.0 * double(attributed) / double(total)) / 100.0);
    QVERIFY(q.exec(u"SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71)"_s) && q.next());
    QCOMPARE(j["ranges"].get<qint64>(), q.value(0).toLongLong());
    QCOMPARE(j["grouping"].get<std::string>(), std::string("thread"));
    QVERIFY(j["tree"].is_array() && !j["tree"].empty());
    QCOMPARE(j["tree"][0]["kind"].get<std::string>(), std::string("process"));
}

void TestCmdNvtx::csvAndMarkdown()
{
    const QString file = trace(u"nsys2022.1_rtx2070_pytorch_dlprof_nvtx.sqlite"_s);
    if (file.isEmpty() || !QFile::exists(file))
        NSW_SKIP_WITHOUT_SHARED_TRACES("checks facts of one real trace");
    const QString csv = m_dir.filePath(u"tree.csv"_s);
    QCOMPARE(cli::run({ u"nvtx"_s, file, u"--format"_s, u"csv"_s, u"--group"_s, u"merged"_s, u"-o"_s, csv }),
        int(cli::ExitOk));
    const QList<QByteArray> lines = readAll(csv).split('\n');
    QCOMPARE(lines[0],
        QByteArray("depth,path,kind,range,instances,cpu_total_ns,gpu_total_ns,projected_span_ns,kernels,mem_ops,"
                   "gpu_pct"));
    QVERIFY(lines[1].startsWith("1,"));
    const QString md = m_dir.filePath(u"tree.md"_s);
    QCOMPARE(cli::run({ u"nvtx"_s, file, u"-o"_s, md, u"--normalize"_s }), int(cli::ExitOk));
    const QByteArray text = readAll(md);
    QVERIFY(text.startsWith("# NVTX ranges: nsys2022.1_rtx2070_pytorch_dlprof_nvtx.sqlite\n"));
    QVERIFY(text.contains("Coverage: 100.0 %")); // every kernel of this trace is launched inside a range
    QVERIFY(text.contains("`aten::conv2d, seq = #`"));
}

void TestCmdNvtx::phaseMap()
{
    const QString file = trace(u"nsys2022.1_rtx2070_pytorch_dlprof_nvtx.sqlite"_s);
    if (file.isEmpty() || !QFile::exists(file))
        NSW_SKIP_WITHOUT_SHARED_TRACES("checks facts of one real trace");
    const QString map = m_dir.filePath(u"phases.json"_s);
    QFile f(map);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"conv\": [\"conv\"], \"relu\": [\"re:relu\"]}");
    f.close();
    const QString out = m_dir.filePath(u"phases-tree.json"_s);
    QCOMPARE(
        cli::run({ u"nvtx"_s, file, u"--format"_s, u"json"_s, u"--phase-map"_s, map, u"-o"_s, out }), int(cli::ExitOk));
    const auto j = nlohmann::json::parse(readAll(out).toStdString());
    QCOMPARE(j["phases"].size(), std::size_t(3));
    QCOMPARE(j["phases"][0]["phase"].get<std::string>(), std::string("conv"));
    QCOMPARE(j["phases"][2]["phase"].get<std::string>(), std::string("unmapped"));
    qint64 sum = 0;
    for (const auto& p : j["phases"])
        sum += p["gpu_ns"].get<qint64>();
    QCOMPARE(sum, j["coverage"]["attributed_ns"].get<qint64>());
}

void TestCmdNvtx::traceWithoutNvtx()
{
    const QString file = trace(u"nsys2022.4_t4_vecadd.sqlite"_s);
    if (file.isEmpty() || !QFile::exists(file))
        NSW_SKIP_WITHOUT_SHARED_TRACES("checks facts of one real trace");
    QCOMPARE(cli::run({ u"nvtx"_s, file, u"-o"_s, m_dir.filePath(u"none.md"_s) }), int(cli::ExitNoData));
    // As nsys 2022.4: the report is skipped with a message, exit 0, and no file is written.
    QCOMPARE(cli::run({ u"stats"_s, u"-r"_s, u"nvtx_sum"_s, file, u"-o"_s, m_dir.filePath(u"none.csv"_s) }),
        int(cli::ExitOk));
    QVERIFY(!QFile::exists(m_dir.filePath(u"none.csv"_s)));
}

void TestCmdNvtx::statsReports()
{
    const QString file = trace(u"nsys2022.2_a100_mpi_saxpy_nvtx.sqlite"_s);
    if (file.isEmpty() || !QFile::exists(file))
        NSW_SKIP_WITHOUT_SHARED_TRACES("checks facts of one real trace");
    const QString out = m_dir.filePath(u"stats.csv"_s);
    QCOMPARE(
        cli::run({ u"stats"_s, u"-r"_s, u"nvtx_sum,nvtx_gpu_proj_sum"_s, u"--format"_s, u"csv"_s, file, u"-o"_s, out }),
        int(cli::ExitOk));
    const QList<QByteArray> blocks = readAll(out).split('\n');
    QCOMPARE(blocks[0],
        QByteArray("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Style,Range"));
    // The MPI domain has a create event, so its ranges carry its name.
    QVERIFY(readAll(out).contains(",PushPop,MPI:"));
    QVERIFY(readAll(out).contains("Range,Style,Total Proj Time (ns),Total Range Time (ns),Range Instances"));
}

QTEST_GUILESS_MAIN(TestCmdNvtx)
#include "tst_cmdnvtx.moc"
