// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvtx/nvtxtree.h"
#include "core/profile/profileloader.h"
#include "nvtxfixture.h"
#include "oracleexports.h"
#include "testutils.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <map>
#include <set>

using namespace nsw;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(NvtxGrouping)

namespace {

const QString kA = QStringLiteral("trainer (100)");
const QString kT1 = QStringLiteral("main (101)");
const QString kT2 = QStringLiteral("worker (102)");
const QString kB = QStringLiteral("other (200)");
const QString kT3 = QStringLiteral("main (201)");

/// The node reached from the root by child labels, or -1.
std::int32_t find(const NvtxTree& tree, const QStringList& labels)
{
    std::int32_t node = 0;
    for (const QString& label : labels) {
        std::int32_t next = -1;
        for (const std::int32_t c : tree.nodes[std::size_t(node)].children)
            if (tree.label(c) == label)
                next = c;
        if (next < 0)
            return -1;
        node = next;
    }
    return node;
}

QStringList childLabels(const NvtxTree& tree, std::int32_t node)
{
    QStringList labels;
    for (const std::int32_t c : tree.nodes[std::size_t(node)].children)
        labels.append(tree.label(c));
    labels.sort();
    return labels;
}

std::set<std::uint32_t> rowsOf(const std::vector<char>& mask)
{
    std::set<std::uint32_t> rows;
    for (std::size_t i = 0; i < mask.size(); ++i)
        if (mask[i])
            rows.insert(std::uint32_t(i));
    return rows;
}

struct Expected
{
    qint64 instances, cpu, gpu, projected, kernels, memOps, unterminated, crossThread;
};

} // namespace

Q_DECLARE_METATYPE(Expected)

class TestNvtxTree : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nodeNumbers_data();
    void nodeNumbers();
    void totalsAndCoverage();
    void childrenOfThread();
    void kernelRows_data();
    void kernelRows();
    void nodesContainingKernel_data();
    void nodesContainingKernel();
    void nodesWithKernelName();
    void memOpAttribution();
    void treesOfOneProfileShareAnIndex();
    void computedTreesSharedWhileHeld();
    void cancelledBuildIsSafe();
    void cancelledMidwayGivesNoTree();
    void emptyProfile();
    void attributionMatchesSqlOnRealTraces_data();
    void attributionMatchesSqlOnRealTraces();
};

