// SPDX-License-Identifier: GPL-3.0-or-later
// `report` and `findings` through the real executable on the demo export (2 GPUs, NCCL, NVTX).
#include "oracleexports.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QStringList& args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"DISPLAY"_s);
    env.remove(u"QT_QPA_PLATFORM"_s);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(NSW_APP_PATH), args);
    if (!p.waitForFinished(120000))
        return {};
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
}

QByteArray readAll(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCmdReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyFileWritten_data();
    void everyFileWritten();
    void csvHeaders_data();
    void csvHeaders();
    void jsonKeys();
    void htmlSelfContained();
    void noCharts();
    void thresholdOverrideReported();
    void refusals_data();
    void refusals();
    void inputInsideOutputFolderUntouched();
    void help();
    void findingsCommand_data();
    void findingsCommand();
    void longNamesCutWithTheirLength();

private:
    QTemporaryDir m_dir;
    QString m_trace;
    QString m_out;
};

void TestCmdReport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_trace = m_dir.filePath(u"demo.sqlite"_s);
    QVERIFY(QFile::copy(nsw::test::demoExport(), m_trace));
    m_out = m_dir.filePath(u"out"_s);
    const Run r = run({ u"report"_s, m_trace, u"--out"_s, m_out });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(u" findings, "_s) || r.out.contains(u"1 finding, "_s), qPrintable(r.out));
}

void TestCmdReport::everyFileWritten_data()
{
    QTest::addColumn<QString>("file");
    for (const char* f :
        { "report.md", "report.json", "report.html", "tables/kernels.csv", "tables/nvtx_ranges.csv",
            "tables/gpu_idle_gaps.csv", "tables/kernels_by_pid.csv", "tables/sync_by_pid.csv", "tables/nvtx_by_pid.csv",
            "tables/gpu_idle_by_device.csv", "tables/gap_histogram.csv", "tables/overlap_by_gpu.csv",
            "tables/nccl_by_collective.csv", "tables/nccl_by_stream.csv", "tables/launch_cost.csv",
            "tables/sync_by_thread.csv", "tables/memory_by_direction.csv", "tables/memory_by_kind.csv",
            "tables/processes.csv", "tables/gpu_time_breakdown.csv", "tables/findings.csv" })
        QTest::newRow(f) << QString::fromLatin1(f);
}

void TestCmdReport::everyFileWritten()
{
    QFETCH(QString, file);
    QVERIFY2(!readAll(QDir(m_out).filePath(file)).isEmpty(), qPrintable(file));
}

void TestCmdReport::csvHeaders_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("header");
    QTest::newRow("kernels") << u"kernels"_s << u"kernel_name,count,total_ns,avg_ns,min_ns,max_ns,share_pct"_s;
    QTest::newRow("nvtx_ranges") << u"nvtx_ranges"_s << u"domain,range_name,count,total_ns,avg_ns,min_ns,max_ns"_s;
    QTest::newRow("gpu_idle_gaps")
        << u"gpu_idle_gaps"_s
        << u"device,device_label,stream,start_ns,end_ns,duration_ns,cause,pid,previous_kernel,next_kernel,cpu_samples,top_function"_s;
    QTest::newRow("kernels_by_pid") << u"kernels_by_pid"_s << u"pid,kernel_name,count,total_ns,avg_ns,min_ns,max_ns"_s;
    QTest::newRow("sync_by_pid") << u"sync_by_pid"_s << u"pid,api_name,count,total_ns,avg_ns,max_ns"_s;
    QTest::newRow("nvtx_by_pid") << u"nvtx_by_pid"_s << u"pid,domain,range_name,count,total_ns,avg_ns,min_ns,max_ns"_s;
    QTest::newRow("overlap_by_gpu")
        << u"overlap_by_gpu"_s
        << u"device,device_label,window_ns,compute_only_ns,nccl_only_ns,overlapped_ns,idle_ns,overlap_pct"_s;
}

void TestCmdReport::csvHeaders()
{
    QFETCH(QString, file);
    QFETCH(QString, header);
    const QString text = QString::fromUtf8(readAll(QDir(m_out).filePath(u"tables/%1.csv"_s.arg(file))));
    QCOMPARE(text.section(QLatin1Char('\n'), 0, 0), header);
}

