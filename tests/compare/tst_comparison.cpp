// SPDX-License-Identifier: GPL-3.0-or-later
// Keys, deltas, statuses and normalization on the hand-worked before/after pair (comparefixture.h).
#include "comparefixture.h"
#include "core/categories/categorytimeline.h"
#include "core/categories/ruleevaluation.h"
#include "core/compare/compareexport.h"
#include "core/compare/comparison.h"
#include "core/nvtx/nvtxexport.h"
#include "core/nvtx/nvtxnames.h"
#include "profilebuilder.h"

#include <QTest>
#include <cmath>
#include <limits>

using namespace nsw;
using namespace Qt::StringLiterals;
using namespace nsw::test;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

std::shared_ptr<const ProfileKeys> kernels(
    const ProfilePtr& p, bool normalize, KernelNameMode mode = KernelNameMode::Demangled)
{
    return std::make_shared<const ProfileKeys>(kernelKeys(KernelIndex(p, mode), normalize));
}

std::shared_ptr<const ProfileKeys> categories(const ProfilePtr& p, TimeMode mode)
{
    const auto timeline = CategoryTimeline::build(p);
    RuleMatchCache cache(NameSet { timeline->demangledNames(), timeline->shortNames() });
    const RuleList rules = fixtureRules();
    CategoryOptions o;
    o.mode = mode;
    const CategoryBreakdown b = categorize(*timeline, rules, evaluateRules(rules, cache, nullptr), o);
    return std::make_shared<const ProfileKeys>(categoryKeys(b, p->captureDurationNs()));
}

std::shared_ptr<const ProfileKeys> nvtx(const ProfilePtr& p, bool normalize)
{
    NvtxTreeOptions o;
    o.grouping = NvtxGrouping::Merged;
    o.normalizeNames = normalize;
    return std::make_shared<const ProfileKeys>(nvtxKeys(buildNvtxTree(p, o)));
}

Comparison compare(std::shared_ptr<const ProfileKeys> a, std::shared_ptr<const ProfileKeys> b,
    CompareOptions options = {}, std::int64_t itA = 0, std::int64_t itB = 0)
{
    return compareProfiles({ { QStringLiteral("before"), a, itA }, { QStringLiteral("after"), b, itB } }, options);
}

CompareOptions opts(CompareNormalization n = CompareNormalization::None, double threshold = 5, double floor = 0)
{
    CompareOptions o;
    o.normalization = n;
    o.thresholdPercent = threshold;
    o.noiseFloorNs = floor;
    return o;
}

/// "key: before total/instances -> after total/instances, delta, percent, status" for a whole comparison.
QStringList describe(const Comparison& c)
{
    QStringList out;
    for (const CompareRow& r : c.rows)
        out.append(
            QStringLiteral("%1: %2/%3 -> %4/%5 %6 %7 %8")
                .arg(r.key)
                .arg(r.cells[0].total)
                .arg(r.cells[0].count)
                .arg(r.cells[1].total)
                .arg(r.cells[1].count)
                .arg(r.delta[1])
                .arg(std::isinf(r.deltaPercent[1]) ? QStringLiteral("inf") : QString::number(r.deltaPercent[1], 'f', 2))
                .arg(compareStatusName(r.status[1])));
    return out;
}

QString s(const char* text)
{
    return QString::fromUtf8(text);
}
} // namespace