void TestNvtxTree::nodeNumbers_data()
{
    QTest::addColumn<NvtxGrouping>("grouping");
    QTest::addColumn<bool>("normalize");
    QTest::addColumn<QStringList>("path");
    QTest::addColumn<Expected>("expected");
    const auto T = NvtxGrouping::ByThread;
    const QStringList t1 { kA, kT1 };
    auto row = [](const char* name, NvtxGrouping g, bool normalize, const QStringList& path, Expected e) {
        QTest::newRow(name) << g << normalize << path << e;
    };
    // instances, cpu, gpu, projected span, kernels, memops, unterminated, cross-thread
    row("per thread: root", T, false, {}, { 6, 4900, 1660, 1660, 12, 1, 1, 1 });
    row("per thread: process A sums its threads", T, false, { kA }, { 5, 3900, 1360, 1360, 11, 1, 1, 1 });
    row("per thread: thread T1 sums its top ranges", T, false, t1, { 4, 3600, 1260, 1260, 10, 1, 1, 1 });
    row("per thread: step_1 inclusive", T, false, t1 + QStringList { u"step_1"_s }, { 1, 1000, 750, 750, 6, 1, 0, 0 });
    row("per thread: step_1 > forward", T, false, t1 + QStringList { u"step_1"_s, u"forward"_s },
        { 1, 400, 400, 400, 4, 1, 0, 0 });
    row("per thread: layer_1 span includes its memcpy", T, false,
        t1 + QStringList { u"step_1"_s, u"forward"_s, u"layer_1"_s }, { 1, 100, 300, 320, 2, 1, 0, 0 });
    row("per thread: unnamed domain nested across domains", T, false,
        t1 + QStringList { u"step_1"_s, u"forward"_s, u"layer_1"_s, u"domain 7:x"_s }, { 1, 3, 100, 100, 1, 0, 0, 0 });
    row("per thread: kernel leaf of layer_1", T, false,
        t1 + QStringList { u"step_1"_s, u"forward"_s, u"layer_1"_s, u"gemm"_s }, { 1, 0, 200, 0, 1, 0, 0, 0 });
    row("per thread: layer_2", T, false, t1 + QStringList { u"step_1"_s, u"forward"_s, u"layer_2"_s },
        { 1, 140, 50, 50, 1, 0, 0, 0 });
    row("per thread: kernel after a child closed goes to the parent", T, false,
        t1 + QStringList { u"step_1"_s, u"forward"_s, u"relu"_s }, { 1, 0, 50, 0, 1, 0, 0, 0 });
    row("per thread: named domain", T, false, t1 + QStringList { u"step_1"_s, u"NCCL:ncclAllReduce"_s },
        { 1, 100, 300, 300, 1, 0, 0, 0 });
    row("per thread: kernel in step_1 itself", T, false, t1 + QStringList { u"step_1"_s, u"optimizer"_s },
        { 1, 0, 50, 0, 1, 0, 0, 0 });
    row("per thread: step_2", T, false, t1 + QStringList { u"step_2"_s }, { 1, 1000, 210, 210, 2, 0, 0, 0 });
    row("per thread: step_2 > forward > layer_1", T, false,
        t1 + QStringList { u"step_2"_s, u"forward"_s, u"layer_1"_s }, { 1, 110, 200, 200, 1, 0, 0, 0 });
    row("per thread: start/end ending on another thread stays on its start thread", T, false,
        t1 + QStringList { u"async_io"_s }, { 1, 600, 100, 100, 1, 0, 0, 1 });
    row("per thread: unterminated ends at the last NVTX timestamp", T, false, t1 + QStringList { u"tail"_s },
        { 1, 1000, 200, 200, 1, 0, 1, 0 });
    row("per thread: second thread", T, false, { kA, kT2, u"worker"_s }, { 1, 300, 100, 100, 1, 0, 0, 0 });
    row("per thread: process B with the same correlation ids", T, false, { kB }, { 1, 1000, 300, 300, 1, 0, 0, 0 });
    row("per thread: process B kernel leaf", T, false, { kB, kT3, u"step_1"_s, u"gemm"_s },
        { 1, 0, 300, 0, 1, 0, 0, 0 });

    const auto M = NvtxGrouping::Merged;
    row("merged: step_1 of both processes", M, false, { u"step_1"_s }, { 2, 2000, 1050, 1050, 7, 1, 0, 0 });
    row("merged: gemm directly in B's step_1", M, false, { u"step_1"_s, u"gemm"_s }, { 1, 0, 300, 0, 1, 0, 0, 0 });
    row("merged: worker thread at the top", M, false, { u"worker"_s }, { 1, 300, 100, 100, 1, 0, 0, 0 });
    row("merged: root", M, false, {}, { 6, 4900, 1660, 1660, 12, 1, 1, 1 });

    const auto P = NvtxGrouping::ByProcess;
    row("per process: threads of A merged", P, false, { kA }, { 5, 3900, 1360, 1360, 11, 1, 1, 1 });
    row("per process: worker under A", P, false, { kA, u"worker"_s }, { 1, 300, 100, 100, 1, 0, 0, 0 });
    row("per process: B's step_1 apart", P, false, { kB, u"step_1"_s }, { 1, 1000, 300, 300, 1, 0, 0, 0 });

    row("normalized: step_# merges both steps", T, true, t1 + QStringList { u"step_#"_s },
        { 2, 2000, 960, 960, 8, 1, 0, 0 });
    row("normalized: forward of both steps", T, true, t1 + QStringList { u"step_#"_s, u"forward"_s },
        { 2, 800, 600, 600, 5, 1, 0, 0 });
    row("normalized: layer_1 and layer_2 of both steps", T, true,
        t1 + QStringList { u"step_#"_s, u"forward"_s, u"layer_#"_s }, { 3, 350, 550, 570, 4, 1, 0, 0 });
    row("normalized: gemm leaf collects three kernels", T, true,
        t1 + QStringList { u"step_#"_s, u"forward"_s, u"layer_#"_s, u"gemm"_s }, { 3, 0, 450, 0, 3, 0, 0, 0 });
    row("normalized: optimizer leaf of both steps", T, true, t1 + QStringList { u"step_#"_s, u"optimizer"_s },
        { 2, 0, 60, 0, 2, 0, 0, 0 });
}