void TestCmdReport::jsonKeys()
{
    const nlohmann::json j = nlohmann::json::parse(readAll(QDir(m_out).filePath(u"report.json"_s)).toStdString());
    for (const char* key : { "tool", "trace", "focus", "window", "thresholds", "devices", "findings", "skipped",
             "nvtx_coverage", "metrics" })
        QVERIFY2(j.contains(key), key);
    for (const char* table : { "kernels", "nvtx_ranges", "gpu_idle_gaps", "kernels_by_pid", "sync_by_pid",
             "nvtx_by_pid", "gpu_idle_by_device", "overlap_by_gpu", "nccl_by_collective", "launch_cost",
             "gpu_time_breakdown", "processes" })
        QVERIFY2(j["metrics"].contains(table), table);
    QCOMPARE(j["thresholds"]["gpu_idle_pct"].get<double>(), 10.0);
    QCOMPARE(j["devices"].size(), std::size_t(2));
    QVERIFY(!j["metrics"]["kernels"].empty());
    QVERIFY(j["metrics"]["kernels"][0].contains("kernel_name"));
    for (const auto& f : j["findings"]) {
        for (const char* key : { "id", "severity", "title", "detail", "recommendation", "gpu_cost_ns", "gpu_cost_pct",
                 "gpu_cost_device", "host_ns", "host_thread", "metrics", "evidence", "thresholds" })
            QVERIFY2(f.contains(key), key);
        // Never more than the window.
        QVERIFY(f["gpu_cost_ns"].get<qint64>() <= j["window"]["duration_ns"].get<qint64>());
        QVERIFY(f["host_ns"].get<qint64>() <= j["window"]["duration_ns"].get<qint64>());
        const std::string severity = f["severity"].get<std::string>();
        QVERIFY(severity == "info" || severity == "warning" || severity == "critical");
    }
    // The demo runs NCCL on its GPUs: the NCCL tables have rows.
    QVERIFY(!j["metrics"]["nccl_by_collective"].empty());
}

void TestCmdReport::htmlSelfContained()
{
    const QString html = QString::fromUtf8(readAll(QDir(m_out).filePath(u"report.html"_s)));
    QVERIFY(html.startsWith(u"<!DOCTYPE html>"_s));
    QVERIFY(html.contains(u"<table>"_s));
    QVERIFY(!html.contains(u"src=\"http"_s));
    QVERIFY(!html.contains(u"<link"_s));
    QVERIFY(!html.contains(u"<script"_s));
    QCOMPARE(html.count(u"src=\"data:image/png;base64,iVBOR"_s), 2); // both charts, embedded
    QVERIFY(
        readAll(QDir(m_out).filePath(u"report.md"_s)).contains("![gpu_time_breakdown](charts/gpu_time_breakdown.png)"));
}

void TestCmdReport::noCharts()
{
    const QString out = m_dir.filePath(u"nocharts"_s);
    const Run r = run({ u"report"_s, m_trace, u"--out"_s, out, u"--no-charts"_s });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(QDir(out).filePath(u"charts"_s)));
    QVERIFY(!readAll(QDir(out).filePath(u"report.html"_s)).contains("data:image/png"));
    // The same findings and tables as with the charts.
    QCOMPARE(
        readAll(QDir(out).filePath(u"tables/findings.csv"_s)), readAll(QDir(m_out).filePath(u"tables/findings.csv"_s)));
}

void TestCmdReport::thresholdOverrideReported()
{
    const QString out = m_dir.filePath(u"override"_s);
    const Run r = run({ u"report"_s, m_trace, u"--out"_s, out, u"--threshold"_s, u"gpu_idle_pct=0"_s,
        u"--nvtx-coverage-warn-threshold"_s, u"101"_s });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const nlohmann::json j = nlohmann::json::parse(readAll(QDir(out).filePath(u"report.json"_s)).toStdString());
    QCOMPARE(j["thresholds"]["gpu_idle_pct"].get<double>(), 0.0);
    QCOMPARE(j["thresholds"]["nvtx_coverage_pct"].get<double>(), 101.0);
    int idle = 0;
    bool coverage = false;
    for (const auto& f : j["findings"]) {
        idle += f["id"] == "gpu_idle";
        coverage = coverage || f["id"] == "nvtx_coverage";
    }
    QCOMPARE(idle, int(j["metrics"]["gpu_idle_by_device"].size())); // every GPU is idle at least 0 %
    QVERIFY(coverage); // the demo covers 100 %, below 101 %
}

void TestCmdReport::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QString out = m_dir.filePath(u"refused"_s);
    QTest::newRow("unknown threshold") << QStringList { m_trace, u"--out"_s, out, u"--threshold"_s, u"nope=1"_s } << 1
                                       << u"unknown threshold 'nope'"_s;
    QTest::newRow("threshold not a number") << QStringList { m_trace, u"--out"_s, out, u"--threshold"_s,
        u"gpu_idle_pct=abc"_s } << 1 << u"must be a number, not 'abc'"_s;
    QTest::newRow("threshold without value")
        << QStringList { m_trace, u"--out"_s, out, u"--threshold"_s, u"x"_s } << 1 << u"name=value"_s;
    QTest::newRow("negative threshold") << QStringList { m_trace, u"--out"_s, out, u"--threshold"_s,
        u"long_gap_ms=-2"_s } << 1 << u">= 0"_s;
    QTest::newRow("bad coverage threshold")
        << QStringList { m_trace, u"--out"_s, out, u"--nvtx-coverage-warn-threshold"_s, u"x"_s } << 1
        << u"--nvtx-coverage-warn-threshold"_s;
    QTest::newRow("no --out") << QStringList { m_trace } << 1 << u"--out"_s;
    QTest::newRow("--out is the trace") << QStringList { m_trace, u"--out"_s, m_trace } << 1 << u"inputs"_s;
    QTest::newRow("--out is a device") << QStringList { m_trace, u"--out"_s, u"/dev/null"_s } << 1
                                       << u"/dev/null: not a regular file"_s;
    QTest::newRow("missing trace") << QStringList { m_dir.filePath(u"none.sqlite"_s), u"--out"_s, out } << 2
                                   << u"none.sqlite"_s;
    QTest::newRow("missing phase map") << QStringList { m_trace, u"--out"_s, out, u"--phase-map"_s,
        m_dir.filePath(u"nomap.json"_s) }
                                       << 2 << u"nomap.json"_s;
}

