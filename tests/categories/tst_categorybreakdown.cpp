// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/categories/categorybreakdown.h"
#include "core/categories/categoryexport.h"
#include "core/categories/rulelibrary.h"
#include "core/profile/profileloader.h"
#include "core/sqlite/sqlitedb.h"
#include "oracleexports.h"
#include "profilebuilder.h"
#include "testutils.h"

#include <QTest>

using namespace nsw;

namespace {
/// Hand-worked fixture (ns). Categories by the rules below: gemm, comm, memops, misc.
///   GPU 0: k0 sgemm [0,10)  k1 nccl [5,15)  k2 hgemm [12,20)  m0 memcpy H2D [30,40)  k3 sgemm [32,35)
///   GPU 1: k4 sgemm [8,18)  k5 nccl [18,25)  k6 nccl [20,22)  k7 Weird [50,52)
ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ProcessIndex p = b.process(100, QStringLiteral("python"));
    const ThreadIndex t = b.thread(p, 100);
    const QString sgemm = QStringLiteral("void sgemm_kernel<int>(int)");
    const QString nccl = QStringLiteral("ncclDevKernel_AllReduce(x)");
    b.kernel(t, -5, -4, 0, 10, sgemm, 0, 7, QStringLiteral("sgemm_kernel"));
    b.kernel(t, -5, -4, 5, 15, nccl, 0, 8, QStringLiteral("ncclDevKernel_AllReduce"));
    b.kernel(t, -5, -4, 12, 20, QStringLiteral("void hgemm_kernel(int)"), 0, 7, QStringLiteral("hgemm_kernel"));
    b.memOp(t, -5, -4, 30, 40, 1, 4096, 0, 9);
    b.kernel(t, -5, -4, 32, 35, sgemm, 0, 7, QStringLiteral("sgemm_kernel"));
    b.kernel(t, -5, -4, 8, 18, sgemm, 1, 7, QStringLiteral("sgemm_kernel"));
    b.kernel(t, -5, -4, 18, 25, nccl, 1, 8, QStringLiteral("ncclDevKernel_AllReduce"));
    b.kernel(t, -5, -4, 20, 22, nccl, 1, 9, QStringLiteral("ncclDevKernel_AllReduce"));
    b.kernel(t, -5, -4, 50, 52, QStringLiteral("Weird_Kernel(int)"), 1, 7, QStringLiteral("Weird_Kernel"));
    return b.build();
}

RuleList rules(bool catchAll = true)
{
    RuleList l;
    l.engine = QStringLiteral("e");
    l.model = QStringLiteral("m");
    l.rules.push_back(CategoryRule::fromKey(QStringLiteral("gemm"), QStringLiteral("gemm")));
    l.rules.push_back(CategoryRule::fromKey(QStringLiteral("(?i)NCCL"), QStringLiteral("comm")));
    l.rules.push_back(CategoryRule::fromKey(QStringLiteral("CUDA mem"), QStringLiteral("memops")));
    l.rules.push_back(CategoryRule::fromKey(QStringLiteral("^never$"), QStringLiteral("x")));
    if (catchAll)
        l.rules.push_back(CategoryRule::fromKey(QStringLiteral(".*"), QStringLiteral("misc")));
    return l;
}

struct Run
{
    std::shared_ptr<const CategoryTimeline> timeline;
    RuleEvaluation evaluation;
    CategoryBreakdown breakdown;
};

Run run(const RuleList& list, const CategoryOptions& options, const ProfilePtr& profile = fixture())
{
    Run r;
    r.timeline = CategoryTimeline::build(profile);
    NameSet names { r.timeline->demangledNames(), r.timeline->shortNames() };
    RuleMatchCache cache(names);
    r.evaluation = evaluateRules(list, cache, nullptr);
    r.breakdown = categorize(*r.timeline, list, r.evaluation, options);
    return r;
}

QList<qint64> times(const CategoryBar& bar, const CategoryBreakdown& b, const QStringList& categories)
{
    QList<qint64> out;
    for (const QString& c : categories)
        out.append(bar.time[std::size_t(b.categoryIndex(c))]);
    return out;
}