void TestNvtxTree::nodeNumbers()
{
    QFETCH(NvtxGrouping, grouping);
    QFETCH(bool, normalize);
    QFETCH(QStringList, path);
    QFETCH(Expected, expected);
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture(), { grouping, normalize });
    const std::int32_t node = find(tree, path);
    QVERIFY2(node >= 0, qPrintable(path.join(QStringLiteral(" > "))));
    const NvtxNode& n = tree.nodes[std::size_t(node)];
    QCOMPARE(n.instances, expected.instances);
    QCOMPARE(qint64(n.cpuTime), expected.cpu);
    QCOMPARE(qint64(n.gpuTime), expected.gpu);
    QCOMPARE(qint64(n.projectedSpan), expected.projected);
    QCOMPARE(n.kernels, expected.kernels);
    QCOMPARE(n.memOps, expected.memOps);
    QCOMPARE(n.unterminated, expected.unterminated);
    QCOMPARE(n.crossThread, expected.crossThread);
}

void TestNvtxTree::totalsAndCoverage()
{
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture());
    QCOMPARE(tree.ranges, qint64(13)); // R1..R13; the two marks are not ranges
    QCOMPARE(tree.marks, qint64(2));
    QCOMPARE(tree.unterminated, qint64(1));
    QCOMPARE(tree.crossThread, qint64(1));
    // All kernels: 1910 ns; outside any range: K10 (100, no range), K13 (50, T1's ranges do not count for T2),
    // K15 (100, no launching call).
    QCOMPARE(qint64(tree.coverage.totalNs), qint64(1910));
    QCOMPARE(qint64(tree.coverage.attributedNs), qint64(1660));
    QCOMPARE(tree.coverage.totalKernels, qint64(15));
    QCOMPARE(tree.coverage.attributedKernels, qint64(12));
    QVERIFY(qAbs(tree.coverage.percent() - 100.0 * 1660 / 1910) < 1e-9);
    for (std::size_t i = 1; i < tree.nodes.size(); ++i) {
        const NvtxNode& n = tree.nodes[i];
        QVERIFY(n.parent >= 0 && std::size_t(n.parent) < i);
        QCOMPARE(tree.nodes[std::size_t(n.parent)].children[std::size_t(n.row)], std::int32_t(i));
        QCOMPARE(n.depth, tree.nodes[std::size_t(n.parent)].depth + 1);
    }
}

void TestNvtxTree::childrenOfThread()
{
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture());
    QCOMPARE(childLabels(tree, 0), (QStringList { kB, kA }));
    QCOMPARE(childLabels(tree, find(tree, { kA })), (QStringList { kT1, kT2 }));
    QCOMPARE(childLabels(tree, find(tree, { kA, kT1 })),
        (QStringList { u"async_io"_s, u"step_1"_s, u"step_2"_s, u"tail"_s }));
    QCOMPARE(childLabels(tree, find(tree, { kA, kT1, u"step_1"_s })),
        (QStringList { u"NCCL:ncclAllReduce"_s, u"forward"_s, u"optimizer"_s }));
    QCOMPARE(tree.path(find(tree, { kA, kT1, u"step_1"_s, u"forward"_s, u"layer_1"_s, u"domain 7:x"_s })),
        QStringLiteral("step_1 > forward > layer_1 > domain 7:x"));
    QCOMPARE(tree.selfGpuTime(find(tree, { kA, kT1, u"step_1"_s })), TimeNs(50));
    QCOMPARE(tree.selfGpuTime(find(tree, { kA, kT1, u"step_1"_s, u"forward"_s, u"layer_1"_s })), TimeNs(200));
}