void TestCmdReport::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const Run r = run(QStringList { u"report"_s } + args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(m_dir.filePath(u"refused/report.json"_s)));
}

void TestCmdReport::inputInsideOutputFolderUntouched()
{
    // The trace is named report.json inside the output folder: the report must not overwrite it.
    const QString dir = m_dir.filePath(u"inside"_s);
    QVERIFY(QDir().mkpath(dir));
    const QString trace = QDir(dir).filePath(u"report.json"_s);
    QVERIFY(QFile::copy(m_trace, trace));
    const QByteArray before = readAll(trace);
    const Run r = run({ u"report"_s, trace, u"--out"_s, dir });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(u"report.json: is one of the inputs"_s), qPrintable(r.err));
    QCOMPARE(readAll(trace), before);
}

void TestCmdReport::help()
{
    const Run r = run({ u"report"_s, u"--help"_s });
    QCOMPARE(r.exitCode, 0);
    for (const QString& s : { u"--out"_s, u"--threshold"_s, u"gpu_idle_pct"_s, u"--phase-map"_s,
             u"--nvtx-coverage-warn-threshold"_s, u"--range"_s })
        QVERIFY2(r.out.contains(s), qPrintable(s));
    QVERIFY(run({ u"--help"_s }).out.contains(u"report"_s));
}

void TestCmdReport::findingsCommand_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("text") << u"text"_s;
    QTest::newRow("json") << u"json"_s;
}

void TestCmdReport::findingsCommand()
{
    QFETCH(QString, format);
    const Run r = run({ u"findings"_s, m_trace, u"--format"_s, format });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    if (format == u"json"_s) {
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        const nlohmann::json report
            = nlohmann::json::parse(readAll(QDir(m_out).filePath(u"report.json"_s)).toStdString());
        QCOMPARE(j["findings"].dump(), report["findings"].dump()); // the same findings as the report
    } else {
        QVERIFY(r.out.startsWith(u"Window: "_s));
    }
    QCOMPARE(run({ u"findings"_s, m_trace, u"--format"_s, u"xml"_s }).exitCode, 1);
}

namespace {

/// Every string in @p j, depth first.
void collectStrings(const nlohmann::json& j, QStringList& out)
{
    if (j.is_string())
        out << QString::fromStdString(j.get<std::string>());
    else if (j.is_structured())
        for (const auto& item : j)
            collectStrings(item, out);
}

} // namespace

void TestCmdReport::longNamesCutWithTheirLength()
{
    // The demo with one kernel's names 100,000 characters long: Findings' tables and evidence repeat a kernel's name
    // on many rows, so every written name stops at 4096 characters and says how long it was.
    const QString trace = m_dir.filePath(u"long-names.sqlite"_s);
    QVERIFY(QFile::copy(nsw::test::demoExport(), trace));
    QVERIFY(QFile::setPermissions(trace, QFile::ReadOwner | QFile::WriteOwner));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"long-names"_s);
        db.setDatabaseName(trace);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY2(q.exec(u"UPDATE StringIds SET value = replace(hex(zeroblob(50000)), '0', 'k') WHERE id IN "
                        "(SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL UNION "
                        "SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL)"_s),
            qPrintable(q.lastError().text()));
        QVERIFY(q.numRowsAffected() > 0);
        db.close();
    }
    QSqlDatabase::removeDatabase(u"long-names"_s);
    const QString marker = u"… [100000 characters]"_s;
    const QString cut = QString(4096, QLatin1Char('k')) + marker;

    const Run json = run({ u"findings"_s, trace, u"--format"_s, u"json"_s });
    QVERIFY2(json.exitCode == 0, qPrintable(json.err));
    QStringList strings;
    collectStrings(nlohmann::json::parse(json.out.toStdString()), strings);
    QVERIFY(strings.contains(cut)); // the kernels table names it, cut
    for (const QString& s : strings)
        QVERIFY2(!s.contains(QString(4097, QLatin1Char('k'))), qPrintable(s.left(80)));

    const QString out = m_dir.filePath(u"long-names-report"_s);
    const Run report = run({ u"report"_s, trace, u"--no-charts"_s, u"--out"_s, out });
    QVERIFY2(report.exitCode == 0, qPrintable(report.err));
    const QString kernels = QString::fromUtf8(readAll(QDir(out).filePath(u"tables/kernels.csv"_s)));
    QVERIFY(kernels.contains(cut));
    QVERIFY(!kernels.contains(QString(4097, QLatin1Char('k'))));
}

QTEST_GUILESS_MAIN(TestCmdReport)
#include "tst_cmdreport.moc"
