// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/viewhistory.h"

#include <QTest>

using namespace nsw;

namespace {

/// A view whose left edge is @p start (ns), 1 ns per pixel: distinct starts are distinct views.
TimelineViewEntry at(double start)
{
    return { TimelineViewport::State { start, 1.0, 1000 }, 0 };
}

using Step = ViewHistory::Step;

} // namespace

class TestViewHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void entriesPerStep_data();
    void entriesPerStep();
    void backAndForwardWalkTheEntries();
    void aNewStepAfterBackDropsForward();
};

void TestViewHistory::entriesPerStep_data()
{
    // Each step moves the view from the start before it: (kind, time in ms) pairs, and how many entries Back has.
    QTest::addColumn<QList<int>>("kinds");
    QTest::addColumn<QList<int>>("times");
    QTest::addColumn<int>("entries");
    const int jump = int(Step::Jump), wheel = int(Step::Wheel), keys = int(Step::Keys), drag = int(Step::Drag);
    QTest::newRow("ten wheel notches 50 ms apart: one entry")
        << QList<int> { wheel, wheel, wheel, wheel, wheel, wheel, wheel, wheel, wheel, wheel }
        << QList<int> { 0, 50, 100, 150, 200, 250, 300, 350, 400, 450 } << 1;
    QTest::newRow("two wheel bursts a second apart: two entries")
        << QList<int> { wheel, wheel, wheel, wheel } << QList<int> { 0, 100, 1100, 1200 } << 2;
    QTest::newRow("held W then wheel: a burst per kind")
        << QList<int> { keys, keys, keys, wheel, wheel } << QList<int> { 0, 30, 60, 90, 120 } << 2;
    QTest::newRow("jumps are always their own entry")
        << QList<int> { jump, jump, jump } << QList<int> { 0, 10, 20 } << 3;
    QTest::newRow("a slow drag is one entry") << QList<int> { drag, drag, drag } << QList<int> { 0, 2000, 4000 } << 1;
    QTest::newRow("a jump between wheel notches splits them")
        << QList<int> { wheel, jump, wheel } << QList<int> { 0, 10, 20 } << 3;
}

void TestViewHistory::entriesPerStep()
{
    QFETCH(QList<int>, kinds);
    QFETCH(QList<int>, times);
    QFETCH(int, entries);
    ViewHistory h;
    for (int i = 0; i < kinds.size(); ++i)
        h.moved(Step(kinds[i]), at(i), times[i]);
    QCOMPARE(int(h.backCount()), entries);
    QVERIFY(!h.canGoForward());
}

void TestViewHistory::backAndForwardWalkTheEntries()
{
    ViewHistory h;
    // Views 0 -> 1 -> 2 -> 3 by jumps; the current view is 3.
    h.moved(Step::Jump, at(0), 0);
    h.moved(Step::Jump, at(1), 1);
    h.moved(Step::Jump, at(2), 2);
    QCOMPARE(h.back(at(3)), at(2));
    QCOMPARE(h.back(at(2)), at(1));
    QCOMPARE(h.back(at(1)), at(0));
    QVERIFY(!h.canGoBack());
    QCOMPARE(h.forward(at(0)), at(1));
    QCOMPARE(h.forward(at(1)), at(2));
    QCOMPARE(h.forward(at(2)), at(3));
    QVERIFY(!h.canGoForward());
    QCOMPARE(int(h.backCount()), 3);
}

void TestViewHistory::aNewStepAfterBackDropsForward()
{
    ViewHistory h;
    h.moved(Step::Wheel, at(0), 0);
    h.moved(Step::Wheel, at(1), 10); // same burst: view 0 is the entry
    QCOMPARE(h.back(at(2)), at(0));
    QVERIFY(h.canGoForward());
    // Going back ended the burst: a wheel notch right after is a new entry and forward is gone, as in a browser.
    h.moved(Step::Wheel, at(0), 20);
    QVERIFY(!h.canGoForward());
    QCOMPARE(int(h.backCount()), 1);
    QCOMPARE(h.back(at(5)), at(0));
}

QTEST_MAIN(TestViewHistory)
#include "tst_viewhistory.moc"