void TestNvtxTree::kernelRows_data()
{
    QTest::addColumn<QStringList>("path");
    QTest::addColumn<QList<int>>("rows");
    // Kernel rows in fixture order: K1 = 0 ... K15 = 14.
    QTest::newRow("range: its kernels and its children's")
        << QStringList { kA, kT1, u"step_1"_s, u"forward"_s } << QList<int> { 0, 1, 2, 3 };
    QTest::newRow("kernel leaf: only that name in that range")
        << QStringList { kA, kT1, u"step_1"_s, u"forward"_s, u"layer_1"_s, u"gemm"_s } << QList<int> { 1 };
    QTest::newRow("thread") << QStringList { kA, kT2 } << QList<int> { 11 };
    QTest::newRow("process B") << QStringList { kB } << QList<int> { 13 };
    QTest::newRow("root: every attributed kernel")
        << QStringList {} << QList<int> { 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13 };
}

void TestNvtxTree::kernelRows()
{
    QFETCH(QStringList, path);
    QFETCH(QList<int>, rows);
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture());
    const std::vector<char> mask = nvtxKernelRows(tree, find(tree, path));
    QCOMPARE(mask.size(), std::size_t(15));
    QList<int> got;
    for (const std::uint32_t r : rowsOf(mask))
        got.append(int(r));
    QCOMPARE(got, rows);
}

void TestNvtxTree::nodesContainingKernel_data()
{
    QTest::addColumn<int>("kernelRow");
    QTest::addColumn<QStringList>("labels");
    QTest::newRow("innermost first, up to the process")
        << 0 << QStringList { u"k_x"_s, u"domain 7:x"_s, u"layer_1"_s, u"forward"_s, u"step_1"_s, kT1, kA };
    QTest::newRow("other process, same correlation id") << 13 << QStringList { u"gemm"_s, u"step_1"_s, kT3, kB };
    QTest::newRow("outside every range") << 9 << QStringList {};
    QTest::newRow("no launching call") << 14 << QStringList {};
}

void TestNvtxTree::nodesContainingKernel()
{
    QFETCH(int, kernelRow);
    QFETCH(QStringList, labels);
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture());
    QStringList got;
    for (const std::int32_t n : nvtxNodesContainingKernel(tree, std::uint32_t(kernelRow)))
        got.append(tree.label(n));
    QCOMPARE(got, labels);
}

void TestNvtxTree::nodesWithKernelName()
{
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture());
    std::set<std::int32_t> got;
    for (const std::int32_t n : nvtxNodesWithKernelName(tree, QStringLiteral("gemm")))
        got.insert(n);
    const std::set<std::int32_t> expected = {
        find(tree, { kA, kT1, u"step_1"_s, u"forward"_s, u"layer_1"_s, u"gemm"_s }),
        find(tree, { kA, kT1, u"step_1"_s, u"forward"_s, u"layer_1"_s }),
        find(tree, { kA, kT1, u"step_1"_s, u"forward"_s, u"layer_2"_s, u"gemm"_s }),
        find(tree, { kA, kT1, u"step_1"_s, u"forward"_s, u"layer_2"_s }),
        find(tree, { kA, kT1, u"step_1"_s, u"forward"_s }),
        find(tree, { kA, kT1, u"step_1"_s }),
        find(tree, { kA, kT1, u"step_2"_s, u"forward"_s, u"layer_1"_s, u"gemm"_s }),
        find(tree, { kA, kT1, u"step_2"_s, u"forward"_s, u"layer_1"_s }),
        find(tree, { kA, kT1, u"step_2"_s, u"forward"_s }),
        find(tree, { kA, kT1, u"step_2"_s }),
        find(tree, { kA, kT1 }),
        find(tree, { kA }),
        find(tree, { kB, kT3, u"step_1"_s, u"gemm"_s }),
        find(tree, { kB, kT3, u"step_1"_s }),
        find(tree, { kB, kT3 }),
        find(tree, { kB }),
    };
    QCOMPARE(got, expected);
    QVERIFY(nvtxNodesWithKernelName(tree, QStringLiteral("no such kernel")).empty());
    QVERIFY(nvtxNodesWithKernelName(tree, QStringLiteral("stray")).empty()); // exists, but outside every range
}