const QStringList kCategories
    = { QStringLiteral("gemm"), QStringLiteral("comm"), QStringLiteral("memops"), QStringLiteral("misc") };
} // namespace

class TestCategoryBreakdown : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modes_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QList<qint64>>("expected"); // gemm, comm, memops, misc
        QTest::addColumn<QList<qint64>>("ruleTimes"); // rules 1..5
        // sum: gemm 10+8+3 + 10, comm 10 + 7+2, memops 10, misc 2.
        QTest::newRow("sum") << int(TimeMode::Sum) << QList<qint64> { 31, 19, 10, 2 }
                             << QList<qint64> { 31, 19, 10, 0, 2 };
        // busy: gemm 21 + 10; comm 10 + [18,25) = 7.
        QTest::newRow("busy") << int(TimeMode::Busy) << QList<qint64> { 31, 17, 10, 2 }
                              << QList<qint64> { 31, 17, 10, 0, 2 };
        // exclusive: GPU 0 k0 10, k1 5, k2 5, m0 10, k3 0; GPU 1 k4 10, k5 7, k6 0, k7 2 (unions 30 + 19).
        QTest::newRow("exclusive") << int(TimeMode::Exclusive) << QList<qint64> { 25, 12, 10, 2 }
                                   << QList<qint64> { 25, 12, 10, 0, 2 };
        // g2g: k0 10, k1 5, k4 3, k2 2, k5 5, k6 0, m0 10, k3 0, k7 2 (union 37).
        QTest::newRow("g2g") << int(TimeMode::Global) << QList<qint64> { 15, 10, 10, 2 }
                             << QList<qint64> { 15, 10, 10, 0, 2 };
    }

    void modes()
    {
        QFETCH(int, mode);
        QFETCH(QList<qint64>, expected);
        QFETCH(QList<qint64>, ruleTimes);
        CategoryOptions options;
        options.mode = TimeMode(mode);
        const Run r = run(rules(), options);
        const CategoryBreakdown& b = r.breakdown;
        QCOMPARE(b.categories,
            QStringList({ QStringLiteral("gemm"), QStringLiteral("comm"), QStringLiteral("memops"), QStringLiteral("x"),
                QStringLiteral("misc"), unmatchedCategory() }));
        QCOMPARE(b.bars.size(), std::size_t(1));
        QCOMPARE(times(b.bars[0], b, kCategories), expected);
        QCOMPARE(b.bars[0].instances, (std::vector<std::int64_t> { 4, 3, 1, 0, 1, 0 }));
        QCOMPARE(QList<qint64>(b.ruleTime.begin(), b.ruleTime.end()), ruleTimes);
        QCOMPARE(b.ruleInstances, (std::vector<std::int64_t> { 4, 3, 1, 0, 1 }));
        QVERIFY(!b.bars[0].hasCpu);
        QVERIFY(b.warnings.isEmpty());
    }

    void perDevice_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QList<qint64>>("gpu0");
        QTest::addColumn<QList<qint64>>("gpu1");
        QTest::newRow("sum") << int(TimeMode::Sum) << QList<qint64> { 21, 10, 10, 0 } << QList<qint64> { 10, 9, 0, 2 };
        QTest::newRow("exclusive") << int(TimeMode::Exclusive) << QList<qint64> { 15, 5, 10, 0 }
                                   << QList<qint64> { 10, 7, 0, 2 };
        // g2g credits each row's share to the row's own GPU: GPU 0 k0 10, k1 5, k2 2, m0 10; GPU 1 k4 3, k5 5, k7 2.
        QTest::newRow("g2g") << int(TimeMode::Global) << QList<qint64> { 12, 5, 10, 0 } << QList<qint64> { 3, 5, 0, 2 };
    }

    void perDevice()
    {
        QFETCH(int, mode);
        QFETCH(QList<qint64>, gpu0);
        QFETCH(QList<qint64>, gpu1);
        CategoryOptions options;
        options.mode = TimeMode(mode);
        options.perDevice = true;
        const Run r = run(rules(), options);
        QCOMPARE(r.breakdown.bars.size(), std::size_t(2));
        QCOMPARE(r.breakdown.bars[0].label, QStringLiteral("GPU 0"));
        QCOMPARE(times(r.breakdown.bars[0], r.breakdown, kCategories), gpu0);
        QCOMPARE(times(r.breakdown.bars[1], r.breakdown, kCategories), gpu1);
    }

    void cpuSegment()
    {
        CategoryOptions options;
        options.mode = TimeMode::Global;
        options.wallNs = 100;
        Run r = run(rules(), options);
        const CategoryBar& bar = r.breakdown.bars[0];
        QVERIFY(bar.hasCpu);
        QCOMPARE(bar.gpuTime, TimeNs(37));
        QCOMPARE(bar.cpuNs, TimeNs(63));
        QCOMPARE(bar.total(), TimeNs(100));
        QCOMPARE(bar.share(bar.time[0]), 15.0);
        QVERIFY(bar.warning.isEmpty());

        // Wall time shorter than the GPU time: no clamp in silence, a warning naming both.
        options.wallNs = 30;
        options.wallSource = QStringLiteral("entered wall time");
        r = run(rules(), options);
        QCOMPARE(r.breakdown.bars[0].cpuNs, TimeNs(0));
        QCOMPARE(r.breakdown.bars[0].warning,
            QStringLiteral(
                "entered wall time 30 ns is shorter than the GPU time 37 ns (g2g): no CPU (non-GPU) segment"));
        QCOMPARE(r.breakdown.warnings.size(), 1);

        // Summing modes add up GPUs; the warning says so. Per GPU, each bar compares with the wall time.
        options.mode = TimeMode::Exclusive;
        options.wallNs = 40;
        r = run(rules(), options);
        QVERIFY(r.breakdown.bars[0].warning.contains(QStringLiteral("exclusive mode adds up 2 GPUs")));
        options.perDevice = true;
        r = run(rules(), options);
        QCOMPARE(r.breakdown.bars[0].cpuNs, TimeNs(10)); // 40 - 30
        QCOMPARE(r.breakdown.bars[1].cpuNs, TimeNs(21)); // 40 - 19
        QVERIFY(r.breakdown.warnings.isEmpty());
    }

    void unmatchedNames()
    {
        const Run r = run(rules(false), CategoryOptions {});
        const CategoryBreakdown& b = r.breakdown;
        const int unmatched = b.categoryIndex(unmatchedCategory());
        QCOMPARE(b.bars[0].time[std::size_t(unmatched)], TimeNs(2));
        for (std::size_t n = 0; n < r.timeline->names().size(); ++n)
            QCOMPARE(b.ruleOfName[n] < 0, r.timeline->names()[n].demangled == QStringLiteral("Weird_Kernel(int)"));
    }

    void kernelRows()
    {
        CategoryOptions options;
        options.perDevice = true;
        const Run r = run(rules(), options);
        const int gemm = r.breakdown.categoryIndex(QStringLiteral("gemm"));
        // Kernel rows in builder order: k0..k7 (the memcpy is not a kernel row).
        QCOMPARE(*kernelRowsOfCategory(*r.timeline, r.breakdown, gemm), (std::vector<char> { 1, 0, 1, 1, 1, 0, 0, 0 }));
        QCOMPARE(
            *kernelRowsOfCategory(*r.timeline, r.breakdown, gemm, 1), (std::vector<char> { 0, 0, 0, 0, 1, 0, 0, 0 }));
    }

    void exports()
    {
        CategoryOptions options;
        options.mode = TimeMode::Global;
        options.wallNs = 100;
        const Run r = run(rules(), options);
        std::vector<ProfileCategories> profiles { { QStringLiteral("hand-made.sqlite"),
            QStringLiteral("/x/hand-made.sqlite"), r.timeline, r.breakdown } };
        QCOMPARE(categoriesCsv(profiles),
            QStringLiteral("Profile,Category,Instances,Time (ns),Share (%)\n"
                           "hand-made.sqlite,gemm,4,15,15.00\n"
                           "hand-made.sqlite,comm,3,10,10.00\n"
                           "hand-made.sqlite,memops,1,10,10.00\n"
                           "hand-made.sqlite,misc,1,2,2.00\n"
                           "hand-made.sqlite,CPU (non-GPU),0,63,63.00\n"));
        // g2g per name: sgemm k0 10 + k3 0 + k4 3; hgemm 2; nccl 5 + 5 + 0. Summed durations in "Total Time (sec)".
        QCOMPARE(mappingCsv(profiles, QStringLiteral("e"), QStringLiteral("m")),
            QStringLiteral("Model_Engine,Category,Instances,Name,Elapsed Time (sec),Total Time (sec),Time Mode,Rule\n"
                           "m_e_hand-made_0,CPU(non-GPU),1,CPU(non-GPU),6.3e-08,,g2g,\n"
                           "m_e_hand-made_0,comm,3,ncclDevKernel_AllReduce(x),1e-08,1.9e-08,g2g,2\n"
                           "m_e_hand-made_0,gemm,3,void sgemm_kernel<int>(int),1.3e-08,2.3e-08,g2g,1\n"
                           "m_e_hand-made_0,gemm,1,void hgemm_kernel(int),2e-09,8e-09,g2g,1\n"
                           "m_e_hand-made_0,memops,1,[CUDA memcpy Host-to-Device],1e-08,1e-08,g2g,3\n"
                           "m_e_hand-made_0,misc,1,Weird_Kernel(int),2e-09,2e-09,g2g,5\n"));
        const auto json
            = categoriesJson(profiles, QStringLiteral("e"), QStringLiteral("m"), { QStringLiteral("r.json") });
        QCOMPARE(json["timeMode"].get<std::string>(), std::string("g2g"));
        QCOMPARE(json["bars"][0]["gpuTimeNs"].get<qint64>(), qint64(37));
        QCOMPARE(json["bars"][0]["cpuTimeNs"].get<qint64>(), qint64(63));
        QCOMPARE(json["bars"][0]["categories"].size(), std::size_t(5));
        QVERIFY(categoriesTable(profiles).startsWith(QStringLiteral("Time mode: g2g:")));
    }

    void colorsAreStable()
    {
        // Fixed for the shipped vocabulary, derived from the text otherwise: same value whatever the order of calls.
        QCOMPARE(categoryColor(QStringLiteral("gemm")), 0xFF1F77B4u);
        const std::uint32_t custom = categoryColor(QStringLiteral("my_custom_category"));
        QCOMPARE(categoryColor(QStringLiteral("my_custom_category")), custom);
        QCOMPARE(custom >> 24, 0xFFu);
        QVERIFY(categoryColor(QStringLiteral("my_custom_categorz")) != custom);
    }

    /// Categories shown together never get near-identical colours: every rule model of the shipped sets (its
    /// categories, the unmatched and CPU ones) gets colours pairwise at least kMinCategoryColorDistance apart, and a
    /// category keeps its own colour when nothing before it is close.
    void paletteHasDistinctNeighbours()
    {
        // attn_bwd (253, 174, 107) and rope (255, 187, 120) are 32 apart: the later by name gets another colour,
        // whatever the order they are shown in.
        QVERIFY(colorDistance(categoryColor(QStringLiteral("attn_bwd")), categoryColor(QStringLiteral("rope")))
            < kMinCategoryColorDistance);
        const auto pair = categoryColors({ QStringLiteral("attn_bwd"), QStringLiteral("rope") });
        QCOMPARE(pair[0], categoryColor(QStringLiteral("attn_bwd")));
        QVERIFY(pair[1] != categoryColor(QStringLiteral("rope")));
        QVERIFY(colorDistance(pair[0], pair[1]) >= kMinCategoryColorDistance);
        const auto swapped = categoryColors({ QStringLiteral("rope"), QStringLiteral("attn_bwd") });
        QCOMPARE(swapped[0], pair[1]);
        QCOMPARE(swapped[1], pair[0]);
        QCOMPARE(colorDistance(0xFF000000u, 0xFF000000u), 0.0);
        QVERIFY(colorDistance(0xFF000000u, 0xFFFFFFFFu) > 700);
        const RuleLibrary library = RuleLibrary::loadDefault();
        int models = 0;
        for (const QString& engine : library.engines())
            for (const QString& model : library.models(engine)) {
                QStringList categories;
                for (const CategoryRule& r : library.find(engine, model)->rules)
                    if (!categories.contains(r.category))
                        categories.append(r.category);
                categories << unmatchedCategory() << cpuCategory();
                const std::vector<std::uint32_t> colors = categoryColors(categories);
                QCOMPARE(colors.size(), std::size_t(categories.size()));
                for (std::size_t a = 0; a < colors.size(); ++a)
                    for (std::size_t b = a + 1; b < colors.size(); ++b)
                        QVERIFY2(colorDistance(colors[a], colors[b]) >= kMinCategoryColorDistance,
                            qPrintable(QStringLiteral("%1/%2: %3 and %4")
                                           .arg(engine, model, categories[qsizetype(a)], categories[qsizetype(b)])));
                ++models;
            }
        QVERIFY(models >= 4);
    }

    /// A real two-GPU export against independent SQL: summed time and counts per category (substring rules that
    /// SQL can evaluate with instr(), in the same first-match order), and the per-device / overall unions that
    /// exclusive / g2g add up to.
    void realTrace()
    {
        const QString path = test::pairBefore();
        const LoadResult loaded = ProfileLoader::load(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
        RuleList list;
        for (const auto& [p, c] : std::initializer_list<std::pair<const char*, const char*>> { { "nvjet", "gemm" },
                 { "flash", "attn" }, { "nccl", "comm" }, { "elementwise", "ew" }, { "CUDA memcpy", "copy" },
                 { "CUDA memset", "set" }, { ".*", "other" } })
            list.rules.push_back(CategoryRule::fromKey(QLatin1String(p), QLatin1String(c)));
        QString error;
        const auto db = SqliteDb::open(path, &error);
        QVERIFY2(db, qPrintable(error));
        const QString rows = QStringLiteral(
            "SELECT k.start AS s, k.end AS e, k.deviceId AS d, CASE WHEN instr(n.value,'nvjet') THEN 'gemm' "
            "WHEN instr(n.value,'flash') THEN 'attn' WHEN instr(n.value,'nccl') THEN 'comm' "
            "WHEN instr(n.value,'elementwise') THEN 'ew' ELSE 'other' END AS c "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds n ON n.id = k.demangledName "
            "UNION ALL SELECT start, end, deviceId, 'copy' FROM CUPTI_ACTIVITY_KIND_MEMCPY "
            "UNION ALL SELECT start, end, deviceId, 'set' FROM CUPTI_ACTIVITY_KIND_MEMSET");
        const QString expectedSum = db->scalarText(QStringLiteral(
            "SELECT group_concat(c || ':' || n || ':' || t, ' ') FROM (SELECT c, count(*) AS n, sum(e - s) AS t "
            "FROM (%1) GROUP BY c ORDER BY c)")
                                                       .arg(rows));
        const QString unionSql = QStringLiteral(
            "SELECT sum(max(0, e - max(s, coalesce(prev, s)))) FROM (SELECT s, e, max(e) OVER (%2 ORDER BY s "
            "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev FROM (%1))");
        const qint64 perDeviceUnion = db->scalarText(unionSql.arg(rows, QStringLiteral("PARTITION BY d"))).toLongLong();
        const qint64 globalUnion = db->scalarText(unionSql.arg(rows, QString())).toLongLong();
        QVERIFY(perDeviceUnion > globalUnion);

        for (const TimeMode mode : { TimeMode::Sum, TimeMode::Exclusive, TimeMode::Global }) {
            CategoryOptions options;
            options.mode = mode;
            const Run r = run(list, options, loaded->profile);
            const CategoryBar& bar = r.breakdown.bars[0];
            if (mode == TimeMode::Sum) {
                QStringList got;
                QStringList cats = r.breakdown.categories;
                cats.sort();
                for (const QString& c : cats) {
                    const std::size_t i = std::size_t(r.breakdown.categoryIndex(c));
                    if (bar.instances[i] > 0)
                        got.append(QStringLiteral("%1:%2:%3").arg(c).arg(bar.instances[i]).arg(bar.time[i]));
                }
                QCOMPARE(got.join(QLatin1Char(' ')), expectedSum);
            } else {
                QCOMPARE(bar.gpuTime, mode == TimeMode::Exclusive ? perDeviceUnion : globalUnion);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCategoryBreakdown)
#include "tst_categorybreakdown.moc"
