// SPDX-License-Identifier: GPL-3.0-or-later
// NVTX phases without a phase map (nvtxLevelPhases), on hand-made profiles of one thread (test::nvtxKernelProfile:
// "R name start end" a range, "K launch start end" a kernel, in ms). A kernel counts for the innermost range holding
// its launch and every range above it; a phase's NVTX time is the sum of its ranges' durations at the level.
#include "core/nvtx/nvtxautophases.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

class TestNvtxAutoPhases : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void phases_data();
    void phases();
};

void TestNvtxAutoPhases::phases_data()
{
    QTest::addColumn<QStringList>("events");
    QTest::addColumn<QStringList>("markers");
    QTest::addColumn<QString>("level"); ///< or, without phases, why
    QTest::addColumn<QStringList>("rows"); ///< "phase:instances:NVTX ms:kernel ms:kernels", most kernel time first

    // prefill [0, 2] launches a 1 ms kernel; decode [2, 10] launches 3 + 2 ms.
    const QStringList prefillDecode { u"R prefill 0 2"_s, u"K 0.1 0.5 1.5"_s, u"R decode 2 10"_s, u"K 2.1 2.5 5.5"_s,
        u"K 6 6.5 8.5"_s };
    QTest::newRow("outermost ranges: decode 8 ms and 5 ms of kernels, prefill 2 and 1")
        << prefillDecode << QStringList {} << QStringLiteral("the outermost NVTX ranges")
        << QStringList { u"decode:1:8:5:2"_s, u"prefill:1:2:1:1"_s };

    // main [0, 10] wraps load [0, 1] (no kernel) and train [1, 10], whose step [2, 4] launches 1.5 ms: train takes
    // the kernels of the ranges under it.
    QTest::newRow("a wrapper: the ranges under main")
        << QStringList { u"R main 0 10"_s, u"R load 0 1"_s, u"R train 1 10"_s, u"R step 2 4"_s, u"K 2.5 3 4.5"_s }
        << QStringList {} << QStringLiteral("the NVTX ranges under main")
        << QStringList { u"train:1:9:1.5:1"_s, u"load:1:1:0:0"_s };

    // "step 1" and "step 2" are one name up to their numbers: the level is under them, fwd twice, bwd twice.
    QTest::newRow("numbers ignored: the ranges under step #") << QStringList { u"R step 1 0 5"_s, u"R fwd 0 2"_s,
        u"K 0.5 1 2"_s, u"R bwd 2 5"_s, u"K 2.5 3 5"_s, u"R step 2 5 10"_s, u"R fwd 5 7"_s, u"K 5.5 6 7"_s,
        u"R bwd 7 10"_s, u"K 7.5 8 10"_s } << QStringList {} << QStringLiteral("the NVTX ranges under step #")
                                                              << QStringList { u"bwd:2:6:4:2"_s, u"fwd:2:4:2:2"_s };

    // init [0, 1] then train [1, 9] holding the marker's ProfilerStep#0 [1, 5] and #1 [5, 9], each fwd 1 ms + bwd 3 ms.
    const QStringList marked { u"R init 0 1"_s, u"K 0.5 0.6 0.8"_s, u"R train 1 9"_s, u"R ProfilerStep#0 1 5"_s,
        u"R fwd 1 2"_s, u"K 1.5 1.6 1.9"_s, u"R bwd 2 5"_s, u"K 2.5 3 4"_s, u"R ProfilerStep#1 5 9"_s, u"R fwd 5 6"_s,
        u"K 5.5 5.6 5.9"_s, u"R bwd 6 9"_s, u"K 6.5 7 8"_s };
    QTest::newRow("iteration marker: the ranges directly under it")
        << marked << QStringList { u"ProfilerStep#0"_s, u"ProfilerStep#1"_s }
        << QStringLiteral("the NVTX ranges directly under the iteration marker (ProfilerStep#0 … ProfilerStep#1)")
        << QStringList { u"bwd:2:6:2:2"_s, u"fwd:2:2:0.6:2"_s };
    QTest::newRow("no marker known: init and train")
        << marked << QStringList {} << QStringLiteral("the outermost NVTX ranges")
        << QStringList { u"train:1:8:2.6:4"_s, u"init:1:1:0.2:1"_s };

    QTest::newRow("one name only: nothing to compare")
        << QStringList { u"R main 0 10"_s, u"K 1 2 3"_s } << QStringList {}
        << QStringLiteral("the outermost NVTX ranges all have one name (main): no phases to compare") << QStringList {};
    QTest::newRow("no ranges") << QStringList { u"K 1 2 3"_s } << QStringList {} << QStringLiteral("no NVTX ranges")
                               << QStringList {};
}

void TestNvtxAutoPhases::phases()
{
    QFETCH(QStringList, events);
    QFETCH(QStringList, markers);
    QFETCH(QString, level);
    QFETCH(QStringList, rows);
    const ProfilePtr profile = test::nvtxKernelProfile(events);
    for (const bool normalized : { true, false }) { // the same phases from either tree
        NvtxTreeOptions options;
        options.normalizeNames = normalized;
        const NvtxTree tree = buildNvtxTree(profile, options);
        const NvtxLevelPhases phases = nvtxLevelPhases(tree, markers);
        QCOMPARE(rows.isEmpty() ? phases.missing : phases.level, level);
        QStringList got;
        for (const NvtxPhaseRow& p : phases.rows) {
            got << QStringLiteral("%1:%2:%3:%4:%5")
                       .arg(p.phase)
                       .arg(p.instances)
                       .arg(double(p.cpuTime) / 1e6)
                       .arg(double(p.gpuTime) / 1e6)
                       .arg(p.kernels);
            // Its first instance is the earliest range of that name.
            const NvtxTable& nvtx = profile->nvtx;
            QCOMPARE(normalizeNvtxName(profile->strings.at(nvtx.name[std::size_t(p.firstRow)])), p.phase);
            for (std::size_t i = 0; i < nvtx.size(); ++i)
                if (normalizeNvtxName(profile->strings.at(nvtx.name[i])) == p.phase)
                    QVERIFY2(nvtx.start[i] >= nvtx.start[std::size_t(p.firstRow)], qPrintable(p.phase));
        }
        QCOMPARE(got, rows);
    }
}

QTEST_MAIN(TestNvtxAutoPhases)
#include "tst_nvtxautophases.moc"
