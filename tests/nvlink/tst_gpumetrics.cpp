// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvlink/gpumetricsreader.h"
#include "core/nvlink/kernelspans.h"
#include "core/sqlite/sqlitedb.h"
#include "profilebuilder.h"
#include "scenarioexport.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>
#include <thread>

using namespace nsw;
using namespace nsw::test;

namespace {

const QString kUserRxReq = QStringLiteral("NVLink RX Requests User Data [Throughput %]");
const QString kUserRxResp = QStringLiteral("NVLink RX Responses User Data [Throughput %]");
const QString kProtoRx = QStringLiteral("NVLink RX Requests Protocol Data [Throughput %]");
const QString kUserTxReq = QStringLiteral("NVLink TX Requests User Data [Throughput %]");
const QString kUserTxResp = QStringLiteral("NVLink TX Responses User Data [Throughput %]");
const QString kSm = QStringLiteral("SMs Active [Throughput %]");

} // namespace

class TestGpuMetrics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void metricNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("direction");
        QTest::newRow("rx requests user") << kUserRxReq << int(LinkDirection::Rx);
        QTest::newRow("tx responses user") << kUserTxResp << int(LinkDirection::Tx);
        QTest::newRow("protocol is overhead") << kProtoRx << -1;
        QTest::newRow("not nvlink") << kSm << -1;
        QTest::newRow("pcie") << QStringLiteral("PCIe RX Throughput [Throughput %]") << -1;
        QTest::newRow("not a percent") << QStringLiteral("NVLink TX Bytes [B]") << -1;
        QTest::newRow("lower case") << QStringLiteral("nvlink tx user data [throughput %]") << int(LinkDirection::Tx);
        QTest::newRow("both directions") << QStringLiteral("NVLink RX TX [Throughput %]") << -1;
    }
    void metricNames()
    {
        QFETCH(QString, name);
        QFETCH(int, direction);
        QCOMPARE(nvlinkMetricDirection(name), direction);
    }

    void readSeries_data()
    {
        QTest::addColumn<bool>("rawTimestamp");
        QTest::newRow("2025.1+ layout (rawTimestamp)") << true;
        QTest::newRow("older layout") << false;
    }
    void readSeries()
    {
        QFETCH(bool, rawTimestamp);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("metrics.sqlite"));
        // Two GPUs (typeId 0x1100 | gpu); metric ids differ per GPU and are not in name order.
        const std::vector<std::tuple<qint64, QString, qint64, QString>> metrics = {
            { 0x1100, QStringLiteral("GPU Metrics [0] (GH100)"), 9, kUserRxReq },
            { 0x1100, QStringLiteral("GPU Metrics [0] (GH100)"), 4, kUserRxResp },
            { 0x1100, QStringLiteral("GPU Metrics [0] (GH100)"), 7, kProtoRx },
            { 0x1100, QStringLiteral("GPU Metrics [0] (GH100)"), 2, kUserTxReq },
            { 0x1100, QStringLiteral("GPU Metrics [0] (GH100)"), 3, kSm },
            { 0x1101, QStringLiteral("GPU Metrics [1] (GH100)"), 5, kUserTxReq },
            { 0x1101, QStringLiteral("GPU Metrics [1] (GH100)"), 9, kSm }, // id 9 is an NVLink metric on GPU 0 only
        };
        std::vector<GpuMetricSample> samples;
        for (int i = 0; i < 4; ++i) {
            const qint64 t = 1000000 + i * 100000; // 10 kHz
            samples.push_back({ t, 0x1100, 9, 10 * i }); // RX user requests
            samples.push_back({ t, 0x1100, 4, 1 }); // RX user responses
            samples.push_back({ t, 0x1100, 7, 99 }); // protocol: not counted
            samples.push_back({ t, 0x1100, 2, 5 });
            samples.push_back({ t, 0x1100, 3, 77 });
            samples.push_back({ t + 50, 0x1101, 5, 20 + i });
            samples.push_back({ t + 50, 0x1101, 9, 66 });
        }
        samples.push_back({ -300, 0x1100, 2, 50 }); // before the capture start: dropped
        QCOMPARE(writeGpuMetrics(path, metrics, samples, rawTimestamp), QString());

        const GpuMetricsResult r = readGpuMetricsNvlink(path);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY(r.data);
        const GpuMetricsNvlink& m = *r.data;
        QCOMPARE(m.chips.at(0), QStringLiteral("GH100"));
        QCOMPARE(m.droppedRows, 1);
        QCOMPARE(m.series.size(), std::size_t(3)); // GPU 0 TX, GPU 0 RX, GPU 1 TX
        const ThroughputSeries& g0tx = m.series[0];
        QCOMPARE(g0tx.gpu, 0);
        QCOMPARE(g0tx.direction, LinkDirection::Tx);
        QCOMPARE(g0tx.unit, ThroughputUnit::PercentOfPeak);
        QCOMPARE(g0tx.link, kAllLinks);
        QCOMPARE(vec(g0tx.time), (std::vector<TimeNs> { 1000000, 1100000, 1200000, 1300000 }));
        QCOMPARE(vec(g0tx.percent), (std::vector<float> { 5, 5, 5 }));
        const ThroughputSeries& g0rx = m.series[1];
        QCOMPARE(g0rx.direction, LinkDirection::Rx);
        QCOMPARE(vec(g0rx.percent), (std::vector<float> { 1, 11, 21 })); // requests + responses, no protocol
        const ThroughputSeries& g1tx = m.series[2];
        QCOMPARE(g1tx.gpu, 1);
        QCOMPARE(g1tx.time.front(), TimeNs(1000050));
        QCOMPARE(vec(g1tx.percent), (std::vector<float> { 20, 21, 22 }));
        QCOMPARE(g1tx.value(2), 22.0);
        QVERIFY(m.metrics.contains(kUserRxReq));
        QVERIFY(!m.metrics.contains(kProtoRx));
    }

    void everyMetricAsACounter()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("counters.sqlite"));
        const QString gpu0 = QStringLiteral("GPU Metrics [0] (GH100)"),
                      gpu1 = QStringLiteral("GPU Metrics [1] (GH100)");
        const QString clock = QStringLiteral("GPC Clock Frequency [MHz]"),
                      unsampled = QStringLiteral("SM Issue [Throughput %]");
        const std::vector<std::tuple<qint64, QString, qint64, QString>> metrics = {
            { 0x1100, gpu0, 3, kSm },
            { 0x1100, gpu0, 9, kUserRxReq },
            { 0x1100, gpu0, 4, kUserRxResp },
            { 0x1100, gpu0, 7, kProtoRx },
            { 0x1100, gpu0, 8, clock },
            { 0x1100, gpu0, 6, unsampled },
            { 0x1101, gpu1, 5, kUserTxReq },
        };
        std::vector<GpuMetricSample> samples;
        for (int i = 0; i < 3; ++i) {
            const qint64 t = 1000 + i * 100;
            samples.push_back({ t, 0x1100, 3, 50 + i });
            samples.push_back({ t, 0x1100, 9, 10 * i });
            samples.push_back({ t, 0x1100, 4, 2 });
            samples.push_back({ t, 0x1100, 7, 1 });
            samples.push_back({ t, 0x1100, 8, 1410 });
            samples.push_back({ t + 7, 0x1101, 5, 30 });
        }
        samples.push_back({ -5, 0x1100, 3, 99 }); // before the capture: dropped
        QCOMPARE(writeGpuMetrics(path, metrics, samples), QString());
        const GpuMetricCountersResult r = readGpuMetricCounters(path);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY(r.data);
        QCOMPARE(r.data->droppedRows, 1);
        QStringList names;
        for (const GpuMetricCounter& c : r.data->counters)
            names << QStringLiteral("%1:%2 [%3]").arg(c.gpu).arg(c.name, c.unit);
        // Per GPU: NVLink first (TX, RX), then the other metrics in table order; a metric without samples is left out.
        QCOMPARE(names,
            (QStringList { QStringLiteral("0:NVLink RX [%]"), QStringLiteral("0:SMs Active [%]"),
                QStringLiteral("0:NVLink RX Requests Protocol Data [%]"), QStringLiteral("0:GPC Clock Frequency [MHz]"),
                QStringLiteral("1:NVLink TX [%]") }));
        const GpuMetricCounter& rx = r.data->counters[0];
        QCOMPARE(rx.metrics, (QStringList { kUserRxReq, kUserRxResp }));
        QCOMPARE(vec(rx.series.time), (std::vector<TimeNs> { 1000, 1100, 1200 }));
        QCOMPARE(vec(rx.series.percent), (std::vector<float> { 2, 12 })); // requests + responses
        QCOMPARE(vec(r.data->counters[1].series.percent), (std::vector<float> { 50, 51 }));
        QCOMPARE(r.data->counters[3].series.value(0), 1410.0);
        QCOMPARE(r.data->counters[4].series.time.front(), TimeNs(1007));
    }

    void metricUnits_data()
    {
        QTest::addColumn<QString>("metric");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("unit");
        QTest::newRow("throughput percent") << kSm << QStringLiteral("SMs Active") << QStringLiteral("%");
        QTest::newRow("MHz") << QStringLiteral("SYS Clock Frequency [MHz]") << QStringLiteral("SYS Clock Frequency")
                             << QStringLiteral("MHz");
        QTest::newRow("no brackets") << QStringLiteral("Widgets") << QStringLiteral("Widgets") << QString();
    }
    void metricUnits()
    {
        QFETCH(QString, metric);
        QFETCH(QString, name);
        QFETCH(QString, unit);
        QCOMPARE(splitMetricUnit(metric), std::make_pair(name, unit));
    }

    void gpuIdWithoutBracket()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.sqlite"));
        QCOMPARE(writeGpuMetrics(path, { { 0x2203, QStringLiteral("GPU metrics"), 1, kUserTxReq } },
                     { { 10, 0x2203, 1, 3 }, { 30, 0x2203, 1, 4 }, { 20, 0x2203, 1, 6 } }),
            QString());
        const GpuMetricsResult r = readGpuMetricsNvlink(path);
        QVERIFY(r.data);
        QCOMPARE(r.data->series.at(0).gpu, 3); // typeId & 0xFF
        QCOMPARE(vec(r.data->series.at(0).time), (std::vector<TimeNs> { 10, 20, 30 })); // sorted
        QCOMPARE(vec(r.data->series.at(0).percent), (std::vector<float> { 3, 6 }));
    }

    // The timeline and the NVLink pane ask for a profile's metrics at once: both get the one read, and its NVLink
    // view is the NVLink-only read's.
    void oneSharedReadPerProfile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shared.sqlite"));
        QCOMPARE(writeGpuMetrics(path,
                     { { 0x1100, QStringLiteral("GPU Metrics [0] (GH100)"), 2, kUserTxReq },
                         { 0x1100, QStringLiteral("GPU Metrics [0] (GH100)"), 3, kSm } },
                     { { 100, 0x1100, 2, 7 }, { 100, 0x1100, 3, 40 }, { 200, 0x1100, 2, 9 }, { 200, 0x1100, 3, 41 },
                         { 300, 0x1100, 2, 1 } }),
            QString());
        test::ProfileBuilder b;
        const ProfilePtr profile = b.build(path);
        GpuMetricCountersResult first, second;
        std::thread other([&] { second = sharedGpuMetricCounters(profile); });
        first = sharedGpuMetricCounters(profile);
        other.join();
        QVERIFY2(first.data, qPrintable(first.error));
        QCOMPARE(first.data.get(), second.data.get());
        QCOMPARE(first.data->counters.size(), std::size_t(2)); // NVLink TX, SMs Active
        QCOMPARE(sharedGpuMetricCounters(profile).data.get(), first.data.get());

        const GpuMetricsResult nvlink = nvlinkFromCounters(*first.data);
        QVERIFY(nvlink.data);
        QCOMPARE(nvlink.data->series.size(), std::size_t(1));
        QCOMPARE(vec(nvlink.data->series[0].percent), (std::vector<float> { 7, 9 }));
        QCOMPARE(nvlink.data->rows, 3); // the NVLink metric's rows only
        QCOMPARE(nvlink.data->metrics, QStringList { kUserTxReq });
        QCOMPARE(nvlink.data->chips.at(0), QStringLiteral("GH100"));

        // Once nobody holds it, the next caller reads it again.
        first = {};
        second = {};
        const GpuMetricCountersResult again = sharedGpuMetricCounters(profile);
        QVERIFY(again.data);
        QCOMPARE(again.data->counters.size(), std::size_t(2));
    }

    void exportWithoutMetrics()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("k.sqlite"));
        QCOMPARE(writeScenarioExport(path), QString());
        const GpuMetricsResult r = readGpuMetricsNvlink(path);
        QVERIFY(r.error.isEmpty());
        QVERIFY(!r.data);
        QVERIFY(!readGpuMetricsNvlink(dir.filePath(QStringLiteral("missing.sqlite"))).error.isEmpty());
    }

    void kernelsFromExport_data()
    {
        QTest::addColumn<bool>("qtSql");
        QTest::addRow("native handle") << false;
        QTest::addRow("Qt SQL queries") << true; // no native statement: names' types come through Statement
    }
    void kernelsFromExport()
    {
        QFETCH(bool, qtSql);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("k.sqlite"));
        QCOMPARE(writeScenarioExport(path), QString());
        QString error;
        if (qtSql)
            qputenv("NSW_SQLITE_ACCESS", "qtsql");
        const auto db = SqliteDb::open(path, &error);
        qunsetenv("NSW_SQLITE_ACCESS");
        QVERIFY2(db, qPrintable(error));
        QCOMPARE(db->access(), qtSql ? SqliteAccess::QtSql : SqliteAccess::Native);
        // Window = interval 2 of the scenario, [12 ms, 13 ms): the kernels of device 0 that overlap it, by start.
        const auto spans = kernelSpansFromExport(*db, 0, { { 12000000, 13000000 } }, &error);
        QVERIFY2(spans, qPrintable(error));
        QVERIFY(spans->deviceHasKernels);
        QStringList names;
        for (std::size_t i = 0; i < spans->size(); ++i)
            names << spans->nameOf(i) + (spans->nccl[i] ? QStringLiteral(" [NCCL]") : QString());
        QCOMPARE(
            names, qsl({ "persistentKernel", "ncclDevKernel_AllReduce [NCCL]", "gemm_kernel", "elementwise_kernel" }));
        QCOMPARE(spans->row[1], 2u); // rowid
        QCOMPARE(spans->stream[1], 13u);
        // Two windows; a kernel overlapping both is listed once.
        const auto two = kernelSpansFromExport(*db, 0, { { 14000000, 15000000 }, { 11900000, 12000000 } }, &error);
        QCOMPARE(two->size(), std::size_t(4)); // persistent, AllReduce, before_kernel, SendRecv
        const auto none = kernelSpansFromExport(*db, 5, { { 0, 1000000000 } }, &error);
        QVERIFY(none && !none->deviceHasKernels && none->size() == 0);
    }

    // Damaged rows of the GPU are counted, a name missing from StringIds is said and shown as kernel_ID.
    void kernelsFromADamagedExport()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("k.sqlite"));
        QCOMPARE(writeScenarioExport(path), QString());
        qint64 damaged = 0;
        {
            SqliteWriter w(path);
            QVERIFY(w.ok());
            QCOMPARE(w.exec(QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon' "
                                           "WHERE deviceId = 0 AND rowid IN (1, 5, 7)")),
                QString());
            QCOMPARE(w.exec(QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET shortName = 999999 WHERE rowid = 2")),
                QString());
            QSqlQuery q(QSqlDatabase::database(w.name(), false));
            QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = 0 AND "
                                          "typeof(start) != 'integer'"))
                && q.next());
            damaged = q.value(0).toLongLong();
        }
        QVERIFY(damaged > 0);
        QString error;
        const auto db = SqliteDb::open(path, &error);
        QVERIFY2(db, qPrintable(error));
        const auto spans = kernelSpansFromExport(*db, 0, { { 12000000, 13000000 } }, &error);
        QVERIFY2(spans, qPrintable(error));
        QCOMPARE(spans->warnings.size(), 2);
        QVERIFY2(spans->warnings[0].contains(QStringLiteral(": %1 rows skipped").arg(damaged)),
            qPrintable(spans->warnings[0]));
        QVERIFY2(spans->warnings[1].startsWith(QStringLiteral("1 string ids are missing from StringIds")),
            qPrintable(spans->warnings[1]));
        QStringList names;
        for (std::size_t i = 0; i < spans->size(); ++i)
            names << spans->nameOf(i);
        QVERIFY2(names.contains(QStringLiteral("kernel_999999")), qPrintable(names.join(u',')));
    }
};

QTEST_GUILESS_MAIN(TestGpuMetrics)
#include "tst_gpumetrics.moc"
