// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/reports/reportregistry.h"
#include "core/stats/kernexecreports.h"
#include "core/stats/reportformat.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;
using namespace nsw::test;

/// cuda_kern_exec_sum / cuda_kern_exec_trace on a hand-made profile; every expected line is worked out in the
/// comments from the fixture's times.
class TestKernExecReports : public QObject
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
        const ThreadIndex t10 = b.thread(p, 10);
        const ThreadIndex t11 = b.thread(p, 11);
        // (call, kernel) -> API, queue (kernel start - call end, none when negative), kernel, total (call start to
        // the later of call end and kernel end):
        // K1 t10 dev0 "void a(int)" [0,10]   [100,200]   -> 10, 90, 100, 200
        b.kernel(t10, 0, 10, 100, 200, QStringLiteral("void a(int)"));
        // K2 t10 dev0 "void a(int)" [20,30]  [25,75]     -> 10, -, 50, 55
        b.kernel(t10, 20, 30, 25, 75, QStringLiteral("void a(int)"));
        // K4 t11 dev1 "b"           [40,60]  [400,500]   -> 20, 340, 100, 460 (added before K3: same call start)
        b.kernel(t11, 40, 60, 400, 500, QStringLiteral("b"), 1);
        // K3 t10 dev0 "b"           [40,50]  [300,310]   -> 10, 250, 10, 270
        b.kernel(t10, 40, 50, 300, 310, QStringLiteral("b"));
        // K5: no launching call in the profile: left out.
        b.kernelWithoutApi(p, 600, 700, QStringLiteral("b"));
        // K6 t11 dev1 "a"           [1000,1010] [1100,1270] -> 10, 90, 170, 270 (TAvg ties with K3's group)
        b.kernel(t11, 1000, 1010, 1100, 1270, QStringLiteral("a"), 1);
        // K7 t11 dev1 "c"           [2000,2100] [2050,2060] -> 100, -, 10, 100 (no queue time at all)
        b.kernel(t11, 2000, 2100, 2050, 2060, QStringLiteral("c"), 1);
        m_profile = b.build();
    }

    void summary()
    {
        // Groups (PID, TID, device, API, kernel), sorted by TAvg descending; the tie at 270.0 keeps the group order
        // (TID 10 before TID 11), not the name order ("a" < "b").
        // "void a(int)": T 200, 55 -> avg 127.5, stddev 145 / sqrt(2) = 102.53; K 100, 50 -> 75.0, 35.36; queue
        // only K1's 90 (QCount 1). "c": no queue time: Q avg/med/min/max NULL, stddev 0.0 (nsys's stdev()).
        const QString header = QStringLiteral(
            "PID,TID,DevId,Count,QCount,TAvg (ns),TMed (ns),TMin (ns),TMax (ns),TStdDev (ns),AAvg (ns),AMed (ns),"
            "AMin (ns),AMax (ns),AStdDev (ns),QAvg (ns),QMed (ns),QMin (ns),QMax (ns),QStdDev (ns),KAvg (ns),"
            "KMed (ns),KMin (ns),KMax (ns),KStdDev (ns),API Name,Kernel Name");
        const QStringList expected = {
            header,
            QStringLiteral("10,11,1,1,1,460.0,460.0,460,460,0.0,20.0,20.0,20,20,0.0,340.0,340.0,340,340,0.0,"
                           "100.0,100.0,100,100,0.0,cudaLaunchKernel,b"),
            QStringLiteral("10,10,0,1,1,270.0,270.0,270,270,0.0,10.0,10.0,10,10,0.0,250.0,250.0,250,250,0.0,"
                           "10.0,10.0,10,10,0.0,cudaLaunchKernel,b"),
            QStringLiteral("10,11,1,1,1,270.0,270.0,270,270,0.0,10.0,10.0,10,10,0.0,90.0,90.0,90,90,0.0,"
                           "170.0,170.0,170,170,0.0,cudaLaunchKernel,a"),
            QStringLiteral("10,10,0,2,1,127.5,127.5,55,200,102.5,10.0,10.0,10,10,0.0,90.0,90.0,90,90,0.0,"
                           "75.0,75.0,50,100,35.4,cudaLaunchKernel,void a(int)"),
            QStringLiteral("10,11,1,1,0,100.0,100.0,100,100,0.0,100.0,100.0,100,100,0.0,,,,,0.0,"
                           "10.0,10.0,10,10,0.0,cudaLaunchKernel,c"),
        };
        QCOMPARE(lines(reportToCsv(cudaKernExecSum(*m_profile, KernelNameMode::Demangled))), expected);
    }

    void summaryBaseNames()
    {
        // ":base" groups on the short name: "void a(int)" -> "void a".
        const ReportTable t = cudaKernExecSum(*m_profile, KernelNameMode::Short);
        QCOMPARE(t.rows.size(), std::size_t(5));
        QCOMPARE(std::get<QString>(t.rows[3].back()), QStringLiteral("void a"));
    }

    void trace()
    {
        // By call start; K4 and K3 share the start 40 and keep the kernel table's order (K4 was added first).
        const QStringList expected = {
            QStringLiteral("API Start (ns),API Dur (ns),Queue Start (ns),Queue Dur (ns),Kernel Start (ns),"
                           "Kernel Dur (ns),Total Dur (ns),PID,TID,DevId,API Function,GridXYZ,BlockXYZ,Kernel Name"),
            QStringLiteral("0,10,10,90,100,100,200,10,10,0,cudaLaunchKernel,   1    1    1, 128    1    1,void a(int)"),
            QStringLiteral("20,10,,,25,50,55,10,10,0,cudaLaunchKernel,   1    1    1, 128    1    1,void a(int)"),
            QStringLiteral("40,20,60,340,400,100,460,10,11,1,cudaLaunchKernel,   1    1    1, 128    1    1,b"),
            QStringLiteral("40,10,50,250,300,10,270,10,10,0,cudaLaunchKernel,   1    1    1, 128    1    1,b"),
            QStringLiteral("1000,10,1010,90,1100,170,270,10,11,1,cudaLaunchKernel,   1    1    1, 128    1    1,a"),
            QStringLiteral("2000,100,,,2050,10,100,10,11,1,cudaLaunchKernel,   1    1    1, 128    1    1,c"),
        };
        const ReportTable t = cudaKernExecTrace(*m_profile, KernelNameMode::Demangled);
        QVERIFY(t.rows.empty()); // made on demand
        QCOMPARE(t.rowCount(), std::size_t(6));
        QCOMPARE(lines(reportToCsv(t)), expected);
    }

    void focusKeepsLaunchesWhoseCallAndKernelOverlap()
    {
        // [20, 120): K1's kernel overlaps but not its call [0,10]; K3's call [40,50] overlaps but not its kernel;
        // only K2 has both inside.
        FocusRange focus;
        focus.start = 20;
        focus.end = 120;
        const ReportTable t = cudaKernExecTrace(*m_profile, KernelNameMode::Demangled, focus);
        QCOMPARE(t.rowCount(), std::size_t(1));
        std::vector<ReportValue> buffer;
        QCOMPARE(std::get<qint64>(t.rowAt(0, buffer)[0]), qint64(20));
        const ReportTable s = cudaKernExecSum(*m_profile, KernelNameMode::Demangled, focus);
        QCOMPARE(s.rows.size(), std::size_t(1));
        QCOMPARE(std::get<qint64>(s.rows[0][3]), qint64(1));
    }

    void skipped_data()
    {
        QTest::addColumn<QString>("report");
        QTest::addColumn<bool>("kernelTable");
        QTest::addColumn<bool>("apiTable");
        QTest::addColumn<QString>("message");
        const QString noKernels = QStringLiteral("/data/x.sqlite does not contain CUDA kernel data.");
        const QString noApi = QStringLiteral("/data/x.sqlite does not contain CUDA API data.");
        const QString noData = QStringLiteral("No data available.");
        QTest::addRow("sum, no kernel table") << QStringLiteral("kernexecsum") << false << true << noKernels;
        QTest::addRow("sum, no API table") << QStringLiteral("cuda_kern_exec_sum") << true << false << noApi;
        QTest::addRow("sum, empty tables") << QStringLiteral("cuda_kern_exec_sum") << true << true << noData;
        QTest::addRow("trace, no kernel table") << QStringLiteral("kernexectrace") << false << false << noKernels;
        QTest::addRow("trace, no API table") << QStringLiteral("cuda_kern_exec_trace") << true << false << noApi;
        QTest::addRow("trace, empty tables") << QStringLiteral("cuda_kern_exec_trace:base") << true << true << noData;
    }
    void skipped()
    {
        QFETCH(QString, report);
        QFETCH(bool, kernelTable);
        QFETCH(bool, apiTable);
        QFETCH(QString, message);
        ProfileBuilder b;
        b.process(1);
        ProfilePtr p = b.build(QStringLiteral("/data/x.sqlite"));
        QStringList& tables = const_cast<Profile&>(*p).meta.tables;
        if (kernelTable)
            tables.append(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"));
        if (apiTable)
            tables.append(QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME"));
        QStringList arguments;
        const ReportSpec* spec = findReport(report, &arguments);
        QVERIFY(spec);
        const ReportTable t = spec->compute(*p, arguments, {});
        QCOMPARE(t.skipped, message);
        QCOMPARE(t.rowCount(), std::size_t(0));
    }

    void kernelMatchesEveryCallWithItsCorrelationId()
    {
        // nsys joins on (correlation id, process): a launch recorded twice (as some exports hold it, by two API
        // layers) gives two rows, in call table order at equal starts and by call start otherwise.
        ProfileBuilder b;
        const ThreadIndex t = b.thread(b.process(7), 7);
        b.kernel(t, 10, 20, 50, 60, QStringLiteral("k")); // call 1: correlation 1
        b.apiCall(t, 5, 30, QStringLiteral("cudaLaunchKernel"), 1); // same correlation, earlier start
        const ProfilePtr p = b.build();
        const QStringList expected = {
            QStringLiteral("5,25,30,20,50,10,55,7,7,0,cudaLaunchKernel,   1    1    1, 128    1    1,k"),
            QStringLiteral("10,10,20,30,50,10,50,7,7,0,cudaLaunchKernel,   1    1    1, 128    1    1,k"),
        };
        QCOMPARE(lines(reportToCsv(cudaKernExecTrace(*p, KernelNameMode::Demangled))).mid(1), expected);
        // One group (both names clean to "cudaLaunchKernel"): T 55 and 50; queues 20 and 30, QCount 2.
        const ReportTable s = cudaKernExecSum(*p, KernelNameMode::Demangled);
        QCOMPARE(s.rows.size(), std::size_t(1));
        QCOMPARE(std::get<qint64>(s.rows[0][3]), qint64(2));
        QCOMPARE(std::get<qint64>(s.rows[0][4]), qint64(2));
        QCOMPARE(std::get<double>(s.rows[0][5]), 52.5);
    }

    void kernelsWithoutCallsGiveNoData()
    {
        ProfileBuilder b;
        const ProcessIndex p = b.process(1);
        b.apiCall(b.thread(p, 1), 0, 5, QStringLiteral("cudaMalloc_v3020"));
        b.kernelWithoutApi(p, 10, 20, QStringLiteral("k"));
        const ProfilePtr profile = b.build();
        QCOMPARE(cudaKernExecSum(*profile, KernelNameMode::Demangled).skipped, QStringLiteral("No data available."));
    }

    void namesAndArguments_data()
    {
        QTest::addColumn<QString>("asked");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("arguments");
        QTest::addRow("2022 sum name") << QStringLiteral("kernexecsum:mangled") << QStringLiteral("cuda_kern_exec_sum")
                                       << QStringList { QStringLiteral("mangled") };
        QTest::addRow("2022 trace name") << QStringLiteral("kernexectrace:base")
                                         << QStringLiteral("cuda_kern_exec_trace")
                                         << QStringList { QStringLiteral("base") };
    }
    void namesAndArguments()
    {
        QFETCH(QString, asked);
        QFETCH(QString, name);
        QFETCH(QStringList, arguments);
        QStringList found;
        const ReportSpec* spec = findReport(asked, &found);
        QVERIFY(spec);
        QCOMPARE(spec->name, name);
        QCOMPARE(found, arguments);
        QVERIFY(spec->arguments.contains(arguments.first()));
    }
};

QTEST_GUILESS_MAIN(TestKernExecReports)
#include "tst_kernexecreports.moc"
