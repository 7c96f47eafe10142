// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvlink/ccljson.h"
#include "core/nvlink/nvf1reader.h"
#include "expectedjson.h"
#include "nvlinkscenario.h"

#include <QtTest>

using namespace nsw;
using namespace nsw::test;

namespace {

struct Fixture
{
    std::shared_ptr<Nvf1Recording> recording;
    ProfilePtr profile;
    std::shared_ptr<KernelOverlapIndex> device0;
    ClockAlignment alignment;

    Fixture()
    {
        const QByteArray bytes = scenarioRecording();
        recording = parseNvf1Bytes(bytes.constData(), std::size_t(bytes.size()), QStringLiteral("s.bin"), 0).recording;
        profile = scenarioProfile();
        device0 = std::make_shared<KernelOverlapIndex>(kernelSpansFromProfile(profile, 0));
        alignment = alignClocks(profile->meta.sessionStartUtcNs, recording->firstUs, 0);
    }

    std::string peakKernels(const NvlinkFilter& filter, std::size_t top, bool ncclOnly) const
    {
        const auto series = selectSeries(recording->links, recording->totals, filter);
        CclPeakOptions o;
        o.top = top;
        o.ncclOnly = ncclOnly;
        OrderedJson j;
        j["peak_kernels"] = cclPeakKernels(series, topIntervals(series, top), *device0, alignment, o);
        return pythonJsonDumps(j);
    }
};

} // namespace

class TestCclJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pythonDumps_data()
    {
        QTest::addColumn<QString>("json"); // input, parsed by nlohmann
        QTest::addColumn<QString>("expected"); // json.dumps(..., indent=2)
        QTest::newRow("empty containers") << qs(R"({"a": [], "b": {}})") << qs("{\n  \"a\": [],\n  \"b\": {}\n}");
        QTest::newRow("nested") << qs(R"([1, [true, null], {"x": "y"}])")
                                << qs("[\n  1,\n  [\n    true,\n    null\n  ],\n  {\n    \"x\": \"y\"\n  }\n]");
        QTest::newRow("float repr")
            << qs(R"([1.0, 0.1, 1e16, 1e-05, 0.0001, 123456789012345678.0, -2.5, 1700000000001500.0])")
            << qs("[\n  1.0,\n  0.1,\n  1e+16,\n  1e-05,\n  0.0001,\n  1.2345678901234568e+17,\n"
                  "  -2.5,\n  1700000000001500.0\n]");
        QTest::newRow("ensure_ascii")
            << QStringLiteral("[\"caf\u00e9 \\\"q\\\" \\\\ \\n\\t \\u0001 \\u007f \U0001F600\"]")
            << qs("[\n  \"caf\\u00e9 \\\"q\\\" \\\\ \\n\\t \\u0001 \\u007f \\ud83d\\ude00\"\n]");
        QTest::newRow("big ints")
            << qs("[9223372036854775807, -9223372036854775808, 18446744073709551615]")
            << qs("[\n  9223372036854775807,\n  -9223372036854775808,\n  18446744073709551615\n]");
    }
    void pythonDumps()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const OrderedJson j = OrderedJson::parse(json.toStdString());
        QCOMPARE(QString::fromStdString(pythonJsonDumps(j)), expected);
    }

    void nonFinite()
    {
        OrderedJson j = OrderedJson::array();
        j.push_back(std::numeric_limits<double>::quiet_NaN());
        j.push_back(std::numeric_limits<double>::infinity());
        QCOMPARE(QString::fromStdString(pythonJsonDumps(j, 0)), QStringLiteral("[\nNaN,\nInfinity\n]"));
    }

    void timestampIso_data()
    {
        QTest::addColumn<qint64>("us");
        QTest::addColumn<QString>("iso");
        QTest::newRow("whole second") << qint64(1700000000000000) << QStringLiteral("2023-11-14T22:13:20.000Z");
        QTest::newRow("ms truncated, not rounded")
            << qint64(1700000000002999) << QStringLiteral("2023-11-14T22:13:20.002Z");
        QTest::newRow("µs just below a second")
            << qint64(1700000000999999) << QStringLiteral("2023-11-14T22:13:20.999Z");
        QTest::newRow("epoch") << qint64(0) << QStringLiteral("1970-01-01T00:00:00.000Z");
        QTest::newRow("2026") << qint64(1779782390287654) << QStringLiteral("2026-05-26T07:59:50.287Z");
    }
    void timestampIso()
    {
        QFETCH(qint64, us);
        QFETCH(QString, iso);
        QCOMPARE(cclTimestampIso(us), iso);
    }

    void peakKernelsTop1()
    {
        const Fixture f;
        QCOMPARE(QString::fromStdString(f.peakKernels({}, 1, false)), QString::fromLatin1(kExpectedPeakKernelsTop1));
    }

    void peakKernelsTopN()
    {
        const Fixture f;
        NvlinkFilter rx;
        rx.direction = LinkDirection::Rx;
        QCOMPARE(
            QString::fromStdString(f.peakKernels(rx, 2, true)), QString::fromLatin1(kExpectedPeakKernelsRxTop2Nccl));
    }

    void peakKernelsAggregated()
    {
        const Fixture f;
        NvlinkFilter sum;
        sum.aggregateLinks = true;
        const OrderedJson j = OrderedJson::parse(f.peakKernels(sum, 1, false));
        const OrderedJson& iv = j["peak_kernels"]["peak_interval"];
        QCOMPARE(iv["throughput_gbps"].get<double>(), 3.072);
        QCOMPARE(iv["bytes_transferred"].get<qint64>(), qint64(3000 * 1024));
        QVERIFY(iv["link_id"].is_null());
        QCOMPARE(j["peak_kernels"]["num_kernels"].get<int>(), 4);
    }

    void peakKernelsErrorsAndEdges()
    {
        const Fixture f;
        NvlinkFilter none;
        none.links = { 9 };
        QCOMPARE(QString::fromStdString(f.peakKernels(none, 1, false)),
            QStringLiteral("{\n  \"peak_kernels\": {\n    \"peak_interval\": null,\n    \"kernels\": [],\n"
                           "    \"error\": \"No NVLink intervals found after filtering\"\n  }\n}"));
        // --top 0: the tool slices no peak but still answers in the multi-peak form.
        QCOMPARE(QString::fromStdString(f.peakKernels({}, 0, false)),
            QStringLiteral("{\n  \"peak_kernels\": {\n    \"peaks\": [],\n    \"num_peaks\": 0\n  }\n}"));
        QCOMPARE(QString::fromStdString(pythonJsonDumps(cclPeakError(QStringLiteral("No kernels found for GPU 3")))),
            QStringLiteral(
                "{\n  \"peak_interval\": null,\n  \"kernels\": [],\n  \"error\": \"No kernels found for GPU 3\"\n}"));
    }

    void nvlinkAll()
    {
        const Fixture f;
        const auto all = selectSeries(f.recording->links, f.recording->totals, {});
        OrderedJson j;
        j["max_throughput"] = cclMaxThroughput(all);
        j["avg_throughput"] = cclAvgThroughput(all);
        j["total_communication"] = cclTotalCommunication(all, false);
        QCOMPARE(QString::fromStdString(pythonJsonDumps(j)), QString::fromLatin1(kExpectedNvlinkAll));
    }

    void throughputMetricsFiltered()
    {
        const Fixture f;
        NvlinkFilter tx;
        tx.direction = LinkDirection::Tx;
        const auto txSeries = selectSeries(f.recording->links, f.recording->totals, tx);
        QCOMPARE(QString::fromStdString(pythonJsonDumps(cclTotalCommunication(txSeries, true))),
            QStringLiteral("{\n  \"total_bytes\": 3174400,\n  \"total_gb\": 0.0031744\n}"));
        NvlinkFilter l0rx;
        l0rx.links = { 0 };
        l0rx.direction = LinkDirection::Rx;
        const OrderedJson max = cclMaxThroughput(selectSeries(f.recording->links, f.recording->totals, l0rx));
        QCOMPARE(max["max_throughput_gbps"].get<double>(), 0.512);
        QCOMPARE(max["timestamp_us"].get<qint64>(), qint64(1700000000004000));
        NvlinkFilter missing;
        missing.links = { 5 };
        const auto nothing = selectSeries(f.recording->links, f.recording->totals, missing);
        QCOMPARE(QString::fromStdString(pythonJsonDumps(cclMaxThroughput(nothing))),
            QStringLiteral(
                "{\n  \"max_throughput_gbps\": 0.0,\n  \"link_id\": null,\n  \"direction\": null,\n"
                "  \"timestamp_us\": null,\n  \"interval_duration_us\": null,\n  \"interval_bytes\": null\n}"));
        QCOMPARE(QString::fromStdString(pythonJsonDumps(cclAvgThroughput(nothing))),
            QStringLiteral("{\n  \"avg_throughput_gbps\": 0.0,\n  \"total_duration_us\": 0,\n  \"num_intervals\": 0,\n"
                           "  \"num_active_intervals\": 0\n}"));
        QCOMPARE(QString::fromStdString(pythonJsonDumps(cclTotalCommunication(nothing, true))),
            QStringLiteral("{\n  \"total_bytes\": 0,\n  \"total_gb\": 0.0,\n  \"rx_bytes\": 0,\n  \"tx_bytes\": 0\n}"));
    }
};

QTEST_GUILESS_MAIN(TestCclJson)
#include "tst_ccljson.moc"
