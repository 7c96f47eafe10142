// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/timeline/correlation.h"
#include "core/timeline/timelinebuild.h"
#include "profilebuilder.h"
#include "widgets/timeline/timelineview.h"

#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

/// Two processes whose correlation ids collide (each counts from 1), so only "same id and same process" pairs right:
///   python (100), thread main:  cudaLaunchKernel 100-110 (id 1) -> a_kernel 200-300 on GPU 0 stream 7
///                               cudaLaunchKernel 120-130 (id 2) -> a_second 300-350 on GPU 0 stream 7
///                               cudaMemcpyAsync  140-150 (id 3) -> memcpy 400-450 on GPU 0 stream 7
///   worker (200), thread w:     cudaLaunchKernel 105-115 (id 1) -> b_kernel 220-320 on GPU 1 stream 7
///                               cudaDeviceSynchronize 330-340 (id 2, launches nothing)
struct HandMade
{
    ProfilePtr profile;
    std::uint32_t aKernel = 0, bKernel = 0, aCall = 0, bCall = 0, memcpyCall = 0, sync = 0, memcpy = 0;
};

HandMade handMade()
{
    test::ProfileBuilder b;
    const ThreadIndex main = b.thread(b.process(100, u"python"_s), 100, u"main"_s);
    const ThreadIndex w = b.thread(b.process(200, u"worker"_s), 200, u"w"_s);
    HandMade h;
    h.aKernel = std::uint32_t(b.kernel(main, 100, 110, 200, 300, u"a_kernel"_s, 0));
    b.kernel(main, 120, 130, 300, 350, u"a_second"_s, 0);
    h.memcpy = std::uint32_t(b.memOp(main, 140, 150, 400, 450, 1, 4096, 0));
    h.bKernel = std::uint32_t(b.kernel(w, 105, 115, 220, 320, u"b_kernel"_s, 1));
    h.sync = std::uint32_t(b.apiCall(w, 330, 340, u"cudaDeviceSynchronize"_s));
    h.profile = b.build();
    // The calls by their times, not by the builder's row order.
    const CudaApiTable& api = h.profile->cudaApi;
    for (std::uint32_t r = 0; r < api.size(); ++r) {
        if (api.start[r] == 100)
            h.aCall = r;
        if (api.start[r] == 105)
            h.bCall = r;
        if (api.start[r] == 140)
            h.memcpyCall = r;
    }
    return h;
}

int rowIndex(const TimelineIndex& index, const QStringList& path)
{
    int parent = -1, found = -1;
    for (const QString& label : path) {
        found = -1;
        for (std::size_t i = 0; i < index.rows().size(); ++i)
            if (index.rows()[i].parent == parent && index.rows()[i].label == label) {
                found = parent = int(i);
                break;
            }
        if (found < 0)
            return -1;
    }
    return found;
}

} // namespace

class TestCorrelationArrows : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void partnersByCorrelationIdPerProcess_data();
    void partnersByCorrelationIdPerProcess();
    void arrowEndpoints_data();
    void arrowEndpoints();
    void clickingAKernelDrawsTheArrow();
};

void TestCorrelationArrows::partnersByCorrelationIdPerProcess_data()
{
    QTest::addColumn<int>("table");
    QTest::addColumn<QString>("which");
    QTest::addColumn<QString>("expected"); // "table:start" of each partner
    QTest::newRow("python's kernel -> python's call with id 1, not worker's")
        << int(EventTable::Kernel) << u"aKernel"_s << u"api:100"_s;
    QTest::newRow("worker's kernel -> worker's call with id 1")
        << int(EventTable::Kernel) << u"bKernel"_s << u"api:105"_s;
    QTest::newRow("python's call with id 1 -> python's kernel")
        << int(EventTable::CudaApi) << u"aCall"_s << u"kernel:200"_s;
    QTest::newRow("worker's call with id 1 -> worker's kernel")
        << int(EventTable::CudaApi) << u"bCall"_s << u"kernel:220"_s;
    QTest::newRow("memcpy call <-> memcpy") << int(EventTable::CudaApi) << u"memcpyCall"_s << u"memop:400"_s;
    QTest::newRow("memcpy -> its call") << int(EventTable::MemOp) << u"memcpy"_s << u"api:140"_s;
    QTest::newRow("a call that launched nothing (worker's id 2; python's id 2 is a kernel)")
        << int(EventTable::CudaApi) << u"sync"_s << QString();
}

void TestCorrelationArrows::partnersByCorrelationIdPerProcess()
{
    QFETCH(int, table);
    QFETCH(QString, which);
    QFETCH(QString, expected);
    const HandMade h = handMade();
    const std::map<QString, std::uint32_t> rows { { u"aKernel"_s, h.aKernel }, { u"bKernel"_s, h.bKernel },
        { u"aCall"_s, h.aCall }, { u"bCall"_s, h.bCall }, { u"memcpyCall"_s, h.memcpyCall }, { u"sync"_s, h.sync },
        { u"memcpy"_s, h.memcpy } };
    QStringList found;
    for (const EventRef& e : correlatedEvents(*h.profile, { EventTable(table), rows.at(which) })) {
        const QString kind = e.table == EventTable::CudaApi ? u"api"_s
            : e.table == EventTable::Kernel                 ? u"kernel"_s
                                                            : u"memop"_s;
        found << u"%1:%2"_s.arg(kind).arg(eventStart(*h.profile, e));
    }
    QCOMPARE(found.join(u' '), expected);
}