void TestNvtxTree::memOpAttribution()
{
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture());
    // The fixture's one memory operation, directly in layer_1 (not in a child range).
    const std::int32_t layer = find(tree, { kA, kT1, u"step_1"_s, u"forward"_s, u"layer_1"_s });
    QCOMPARE(tree.nodes[std::size_t(layer)].memOps, qint64(1));
    for (const std::int32_t c : tree.nodes[std::size_t(layer)].children)
        QCOMPARE(tree.nodes[std::size_t(c)].memOps, qint64(0));
    QCOMPARE(tree.nodes[0].memOps, qint64(1));
    for (const std::uint32_t outside : { 9u, 12u, 14u })
        QVERIFY(nvtxNodesContainingKernel(tree, outside).empty());
}

void TestNvtxTree::treesOfOneProfileShareAnIndex()
{
    // Two panes ask for trees of one profile, neither passing an index: the second reuses the first one's.
    const ProfilePtr profile = test::nvtxFixture();
    const NvtxTree whole = buildNvtxTree(NvtxTreeRequest { profile, {}, {}, nullptr });
    const NvtxTree focused
        = buildNvtxTree(NvtxTreeRequest { profile, {}, FocusRange { 0, 50, QStringLiteral("f") }, nullptr });
    QVERIFY(whole.index);
    QCOMPARE(focused.index.get(), whole.index.get());
    // Another profile, even with the same events, has its own.
    const NvtxTree other = buildNvtxTree(NvtxTreeRequest { test::nvtxFixture(), {}, {}, nullptr });
    QVERIFY(other.index && other.index.get() != whole.index.get());
    QCOMPARE(other.index->profile(), other.profile.get());
}

void TestNvtxTree::computedTreesSharedWhileHeld()
{
    // The NVTX pane and the Findings ask for the whole capture's tree: one build while one of them holds it.
    const ProfilePtr profile = test::nvtxFixture();
    const auto pane = computeNvtxTree({ profile, {}, {}, nullptr });
    const auto findings = computeNvtxTree({ profile, {}, {}, nullptr });
    QVERIFY(pane && findings);
    QCOMPARE(findings->get(), pane->get());
    // Other options or another focus are other trees.
    NvtxTreeOptions normalized;
    normalized.normalizeNames = true;
    QVERIFY(computeNvtxTree({ profile, normalized, {}, nullptr })->get() != pane->get());
    const auto focused = computeNvtxTree({ profile, {}, FocusRange { 0, 50, QStringLiteral("f") }, nullptr });
    QVERIFY(focused->get() != pane->get());
    QCOMPARE((*focused)->focus.end, TimeNs(50));
}

void TestNvtxTree::cancelledBuildIsSafe()
{
    CancelToken cancelled;
    cancelled.cancel();
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture(), {}, JobContext(cancelled));
    QVERIFY(!tree.nodes.empty());
    QCOMPARE(tree.coverage.attributedNs, TimeNs(0));
}

