// SPDX-License-Identifier: GPL-3.0-or-later
// The reports that follow nsys 2022.4 on the hand-made exports of statsfixtures.h (their corner cases: NVTX nesting,
// ties and cycles, shared correlation ids, kernels without a call; addresses with faults only, migrations only, a
// zero-duration migration; OpenMP names in two tables, OpenACC events without a source file). Every expected line is
// what the real `nsys stats -f csv` (Nsight Systems 2022.4) printed for the same rows, with its "None" cells empty
// (as the workbench prints NULL) and, for openmp_sum, the OpenMP tables in the file's order (nsys 2022.4 takes them in
// an order that changes from run to run). tst_stats_nsys_exact compares with nsys itself when it is installed.
#include "sqlitefixture.h"
#include "statsfixtures.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <array>

using namespace nsw;

namespace {
enum Fixture : int
{
    NvtxKernels,
    UnifiedMemory,
    Directives,
};
} // namespace

class TestStatsFixtures : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::array<QString, 3> m_fixtures;

    /// A copy of @p fixture that a test may damage.
    QString damageableCopy(Fixture fixture, const QString& name)
    {
        const QString copy = m_dir.filePath(name);
        QFile::remove(copy);
        if (QFile::copy(m_fixtures[fixture], copy))
            QFile(copy).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        return copy;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_fixtures = { test::writeNvtxKernelFixture(m_dir.path()), test::writeUnifiedMemoryFixture(m_dir.path()),
            test::writeDirectiveFixture(m_dir.path()) };
    }

    void sameAsNsys_data()
    {
        QTest::addColumn<int>("fixture");
        QTest::addColumn<QString>("report");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nvtx_pushpop_sum (nvtxppsum)")
            << int(NvtxKernels) << QStringLiteral("nvtx_pushpop_sum")
            << QStringLiteral(
                   "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Range\n"
                   "36.2,400,1,400.0,400.0,400,400,0.0,open\n"
                   "18.1,200,2,100.0,100.0,100,100,0.0,same\n"
                   "9.0,100,1,100.0,100.0,100,100,0.0,MPI:MPI_Send\n"
                   "9.0,100,1,100.0,100.0,100,100,0.0,P1\n"
                   "9.0,100,1,100.0,100.0,100,100,0.0,P2\n"
                   "9.0,100,1,100.0,100.0,100,100,0.0,root1\n"
                   "3.6,40,1,40.0,40.0,40,40,0.0,tie\n"
                   "0.9,10,1,10.0,10.0,10,10,0.0,\n"
                   "0.9,10,1,10.0,10.0,10,10,0.0,c2\n"
                   "0.9,10,1,10.0,10.0,10,10,0.0,childB\n"
                   "0.9,10,1,10.0,10.0,10,10,0.0,other\n"
                   "0.9,10,1,10.0,10.0,10,10,0.0,registered\n"
                   "0.9,10,1,10.0,10.0,10,10,0.0,undersame\n"
                   "0.3,3,1,3.0,3.0,3,3,0.0,childA\n"
                   "0.3,3,1,3.0,3.0,3,3,0.0,grandB\n");
        QTest::newRow("nvtx_startend_sum (nvtxsesum)")
            << int(NvtxKernels) << QStringLiteral("nvtx_startend_sum")
            << QStringLiteral(
                   "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Range\n"
                   "64.8,1050,1,1050.0,1050.0,1050,1050,0.0,pending\n"
                   "34.6,560,2,280.0,280.0,260,300,28.3,phase\n"
                   "0.6,10,1,10.0,10.0,10,10,0.0,MPI:MPI_Send\n");
        QTest::newRow("nvtx_kern_sum (nvtxkernsum)")
            << int(NvtxKernels) << QStringLiteral("nvtx_kern_sum")
            << QStringLiteral("NVTX Range,Style,PID,TID,NVTX Inst,Kern Inst,Total Time (ns),Avg (ns),Med (ns),Min "
                              "(ns),Max (ns),StdDev (ns),Kernel Name\n"
                              ",,,,0,1,80,80.0,80.0,80,80,0.0,void relu(float*)\n"
                              ",,1,1,0,1,70,70.0,70.0,70,70,0.0,void relu(float*)\n"
                              ",,2,2,0,1,90,90.0,90.0,90,90,0.0,void gemm<128>(float*)\n"
                              "MPI:MPI_Send,PushPop,1,1,1,1,110,110.0,110.0,110,110,0.0,void gemm<128>(float*)\n"
                              "MPI:MPI_Send,PushPop,1,1,1,1,60,60.0,60.0,60,60,0.0,void relu(float*)\n"
                              "c2,PushPop,1,1,1,1,60,60.0,60.0,60,60,0.0,void relu(float*)\n"
                              "childB,PushPop,1,1,1,2,250,125.0,125.0,100,150,35.4,void gemm<128>(float*)\n"
                              "grandB,PushPop,1,1,1,1,150,150.0,150.0,150,150,0.0,void gemm<128>(float*)\n"
                              "open,PushPop,1,1,1,1,200,200.0,200.0,200,200,0.0,void gemm<128>(float*)\n"
                              "other,PushPop,1,2,1,1,40,40.0,40.0,40,40,0.0,void relu(float*)\n"
                              "pending,StartEnd,1,2,1,1,200,200.0,200.0,200,200,0.0,void gemm<128>(float*)\n"
                              "phase,StartEnd,1,1,1,1,110,110.0,110.0,110,110,0.0,void gemm<128>(float*)\n"
                              "phase,StartEnd,1,1,1,1,60,60.0,60.0,60,60,0.0,void relu(float*)\n"
                              "root1,PushPop,1,1,1,2,250,125.0,125.0,100,150,35.4,void gemm<128>(float*)\n");
        QTest::newRow("nvtx_kern_sum:base (nvtxkernsum:base)")
            << int(NvtxKernels) << QStringLiteral("nvtx_kern_sum:base")
            << QStringLiteral("NVTX Range,Style,PID,TID,NVTX Inst,Kern Inst,Total Time (ns),Avg (ns),Med (ns),Min "
                              "(ns),Max (ns),StdDev (ns),Kernel Name\n"
                              ",,,,0,1,80,80.0,80.0,80,80,0.0,relu\n"
                              ",,1,1,0,1,70,70.0,70.0,70,70,0.0,relu\n"
                              ",,2,2,0,1,90,90.0,90.0,90,90,0.0,gemm\n"
                              "MPI:MPI_Send,PushPop,1,1,1,1,110,110.0,110.0,110,110,0.0,gemm\n"
                              "MPI:MPI_Send,PushPop,1,1,1,1,60,60.0,60.0,60,60,0.0,relu\n"
                              "c2,PushPop,1,1,1,1,60,60.0,60.0,60,60,0.0,relu\n"
                              "childB,PushPop,1,1,1,2,250,125.0,125.0,100,150,35.4,gemm\n"
                              "grandB,PushPop,1,1,1,1,150,150.0,150.0,150,150,0.0,gemm\n"
                              "open,PushPop,1,1,1,1,200,200.0,200.0,200,200,0.0,gemm\n"
                              "other,PushPop,1,2,1,1,40,40.0,40.0,40,40,0.0,relu\n"
                              "pending,StartEnd,1,2,1,1,200,200.0,200.0,200,200,0.0,gemm\n"
                              "phase,StartEnd,1,1,1,1,110,110.0,110.0,110,110,0.0,gemm\n"
                              "phase,StartEnd,1,1,1,1,60,60.0,60.0,60,60,0.0,relu\n"
                              "root1,PushPop,1,1,1,2,250,125.0,125.0,100,150,35.4,gemm\n");
        QTest::newRow("nvtx_kern_sum:mangled (nvtxkernsum:mangled)")
            << int(NvtxKernels) << QStringLiteral("nvtx_kern_sum:mangled")
            << QStringLiteral("NVTX Range,Style,PID,TID,NVTX Inst,Kern Inst,Total Time (ns),Avg (ns),Med (ns),Min "
                              "(ns),Max (ns),StdDev (ns),Kernel Name\n"
                              ",,,,0,1,80,80.0,80.0,80,80,0.0,void relu(float*)\n"
                              ",,1,1,0,1,70,70.0,70.0,70,70,0.0,void relu(float*)\n"
                              ",,2,2,0,1,90,90.0,90.0,90,90,0.0,_Z4gemmILi128EEvPf\n"
                              "MPI:MPI_Send,PushPop,1,1,1,1,110,110.0,110.0,110,110,0.0,_Z4gemmILi128EEvPf\n"
                              "MPI:MPI_Send,PushPop,1,1,1,1,60,60.0,60.0,60,60,0.0,void relu(float*)\n"
                              "c2,PushPop,1,1,1,1,60,60.0,60.0,60,60,0.0,void relu(float*)\n"
                              "childB,PushPop,1,1,1,2,250,125.0,125.0,100,150,35.4,_Z4gemmILi128EEvPf\n"
                              "grandB,PushPop,1,1,1,1,150,150.0,150.0,150,150,0.0,_Z4gemmILi128EEvPf\n"
                              "open,PushPop,1,1,1,1,200,200.0,200.0,200,200,0.0,_Z4gemmILi128EEvPf\n"
                              "other,PushPop,1,2,1,1,40,40.0,40.0,40,40,0.0,void relu(float*)\n"
                              "pending,StartEnd,1,2,1,1,200,200.0,200.0,200,200,0.0,_Z4gemmILi128EEvPf\n"
                              "phase,StartEnd,1,1,1,1,110,110.0,110.0,110,110,0.0,_Z4gemmILi128EEvPf\n"
                              "phase,StartEnd,1,1,1,1,60,60.0,60.0,60,60,0.0,void relu(float*)\n"
                              "root1,PushPop,1,1,1,2,250,125.0,125.0,100,150,35.4,_Z4gemmILi128EEvPf\n");
        QTest::newRow("nvtx_pushpop_trace (nvtxpptrace)")
            << int(NvtxKernels) << QStringLiteral("nvtx_pushpop_trace")
            << QStringLiteral("Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild "
                              "(ns),Name,PID,TID,Lvl,NumChild,RangeId,ParentId,RangeStack,NameTree\n"
                              "20,30,10,3,7,childB,1,1,1,1,2,4,:4:2,--childB\n"
                              "5,8,3,0,3,childA,1,1,1,0,3,4,:4:3,--childA\n"
                              "0,100,100,13,87,root1,1,1,0,2,4,,:4,root1\n"
                              "22,25,3,0,3,grandB,1,1,2,0,5,2,:4:2:5,----grandB\n"
                              "200,300,100,10,90,MPI:MPI_Send,1,1,0,1,6,,:6,MPI:MPI_Send\n"
                              "210,220,10,0,10,c2,1,1,1,0,7,6,:6:7,--c2\n"
                              "50,60,10,0,10,other,1,2,0,0,8,,:8,other\n"
                              "400,500,100,40,60,P1,1,1,0,1,9,,:9,P1\n"
                              "401,501,100,0,100,P2,1,1,0,0,10,,:10,P2\n"
                              "410,450,40,0,40,tie,1,1,1,0,11,9,:9:11,--tie\n"
                              "800,1200,400,20,380,open,1,1,0,2,15,,:15,open\n"
                              "810,820,10,0,10,,1,1,1,0,16,15,:15:16,\n"
                              "830,840,10,0,10,registered,1,1,1,0,17,15,:15:17,--registered\n");
        QTest::newRow("cuda_api_gpu_sum (apigpusum)")
            << int(NvtxKernels) << QStringLiteral("cuda_api_gpu_sum")
            << QStringLiteral("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev "
                              "(ns),Category,Operation\n"
                              "59.7,650,5,130.0,110.0,90,200,45.3,CUDA_KERNEL,void gemm<128>(float*)\n"
                              "23.0,250,4,62.5,65.0,40,80,17.1,CUDA_KERNEL,void relu(float*)\n"
                              "9.2,100,1,100.0,100.0,100,100,0.0,MEMORY_OPER,[CUDA memcpy HtoD]\n"
                              "5.5,60,1,60.0,60.0,60,60,0.0,MEMORY_OPER,[CUDA Unified Memory memcpy HtoD]\n"
                              "1.6,17,8,2.1,2.0,1,4,1.2,CUDA_API,cudaLaunchKernel\n"
                              "0.9,10,1,10.0,10.0,10,10,0.0,MEMORY_OPER,[CUDA memset]\n"
                              "0.1,1,1,1.0,1.0,1,1,0.0,CUDA_API,cudaMemcpyAsync\n");
        QTest::newRow("cuda_api_gpu_sum:base (apigpusum:base)")
            << int(NvtxKernels) << QStringLiteral("cuda_api_gpu_sum:base")
            << QStringLiteral("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev "
                              "(ns),Category,Operation\n"
                              "59.7,650,5,130.0,110.0,90,200,45.3,CUDA_KERNEL,gemm\n"
                              "23.0,250,4,62.5,65.0,40,80,17.1,CUDA_KERNEL,relu\n"
                              "9.2,100,1,100.0,100.0,100,100,0.0,MEMORY_OPER,[CUDA memcpy HtoD]\n"
                              "5.5,60,1,60.0,60.0,60,60,0.0,MEMORY_OPER,[CUDA Unified Memory memcpy HtoD]\n"
                              "1.6,17,8,2.1,2.0,1,4,1.2,CUDA_API,cudaLaunchKernel\n"
                              "0.9,10,1,10.0,10.0,10,10,0.0,MEMORY_OPER,[CUDA memset]\n"
                              "0.1,1,1,1.0,1.0,1,1,0.0,CUDA_API,cudaMemcpyAsync\n");
        const QString header = QStringLiteral("Virtual Address,HtoD Migration size (MB),DtoH Migration size (MB),CPU "
                                              "Page Faults, GPU Page Faults,Migration Throughput (MBps)\n");
        // By throughput (a zero-duration migration has none), then fault addresses before migration-only ones.
        QTest::newRow("um_sum (unifiedmemory)") << int(UnifiedMemory) << QStringLiteral("um_sum")
                                                << header
                + QStringLiteral("0x7F544A48C000,,2.097,,,2995930.530\n"
                                 "0x7F544A44C000,0.070,,2,3,49737.093\n"
                                 "0x7F544A49C000,0.012,,,,36900.901\n"
                                 "0xFF,,,1,,\n"
                                 "0x7F544A45C000,,,1,,\n"
                                 "0x7F544A46C000,,,1,,\n"
                                 "0x7F544A47C000,,,,7,\n"
                                 "0x7F544A4AC000,0.004,,,,\n");
        QTest::newRow("um_sum:rows=2 (unifiedmemory:rows=2)") << int(UnifiedMemory) << QStringLiteral("um_sum:rows=2")
                                                              << header
                + QStringLiteral("0x7F544A48C000,,2.097,,,2995930.530\n"
                                 "0x7F544A44C000,0.070,,2,3,49737.093\n");
        QTest::newRow("um_total_sum (unifiedmemorytotals)")
            << int(UnifiedMemory) << QStringLiteral("um_total_sum")
            << QStringLiteral("Total HtoD Migration Size (MB),Total DtoH Migration Size (MB),Total CPU Page Faults,"
                              "Total GPU PageFaults,Minimum Virtual Address,Maximum Virtual Address\n"
                              "0.086,2.097,5,10,0xFF,0x7F544A4AC000\n");
        QTest::newRow("um_cpu_page_faults_sum (umcpupagefaults)")
            << int(UnifiedMemory) << QStringLiteral("um_cpu_page_faults_sum")
            << QStringLiteral("CPU Page Faults,CPU Instruction Address\n"
                              "2,main\n"
                              "1,compute_loop\n"
                              "1,0x4005d0\n"
                              "1,\n");
        // "name@file:line" with a source file; a source file id without string makes the whole name NULL.
        QTest::newRow("openacc_sum (openaccsum)")
            << int(Directives) << QStringLiteral("openacc_sum")
            << QStringLiteral("Time(%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
                              "42.9,120,2,60.0,60.0,50,70,14.1,acc_enqueue_launch@saxpy.c:12\n"
                              "25.0,70,1,70.0,70.0,70,70,0.0,\n"
                              "25.0,70,1,70.0,70.0,70,70,0.0,acc_enter_data@saxpy.c:12\n"
                              "7.1,20,1,20.0,20.0,20,20,0.0,acc_enqueue_launch\n");
        // One row per (table, name): omp_thread of OPENMP_EVENT_KIND_PARALLEL is a row of its own.
        QTest::newRow("openmp_sum (openmpevtsum)")
            << int(Directives) << QStringLiteral("openmp_sum")
            << QStringLiteral("Time (%),Total Time (ns),Count,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
                              "21.1,200,2,100.0,100.0,100,100,0.0,omp_thread\n"
                              "21.1,200,1,200.0,200.0,200,200,0.0,omp_parallel\n"
                              "21.1,200,1,200.0,200.0,200,200,0.0,omp_barrier\n"
                              "21.1,200,1,200.0,200.0,200,200,0.0,\n"
                              "15.8,150,1,150.0,150.0,150,150,0.0,omp_thread\n");
    }

    void sameAsNsys()
    {
        QFETCH(int, fixture);
        QFETCH(QString, report);
        QFETCH(QString, expected);
        QCOMPARE(test::reportCsvOf(m_fixtures[std::size_t(fixture)], report), expected);
    }

    /// The rowids come from the export; a push/pop row the loader had to skip would shift them all.
    void damagedRowRefused()
    {
        const QString copy = damageableCopy(NvtxKernels, QStringLiteral("damaged.sqlite"));
        QCOMPARE(
            test::execOnFile(copy, QStringLiteral("UPDATE NVTX_EVENTS SET start = 'x' WHERE rowid = 7")), QString());
        const QString csv = test::reportCsvOf(copy, QStringLiteral("nvtx_pushpop_trace"));
        QVERIFY2(csv.startsWith(QStringLiteral("SKIPPED: %1: NVTX_EVENTS has 16 push/pop rows, 15 of them readable")
                                    .arg(QFileInfo(copy).absoluteFilePath())),
            qPrintable(csv));
    }

    /// As nsys 2022.4: one source without a row (here no device-to-host migration) empties both address extremes,
    /// SQLite's min() and max() of several values being NULL when one of them is; the totals stay.
    void addressesEmptyWithoutOneSource()
    {
        const QString copy = damageableCopy(UnifiedMemory, QStringLiteral("no-dtoh.sqlite"));
        QCOMPARE(test::execOnFile(copy, QStringLiteral("DELETE FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 12")),
            QString());
        QCOMPARE(test::reportCsvOf(copy, QStringLiteral("um_total_sum")).section(QLatin1Char('\n'), 1),
            QStringLiteral("0.086,,5,10,,\n"));
    }

    void badRowLimitRefused()
    {
        QCOMPARE(test::reportCsvOf(m_fixtures[UnifiedMemory], QStringLiteral("um_sum:rows=abc")),
            QStringLiteral("report um_sum: argument rows: invalid int value: 'abc'"));
        QCOMPARE(test::reportCsvOf(m_fixtures[UnifiedMemory], QStringLiteral("um_sum:base")),
            QStringLiteral("report um_sum has no argument ':base'"));
    }
};

QTEST_GUILESS_MAIN(TestStatsFixtures)
#include "tst_stats_fixtures.moc"
