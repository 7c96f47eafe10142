// SPDX-License-Identifier: GPL-3.0-or-later
// pid 100 (thread 101): kernels gemm 100 and 300, attn 50; NVTX "step" [0, 1000] and [1000, 1500], a mark and an
// unterminated range (neither counted); a cudaDeviceSynchronize [1200, 1300].
// pid 200 (thread 201): kernel gemm 1000; NVTX "step" [0, 400] in domain "dom"; a memcpy of 200 ns.
#include "core/diagnostics/perprocess.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

namespace {

ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ProcessIndex p1 = b.process(100, QStringLiteral("python"));
    const ThreadIndex t1 = b.thread(p1, 101);
    b.kernel(t1, 0, 10, 20, 120, QStringLiteral("gemm"));
    b.kernel(t1, 200, 210, 220, 520, QStringLiteral("gemm"));
    b.kernel(t1, 600, 610, 620, 670, QStringLiteral("attn"));
    b.nvtxRange(t1, 0, 1000, QStringLiteral("step"));
    b.nvtxRange(t1, 1000, 1500, QStringLiteral("step"));
    b.nvtxMark(t1, 5, QStringLiteral("mark"));
    b.nvtxRange(t1, 1600, kNoTime, QStringLiteral("open"));
    b.apiCall(t1, 1200, 1300, QStringLiteral("cudaDeviceSynchronize_v3020"));
    const ProcessIndex p2 = b.process(200, QStringLiteral("worker"));
    const ThreadIndex t2 = b.thread(p2, 201);
    b.kernel(t2, 0, 10, 100, 1100, QStringLiteral("gemm"));
    const int dom = b.nvtxDomain(p2, 1, QStringLiteral("dom"));
    b.nvtxRange(t2, 0, 400, QStringLiteral("step"), NvtxTable::kPushPop, dom);
    b.memOp(t2, 0, 10, 1200, 1400, 1, 100);
    return b.build();
}

} // namespace

class TestPerProcess : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void processes_data();
    void processes();
    void kernelsByPid();
    void nvtx();
    void sameDomainNameInTwoProcessesIsOneRow();
    void sync();
};

void TestPerProcess::processes_data()
{
    QTest::addColumn<int>("pid");
    QTest::addColumn<qint64>("kernels");
    QTest::addColumn<qint64>("kernelNs");
    QTest::addColumn<qint64>("memOps");
    QTest::addColumn<qint64>("apiCalls");
    QTest::addColumn<qint64>("syncCalls");
    QTest::addColumn<qint64>("nvtxRanges");
    QTest::addColumn<qint64>("nvtxNs");
    // API calls: the builder's launch calls (3 and 1), the sync call, the memcpy call.
    QTest::newRow("pid 100") << 100 << qint64(3) << qint64(450) << qint64(0) << qint64(4) << qint64(1) << qint64(2)
                             << qint64(1500);
    QTest::newRow("pid 200") << 200 << qint64(1) << qint64(1000) << qint64(1) << qint64(2) << qint64(0) << qint64(1)
                             << qint64(400);
}

void TestPerProcess::processes()
{
    QFETCH(int, pid);
    QFETCH(qint64, kernels);
    QFETCH(qint64, kernelNs);
    QFETCH(qint64, memOps);
    QFETCH(qint64, apiCalls);
    QFETCH(qint64, syncCalls);
    QFETCH(qint64, nvtxRanges);
    QFETCH(qint64, nvtxNs);
    const PerProcessResult r = computePerProcess(makeAnalysisContext(fixture()));
    QCOMPARE(r.processes.size(), std::size_t(2));
    for (const ProcessBreakdownRow& p : r.processes) {
        if (p.pid != pid)
            continue;
        QCOMPARE(p.kernels.count, kernels);
        QCOMPARE(p.kernels.total, kernelNs);
        QCOMPARE(p.memOps.count, memOps);
        QCOMPARE(p.apiCalls.count, apiCalls);
        QCOMPARE(p.syncCalls.count, syncCalls);
        QCOMPARE(p.nvtxRanges.count, nvtxRanges);
        QCOMPARE(p.nvtxRanges.total, nvtxNs);
        return;
    }
    QFAIL("process missing");
}

