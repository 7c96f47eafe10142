// SPDX-License-Identifier: GPL-3.0-or-later
#include "expectedjson.h"
#include "scenarioexport.h"

#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace nsw::test;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QStringList& args,
    const QString& configHome = QDir::tempPath() + QStringLiteral("/nsw-nvlink-cli-test-config"))
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(NSW_WORKBENCH_EXE), QStringList { QStringLiteral("nvlink") } + args);
    p.waitForFinished(60000);
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
}

void write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

} // namespace

class TestNvlinkCli : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_trace; ///< export + one recording

private Q_SLOTS:
    void initTestCase()
    {
        m_trace = m_dir.filePath(QStringLiteral("trace"));
        QVERIFY(QDir().mkpath(m_trace));
        QCOMPARE(writeScenarioExport(m_trace + QStringLiteral("/vllm_profile.sqlite")), QString());
        write(m_trace + QStringLiteral("/nvlink_trace.bin"), scenarioRecording());
    }

    void sameJsonAsTheTools_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("peak_kernels") << qsl({ "--metric", "peak_kernels", "--json" }) << qs(kExpectedPeakKernelsTop1);
        QTest::newRow("peak_kernels rx top 2 nccl")
            << qsl({ "--metric", "peak_kernels", "--top", "2", "--direction", "rx", "--nccl-only", "--json" })
            << qs(kExpectedPeakKernelsRxTop2Nccl);
        QTest::newRow("nvlink_all") << qsl({ "--metric", "nvlink_all", "--json" }) << qs(kExpectedNvlinkAll);
    }
    void sameJsonAsTheTools()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const Run r = run(QStringList { m_trace } + args);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, expected + QLatin1Char('\n'));
        QCOMPARE(r.err, QString());
        // The recording file itself, with the export given explicitly, answers the same.
        const Run byFile = run(QStringList { m_trace + QStringLiteral("/nvlink_trace.bin"), QStringLiteral("--sqlite"),
                                   m_trace + QStringLiteral("/vllm_profile.sqlite") }
            + args);
        QCOMPARE(byFile.out, r.out);
    }

    void otherAnswers()
    {
        // All four metrics in one object; aggregated peaks have no link.
        Run r = run({ m_trace, QStringLiteral("--metric"), QStringLiteral("all"), QStringLiteral("--json"),
            QStringLiteral("--aggregate-links") });
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        QCOMPARE(j.size(), std::size_t(4));
        QCOMPARE(j["max_throughput"]["max_throughput_gbps"].get<double>(), 3.072);
        QVERIFY(j["peak_kernels"]["peak_interval"]["link_id"].is_null());
        // Another GPU: the tool's error object.
        r = run({ m_trace, QStringLiteral("--metric"), QStringLiteral("peak_kernels"), QStringLiteral("--json"),
            QStringLiteral("--gpu"), QStringLiteral("5") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QLatin1String("\"error\": \"No kernels found for GPU 5\"")));
        // Text output.
        r = run({ m_trace, QStringLiteral("--metric"), QStringLiteral("peak_kernels") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QLatin1String("Throughput:    2.0480 GB/s")));
        QVERIFY(r.out.contains(QLatin1String("[NCCL] ncclDevKernel_AllReduce")));
        QVERIFY(r.out.contains(QLatin1String("Capture time:  0.012000 s")));
    }

    void recordingOfAnotherSessionIsReported_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("warned");
        QTest::addColumn<int>("kernelsAtPeak");
        QTest::addColumn<QString>("captureTime");
        // The shifted recording starts at 1,309,077.770 s; the capture (the kernels) spans 0 to 0.100 s.
        QTest::newRow("as recorded: warned, no kernels")
            << qsl({ "--metric", "peak_kernels" }) << true << 0 << qs("1309077.772000 s");
        // --align-start: the first poll at 0, the top interval (link 1 TX, interval 2) at [2, 3) ms, under
        // persistentKernel alone.
        QTest::newRow("--align-start") << qsl({ "--metric", "peak_kernels", "--align-start" }) << false << 1
                                       << qs("0.002000 s");
        QTest::newRow("--align-start plus 10 ms")
            << qsl({ "--metric", "peak_kernels", "--align-start", "--offset-us", "10000" }) << false << 4
            << qs("0.012000 s");
        QTest::newRow("the same offset by hand")
            << qsl({ "--metric", "peak_kernels", "--offset-us", "-1309077770000" }) << false << 1 << qs("0.002000 s");
    }
    void recordingOfAnotherSessionIsReported()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, warned);
        QFETCH(int, kernelsAtPeak);
        QFETCH(QString, captureTime);
        const QString trace = m_dir.filePath(QStringLiteral("another-session"));
        QVERIFY(QDir().mkpath(trace));
        if (!QFileInfo::exists(trace + QStringLiteral("/vllm_profile.sqlite"))) {
            QCOMPARE(writeScenarioExport(trace + QStringLiteral("/vllm_profile.sqlite")), QString());
            write(trace + QStringLiteral("/nvlink_trace.bin"), scenarioRecording(kAnotherSessionShiftUs));
        }
        const Run r = run(QStringList { trace } + args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("Capture time:  ") + captureTime), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("Kernels during interval: %1 ").arg(kernelsAtPeak)), qPrintable(r.out));
        if (warned) {
            QVERIFY2(r.err.contains(QLatin1String("nvlink_trace.bin: the recording does not overlap the capture: it "
                                                  "starts at 1309077.770 s of the capture, which runs from 0.000 s to "
                                                  "0.100 s (100 ms long) (export vllm_profile.sqlite)")),
                qPrintable(r.err));
            QVERIFY2(r.err.contains(QLatin1String("--align-start puts its first sample at the capture start (the same "
                                                  "as --offset-us -1309077770000)")),
                qPrintable(r.err));
        } else {
            QCOMPARE(r.err, QString());
        }
        // A metric without the export says nothing about it, as before.
        const Run throughput = run({ trace, QStringLiteral("--metric"), QStringLiteral("max_throughput") });
        QCOMPARE(throughput.exitCode, 0);
        QCOMPARE(throughput.err, QString());
    }

    void brokenLinkPeakTableIsReported()
    {
        const QString config = m_dir.filePath(QStringLiteral("broken-config"));
        QVERIFY(QDir().mkpath(config + QStringLiteral("/nsys-workbench")));
        write(config + QStringLiteral("/nsys-workbench/nvlink-link-peaks.json"), "{ not json");
        const Run r = run({ m_trace, QStringLiteral("--metric"), QStringLiteral("peak_kernels") }, config);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(QLatin1String("nvlink-link-peaks.json")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("using the built-in table")), qPrintable(r.err));
    }

    void png()
    {
        const QString file = m_dir.filePath(QStringLiteral("nvlink.png"));
        const Run r = run({ m_trace, QStringLiteral("--metric"), QStringLiteral("max_throughput"),
            QStringLiteral("--top"), QStringLiteral("3"), QStringLiteral("--png"), file });
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QImage(file).size(), QSize(1600, 700));
    }

    void noExport()
    {
        const QString dir = m_dir.filePath(QStringLiteral("binonly"));
        QVERIFY(QDir().mkpath(dir));
        write(dir + QStringLiteral("/nvlink_trace.bin"), scenarioRecording());
        Run r = run({ dir, QStringLiteral("--metric"), QStringLiteral("peak_kernels"), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out,
            QStringLiteral("{\n  \"peak_kernels\": {\n    \"peak_interval\": null,\n    \"kernels\": [],\n"
                           "    \"error\": \"No SQLite file found in %1\"\n  }\n}\n")
                .arg(dir));
        // Throughput metrics need no export.
        r = run({ dir, QStringLiteral("--metric"), QStringLiteral("max_throughput"), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QLatin1String("\"max_throughput_gbps\": 2.048")));
    }

    void faults_data()
    {
        QTest::addColumn<QByteArray>("bin");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrHas");
        const QByteArray good = scenarioRecording();
        QByteArray truncated = good;
        truncated.chop(30);
        QByteArray failing = nvf1Header();
        appendRecord(failing, { 1, 138, 0, kScenarioT0, 0, 3, 0, 0 });
        appendRecord(failing, { 2, 138, 0, kScenarioT0 + 1000, 0, 3, 15, 0xFFFFFFFFFFFFULL });
        appendRecord(failing, { 3, 138, 0, kScenarioT0 + 2000, 0, 3, 0, 10 });
        const QStringList max = qsl({ "--metric", "max_throughput", "--json" });
        QTest::newRow("bad magic") << nvf1Header("NVFX") + good.mid(12) << max << 2
                                   << qs("x.bin: not an NVF1 NVLink recording (magic 'NVFX'");
        QTest::newRow("version 3") << nvf1Header("NVF1", 3) + good.mid(12) << max << 2
                                   << qs("x.bin: unsupported NVF1 version 3");
        QTest::newRow("field size 24") << nvf1Header("NVF1", 1, 24) + good.mid(12) << max << 2
                                       << qs("x.bin: NVF1 field size 24");
        QTest::newRow("host ts size 16") << nvf1Header("NVF1", 1, 40, 16) + good.mid(12) << max << 2
                                         << qs("x.bin: NVF1 host timestamp size 16");
        QTest::newRow("header cut") << good.left(7) << max << 2 << qs("x.bin: too short for an NVF1 header (7 bytes");
        QTest::newRow("truncated last record: a warning")
            << truncated << max << 0 << qs("x.bin: the last record is incomplete (18 of 48 bytes): ignored");
        QTest::newRow("failed NVML fields skipped")
            << failing << max << 0 << qs("x.bin: 1 of 3 records have nvmlReturn != 0");
        QTest::newRow("no --metric") << good << QStringList() << 1 << qs("no --metric given");
        QTest::newRow("bad direction") << good << qsl({ "--metric", "all", "--direction", "up" }) << 1
                                       << qs("--direction must be tx or rx, not 'up'");
        QTest::newRow("link with aggregate") << good << qsl({ "--metric", "all", "--link", "1", "--aggregate-links" })
                                             << 1 << qs("--link and --aggregate-links exclude each other");
    }
    void faults()
    {
        QFETCH(QByteArray, bin);
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrHas);
        const QString path = m_dir.filePath(QStringLiteral("x.bin"));
        write(path, bin);
        const Run r = run(QStringList { path } + args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(stderrHas), qPrintable(r.err));
        if (exitCode == 0 && stderrHas.contains(QLatin1String("nvmlReturn"))) {
            // The failed field's garbage is not a 10 KiB/ms peak of 2^48 KiB.
            QVERIFY2(r.out.contains(QLatin1String("\"max_throughput_gbps\": 0.00512")), qPrintable(r.out));
        }
    }

    void ambiguousFolder()
    {
        const QString dir = m_dir.filePath(QStringLiteral("two"));
        QVERIFY(QDir().mkpath(dir));
        write(dir + QStringLiteral("/a.bin"), scenarioRecording());
        write(dir + QStringLiteral("/b.bin"), scenarioRecording());
        const Run r = run({ dir, QStringLiteral("--metric"), QStringLiteral("all") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(QLatin1String("several NVLink recordings (a.bin (GPU ?), b.bin (GPU ?))")));
        write(dir + QStringLiteral("/run_gpu0.bin"), scenarioRecording());
        QCOMPARE(run({ dir, QStringLiteral("--metric"), QStringLiteral("max_throughput") }).exitCode, 0);
    }

    void exportWithoutSessionStart()
    {
        const QString dir = m_dir.filePath(QStringLiteral("nostart"));
        QVERIFY(QDir().mkpath(dir));
        const QString db = dir + QStringLiteral("/p.sqlite");
        QCOMPARE(writeScenarioExport(db), QString());
        {
            SqliteWriter w(db);
            QCOMPARE(w.exec(QStringLiteral("DROP TABLE TARGET_INFO_SESSION_START_TIME")), QString());
        }
        write(dir + QStringLiteral("/t.bin"), scenarioRecording());
        const Run r = run({ dir, QStringLiteral("--metric"), QStringLiteral("peak_kernels") });
        QCOMPARE(r.exitCode, 4);
        QVERIFY(r.err.contains(db + QStringLiteral(": no TARGET_INFO_SESSION_START_TIME")));
    }

    void gpuMetricsExport()
    {
        const QString db = m_dir.filePath(QStringLiteral("metrics.sqlite"));
        QCOMPARE(writeScenarioExport(db), QString());
        // GPU 0 (an A100: 12 × 25 GB/s per direction), TX user data at 1 kHz: 10 % over [12, 13) ms.
        std::vector<GpuMetricSample> samples;
        for (int i = 10; i <= 16; ++i)
            samples.push_back({ qint64(i) * 1000000, 0x100, 3, i == 12 ? 10 : 1 });
        const QString tmp = m_dir.filePath(QStringLiteral("metrics-only.sqlite"));
        QCOMPARE(writeGpuMetrics(tmp,
                     { { 0x100, QStringLiteral("GPU Metrics [0] (GA100)"), 3,
                         QStringLiteral("NVLink TX Requests User Data [Throughput %]") } },
                     samples),
            QString());
        {
            SqliteWriter w(db);
            QCOMPARE(w.exec(QStringLiteral("ATTACH DATABASE '%1' AS m").arg(tmp)), QString());
            QCOMPARE(w.exec(QStringLiteral(
                         "CREATE TABLE TARGET_INFO_GPU_METRICS AS SELECT * FROM m.TARGET_INFO_GPU_METRICS")),
                QString());
            QCOMPARE(w.exec(QStringLiteral("CREATE TABLE GPU_METRICS AS SELECT * FROM m.GPU_METRICS")), QString());
        }
        const Run r = run({ db, QStringLiteral("--metric"), QStringLiteral("peak_kernels"), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        const auto& iv = j["peak_kernels"]["peak_interval"];
        QCOMPARE(iv["throughput_pct"].get<double>(), 10.0);
        QCOMPARE(iv["throughput_gbps"].get<double>(), 30.0); // 10 % of 300 GB/s (GA100 in the link-peak table)
        QCOMPARE(iv["start_us"].get<double>(), double(kScenarioT0 - 10000 + 12000));
        QCOMPARE(j["peak_kernels"]["num_kernels"].get<int>(), 4);
        QCOMPARE(run({ db, QStringLiteral("--metric"), QStringLiteral("max_throughput") }).exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(TestNvlinkCli)
#include "tst_nvlinkcli.moc"