class TestComparison : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void compactLabels_data()
    {
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<int>("maxChars");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("short: extension dropped")
            << QStringList { u"a.sqlite"_s, u"b.nsys-rep"_s } << 16 << QStringList { u"a"_s, u"b"_s };
        QTest::newRow("shared prefix and suffix") << QStringList { u"run_mfu_before_nccl.sqlite"_s,
            u"run_mfu_after_nccl.sqlite"_s } << 16 << QStringList { u"…before…"_s, u"…after…"_s };
        QTest::newRow("a profile beside its iterations: the profile whole, the iterations by their own names")
            << QStringList { u"train.sqlite"_s, u"train.sqlite · iteration 5"_s,
                   u"train.sqlite · median iteration (3)"_s }
            << 16
            << QStringList { u"train"_s, u"iteration 5"_s,
                   u"median iteration (3)"_s.left(7) + u"…"_s + u"median iteration (3)"_s.right(8) };
        QTest::newRow("one iteration beside its profile") << QStringList { u"train.sqlite"_s,
            u"train.sqlite · iteration 12"_s } << 16 << QStringList { u"train"_s, u"iteration 12"_s };
        QTest::newRow("two iterations of a long name")
            << QStringList { u"nsys2026.2_h100x2_mfu_before_nccl.sqlite · iteration 1"_s,
                   u"nsys2026.2_h100x2_mfu_before_nccl.sqlite · iteration 2"_s }
            << 24 << QStringList { u"iteration 1"_s, u"iteration 2"_s };
        QTest::newRow("the same name twice stays whole") << QStringList {
            u"nsys2026.2_h100x2_mfu_before_nccl.sqlite"_s, u"nsys2026.2_h100x2_mfu_before_nccl.sqlite"_s
        } << 24 << QStringList { u"nsys2026.2_…_before_nccl"_s, u"nsys2026.2_…_before_nccl"_s };
    }
    void compactLabels()
    {
        QFETCH(QStringList, labels);
        QFETCH(int, maxChars);
        QFETCH(QStringList, expected);
        QCOMPARE(compactProfileLabels(labels, maxChars), expected);
    }

    void kernelKeysPerName()
    {
        std::vector<std::int32_t> keyOfGroup;
        const KernelIndex index(beforeProfile(), KernelNameMode::Demangled);
        const ProfileKeys k = kernelKeys(index, false, &keyOfGroup);
        QCOMPARE(k.by, CompareBy::Kernel);
        QCOMPARE(k.size(), std::size_t(4));
        QCOMPARE(k.gpu.total, TimeNs(350'000));
        QCOMPARE(k.gpu.instances, 6);
        QCOMPARE(k.captureNs, TimeNs(2'000'000'000));
        std::map<QString, std::pair<TimeNs, std::int64_t>> byKey;
        for (std::size_t i = 0; i < k.size(); ++i) {
            byKey[k.keys[i]] = { k.values[i].total, k.values[i].instances };
            QVERIFY(k.topLevel[i]);
        }
        QCOMPARE(byKey[kGemm128], std::make_pair(TimeNs(200'000), std::int64_t(2)));
        QCOMPARE(byKey[kRelu], std::make_pair(TimeNs(100'000), std::int64_t(2)));
        QCOMPARE(byKey[kOld], std::make_pair(TimeNs(40'000), std::int64_t(1)));
        QCOMPARE(byKey[kTail], std::make_pair(TimeNs(10'000), std::int64_t(1)));
        QCOMPARE(keyOfGroup.size(), index.groups().size());
        for (std::size_t g = 0; g < keyOfGroup.size(); ++g)
            QCOMPARE(k.keys[std::size_t(keyOfGroup[g])], index.profile()->strings.at(index.groups()[g].name));
    }

    /// The command line's path (totals without an index) gives the same keys as the workbench's.
    void kernelKeysWithoutIndex_data()
    {
        QTest::addColumn<bool>("normalize");
        QTest::addColumn<int>("mode");
        QTest::newRow("demangled") << false << int(KernelNameMode::Demangled);
        QTest::newRow("demangled, normalized") << true << int(KernelNameMode::Demangled);
        QTest::newRow("short") << false << int(KernelNameMode::Short);
    }

    void kernelKeysWithoutIndex()
    {
        QFETCH(bool, normalize);
        QFETCH(int, mode);
        for (const ProfilePtr& p : { beforeProfile(), afterProfile() }) {
            const ProfileKeys a = kernelKeys(KernelIndex(p, KernelNameMode(mode)), normalize);
            const ProfileKeys b = kernelKeys(*p, kernelTotalsByName(*p, KernelNameMode(mode)), normalize);
            std::map<QString, std::pair<TimeNs, std::int64_t>> ma, mb;
            for (std::size_t i = 0; i < a.size(); ++i)
                ma[a.keys[i]] = { a.values[i].total, a.values[i].instances };
            for (std::size_t i = 0; i < b.size(); ++i)
                mb[b.keys[i]] = { b.values[i].total, b.values[i].instances };
            QCOMPARE(ma, mb);
            QCOMPARE(a.gpu.total, b.gpu.total);
            QCOMPARE(a.gpu.instances, b.gpu.instances);
        }
    }

    void kernelKeysShortNames()
    {
        const auto k = kernels(afterProfile(), false, KernelNameMode::Short);
        QStringList keys(k->keys.begin(), k->keys.end());
        keys.sort();
        QCOMPARE(keys, (QStringList { s("gemm_kernel"), s("new_kernel"), s("relu_kernel"), s("tail_kernel") }));
    }

    /// Without normalization the two gemm instantiations are a removed and a new key.
    void kernelDeltas()
    {
        const Comparison c = compare(kernels(beforeProfile(), false), kernels(afterProfile(), false), opts());
        QVERIFY(c.error.isEmpty());
        QCOMPARE(c.by, CompareBy::Kernel);
        QCOMPARE(c.unit(), s("ns"));
        QCOMPARE(describe(c),
            (QStringList {
                kGemm256 + s(": 0/0 -> 450000/3 450000 inf new"),
                kGemm128 + s(": 200000/2 -> 0/0 -200000 -100.00 removed"),
                kOld + s(": 40000/1 -> 0/0 -40000 -100.00 removed"),
                kNew + s(": 0/0 -> 30000/1 30000 inf new"),
                kRelu + s(": 100000/2 -> 100000/2 0 0.00 unchanged"),
                kTail + s(": 10000/1 -> 10000/1 0 0.00 unchanged"),
            }));
        const CompareRow& gemm = c.rows[1];
        QCOMPARE(gemm.cells[0].average, 100'000.0);
        QCOMPARE(gemm.cells[0].share, 100.0 * 200'000 / 350'000);
        QCOMPARE(gemm.cells[1].average, 0.0);
        QCOMPARE(gemm.summary, CompareStatus::Removed);
        QCOMPARE(c.totals.key, s("(all GPU time)"));
        QCOMPARE(c.totals.cells[0].totalNs, TimeNs(350'000));
        QCOMPARE(c.totals.cells[1].totalNs, TimeNs(590'000));
        QCOMPARE(c.totals.cells[1].instances, 7);
        QCOMPARE(c.totals.delta[1], 240'000.0);
        QCOMPARE(c.totals.deltaPercent[1], 100.0 * 240'000 / 350'000);
        QCOMPARE(c.totals.status[1], CompareStatus::Regression);
        QCOMPARE(c.totals.delta[0], 0.0);
        QCOMPARE(c.totals.status[0], CompareStatus::Unchanged);
    }

    void kernelDeltasNormalizedNames()
    {
        const Comparison c = compare(kernels(beforeProfile(), true), kernels(afterProfile(), true), opts());
        QCOMPARE(describe(c),
            (QStringList {
                kGemmNormalized + s(": 200000/2 -> 450000/3 250000 125.00 regression"),
                kOld + s(": 40000/1 -> 0/0 -40000 -100.00 removed"),
                kNew + s(": 0/0 -> 30000/1 30000 inf new"),
                kRelu + s(": 100000/2 -> 100000/2 0 0.00 unchanged"),
                kTail + s(": 10000/1 -> 10000/1 0 0.00 unchanged"),
            }));
        QCOMPARE(c.rows[0].cells[1].average, 150'000.0);
    }

    /// before 2 s, after 4 s. Statuses follow the time per call (issue 33: relu, as long per call but half as often
    /// per second, read as an improvement); rows by the change per call × the calls: gemm (150,000 - 100,000) × 0.75
    /// = 37,500, old -20,000 and new 7,500 (their deltas), relu and tail 0 (then by their largest total).
    void perSecond()
    {
        const Comparison c = compare(
            kernels(beforeProfile(), true), kernels(afterProfile(), true), opts(CompareNormalization::PerSecond));
        QCOMPARE(c.unit(), s("ns/s"));
        QCOMPARE(c.divisor, (std::vector<double> { 2.0, 4.0 }));
        QCOMPARE(describe(c),
            (QStringList {
                kGemmNormalized + s(": 100000/1 -> 112500/0.75 12500 12.50 regression"),
                kOld + s(": 20000/0.5 -> 0/0 -20000 -100.00 removed"),
                kNew + s(": 0/0 -> 7500/0.25 7500 inf new"),
                kRelu + s(": 50000/1 -> 25000/0.5 -25000 -50.00 unchanged"),
                kTail + s(": 5000/0.5 -> 2500/0.25 -2500 -50.00 unchanged"),
            }));
        QCOMPARE(c.rows[0].perCallEffect[1], 37'500.0);
        QCOMPARE(c.rows[0].perCallPercent[1], 50.0);
        // Averages and shares do not depend on the normalization.
        QCOMPARE(c.rows[0].cells[1].average, 150'000.0);
        QCOMPARE(c.totals.cells[0].total, 175'000.0);
        QCOMPARE(c.totals.cells[1].total, 147'500.0);
    }

    /// "step": 2 instances before, 3 after.
    void perIteration()
    {
        QCOMPARE(countIterations(*beforeProfile(), s("step")), 2);
        QCOMPARE(countIterations(*afterProfile(), s("step")), 3);
        const Comparison c = compare(kernels(beforeProfile(), true), kernels(afterProfile(), true),
            opts(CompareNormalization::PerIteration), 2, 3);
        QCOMPARE(c.unit(), s("ns/iteration"));
        QCOMPARE(c.divisor, (std::vector<double> { 2.0, 3.0 }));
        QCOMPARE(c.rows[0].key, kGemmNormalized);
        QCOMPARE(c.rows[0].cells[0].total, 100'000.0);
        QCOMPARE(c.rows[0].cells[1].total, 150'000.0);
        QCOMPARE(c.rows[0].deltaPercent[1], 50.0);
        QCOMPARE(c.rows[0].status[1], CompareStatus::Regression);
        const int relu = c.rowOf(kRelu);
        QVERIFY(relu >= 0);
        QCOMPARE(c.rows[std::size_t(relu)].cells[1].total, 100'000.0 / 3);
        QCOMPARE(
            c.rows[std::size_t(relu)].status[1], CompareStatus::Unchanged); // as long per call, fewer per iteration
    }

    /// Per instance: the average per execution is the value, Δ and Δ % compare averages, instances are counted.
    /// gemm<...> 2 × 100,000 -> 3 × 150,000: +50,000 ns (+50 %) per call, one call more. relu 2 × 50,000 both.
    void perInstance()
    {
        const Comparison c = compare(
            kernels(beforeProfile(), true), kernels(afterProfile(), true), opts(CompareNormalization::PerInstance));
        QCOMPARE(c.unit(), s("ns/instance"));
        QCOMPARE(compareNormalizationName(CompareNormalization::PerInstance), s("instance"));
        QCOMPARE(parseCompareNormalization(s("instance")), CompareNormalization::PerInstance);
        const int gemm = c.rowOf(kGemmNormalized);
        QVERIFY(gemm >= 0);
        const CompareRow& g = c.rows[std::size_t(gemm)];
        QCOMPARE(g.cells[0].total, 100'000.0);
        QCOMPARE(g.cells[1].total, 150'000.0);
        QCOMPARE(g.cells[0].median, 100'000.0);
        QCOMPARE(g.cells[1].median, 150'000.0);
        QCOMPARE(g.cells[1].instances, std::int64_t(3));
        QCOMPARE(g.delta[1], 50'000.0);
        QCOMPARE(g.deltaPercent[1], 50.0);
        QCOMPARE(g.deltaInstances[1], 1.0);
        QCOMPARE(g.status[1], CompareStatus::Regression);
        QCOMPARE(compareChangeText(c, g, 1), s("slower, more calls"));
        QCOMPARE(compareStatusText(c, g), s("regression (slower, more calls)"));
        const CompareRow& relu = c.rows[std::size_t(c.rowOf(kRelu))];
        QCOMPARE(relu.cells[1].total, 50'000.0);
        QCOMPARE(relu.status[1], CompareStatus::Unchanged);
        QCOMPARE(compareStatusText(c, relu), s("unchanged"));
        // The totals row: 350,000 / 6 and 590,000 / 7 per kernel.
        QCOMPARE(c.totals.cells[0].total, 350'000.0 / 6);
        QCOMPARE(c.totals.cells[1].total, 590'000.0 / 7);
        QCOMPARE(c.totals.deltaInstances[1], 1.0);
        QVERIFY(std::isnan(c.totals.cells[0].median)); // the keys' medians, not the profile's
    }

    /// What changed, in words: per second of capture relu runs as long per call but half as often (-50 %): fewer
    /// calls, which is neither an improvement nor a regression; gemm is both slower (+50 % per call) and called more
    /// (+50 %) in the totals.
    void changeSaysWhatChanged()
    {
        const Comparison perSecond = compare(
            kernels(beforeProfile(), true), kernels(afterProfile(), true), opts(CompareNormalization::PerSecond));
        const CompareRow& relu = perSecond.rows[std::size_t(perSecond.rowOf(kRelu))];
        QCOMPARE(relu.status[1], CompareStatus::Unchanged);
        QCOMPARE(relu.deltaInstances[1], -0.5);
        QCOMPARE(compareStatusText(perSecond, relu), s("unchanged (fewer calls)"));
        const Comparison totals = compare(kernels(beforeProfile(), true), kernels(afterProfile(), true), opts());
        const CompareRow& gemm = totals.rows[std::size_t(totals.rowOf(kGemmNormalized))];
        QCOMPARE(compareStatusText(totals, gemm), s("regression (slower, more calls)"));
        QCOMPARE(gemm.deltaInstances[1], 1.0);
        const CompareRow& added = totals.rows[std::size_t(totals.rowOf(kNew))];
        QCOMPARE(compareStatusText(totals, added), s("new"));
        QCOMPARE(added.deltaInstances[1], 1.0);
        // Keys without per-instance durations (categories) have no median.
        const Comparison byCategory = compare(categories(beforeProfile(), TimeMode::Sum),
            categories(afterProfile(), TimeMode::Sum), opts(CompareNormalization::PerInstance));
        QVERIFY(std::isnan(byCategory.rows.front().cells[0].median));
    }

    void countIterationsMatching_data()
    {
        QTest::addColumn<QString>("marker");
        QTest::addColumn<qint64>("before");
        QTest::addColumn<qint64>("after");
        QTest::newRow("exact") << s("step") << qint64(2) << qint64(3);
        QTest::newRow("numbers normalized") << s("layer_7") << qint64(2) << qint64(3);
        QTest::newRow("one exact name") << s("layer_1") << qint64(2) << qint64(3);
        QTest::newRow("case matters") << s("Step") << qint64(0) << qint64(0);
        QTest::newRow("no such range") << s("iteration") << qint64(0) << qint64(0);
    }

    void countIterationsMatching()
    {
        QFETCH(QString, marker);
        QFETCH(qint64, before);
        QFETCH(qint64, after);
        QCOMPARE(countIterations(*beforeProfile(), marker), before);
        QCOMPARE(countIterations(*afterProfile(), marker), after);
    }

    void normalizationErrors()
    {
        const auto a = kernels(beforeProfile(), false);
        Comparison c = compare(a, a, opts(CompareNormalization::PerIteration), 2, 0);
        QCOMPARE(c.error, s("after: no instance of the iteration marker"));
        QVERIFY(c.rows.empty());
        auto noSpan = std::make_shared<ProfileKeys>(*a);
        noSpan->captureNs = 0;
        c = compare(a, noSpan, opts(CompareNormalization::PerSecond));
        QCOMPARE(c.error, s("after: no capture span to normalize by"));
        CompareOptions o;
        o.baseline = 2;
        c = compare(a, a, o);
        QCOMPARE(c.error, s("baseline 2 is not one of the 2 profiles"));
        c = compare(a, nvtx(beforeProfile(), false));
        QCOMPARE(c.error, s("after: keyed by nvtx, the others by kernel"));
    }

    void categoryDeltas_data()
    {
        QTest::addColumn<int>("mode");
        for (const TimeMode m : kAllTimeModes)
            QTest::newRow(qPrintable(timeModeName(m))) << int(m);
    }

    void categoryDeltas()
    {
        QFETCH(int, mode);
        const Comparison c = compare(categories(beforeProfile(), TimeMode(mode)),
            categories(afterProfile(), TimeMode(mode)), opts(CompareNormalization::None, 5, 0));
        QCOMPARE(c.by, CompareBy::Category);
        QCOMPARE(describe(c),
            (QStringList {
                s("gemm: 200000/2 -> 450000/3 250000 125.00 regression"),
                s("misc: 50000/2 -> 40000/2 -10000 -20.00 improvement"),
                s("act: 100000/2 -> 100000/2 0 0.00 unchanged"),
            }));
        QCOMPARE(c.totals.cells[0].totalNs, TimeNs(350'000));
        QCOMPARE(c.totals.cells[1].totalNs, TimeNs(590'000));
    }

    void nvtxDeltas_data()
    {
        QTest::addColumn<bool>("normalize");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("normalized") << true
                                    << QStringList { s("step > layer_#: 300000/2 -> 580000/3 280000 93.33 regression"),
                                           s("step: 340000/2 -> 580000/3 240000 70.59 regression") };
        // As recorded, by the change per call × calls: layer_3 new 180,000; step (193,333 - 170,000) × 3 = 70,000;
        // layer_1 and layer_2 50,000 each.
        QTest::newRow("as recorded") << false
                                     << QStringList { s("step > layer_3: 0/0 -> 180000/1 180000 inf new"),
                                            s("step: 340000/2 -> 580000/3 240000 70.59 regression"),
                                            s("step > layer_1: 150000/1 -> 200000/1 50000 33.33 regression"),
                                            s("step > layer_2: 150000/1 -> 200000/1 50000 33.33 regression") };
    }

    void nvtxDeltas()
    {
        QFETCH(bool, normalize);
        QFETCH(QStringList, expected);
        const auto before = nvtx(beforeProfile(), normalize);
        QCOMPARE(before->gpu.total, TimeNs(350'000));
        QCOMPARE(before->gpu.instances, 6);
        const Comparison c = compare(before, nvtx(afterProfile(), normalize), opts());
        QCOMPARE(describe(c), expected);
        for (const CompareRow& r : c.rows)
            QCOMPARE(r.topLevel, !r.key.contains(kNvtxPathSeparator));
    }

    // 300 nested ranges, a 500 ns kernel launched in the innermost: the paths stop at the export depth, and the
    // deepest key kept holds the kernel of the ranges folded into it.
    void nvtxKeysFoldBelowTheExportDepth()
    {
        ProfileBuilder b;
        const ThreadIndex thread = b.thread(b.process(100, u"deep"_s), 101, u"main"_s);
        const int depth = 300;
        for (int i = 0; i < depth; ++i)
            b.nvtxRange(thread, 1000 + i, 10000 - i, u"r%1"_s.arg(i));
        b.kernel(thread, 2000, 2010, 3000, 3500, u"k"_s);
        const auto keys = nvtx(b.build(), false);
        QCOMPARE(int(keys->size()), kMaxExportedNvtxDepth);
        const QString& deepest = keys->keys.back();
        QCOMPARE(int(deepest.count(kNvtxPathSeparator)), kMaxExportedNvtxDepth - 1);
        QVERIFY(deepest.endsWith(u"r%1"_s.arg(kMaxExportedNvtxDepth - 1)));
        QCOMPARE(keys->values.back().total, TimeNs(500));
        QCOMPARE(keys->values.front().total, TimeNs(500));
        QCOMPARE(keys->warnings.size(), 1);
        QVERIFY2(keys->warnings.front().contains(
                     u"the %1 ranges below depth %2"_s.arg(depth - kMaxExportedNvtxDepth).arg(kMaxExportedNvtxDepth)),
            qPrintable(keys->warnings.front()));
    }

    void selfIsUnchanged_data()
    {
        QTest::addColumn<int>("by");
        QTest::addColumn<int>("normalization");
        for (const CompareBy by : { CompareBy::Category, CompareBy::Kernel, CompareBy::Nvtx })
            for (const CompareNormalization n :
                { CompareNormalization::None, CompareNormalization::PerSecond, CompareNormalization::PerIteration })
                QTest::addRow("%s per %s", qPrintable(compareByName(by)), qPrintable(compareNormalizationName(n)))
                    << int(by) << int(n);
    }

    void selfIsUnchanged()
    {
        QFETCH(int, by);
        QFETCH(int, normalization);
        const ProfilePtr p = afterProfile();
        const auto keys = CompareBy(by) == CompareBy::Kernel ? kernels(p, false)
            : CompareBy(by) == CompareBy::Nvtx               ? nvtx(p, false)
                                                             : categories(p, TimeMode::Global);
        const Comparison c = compare(keys, keys, opts(CompareNormalization(normalization), 0, 0), 3, 3);
        QVERIFY(c.error.isEmpty());
        QVERIFY(!c.rows.empty());
        for (const CompareRow& r : c.rows) {
            QCOMPARE(r.summary, CompareStatus::Unchanged);
            QCOMPARE(r.delta[1], 0.0);
            QCOMPARE(r.deltaPercent[1], 0.0);
        }
        QCOMPARE(c.totals.summary, CompareStatus::Unchanged);
        QVERIFY(rowsRegressingAbove(c, 0).empty());
    }

    /// gemm (normalized names) goes from 2 × 100,000 to 3 × 150,000: +50 % per call, costing (150,000 - 100,000) × 3
    /// = 150,000 ns (its total grows 125 %, but more calls are no regression).
    void thresholdAndNoiseFloor_data()
    {
        QTest::addColumn<double>("threshold");
        QTest::addColumn<double>("floor");
        QTest::addColumn<int>("status");
        QTest::newRow("below the threshold") << 55.0 << 0.0 << int(CompareStatus::Unchanged);
        QTest::newRow("above the threshold") << 45.0 << 0.0 << int(CompareStatus::Regression);
        QTest::newRow("total above, per call below the threshold") << 120.0 << 0.0 << int(CompareStatus::Unchanged);
        QTest::newRow("within the noise floor") << 5.0 << 150'000.0 << int(CompareStatus::Unchanged);
        QTest::newRow("above the noise floor") << 5.0 << 149'999.0 << int(CompareStatus::Regression);
    }

    void thresholdAndNoiseFloor()
    {
        QFETCH(double, threshold);
        QFETCH(double, floor);
        QFETCH(int, status);
        const Comparison c = compare(kernels(beforeProfile(), true), kernels(afterProfile(), true),
            opts(CompareNormalization::None, threshold, floor));
        QCOMPARE(c.rows[0].key, kGemmNormalized);
        QCOMPARE(int(c.rows[0].status[1]), status);
        // New and removed keys do not depend on either.
        QCOMPARE(c.rows[std::size_t(c.rowOf(kNew))].status[1], CompareStatus::New);
        QCOMPARE(c.rows[std::size_t(c.rowOf(kOld))].status[1], CompareStatus::Removed);
    }

    void failAbove_data()
    {
        QTest::addColumn<double>("percent");
        QTest::addColumn<double>("floor");
        QTest::addColumn<QStringList>("keys");
        // gemm +125 %, new_kernel new (+30,000 ns).
        QTest::newRow("100 %") << 100.0 << 0.0 << QStringList { kGemmNormalized, kNew };
        QTest::newRow("200 %: only the new key") << 200.0 << 0.0 << QStringList { kNew };
        QTest::newRow("new key under the noise floor") << 200.0 << 30'000.0 << QStringList();
    }

    void failAbove()
    {
        QFETCH(double, percent);
        QFETCH(double, floor);
        QFETCH(QStringList, keys);
        const Comparison c = compare(
            kernels(beforeProfile(), true), kernels(afterProfile(), true), opts(CompareNormalization::None, 5, floor));
        QStringList failing;
        for (const std::size_t r : rowsRegressingAbove(c, percent))
            failing.append(c.rows[r].key);
        QCOMPARE(failing, keys);
    }

    /// Three profiles: after as the baseline, before and before again.
    void threeProfilesAndBaseline()
    {
        const auto before = kernels(beforeProfile(), false);
        const auto after = kernels(afterProfile(), false);
        CompareOptions o = opts();
        o.baseline = 1;
        const Comparison c
            = compareProfiles({ { s("b1"), before, 0 }, { s("after"), after, 0 }, { s("b2"), before, 0 } }, o);
        QCOMPARE(c.profiles, (QStringList { s("b1"), s("after"), s("b2") }));
        const CompareRow& gemm = c.rows[std::size_t(c.rowOf(kGemm128))];
        QCOMPARE(gemm.status,
            (std::vector<CompareStatus> { CompareStatus::New, CompareStatus::Unchanged, CompareStatus::New }));
        QCOMPARE(gemm.delta, (std::vector<double> { 200'000, 0, 200'000 }));
        QCOMPARE(gemm.summary, CompareStatus::New);
        const CompareRow& gemm256 = c.rows[std::size_t(c.rowOf(kGemm256))];
        QCOMPARE(gemm256.summary, CompareStatus::Removed);
        QCOMPARE(gemm256.deltaPercent[0], -100.0);

        // Disagreeing profiles: the first of regression, new, removed, improvement.
        const Comparison mixed = compareProfiles(
            { { s("before"), before, 0 }, { s("after"), after, 0 }, { s("same"), before, 0 } }, opts());
        const CompareRow& g = mixed.rows[std::size_t(mixed.rowOf(kGemm128))];
        QCOMPARE(g.status[1], CompareStatus::Removed);
        QCOMPARE(g.status[2], CompareStatus::Unchanged);
        QCOMPARE(g.summary, CompareStatus::Removed);
        QCOMPARE(mixed.totals.summary, CompareStatus::Regression);
    }

    void json()
    {
        const Comparison c = compare(kernels(beforeProfile(), true), kernels(afterProfile(), true), opts());
        const auto j = compareJson(c);
        QCOMPARE(j.size(), std::size_t(5));
        QCOMPARE(j["headline"].dump(),
            std::string(R"j(["Slower per call: gemm_kernel +50.0 % (100 µs → 150 µs)",)j"
                        R"j("Call counts differ (1 with more keys): totals moved with them, so the statuses compare )j"
                        R"j(time per call and more or fewer calls count as neither",)j"
                        R"j("5 keys: 1 regressions, 0 improvements, 1 new, 1 removed, 2 unchanged per call )j"
                        R"j((threshold 5 %, noise floor 0 ns)"])j"));
        QVERIFY(j["by"] == "kernel");
        QCOMPARE(j["profiles"].dump(), std::string(R"(["before","after"])"));
        QCOMPARE(j["rows"].size(), std::size_t(5));
        QCOMPARE(j["rows"][0].dump(),
            std::string(R"j({"key":"void gemm_kernel<...>(float*)","values":[{"total_ns":200000,"instances":2},)j"
                        R"j({"total_ns":450000,"instances":3}],"delta_ns":[0,250000],"delta_pct":[0.0,125.0],)j"
                        R"j("delta_instances":[0,1],"status":"regression","per_call_pct":[0.0,50.0],)j"
                        R"j("change":["","slower, more calls"]})j"));
        QCOMPARE(j["rows"][2]["delta_pct"].dump(), std::string("[0.0,null]"));
        QVERIFY(j["rows"][2]["status"] == "new");
        const auto perIt = compareJson(compare(kernels(beforeProfile(), true), kernels(afterProfile(), true),
            opts(CompareNormalization::PerIteration), 2, 3));
        QCOMPARE(perIt["rows"][0]["values"][1]["total_ns"].get<double>(), 150'000.0);
        QCOMPARE(perIt["rows"][0]["values"][1]["instances"].get<double>(), 1.0);
    }

    void text()
    {
        const Comparison c = compare(kernels(beforeProfile(), true), kernels(afterProfile(), true), opts());
        const QStringList lines = compareText(c).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        // The title, the headline (3 lines: what is slower per call, that the call counts differ, the counts), the
        // header, the totals and 5 keys.
        QCOMPARE(lines.size(), 1 + 3 + 1 + 1 + 5);
        QVERIFY(lines[0].startsWith(s("Compared by kernel, baseline before, unit ns")));
        QVERIFY2(lines[1].startsWith(s("Slower per call: gemm_kernel +50.0 %")), qPrintable(lines[1]));
        QVERIFY(lines[2].startsWith(s("Call counts differ")));
        QVERIFY(lines[3].startsWith(s("5 keys: 1 regressions")));
        QVERIFY(lines[4].startsWith(s("Status")));
        QVERIFY(lines[5].startsWith(s("regression")));
        QVERIFY(lines[5].endsWith(s("(all GPU time)")));
        QVERIFY(lines[6].contains(s("+250 µs")));
        QVERIFY(lines[6].contains(s("+125.0 %")));
        QVERIFY(lines[6].endsWith(kGemmNormalized));
        QVERIFY(lines[8].contains(s(" new ")));
        QVERIFY(lines[4].contains(s("Delta  Delta instances  Delta %")) || lines[4].contains(s("Delta instances")));
        QVERIFY2(lines[6].startsWith(s("regression (slower, more calls)")), qPrintable(lines[6]));
        // Per instance: value, median and instances per profile.
        const QStringList perInstance
            = compareText(compare(kernels(beforeProfile(), true), kernels(afterProfile(), true),
                              opts(CompareNormalization::PerInstance)))
                  .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(perInstance[0].contains(s("unit ns/instance")));
        const QString header = *std::find_if(
            perInstance.begin(), perInstance.end(), [](const QString& l) { return l.startsWith(s("Status")); });
        QVERIFY(header.contains(s("Median")));
        QVERIFY(header.contains(s("Instances")));
    }

    void formatting_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("normalization");
        QTest::addColumn<QString>("delta");
        QTest::addColumn<QString>("plain");
        QTest::newRow("ns") << 812.0 << int(CompareNormalization::None) << s("+812 ns") << s("812 ns");
        QTest::newRow("negative ms") << -1'234'000.0 << int(CompareNormalization::None) << s("-1.23 ms")
                                     << s("-1.23 ms");
        QTest::newRow("per second") << 4'560'000.0 << int(CompareNormalization::PerSecond) << s("+4.56 ms/s")
                                    << s("4.56 ms/s");
        QTest::newRow("per iteration") << 0.4 << int(CompareNormalization::PerIteration) << s("+0 ns/it")
                                       << s("0 ns/it");
    }

    void formatting()
    {
        QFETCH(double, value);
        QFETCH(int, normalization);
        QFETCH(QString, delta);
        QFETCH(QString, plain);
        QCOMPARE(formatCompareDelta(value, CompareNormalization(normalization)), delta);
        QCOMPARE(formatCompareValue(value, CompareNormalization(normalization)), plain);
        QCOMPARE(formatComparePercent(kInf), s("new"));
        QCOMPARE(formatComparePercent(-12.345), s("-12.3 %"));
        QCOMPARE(formatComparePercent(0), s("+0.0 %"));
    }
};

QTEST_GUILESS_MAIN(TestComparison)
#include "tst_comparison.moc"