void TestPerProcess::kernelsByPid()
{
    const PerProcessResult r = computePerProcess(makeAnalysisContext(fixture()));
    QCOMPARE(r.kernelsByPid.size(), std::size_t(3));
    QCOMPARE(r.kernelsByPid[0].pid, 100);
    QCOMPARE(r.kernelsByPid[0].name, QStringLiteral("gemm"));
    QCOMPARE(r.kernelsByPid[0].count, qint64(2));
    QCOMPARE(r.kernelsByPid[0].total, TimeNs(400));
    QCOMPARE(r.kernelsByPid[0].min, TimeNs(100));
    QCOMPARE(r.kernelsByPid[0].max, TimeNs(300));
    QCOMPARE(r.kernels.size(), std::size_t(2));
    QCOMPARE(r.kernels[0].name, QStringLiteral("gemm"));
    QCOMPARE(r.kernels[0].count, qint64(3));
    QCOMPARE(r.kernels[0].total, TimeNs(1400));
    QCOMPARE(r.kernels[0].max, TimeNs(1000));
}

void TestPerProcess::nvtx()
{
    const PerProcessResult r = computePerProcess(makeAnalysisContext(fixture()));
    QCOMPARE(r.nvtxByPid.size(), std::size_t(2));
    QCOMPARE(r.nvtxByPid[0].pid, 100);
    QCOMPARE(r.nvtxByPid[0].count, qint64(2));
    QCOMPARE(r.nvtxByPid[0].domain, QString());
    QCOMPARE(r.nvtxByPid[1].domain, QStringLiteral("dom"));
    // Over all processes the domain keeps the two "step" rows apart.
    QCOMPARE(r.nvtxRanges.size(), std::size_t(2));
    QCOMPARE(r.nvtxRanges[0].total, TimeNs(1500));
    QCOMPARE(r.nvtxRanges[0].min, TimeNs(500));
}

void TestPerProcess::sameDomainNameInTwoProcessesIsOneRow()
{
    // Each process registers its own "dom" (two domain entries of the profile): over all processes, one row.
    test::ProfileBuilder b;
    for (const int pid : { 100, 200 }) {
        const ProcessIndex process = b.process(pid, QStringLiteral("worker"));
        const ThreadIndex thread = b.thread(process, pid + 1);
        const int dom = b.nvtxDomain(process, 1, QStringLiteral("dom"));
        b.nvtxRange(thread, 0, pid * 2, QStringLiteral("step"), NvtxTable::kPushPop, dom);
    }
    const PerProcessResult r = computePerProcess(makeAnalysisContext(b.build()));
    QCOMPARE(r.nvtxByPid.size(), std::size_t(2));
    QCOMPARE(r.nvtxRanges.size(), std::size_t(1));
    QCOMPARE(r.nvtxRanges[0].domain, QStringLiteral("dom"));
    QCOMPARE(r.nvtxRanges[0].count, qint64(2));
    QCOMPARE(r.nvtxRanges[0].total, TimeNs(200 + 400));
    QCOMPARE(r.nvtxRanges[0].min, TimeNs(200));
    QCOMPARE(r.nvtxRanges[0].max, TimeNs(400));
}

void TestPerProcess::sync()
{
    const PerProcessResult r = computePerProcess(makeAnalysisContext(fixture()));
    QCOMPARE(r.syncByPid.size(), std::size_t(1));
    QCOMPARE(r.syncByPid[0].pid, 100);
    QCOMPARE(r.syncByPid[0].name, QStringLiteral("cudaDeviceSynchronize_v3020"));
    QCOMPARE(r.syncByPid[0].total, TimeNs(100));
}

QTEST_GUILESS_MAIN(TestPerProcess)
#include "tst_perprocess.moc"
