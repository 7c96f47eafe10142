// SPDX-License-Identifier: GPL-3.0-or-later
// The key that groups work per GPU. Hand-made profile: two H100s (nsys GPU ids 0 and 1); pid 100 sees GPU 1 as its
// CUDA ordinal 0, pid 200 sees GPU 0 as its ordinal 0 (TARGET_INFO_CUDA_DEVICE), and pid 300 is not in that table.
// Without the table, the ordinal is the key even where gpuFor() names a GPU model for it.
#include "core/profile/gpukey.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

namespace {

ProfilePtr twoGpus(bool mapped)
{
    test::ProfileBuilder b;
    for (const int pid : { 100, 200, 300 }) {
        const ThreadIndex t = b.thread(b.process(pid), pid + 1);
        b.kernel(t, 0, 1, 10, 20, QStringLiteral("k"), 0);
    }
    b.gpu(0, QStringLiteral("NVIDIA H100"));
    b.gpu(1, QStringLiteral("NVIDIA H100"));
    if (mapped)
        b.profile().cudaDevices = { { 1, 0, 100 }, { 0, 0, 200 } };
    return b.build();
}

ProcessIndex processOf(const Profile& p, int pid)
{
    for (std::size_t i = 0; i < p.processes.size(); ++i)
        if (p.processes[i].pid == pid)
            return ProcessIndex(i);
    return kNoIndex;
}

} // namespace

class TestGpuKey : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keyOfOrdinal_data()
    {
        QTest::addColumn<bool>("mapped");
        QTest::addColumn<int>("pid");
        QTest::addColumn<int>("ordinal");
        QTest::addColumn<int>("key");
        QTest::newRow("mapped: pid 100's ordinal 0 is GPU 1") << true << 100 << 0 << 1;
        QTest::newRow("mapped: pid 200's ordinal 0 is GPU 0") << true << 200 << 0 << 0;
        QTest::newRow("mapped: a process missing from the table keeps its ordinal") << true << 300 << 0 << 0;
        QTest::newRow("mapped: an ordinal missing from the table is kept") << true << 100 << 5 << 5;
        QTest::newRow("not mapped: the ordinal, though both GPUs are one model") << false << 100 << 1 << 1;
        QTest::newRow("not mapped: an ordinal of no listed GPU is kept") << false << 100 << 3 << 3;
        QTest::newRow("mapped: a damaged row's ordinal (-1) is kept") << true << 100 << -1 << -1;
    }
    void keyOfOrdinal()
    {
        QFETCH(bool, mapped);
        QFETCH(int, pid);
        QFETCH(int, ordinal);
        const ProfilePtr p = twoGpus(mapped);
        const ProcessIndex process = processOf(*p, pid);
        QVERIFY(process != kNoIndex);
        QTEST(p->gpuKey(process, ordinal), "key");
        GpuKeyOfRow keyOfRow(*p);
        QTEST(keyOfRow(process, ordinal), "key");
    }

    void rowsOfSeveralProcesses()
    {
        const ProfilePtr p = twoGpus(true);
        // Kernel rows in the builder's order: pid 100, 200, 300, each on ordinal 0.
        GpuKeyOfRow keyOf(*p);
        QCOMPARE(keyOf(p->kernels, 0), 1);
        QCOMPARE(keyOf(p->kernels, 1), 0);
        QCOMPARE(keyOf(p->kernels, 2), 0);
        QCOMPARE(keyOf(p->kernels, 0), 1); // the last answer kept must not leak into another pair
        QCOMPARE(keyOf.seen().size(), std::size_t(3));
        // A key of -1 (a damaged row's ordinal) is a key like any other: asked twice, the same answer.
        QCOMPARE(keyOf(processOf(*p, 100), -1), -1);
        QCOMPARE(keyOf(processOf(*p, 100), -1), -1);
        QCOMPARE(keyOf(processOf(*p, 100), 0), 1);
    }
};

QTEST_GUILESS_MAIN(TestGpuKey)
#include "tst_gpukey.moc"