void TestNvtxTree::cancelledMidwayGivesNoTree()
{
    CancelToken token;
    int reports = 0;
    const JobContext job(token, [&](const Progress& p) {
        QCOMPARE(p.stage, QStringLiteral("NVTX tree"));
        if (++reports == 2)
            token.cancel(); // after the first thread was swept
    });
    const auto tree = computeNvtxTree({ test::nvtxFixture(), {}, {}, nullptr }, job);
    QVERIFY(tree.isCancelled());
    QCOMPARE(reports, 2);
    QVERIFY(computeNvtxTree({ test::nvtxFixture(), {}, {}, nullptr }));
}

void TestNvtxTree::emptyProfile()
{
    const NvtxTree tree = buildNvtxTree(std::make_shared<const Profile>());
    QVERIFY(tree.isEmpty());
    QCOMPARE(tree.ranges, qint64(0));
    QCOMPARE(tree.coverage.percent(), 0.0);
}

void TestNvtxTree::attributionMatchesSqlOnRealTraces_data()
{
    QTest::addColumn<QString>("file");
    // A focus as fractions of the capture (from < 0: none); a focused tree reuses the whole tree's index.
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    for (const test::OracleExport& e : test::oracleExports())
        if (!e.label.startsWith(QLatin1String("nsys")) || e.label.contains(QLatin1String("nvtx"))
            || e.label.contains(QLatin1String("nsys2026.2_h100x2"))) {
            QTest::addRow("%s", qPrintable(e.label)) << e.path << -1.0 << -1.0;
            QTest::addRow("%s, middle tenth", qPrintable(e.label)) << e.path << 0.45 << 0.55;
        }
}

