// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/analysiscontext.h"

#include <QTest>

using namespace nsw;

class TestApiKind : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void kinds_data();
    void kinds();
};

void TestApiKind::kinds_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("kind");
    const int sync = ApiSync, wait = ApiWait, memory = ApiMemory, launch = ApiLaunch;
    QTest::newRow("cudaDeviceSynchronize") << QStringLiteral("cudaDeviceSynchronize") << sync;
    QTest::newRow("cudaStreamSynchronize_v3020") << QStringLiteral("cudaStreamSynchronize_v3020") << sync;
    QTest::newRow("cudaEventSynchronize_v3020") << QStringLiteral("cudaEventSynchronize_v3020") << sync;
    QTest::newRow("cuCtxSynchronize") << QStringLiteral("cuCtxSynchronize") << sync;
    QTest::newRow("cuStreamSynchronize") << QStringLiteral("cuStreamSynchronize") << sync;
    QTest::newRow("cudaStreamWaitEvent_v3020") << QStringLiteral("cudaStreamWaitEvent_v3020") << wait;
    QTest::newRow("cuStreamWaitEvent") << QStringLiteral("cuStreamWaitEvent") << wait;
    QTest::newRow("cudaMemcpy_v3020: blocking") << QStringLiteral("cudaMemcpy_v3020") << (sync | memory);
    QTest::newRow("cudaMemcpy2D: blocking") << QStringLiteral("cudaMemcpy2D_v3020") << (sync | memory);
    QTest::newRow("cuMemcpyHtoD_v2: blocking") << QStringLiteral("cuMemcpyHtoD_v2") << (sync | memory);
    QTest::newRow("cudaMemset: blocking") << QStringLiteral("cudaMemset_v3020") << (sync | memory);
    QTest::newRow("cudaMemcpyAsync_ptsz_v7000") << QStringLiteral("cudaMemcpyAsync_ptsz_v7000") << memory;
    QTest::newRow("cuMemcpyHtoDAsync_v2") << QStringLiteral("cuMemcpyHtoDAsync_v2") << memory;
    QTest::newRow("cudaMemsetAsync") << QStringLiteral("cudaMemsetAsync") << memory;
    QTest::newRow("cudaLaunchKernel_v7000") << QStringLiteral("cudaLaunchKernel_v7000") << launch;
    QTest::newRow("cuLaunchKernel") << QStringLiteral("cuLaunchKernel") << launch;
    QTest::newRow("cudaGraphLaunch_v10000") << QStringLiteral("cudaGraphLaunch_v10000") << launch;
    QTest::newRow("cudaEventQuery: nothing") << QStringLiteral("cudaEventQuery_v3020") << 0;
    QTest::newRow("cudaStreamQuery: nothing") << QStringLiteral("cudaStreamQuery_v5000") << 0;
    QTest::newRow("cudaMalloc: nothing") << QStringLiteral("cudaMalloc_v3020") << 0;
    QTest::newRow("not CUDA") << QStringLiteral("pthread_mutex_lock") << 0;
}

void TestApiKind::kinds()
{
    QFETCH(QString, name);
    QFETCH(int, kind);
    QCOMPARE(int(apiKindOf(name)), kind);
}

QTEST_GUILESS_MAIN(TestApiKind)
#include "tst_apikind.moc"
