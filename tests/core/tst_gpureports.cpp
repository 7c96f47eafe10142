// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/reports/reportregistry.h"
#include "core/stats/gpureports.h"
#include "core/stats/reportformat.h"
#include "core/stats/reports.h"
#include "profilebuilder.h"

#include <QBuffer>
#include <QTest>

using namespace nsw;
using namespace nsw::test;

/// cuda_gpu_sum / cuda_gpu_trace on hand-made profiles; expected lines worked out in the comments.
class TestGpuReports : public QObject
{
    Q_OBJECT
private:
    static QStringList lines(const QString& csv) { return csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }

    static const QString& sumHeader()
    {
        static const QString h = QStringLiteral(
            "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Category,Operation");
        return h;
    }

    /// Kernels "void a(int)" 100 + 300 ns, "b" 400, "c, with comma" 50 + 50 + 50 + 51; Host-to-Device copies of
    /// 100 and 200 ns; a memset of 50 ns.
    static ProfilePtr mixedProfile()
    {
        ProfileBuilder b;
        const ThreadIndex t = b.thread(b.process(10), 10);
        b.kernel(t, 0, 10, 100, 200, QStringLiteral("void a(int)"));
        b.kernel(t, 20, 30, 300, 600, QStringLiteral("void a(int)"));
        b.kernel(t, 40, 50, 1000, 1400, QStringLiteral("b"));
        b.kernel(t, 60, 70, 2000, 2050, QStringLiteral("c, with comma"));
        b.kernel(t, 80, 90, 2100, 2150, QStringLiteral("c, with comma"));
        b.kernel(t, 100, 110, 2200, 2250, QStringLiteral("c, with comma"));
        b.kernel(t, 120, 140, 2300, 2351, QStringLiteral("c, with comma"));
        b.memOp(t, 1600, 1603, 3000, 3100, 1, 1000000);
        b.memOp(t, 1610, 1614, 3200, 3400, 1, 3000000);
        b.memOp(t, 1620, 1626, 3500, 3550, MemOpTable::kMemset, 8388608);
        return b.build();
    }

private Q_SLOTS:
    void summaryMixesKernelsAndMemoryOperations()
    {
        // Grand total 400 + 400 + 300 + 201 + 50 = 1351: 29.61 %, 29.61, 22.21, 14.88, 3.70.
        const QStringList expected = {
            sumHeader(),
            QStringLiteral("29.6,400,1,400.0,400.0,400,400,0.0,CUDA_KERNEL,b"),
            QStringLiteral("29.6,400,2,200.0,200.0,100,300,141.4,CUDA_KERNEL,void a(int)"),
            QStringLiteral("22.2,300,2,150.0,150.0,100,200,70.7,MEMORY_OPER,[CUDA memcpy Host-to-Device]"),
            QStringLiteral("14.9,201,4,50.3,50.0,50,51,0.5,CUDA_KERNEL,\"c, with comma\""),
            QStringLiteral("3.7,50,1,50.0,50.0,50,50,0.0,MEMORY_OPER,[CUDA memset]"),
        };
        QCOMPARE(lines(reportToCsv(cudaGpuSum(*mixedProfile(), KernelNameMode::Demangled))), expected);
    }

    void summaryTiesKeepNameOrder()
    {
        // Three totals of 400 ns: nsys orders only by total, so ties stay in its GROUP BY order, the names' bytes
        // ('[' < 'a' < 'z'), not by instances as cuda_gpu_kern_sum does (which would put "zeta" before "alpha").
        ProfileBuilder b;
        const ThreadIndex t = b.thread(b.process(1), 1);
        b.kernel(t, 0, 1, 10, 410, QStringLiteral("zeta"));
        b.kernel(t, 2, 3, 500, 600, QStringLiteral("alpha"));
        b.kernel(t, 4, 5, 700, 1000, QStringLiteral("alpha"));
        b.memOp(t, 6, 7, 2000, 2400, MemOpTable::kMemset, 64);
        const QStringList expected = {
            sumHeader(),
            QStringLiteral("33.3,400,1,400.0,400.0,400,400,0.0,MEMORY_OPER,[CUDA memset]"),
            QStringLiteral("33.3,400,2,200.0,200.0,100,300,141.4,CUDA_KERNEL,alpha"),
            QStringLiteral("33.3,400,1,400.0,400.0,400,400,0.0,CUDA_KERNEL,zeta"),
        };
        QCOMPARE(lines(reportToCsv(cudaGpuSum(*b.build(), KernelNameMode::Demangled))), expected);
    }

