// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/categories/categoryrun.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

Q_DECLARE_METATYPE(nsw::TimeMode)

namespace {
/// Two GPUs' kernels whose per-category sums are worked out by hand below.
ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 100);
    b.kernel(t, -5, -4, 0, 10, QStringLiteral("void sgemm_kernel(int)"), 0); // gemm 10
    b.kernel(t, -5, -4, 5, 15, QStringLiteral("ncclDevKernel_AllReduce(x)"), 0); // comm 10
    b.kernel(t, -5, -4, 12, 20, QStringLiteral("void hgemm_kernel(int)"), 1); // gemm 8
    b.kernel(t, -5, -4, 30, 33, QStringLiteral("Weird_Kernel(int)"), 1); // misc 3
    return b.build();
}

RuleList rules()
{
    RuleList l;
    l.rules.push_back(CategoryRule::fromKey(QStringLiteral("gemm"), QStringLiteral("gemm")));
    l.rules.push_back(CategoryRule::fromKey(QStringLiteral("(?i)nccl"), QStringLiteral("comm")));
    l.rules.push_back(CategoryRule::fromKey(QStringLiteral(".*"), QStringLiteral("misc")));
    return l;
}
} // namespace

class TestCategoryRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sumsPerCategory_data()
    {
        QTest::addColumn<bool>("ownMatchCache");
        QTest::addColumn<bool>("perDevice");
        QTest::addColumn<TimeMode>("mode");
        QTest::addColumn<QList<qint64>>("expected"); // gemm, comm, misc
        const QList<qint64> sums { 18, 10, 3 };
        QTest::addRow("sum, match cache built from the timeline") << false << false << TimeMode::Sum << sums;
        QTest::addRow("sum, match cache kept by the caller") << true << false << TimeMode::Sum << sums;
        QTest::addRow("sum, one bar per GPU") << false << true << TimeMode::Sum << sums;
        // g2g sweeps all GPUs in start order: sgemm 0-10 = 10, nccl 5-15 = 5 past 10, hgemm 12-20 = 5, weird 3.
        QTest::addRow("g2g") << false << false << TimeMode::Global << QList<qint64> { 15, 5, 3 };
    }
    void sumsPerCategory()
    {
        QFETCH(bool, ownMatchCache);
        QFETCH(bool, perDevice);
        QFETCH(TimeMode, mode);
        QFETCH(QList<qint64>, expected);
        CategoryRequest request;
        request.timeline = CategoryTimeline::build(fixture());
        if (ownMatchCache)
            request.matches = std::make_shared<RuleMatchCache>(
                NameSet { request.timeline->demangledNames(), request.timeline->shortNames() });
        request.rules = rules();
        request.mode = mode;
        request.perDevice = perDevice;
        const Result<CategoryResult> r = computeCategories(request);
        QVERIFY(r);
        const CategoryBreakdown& b = r->breakdown;
        const int gemm = b.categoryIndex(QStringLiteral("gemm"));
        const int comm = b.categoryIndex(QStringLiteral("comm"));
        const int misc = b.categoryIndex(QStringLiteral("misc"));
        QVERIFY(gemm >= 0 && comm >= 0 && misc >= 0);
        TimeNs sum[3] = { 0, 0, 0 };
        for (const CategoryBar& bar : b.bars) {
            sum[0] += bar.time[std::size_t(gemm)];
            sum[1] += bar.time[std::size_t(comm)];
            sum[2] += bar.time[std::size_t(misc)];
        }
        QCOMPARE(b.bars.size(), std::size_t(perDevice ? 2 : 1));
        QCOMPARE((QList<qint64> { sum[0], sum[1], sum[2] }), expected);
    }

    void cancelledBetweenMatchingAndAddingUp()
    {
        CategoryRequest request;
        request.timeline = CategoryTimeline::build(fixture());
        request.rules = rules();
        CancelToken token;
        QStringList stages;
        const JobContext job(token, [&](const Progress& p) {
            stages.append(p.stage);
            token.cancel();
        });
        QVERIFY(computeCategories(request, job).isCancelled());
        QCOMPARE(stages, QStringList { QStringLiteral("matching rules") });
    }
};

QTEST_GUILESS_MAIN(TestCategoryRun)
#include "tst_categoryrun.moc"
