// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/reports/reportregistry.h"
#include "core/stats/reportformat.h"
#include "core/stats/reports.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;
using namespace nsw::test;

/// Every expected line below was computed by hand from the fixture's durations (see the comments).
class TestReports : public QObject
{
    Q_OBJECT
private:
    ProfilePtr m_profile;

    static QStringList lines(const QString& csv) { return csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }

private Q_SLOTS:
    void initTestCase()
    {
        ProfileBuilder b;
        const ProcessIndex p = b.process(10, QStringLiteral("app"));
        const ThreadIndex t = b.thread(p, 10);
        // Kernels: "void a(int)" 100 and 300 ns; "b" 400 ns; "c, with comma" 50, 50, 50, 51 ns.
        // Their launch calls last 10 ns each except the last (20 ns).
        b.kernel(t, 0, 10, 100, 200, QStringLiteral("void a(int)"));
        b.kernel(t, 20, 30, 300, 600, QStringLiteral("void a(int)"));
        b.kernel(t, 40, 50, 1000, 1400, QStringLiteral("b"));
        b.kernel(t, 60, 70, 2000, 2050, QStringLiteral("c, with comma"));
        b.kernel(t, 80, 90, 2100, 2150, QStringLiteral("c, with comma"));
        b.kernel(t, 100, 110, 2200, 2250, QStringLiteral("c, with comma"));
        b.kernel(t, 120, 140, 2300, 2351, QStringLiteral("c, with comma"));
        b.apiCall(t, 200, 1200, QStringLiteral("cudaMalloc_v3020"));
        b.apiCall(t, 1300, 1305, QStringLiteral("cudaGetDeviceProperties_v2_v12000"));
        b.apiCall(t, 1400, 1408, QStringLiteral("cuMemAlloc_v2"));
        b.apiCall(t, 1500, 1502, QStringLiteral("cudaMalloc")); // cleans to the same text: nsys keeps two rows
        // Memory: two Host-to-Device copies of 1 MB and 3 MB taking 100 and 200 ns (calls 3 and 4 ns), one memset of
        // 8 MiB taking 50 ns (call 6 ns).
        b.memOp(t, 1600, 1603, 3000, 3100, 1, 1000000);
        b.memOp(t, 1610, 1614, 3200, 3400, 1, 3000000);
        b.memOp(t, 1620, 1626, 3500, 3550, MemOpTable::kMemset, 8388608);
        // OS runtime: ioctl 100 and 300 ns, plus a row of another event class that osrt_sum ignores.
        b.osrtCall(t, 0, 100, QStringLiteral("ioctl"));
        b.osrtCall(t, 200, 500, QStringLiteral("ioctl"));
        b.osrtCall(t, 600, 9600, QStringLiteral("ioctl"));
        Column<std::uint8_t>& eventClass = b.profile().osrt.eventClass;
        eventClass[eventClass.size() - 1] = 31;
        m_profile = b.build();
    }

    void kernelSummary()
    {
        // Grand total 1001: 400/1001 = 39.96 % -> 40.0; 201/1001 = 20.08 % -> 20.1. Equal totals: fewer instances
        // first. a: stddev 200/sqrt(2) = 141.42. c: mean 50.25 -> 50.3 (exact tie, away from zero), stddev
        // sqrt(0.75/3) = 0.5.
        const QStringList expected = {
            QStringLiteral("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name"),
            QStringLiteral("40.0,400,1,400.0,400.0,400,400,0.0,b"),
            QStringLiteral("40.0,400,2,200.0,200.0,100,300,141.4,void a(int)"),
            QStringLiteral("20.1,201,4,50.3,50.0,50,51,0.5,\"c, with comma\""),
        };
        QCOMPARE(lines(reportToCsv(cudaGpuKernSum(*m_profile, KernelNameMode::Demangled))), expected);
    }

    void kernelSummaryBaseNames()
    {
        const ReportTable t = cudaGpuKernSum(*m_profile, KernelNameMode::Short);
        QCOMPARE(t.rows.size(), std::size_t(3));
        QCOMPARE(std::get<QString>(t.rows[1].back()), QStringLiteral("void a"));
    }