    void summaryFocus()
    {
        // [2000, 2300): three of the four "c" kernels (the fourth starts at 2300); nothing else overlaps.
        FocusRange focus;
        focus.start = 2000;
        focus.end = 2300;
        const QStringList expected
            = { sumHeader(), QStringLiteral("100.0,150,3,50.0,50.0,50,50,0.0,CUDA_KERNEL,\"c, with comma\"") };
        QCOMPARE(lines(reportToCsv(cudaGpuSum(*mixedProfile(), KernelNameMode::Demangled, focus))), expected);
    }

    void trace()
    {
        ProfileBuilder b;
        const ThreadIndex t = b.thread(b.process(10), 10);
        b.gpu(0, QStringLiteral("Test GPU"));
        b.kernel(t, 0, 5, 100, 150, QStringLiteral("k")); // correlation 1
        b.memOp(t, 10, 12, 100, 4100, 1, 16384); // 2: same start as the kernel
        b.memOp(t, 20, 22, 100, 100, MemOpTable::kMemset, 1000000); // 3: same start, zero duration
        b.memOp(t, 30, 31, 50, 53, 2, 1000); // 4
        MemOpTable& m = b.profile().memops;
        m.srcKind = { 0, 2, 2 }; // Pageable, (memset) Device, Device
        m.dstKind = { 2, MemOpTable::kNoMemKind, 1 }; // Device, -, Pinned
        const ProfilePtr p = b.build();
        const_cast<Profile&>(*p).meta.tables.append(QStringLiteral("TARGET_INFO_GPU"));
        // By start; at 100 the kernel, then the copy, then the memset (nsys's UNION ALL order).
        // Throughput = bytes * (10^9 / duration), integer division: 1000 * 333333333 = 333333.333 MB/s;
        // 16384 * 250000 = 4096.000 MB/s; none for a zero duration (SQLite: division by zero is NULL).
        const QStringList expected = {
            QStringLiteral("Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),"
                           "DymSMem (MB),Bytes (MB),Throughput (MBps),SrcMemKd,DstMemKd,Device,Ctx,Strm,Name"),
            QStringLiteral(
                "50,3,4,,,,,,,,,,0.001,333333.333,Device,Pinned,Test GPU (0),1,7,[CUDA memcpy Device-to-Host]"),
            QStringLiteral("100,50,1,1,1,1,128,1,1,32,0.000,0.000,,,,,Test GPU (0),1,7,k"),
            QStringLiteral(
                "100,4000,2,,,,,,,,,,0.016,4096.000,Pageable,Device,Test GPU (0),1,7,[CUDA memcpy Host-to-Device]"),
            QStringLiteral("100,0,3,,,,,,,,,,1.000,,Device,,Test GPU (0),1,7,[CUDA memset]"),
        };
        const ReportTable table = cudaGpuTrace(*p);
        QVERIFY(table.rows.empty()); // made on demand
        QCOMPARE(lines(reportToCsv(table)), expected);
    }

