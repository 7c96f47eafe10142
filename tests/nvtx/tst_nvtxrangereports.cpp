// SPDX-License-Identifier: GPL-3.0-or-later
// nvtx_pushpop_sum, nvtx_startend_sum and nvtx_kern_sum on the hand-made NVTX and kernel export of statsfixtures.h:
// every expected line is what the real `nsys stats -f csv` (Nsight Systems 2022.4) printed for the same rows (its
// "None" cells empty, as the workbench prints NULL).
#include "statsfixtures.h"

#include <QTemporaryDir>
#include <QTest>

using namespace nsw;

class TestNvtxRangeReports : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_fixture;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_fixture = test::writeNvtxKernelFixture(m_dir.path());
    }

    void sameAsNsys_data()
    {
        QTest::addColumn<QString>("report");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nvtx_pushpop_sum (nvtxppsum)")
            << QStringLiteral("nvtx_pushpop_sum")
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
            << QStringLiteral("nvtx_startend_sum")
            << QStringLiteral(
                   "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Range\n"
                   "64.8,1050,1,1050.0,1050.0,1050,1050,0.0,pending\n"
                   "34.6,560,2,280.0,280.0,260,300,28.3,phase\n"
                   "0.6,10,1,10.0,10.0,10,10,0.0,MPI:MPI_Send\n");
        QTest::newRow("nvtx_kern_sum (nvtxkernsum)")
            << QStringLiteral("nvtx_kern_sum")
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
            << QStringLiteral("nvtx_kern_sum:base")
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
            << QStringLiteral("nvtx_kern_sum:mangled")
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
    }

    void sameAsNsys()
    {
        QFETCH(QString, report);
        QFETCH(QString, expected);
        QCOMPARE(test::reportCsvOf(m_fixture, report), expected);
    }
};

QTEST_GUILESS_MAIN(TestNvtxRangeReports)
#include "tst_nvtxrangereports.moc"