    void apiSummary()
    {
        // Launch calls: 10 x 6 and 20 -> total 80, mean 11.43 -> 11.4, stddev sqrt(85.714/6) = 3.78 -> 3.8.
        // Grand total 1108 ns; shares 90.25 / 7.22 / 0.72 / 0.63 / 0.54 / 0.45 / 0.18 %.
        const QStringList expected = {
            QStringLiteral("Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name"),
            QStringLiteral("90.3,1000,1,1000.0,1000.0,1000,1000,0.0,cudaMalloc"),
            QStringLiteral("7.2,80,7,11.4,10.0,10,20,3.8,cudaLaunchKernel"),
            QStringLiteral("0.7,8,1,8.0,8.0,8,8,0.0,cuMemAlloc_v2"),
            QStringLiteral("0.6,7,2,3.5,3.5,3,4,0.7,cudaMemcpyAsync"),
            QStringLiteral("0.5,6,1,6.0,6.0,6,6,0.0,cudaMemsetAsync"),
            QStringLiteral("0.5,5,1,5.0,5.0,5,5,0.0,cudaGetDeviceProperties_v2_v12000"),
            QStringLiteral("0.2,2,1,2.0,2.0,2,2,0.0,cudaMalloc"),
        };
        QCOMPARE(lines(reportToCsv(cudaApiSum(*m_profile))), expected);
    }

    void memoryByTime()
    {
        // 300 of 350 ns = 85.7 %; stddev of 100 and 200 = 70.71.
        const QStringList expected = {
            QStringLiteral("Time (%),Total Time (ns),Count,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Operation"),
            QStringLiteral("85.7,300,2,150.0,150.0,100,200,70.7,[CUDA memcpy Host-to-Device]"),
            QStringLiteral("14.3,50,1,50.0,50.0,50,50,0.0,[CUDA memset]"),
        };
        QCOMPARE(lines(reportToCsv(cudaGpuMemTimeSum(*m_profile))), expected);
    }

    void memoryBySize()
    {
        // MB = 10^6 bytes, 3 decimals: 8388608 B -> 8.389; stddev of 1 MB and 3 MB = 1.414 MB. Sorted by bytes.
        const QStringList expected = {
            QStringLiteral("Total (MB),Count,Avg (MB),Med (MB),Min (MB),Max (MB),StdDev (MB),Operation"),
            QStringLiteral("8.389,1,8.389,8.389,8.389,8.389,0.000,[CUDA memset]"),
            QStringLiteral("4.000,2,2.000,2.000,1.000,3.000,1.414,[CUDA memcpy Host-to-Device]"),
        };
        QCOMPARE(lines(reportToCsv(cudaGpuMemSizeSum(*m_profile))), expected);
    }

    void osRuntime()
    {
        const QStringList expected = {
            QStringLiteral("Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name"),
            QStringLiteral("100.0,400,2,200.0,200.0,100,300,141.4,ioctl"),
        };
        QCOMPARE(lines(reportToCsv(osrtSum(*m_profile))), expected);
    }

    void skippedReports_data()
    {
        QTest::addColumn<QString>("report");
        QTest::addColumn<QString>("message");
        QTest::addRow("kernels") << QStringLiteral("cuda_gpu_kern_sum")
                                 << QStringLiteral("does not contain CUDA kernel data.");
        QTest::addRow("api") << QStringLiteral("cuda_api_sum") << QStringLiteral("does not contain CUDA trace data.");
        QTest::addRow("memory") << QStringLiteral("cuda_gpu_mem_time_sum")
                                << QStringLiteral("does not contain GPU memory data.");
        QTest::addRow("osrt") << QStringLiteral("osrt_sum")
                              << QStringLiteral("does not contain OS Runtime trace data.");
        // The reports that follow nsys 2022.4, with its messages.
        QTest::addRow("nvtx kernels") << QStringLiteral("nvtxkernsum")
                                      << QStringLiteral("does not contain NV Tools Extension (NVTX) data.");
        QTest::addRow("push/pop") << QStringLiteral("nvtx_pushpop_sum")
                                  << QStringLiteral("does not contain NV Tools Extension (NVTX) data.");
        QTest::addRow("push/pop trace") << QStringLiteral("nvtxpptrace")
                                        << QStringLiteral("does not contain NV Tools Extension (NVTX) data.");
        QTest::addRow("start/end") << QStringLiteral("nvtx_startend_sum")
                                   << QStringLiteral("does not contain NV Tools Extension (NVTX) data.");
        QTest::addRow("api and gpu") << QStringLiteral("apigpusum")
                                     << QStringLiteral("does not contain CUDA API, GPU kernel, nor memory operations "
                                                       "data.");
        QTest::addRow("unified memory") << QStringLiteral("um_sum:rows=3")
                                        << QStringLiteral("does not contain CUDA memory transfers data.");
        QTest::addRow("unified memory totals")
            << QStringLiteral("unifiedmemorytotals") << QStringLiteral("does not contain CUDA memory transfers data.");
        QTest::addRow("cpu page faults") << QStringLiteral(
            "um_cpu_page_faults_sum") << QStringLiteral("does not contain CUDA Unified Memory CPU page faults data.");
        QTest::addRow("openacc") << QStringLiteral("openaccsum")
                                 << QStringLiteral("does not contain OpenACC event data.");
        QTest::addRow("openmp") << QStringLiteral("openmp_sum")
                                << QStringLiteral("does not contain OpenMP event data.");
    }
    void skippedReports()
    {
        QFETCH(QString, report);
        QFETCH(QString, message);
        ProfileBuilder b;
        b.process(1);
        const ProfilePtr empty = b.build(QStringLiteral("/data/empty.sqlite"));
        QStringList arguments;
        const ReportSpec* spec = findReport(report, &arguments);
        QVERIFY(spec);
        const ReportTable t = spec->compute(*empty, arguments, {});
        QCOMPARE(t.skipped, QStringLiteral("/data/empty.sqlite ") + message);
        QVERIFY(t.rows.empty());
    }