    void jsonIsStreamedAsDumped()
    {
        // writeJsonDocument() streams the rows; the bytes must be those of the whole document dumped at once, for one
        // report and for several (deeper indentation), rows or none.
        const ProfilePtr p = mixedProfile();
        const ReportTable trace = cudaGpuTrace(*p);
        const ReportTable sum = cudaGpuSum(*p, KernelNameMode::Demangled);
        ReportTable empty = sum;
        empty.rows.clear();
        const std::vector<const ReportTable*> reports { &trace, &sum, &empty };
        nlohmann::ordered_json whole = nlohmann::ordered_json::array();
        nlohmann::ordered_json shells = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < reports.size(); ++i) {
            whole.push_back(reportToJson(*reports[i]));
            shells.push_back(reportJsonShell(*reports[i], i));
            whole.back()["focus"] = "after the rows";
            shells.back()["focus"] = "after the rows";
        }
        QBuffer several;
        several.open(QIODevice::WriteOnly);
        QVERIFY(writeJsonDocument(shells, reports, several));
        QCOMPARE(several.data(), QByteArray::fromStdString(whole.dump(2) + "\n"));
        QBuffer one;
        one.open(QIODevice::WriteOnly);
        QVERIFY(writeJsonDocument(reportJsonShell(trace, 0), { &trace }, one));
        QCOMPARE(one.data(), QByteArray::fromStdString(reportToJson(trace).dump(2) + "\n"));
    }

    void traceDeviceWithoutGpuTable()
    {
        // No TARGET_INFO_GPU (trimmed exports): printf('%s (%d)', NULL, 0) gives " (0)".
        ProfileBuilder b;
        const ThreadIndex t = b.thread(b.process(1), 1);
        b.kernel(t, 0, 5, 100, 150, QStringLiteral("k"));
        const ProfilePtr p = b.build(); // the table's rows read it
        const ReportTable table = cudaGpuTrace(*p);
        std::vector<ReportValue> buffer;
        QCOMPARE(std::get<QString>(table.rowAt(0, buffer)[16]), QStringLiteral(" (0)"));
    }

    void skipped_data()
    {
        QTest::addColumn<QString>("report");
        QTest::addColumn<QStringList>("tables");
        QTest::addColumn<QString>("message");
        const QString noData = QStringLiteral("No data available.");
        const QString noEnum = QStringLiteral("/data/x.sqlite does not contain ENUM_CUDA_MEMCPY_OPER table.");
        const QStringList kernel { QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL") };
        const QStringList memset { QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET") };
        const QStringList memcpy { QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY") };
        QTest::addRow("sum, no GPU table")
            << QStringLiteral("gpusum") << QStringList()
            << QStringLiteral("/data/x.sqlite does not contain GPU kernel/memory operations data.");
        QTest::addRow("sum, empty kernel table") << QStringLiteral("cuda_gpu_sum") << kernel << noData;
        QTest::addRow("sum, empty memset table") << QStringLiteral("cuda_gpu_sum:base") << memset << noData;
        QTest::addRow("sum, copies without enum") << QStringLiteral("cuda_gpu_sum") << memcpy << noEnum;
        QTest::addRow("trace, no GPU table") << QStringLiteral("gputrace") << QStringList()
                                             << QStringLiteral("/data/x.sqlite does not contain GPU trace data.");
        QTest::addRow("trace, empty kernel table") << QStringLiteral("cuda_gpu_trace") << kernel << noData;
        QTest::addRow("trace, copies without enum") << QStringLiteral("cuda_gpu_trace") << memcpy << noEnum;
    }
    void skipped()
    {
        QFETCH(QString, report);
        QFETCH(QStringList, tables);
        QFETCH(QString, message);
        ProfileBuilder b;
        b.process(1);
        ProfilePtr p = b.build(QStringLiteral("/data/x.sqlite"));
        Profile& profile = const_cast<Profile&>(*p);
        profile.meta.tables += tables;
        if (tables.contains(QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY")))
            profile.meta.tables.removeAll(QStringLiteral("ENUM_CUDA_MEMCPY_OPER"));
        QStringList arguments;
        const ReportSpec* spec = findReport(report, &arguments);
        QVERIFY(spec);
        const ReportTable t = spec->compute(*p, arguments, {});
        QCOMPARE(t.skipped, message);
        QCOMPARE(t.rowCount(), std::size_t(0));
    }

    void legacyNamesForTheStatisticsPane()
    {
        // Without ENUM_CUDA_MEMCPY_OPER the pane shows cuda_gpu_sum with nsys 2022.4's copy names and a note.
        ProfilePtr p = mixedProfile();
        const_cast<Profile&>(*p).meta.tables.removeAll(QStringLiteral("ENUM_CUDA_MEMCPY_OPER"));
        QVERIFY(!cudaGpuSum(*p, KernelNameMode::Demangled).skipped.isEmpty());
        const ReportTable t = legacyMemOpReport(QStringLiteral("cuda_gpu_sum"), *p);
        QVERIFY(t.skipped.isEmpty());
        QVERIFY(!t.note.isEmpty());
        QCOMPARE(t.rows.size(), std::size_t(5));
        QCOMPARE(std::get<QString>(t.rows[2].back()), QStringLiteral("[CUDA memcpy HtoD]"));
        QVERIFY(!legacyMemOpReport(QStringLiteral("cuda_gpu_trace"), *p).skipped.isEmpty());
    }

    void traceTakesNoArguments()
    {
        QStringList arguments;
        const ReportSpec* spec = findReport(QStringLiteral("gputrace:base"), &arguments);
        QVERIFY(spec);
        QCOMPARE(spec->name, QStringLiteral("cuda_gpu_trace"));
        QVERIFY(!spec->arguments.contains(QStringLiteral("base")));
    }
};

QTEST_GUILESS_MAIN(TestGpuReports)
#include "tst_gpureports.moc"
