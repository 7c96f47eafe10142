// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/timeline/eventsearch.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

/// One thread launching three kernels (rows not in time order), an NVTX range and mark, a memcpy call.
///   API   cudaLaunchKernel 100-110 (gemm_bf16), 120-130 (flash), 140-150 (gemm_fp8); cudaMemcpyAsync 600-610
///   GPU   gemm_bf16 200-300, flash 300-400, gemm_fp8 50-60
///   NVTX  range "gemm layer" 90-500, mark "GEMM mark" at 200 (same start as gemm_bf16)
ProfilePtr handMade()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100, u"python"_s), 100, u"main"_s);
    b.kernel(t, 100, 110, 200, 300, u"gemm_bf16"_s);
    b.kernel(t, 120, 130, 300, 400, u"void ns::attention<128>(Params)"_s, 0, 7, u"flash_fwd"_s);
    b.kernel(t, 140, 150, 50, 60, u"gemm_fp8"_s);
    b.apiCall(t, 600, 610, u"cudaMemcpyAsync"_s);
    b.nvtxRange(t, 90, 500, u"gemm layer"_s);
    b.nvtxMark(t, 200, u"GEMM mark"_s);
    return b.build();
}

/// "kernel gemm_fp8@50": an event as the expectations below name it.
QString describe(const Profile& p, EventRef e)
{
    const QString kind = e.table == EventTable::Kernel ? u"kernel"_s
        : e.table == EventTable::CudaApi               ? u"api"_s
        : e.table == EventTable::Nvtx                  ? u"nvtx"_s
                                                       : u"?"_s;
    return u"%1 %2@%3"_s.arg(kind, eventName(p, e)).arg(eventStart(p, e));
}

} // namespace

class TestEventSearch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void findsInTimeOrder_data();
    void findsInTimeOrder();
    void invalidRegexSaysWhy();
    void stepsFromAnyEvent();
};

void TestEventSearch::findsInTimeOrder_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("regex");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("substring, any case, kernels and NVTX; a kernel before an NVTX mark at the same start")
        << u"gemm"_s << false
        << QStringList { u"kernel gemm_fp8@50"_s, u"nvtx gemm layer@90"_s, u"kernel gemm_bf16@200"_s,
               u"nvtx GEMM mark@200"_s };
    QTest::newRow("API calls") << u"cudaLaunch"_s << false
                               << QStringList { u"api cudaLaunchKernel_v7000@100"_s,
                                      u"api cudaLaunchKernel_v7000@120"_s, u"api cudaLaunchKernel_v7000@140"_s };
    QTest::newRow("regex, anchored") << u"^gemm_(bf16|fp8)$"_s << true
                                     << QStringList { u"kernel gemm_fp8@50"_s, u"kernel gemm_bf16@200"_s };
    QTest::newRow("regex characters taken literally without regex") << u"^gemm"_s << false << QStringList {};
    QTest::newRow("a kernel's short name")
        << u"^flash"_s << true << QStringList { u"kernel void ns::attention<128>(Params)@300"_s };
    QTest::newRow("empty text finds nothing") << QString() << false << QStringList {};
    QTest::newRow("no match") << u"nccl"_s << false << QStringList {};
}

void TestEventSearch::findsInTimeOrder()
{
    QFETCH(QString, text);
    QFETCH(bool, regex);
    QFETCH(QStringList, expected);
    const ProfilePtr profile = handMade();
    const EventMatches m = findEvents(profile, { text, regex });
    QVERIFY(m.error.isEmpty());
    QCOMPARE(qsizetype(m.count()), expected.size());
    // Walk forward from before the first event, then backward; both wrap around.
    QStringList forward, backward;
    EventRef e = m.firstFrom(0);
    for (qsizetype i = 0; i < expected.size(); ++i, e = m.next(e)) {
        forward << describe(*profile, e);
        QCOMPARE(m.ordinalOf(e), std::int64_t(i));
    }
    QCOMPARE(forward, expected);
    if (expected.isEmpty()) {
        QVERIFY(!e.valid());
        return;
    }
    QCOMPARE(describe(*profile, e), expected.first()); // wrapped
    e = m.previous(e);
    for (qsizetype i = 0; i < expected.size(); ++i, e = m.previous(e))
        backward.prepend(describe(*profile, e));
    QCOMPARE(backward, expected);
}

void TestEventSearch::invalidRegexSaysWhy()
{
    const EventMatches m = findEvents(handMade(), { u"gemm("_s, true });
    QVERIFY(m.error.contains(u"invalid regular expression"_s));
    QCOMPARE(m.count(), std::size_t(0));
    QVERIFY(!m.next({}).valid());
}

void TestEventSearch::stepsFromAnyEvent()
{
    const ProfilePtr profile = handMade();
    const EventMatches m = findEvents(profile, { u"gemm"_s, false });
    // The first match at or after 100 is gemm_bf16 at 200 (its row is 0); after 200 none: wraps to the first.
    QCOMPARE(describe(*profile, m.firstFrom(100)), u"kernel gemm_bf16@200"_s);
    QCOMPARE(describe(*profile, m.firstFrom(201)), u"kernel gemm_fp8@50"_s);
    // From an event that is not a match (the flash kernel at 300, the memcpy call at 600): its place in time.
    const EventRef flash { EventTable::Kernel, 1 }, memcpyCall { EventTable::CudaApi, 3 };
    QCOMPARE(m.ordinalOf(flash), std::int64_t(-1));
    QCOMPARE(describe(*profile, m.previous(flash)), u"nvtx GEMM mark@200"_s);
    QCOMPARE(describe(*profile, m.next(flash)), u"kernel gemm_fp8@50"_s);
    QCOMPARE(describe(*profile, m.previous(memcpyCall)), u"nvtx GEMM mark@200"_s);
}

QTEST_MAIN(TestEventSearch)
#include "tst_eventsearch.moc"