    void memoryWithoutEnumTableIsSkippedLikeNsys()
    {
        ProfileBuilder b;
        const ThreadIndex t = b.thread(b.process(1), 1);
        b.memOp(t, 0, 1, 10, 20, 1, 100);
        ProfilePtr p = b.build(QStringLiteral("/data/old.sqlite"));
        const_cast<Profile&>(*p).meta.tables.removeAll(QStringLiteral("ENUM_CUDA_MEMCPY_OPER"));
        QCOMPARE(cudaGpuMemTimeSum(*p).skipped,
            QStringLiteral("/data/old.sqlite does not contain ENUM_CUDA_MEMCPY_OPER table."));
    }

    void apiNameCleanup_data()
    {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QString>("clean");
        QTest::addRow("runtime tag") << QStringLiteral("cudaLaunchKernel_v7000") << QStringLiteral("cudaLaunchKernel");
        QTest::addRow("driver suffix kept") << QStringLiteral("cuMemAlloc_v2") << QStringLiteral("cuMemAlloc_v2");
        QTest::addRow("five-digit tag kept")
            << QStringLiteral("cudaStreamBeginCapture_v10000") << QStringLiteral("cudaStreamBeginCapture_v10000");
        QTest::addRow("double tag kept") << QStringLiteral("cudaGetDeviceProperties_v2_v12000")
                                         << QStringLiteral("cudaGetDeviceProperties_v2_v12000");
        QTest::addRow("exactly six characters") << QStringLiteral("_v1234") << QString();
        QTest::addRow("short name") << QStringLiteral("f_v1") << QStringLiteral("f_v1");
    }
    void apiNameCleanup()
    {
        QFETCH(QString, raw);
        QFETCH(QString, clean);
        QCOMPARE(apiReportName(raw), clean);
    }

    void aliasesAndArguments()
    {
        QStringList arguments;
        const ReportSpec* spec = findReport(QStringLiteral("gpukernsum:base"), &arguments);
        QVERIFY(spec);
        QCOMPARE(spec->name, QStringLiteral("cuda_gpu_kern_sum"));
        QCOMPARE(arguments, QStringList { QStringLiteral("base") });
        QVERIFY(!findReport(QStringLiteral("no_such_report"), nullptr));
    }

    /// Today's names and nsys 2022's names of the reports that follow nsys 2022.4.
    void namesOf2022_data()
    {
        QTest::addColumn<QString>("today");
        QTest::addColumn<QString>("old");
        const std::pair<const char*, const char*> names[] = { { "nvtx_kern_sum", "nvtxkernsum" },
            { "nvtx_pushpop_sum", "nvtxppsum" }, { "nvtx_pushpop_trace", "nvtxpptrace" },
            { "nvtx_startend_sum", "nvtxsesum" }, { "cuda_api_gpu_sum", "apigpusum" }, { "um_sum", "unifiedmemory" },
            { "um_total_sum", "unifiedmemorytotals" }, { "um_cpu_page_faults_sum", "umcpupagefaults" },
            { "openacc_sum", "openaccsum" }, { "openmp_sum", "openmpevtsum" } };
        for (const auto& [today, old] : names)
            QTest::addRow("%s", today) << QString::fromLatin1(today) << QString::fromLatin1(old);
    }
    void namesOf2022()
    {
        QFETCH(QString, today);
        QFETCH(QString, old);
        const ReportSpec* spec = findReport(today, nullptr);
        QVERIFY(spec);
        QCOMPARE(spec->name, today);
        QCOMPARE(findReport(old, nullptr), spec);
    }

    void textFormatLooksLikeNsys()
    {
        const QStringList text = lines(reportToText(cudaGpuMemTimeSum(*m_profile)));
        QCOMPARE(text.size(), 4);
        QVERIFY(text[0].startsWith(QStringLiteral(" Time (%)  Total Time (ns)  Count")));
        QVERIFY(text[1].startsWith(QStringLiteral(" --------  ---------------  -----")));
        QVERIFY(text[2].startsWith(QStringLiteral("     85.7              300      2")));
    }
};

QTEST_GUILESS_MAIN(TestReports)
#include "tst_reports.moc"