void TestCorrelationArrows::arrowEndpoints_data()
{
    QTest::addColumn<bool>("selectCall");
    QTest::addColumn<bool>("worker");
    QTest::newRow("python's kernel selected") << false << false;
    QTest::newRow("worker's kernel selected") << false << true;
    QTest::newRow("python's call selected") << true << false;
    QTest::newRow("worker's call selected") << true << true;
}

void TestCorrelationArrows::arrowEndpoints()
{
    QFETCH(bool, selectCall);
    QFETCH(bool, worker);
    const HandMade h = handMade();
    TimelineView view;
    view.resize(1250, 600);
    view.setIndex(*buildTimelineIndex(h.profile));
    view.show();
    view.showRange(100, 350); // 1000 px for 250 ns: 4 px per ns from 100 ns
    const EventRef kernel { EventTable::Kernel, worker ? h.bKernel : h.aKernel };
    const EventRef call { EventTable::CudaApi, worker ? h.bCall : h.aCall };
    view.selectEvent(selectCall ? call : kernel);
    QCOMPARE(view.relatedEvents(), std::vector<EventRef> { selectCall ? kernel : call });
    const std::vector<QLineF> arrows = view.correlationArrows();
    QCOMPARE(arrows.size(), std::size_t(1));
    // From the call's start (100 or 105 ns) on its thread's CUDA API row to the kernel's start (200 or 220 ns) on its
    // GPU's stream row, above it: x = label column + 4 px per ns after 100 ns.
    const TimelineIndex& index = *view.index();
    const QRect callRow = view.rowRect(rowIndex(index,
        worker ? QStringList { u"worker (200)"_s, u"w (200)"_s, u"CUDA API"_s }
               : QStringList { u"python (100)"_s, u"main (100)"_s, u"CUDA API"_s }));
    const QRect streamRow = view.rowRect(rowIndex(index, { worker ? u"GPU 1"_s : u"GPU 0"_s, u"Stream 7"_s }));
    QVERIFY(!callRow.isEmpty() && !streamRow.isEmpty());
    const QLineF& a = arrows.front();
    QCOMPARE(a.p1().x(), TimelineView::kLabelWidth + 4.0 * (worker ? 5 : 0));
    QCOMPARE(a.p2().x(), TimelineView::kLabelWidth + 4.0 * (worker ? 120 : 100));
    QVERIFY2(a.p1().y() >= callRow.top() && a.p1().y() <= callRow.bottom() + 1,
        qPrintable(u"%1 not in %2..%3"_s.arg(a.p1().y()).arg(callRow.top()).arg(callRow.bottom())));
    QVERIFY2(a.p2().y() >= streamRow.top() && a.p2().y() <= streamRow.bottom() + 1,
        qPrintable(u"%1 not in %2..%3"_s.arg(a.p2().y()).arg(streamRow.top()).arg(streamRow.bottom())));
    QVERIFY(a.p2().y() < a.p1().y()); // the GPU rows are above the threads
    QVERIFY(!view.grab().isNull());
}

void TestCorrelationArrows::clickingAKernelDrawsTheArrow()
{
    const HandMade h = handMade();
    TimelineView view;
    view.resize(1250, 600);
    view.setIndex(*buildTimelineIndex(h.profile));
    view.show();
    view.showRange(100, 350);
    const int stream = rowIndex(*view.index(), { u"GPU 1"_s, u"Stream 7"_s });
    const QRect row = view.rowRect(stream);
    // The middle of b_kernel (220-320 ns) on its stream's lane.
    const QPoint at(TimelineView::kLabelWidth + 4 * (270 - 100), row.top() + TimelineLayout::kTrackPadding + 8);
    QTest::mouseClick(&view, Qt::LeftButton, {}, at);
    QCOMPARE(view.selectedEvent(), (EventRef { EventTable::Kernel, h.bKernel }));
    QCOMPARE(view.relatedEvents(), (std::vector<EventRef> { { EventTable::CudaApi, h.bCall } }));
    QCOMPARE(view.correlationArrows().size(), std::size_t(1));
    // Collapsing the worker process hides the call: no arrow to nowhere.
    view.setCollapsed(rowIndex(*view.index(), { u"worker (200)"_s }), true);
    QVERIFY(view.correlationArrows().empty());
    // A click on empty space clears the selection and the arrow.
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(TimelineView::kLabelWidth + 4 * (340 - 100), row.top() + 8));
    QVERIFY(!view.selectedEvent().valid());
    QVERIFY(view.relatedEvents().empty());
}

QTEST_MAIN(TestCorrelationArrows)
#include "tst_correlationarrows.moc"