void TestNvtxTree::attributionMatchesSqlOnRealTraces()
{
    QFETCH(QString, file);
    QFETCH(double, from);
    QFETCH(double, to);
    const LoadResult loaded = ProfileLoader::load(file, {});
    QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
    const ProfilePtr& profile = loaded->profile;
    const NvtxTreeOptions options { NvtxGrouping::Merged, false };
    FocusRange focus;
    if (from >= 0) {
        const double span = double(profile->activityEnd - profile->activityStart);
        focus.start = profile->activityStart + TimeNs(from * span);
        focus.end = profile->activityStart + TimeNs(to * span);
    }
    const NvtxTree whole = buildNvtxTree(profile, options);
    const NvtxTree tree = focus.isActive() ? buildNvtxTree(NvtxTreeRequest { profile, options, focus, whole.index })
                                           : buildNvtxTree(profile, options);
    // nsys's overlap predicate on an event [s, e] (everything without a focus).
    const auto overlaps = [&](const QString& s, const QString& e) {
        if (!focus.isActive())
            return QStringLiteral("1");
        return QStringLiteral("((%1 >= %3 AND %1 < %4) OR (%2 >= %3 AND %2 < %4) OR (%1 < %3 AND %2 >= %4))")
            .arg(s, e)
            .arg(focus.start)
            .arg(focus.end);
    };

    // Independently: for every kernel, through its (first) launching call in the same process, the range on that
    // thread containing the call's start with the latest start (then the earliest end, then the last row).
    QSqlDatabase db = test::openReadOnly(file);
    QVERIFY2(db.isOpen(), qPrintable(db.lastError().text()));
    QSqlQuery q(db);
    QVERIFY(q.exec(QStringLiteral("DROP TABLE IF EXISTS temp.rng")));
    QVERIFY2(q.exec(QStringLiteral(
                 "CREATE TEMP TABLE rng AS SELECT n.rowid AS id, n.globalTid AS tid, n.start AS s, "
                 "coalesce(n.end, (SELECT max(max(start), max(end)) FROM NVTX_EVENTS)) AS e, "
                 "CASE WHEN n.domainId IS NULL OR n.domainId = 0 THEN '' ELSE coalesce((SELECT coalesce(s2.value, "
                 "d.text) FROM NVTX_EVENTS d LEFT JOIN StringIds s2 ON s2.id = d.textId WHERE d.eventType = 75 AND "
                 "d.domainId = n.domainId AND (d.globalTid >> 24) = (n.globalTid >> 24)), 'domain ' || n.domainId) "
                 "|| ':' END || coalesce(st.value, n.text, '') AS label "
                 "FROM NVTX_EVENTS n LEFT JOIN StringIds st ON st.id = n.textId "
                 "WHERE n.eventType IN (59, 60, 70, 71)")),
        qPrintable(q.lastError().text()));
    QVERIFY(q.exec(QStringLiteral("DELETE FROM rng WHERE NOT %1").arg(overlaps(u"s"_s, u"e"_s))));
    QVERIFY(q.exec(QStringLiteral("CREATE INDEX temp.rng_ts ON rng(tid, s)")));
    QVERIFY2(q.exec(QStringLiteral(
                 "WITH att AS (SELECT k.end - k.start AS d, %1 AS inFocus, (SELECT label FROM rng WHERE rng.tid = "
                 "r.globalTid AND "
                 "rng.s <= r.start AND rng.e >= r.start ORDER BY rng.s DESC, rng.e ASC, rng.id DESC LIMIT 1) AS label "
                 "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
                 "k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24) WHERE r.rowid = (SELECT min(r2.rowid) "
                 "FROM CUPTI_ACTIVITY_KIND_RUNTIME r2 WHERE r2.correlationId = k.correlationId AND (r2.globalTid >> "
                 "24) = (k.globalPid >> 24))) "
                 "SELECT label, sum(d), count(*), sum(d * inFocus), sum(inFocus) FROM att WHERE label IS NOT NULL "
                 "GROUP BY label")
                        .arg(overlaps(u"k.start"_s, u"k.end"_s))),
        qPrintable(q.lastError().text()));
    std::map<QString, std::pair<qint64, qint64>> expected;
    qint64 attributedNs = 0, attributed = 0; // in the focus
    while (q.next()) {
        expected[q.value(0).toString()] = { q.value(1).toLongLong(), q.value(2).toLongLong() };
        attributedNs += q.value(3).toLongLong();
        attributed += q.value(4).toLongLong();
    }
    std::map<QString, std::pair<qint64, qint64>> got;
    const Profile& p = *loaded->profile;
    for (std::size_t k = 0; k < tree.kernelLeafPlusOne.size(); ++k) {
        const std::int32_t leaf = tree.kernelLeaf(k);
        if (leaf < 0)
            continue;
        auto& e = got[tree.label(tree.nodes[std::size_t(leaf)].parent)];
        e.first += p.kernels.end[k] - p.kernels.start[k];
        ++e.second;
    }
    QCOMPARE(got.size(), expected.size());
    QVERIFY(got == expected);
    QCOMPARE(qint64(tree.coverage.attributedNs), attributedNs);
    QCOMPARE(tree.coverage.attributedKernels, attributed);
    QVERIFY(q.exec(QStringLiteral("SELECT coalesce(sum(end - start), 0), count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                                  "WHERE %1")
                       .arg(overlaps(u"start"_s, u"end"_s))));
    QVERIFY(q.next());
    QCOMPARE(qint64(tree.coverage.totalNs), q.value(0).toLongLong());
    QCOMPARE(tree.coverage.totalKernels, q.value(1).toLongLong());
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM rng")));
    QVERIFY(q.next());
    QCOMPARE(tree.ranges, q.value(0).toLongLong());
    // Each range instance placed once, in the node of its label.
    QCOMPARE(qint64(tree.rangeNode.size()), tree.ranges);
    QVERIFY(q.exec(QStringLiteral("SELECT label, count(*) FROM rng GROUP BY label")));
    std::map<QString, qint64> instances, placed;
    while (q.next())
        instances[q.value(0).toString()] = q.value(1).toLongLong();
    for (const std::uint32_t node : tree.rangeNode)
        ++placed[tree.label(std::int32_t(node))];
    QVERIFY(placed == instances);
}

QTEST_GUILESS_MAIN(TestNvtxTree)
#include "tst_nvtxtree.moc"
