// SPDX-License-Identifier: GPL-3.0-or-later
// Joining scanned chunks into a Profile without SQLite: chunk-local process indices become the profile's, launch
// shapes are merged into one table, columns are stitched in rowid order, and the activity span covers every event.
// Every chunk is written here by hand, so every expected value is known.
#include "core/profile/chunkassembly.h"

#include <QTest>
#include <algorithm>
#include <memory>

using namespace nsw;

namespace {

constexpr qint64 globalPid(qint64 pid)
{
    return (qint64(1) << 48) | (pid << 24);
}

LaunchShape shape(std::uint32_t gridX)
{
    LaunchShape s;
    s.grid[0] = gridX;
    s.block[0] = 128;
    return s;
}

/// One kernel chunk: kernel i starts at 1000 * i and ends 10 * i + 5 later, runs in process @p pids[i] (chunk-local
/// indices in first-appearance order), with the launch shape of grid @p grids[i].
std::unique_ptr<ScanTask> kernelChunk(
    std::size_t first, const std::vector<qint64>& pids, const std::vector<std::uint32_t>& grids)
{
    auto task = std::make_unique<ScanTask>();
    task->kind = TableKind::Kernels;
    KernelTable& t = task->kernels.table;
    for (std::size_t k = 0; k < pids.size(); ++k) {
        const auto i = TimeNs(first + k);
        t.start.push_back(1000 * i);
        t.end.push_back(1000 * i + 10 * i + 5);
        t.process.push_back(task->ctx.processes.index(globalPid(pids[k])));
        t.device.push_back(0);
        t.context.push_back(1);
        t.stream.push_back(7);
        t.correlation.push_back(std::uint32_t(first + k));
        t.demangledName.push_back(StringRef(first + k));
        t.shortName.push_back(StringRef(first + k));
        t.mangledName.push_back(kNoString);
        const auto known = std::find(task->kernels.shapes.begin(), task->kernels.shapes.end(), shape(grids[k]));
        t.shape.push_back(std::uint32_t(known - task->kernels.shapes.begin()));
        if (known == task->kernels.shapes.end())
            task->kernels.shapes.push_back(shape(grids[k]));
    }
    return task;
}

} // namespace

class TestChunkAssembly : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void kernelChunksJoinInRowidOrder_data()
    {
        QTest::addColumn<std::vector<std::size_t>>("chunkSizes");
        QTest::addRow("one chunk") << std::vector<std::size_t> { 6 };
        QTest::addRow("two chunks") << std::vector<std::size_t> { 2, 4 };
        QTest::addRow("three chunks, one of them empty") << std::vector<std::size_t> { 3, 0, 3 };
        QTest::addRow("one kernel per chunk") << std::vector<std::size_t> { 1, 1, 1, 1, 1, 1 };
    }
    void kernelChunksJoinInRowidOrder()
    {
        QFETCH(std::vector<std::size_t>, chunkSizes);
        // Six kernels of processes 30, 40, 30, 50, 40, 30 with grids 8, 16, 8, 32, 16, 8, cut into chunks.
        const std::vector<qint64> pids { 30, 40, 30, 50, 40, 30 };
        const std::vector<std::uint32_t> grids { 8, 16, 8, 32, 16, 8 };
        std::vector<std::unique_ptr<ScanTask>> tasks;
        std::size_t first = 0;
        for (const std::size_t n : chunkSizes) {
            tasks.push_back(kernelChunk(first, { pids.begin() + qsizetype(first), pids.begin() + qsizetype(first + n) },
                { grids.begin() + qsizetype(first), grids.begin() + qsizetype(first + n) }));
            first += n;
        }
        QCOMPARE(first, pids.size());

        Profile p;
        ProcessInfo known; // PROCESSES listed process 40 before any row
        known.globalPid = globalPid(40);
        known.pid = 40;
        p.processes.push_back(known);
        const ChunkTasks chunks = chunkTasksOf(tasks);
        QCOMPARE(chunks.kernels.size(), chunkSizes.size());
        ProcessThreadRegistry registry(p);
        remapProcessesAndThreads(chunks, registry);
        mergeLaunchShapes(p, chunks);
        stitchChunks(p, chunks);

        QCOMPARE(p.kernels.size(), pids.size());
        for (std::size_t i = 0; i < pids.size(); ++i) {
            QCOMPARE(p.kernels.start[i], TimeNs(1000 * i));
            QCOMPARE(p.kernels.end[i], TimeNs(1000 * i + 10 * i + 5));
            QCOMPARE(p.kernels.correlation[i], std::uint32_t(i));
            QCOMPARE(p.kernels.demangledName[i], StringRef(i));
            QCOMPARE(p.processes[std::size_t(p.kernels.process[i])].pid, int(pids[i]));
            QCOMPARE(p.launchShapes[p.kernels.shape[i]].grid[0], grids[i]);
        }
        // 40 came from PROCESSES; the others in the order rows first named them: 30, then 50.
        QCOMPARE(p.processes.size(), std::size_t(3));
        QCOMPARE(p.processes[0].pid, 40);
        QCOMPARE(p.processes[1].pid, 30);
        QCOMPARE(p.processes[2].pid, 50);
        // One entry per distinct shape, in first-appearance order.
        QCOMPARE(p.launchShapes.size(), std::size_t(3));
        QCOMPARE(p.launchShapes[0].grid[0], 8u);
        QCOMPARE(p.launchShapes[1].grid[0], 16u);
        QCOMPARE(p.launchShapes[2].grid[0], 32u);
        // Each chunk's column is freed as soon as it is stitched.
        for (const ScanTask* t : chunks.kernels)
            QCOMPARE(t->kernels.table.start.size(), std::size_t(0));
    }

    void activitySpanCoversEveryEvent_data()
    {
        QTest::addColumn<TimeNs>("nvtxStart");
        QTest::addColumn<TimeNs>("expectedStart");
        QTest::addColumn<TimeNs>("expectedEnd");
        // Kernels 500-900 and 100-700: the span is 100-900 unless an NVTX mark lies outside it (a mark has no end:
        // its start counts as an end too).
        QTest::addRow("mark inside the kernels") << TimeNs(300) << TimeNs(100) << TimeNs(900);
        QTest::addRow("mark after the kernels") << TimeNs(2000) << TimeNs(100) << TimeNs(2000);
        QTest::addRow("mark before the kernels") << TimeNs(40) << TimeNs(40) << TimeNs(900);
    }
    void activitySpanCoversEveryEvent()
    {
        QFETCH(TimeNs, nvtxStart);
        QFETCH(TimeNs, expectedStart);
        QFETCH(TimeNs, expectedEnd);
        Profile p;
        p.kernels.start.push_back(500);
        p.kernels.end.push_back(900);
        p.kernels.start.push_back(100);
        p.kernels.end.push_back(700);
        p.nvtx.start.push_back(nvtxStart);
        p.nvtx.end.push_back(kNoTime);
        computeActivitySpan(p);
        QCOMPARE(p.activityStart, expectedStart);
        QCOMPARE(p.activityEnd, expectedEnd);
    }

    void noEventsLeaveTheSpanUnset()
    {
        Profile p;
        const TimeNs start = p.activityStart;
        const TimeNs end = p.activityEnd;
        computeActivitySpan(p);
        QCOMPARE(p.activityStart, start);
        QCOMPARE(p.activityEnd, end);
    }
};

QTEST_GUILESS_MAIN(TestChunkAssembly)
#include "tst_chunkassembly.moc"
