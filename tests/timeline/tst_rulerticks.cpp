// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/rulerticks.h"
#include "widgets/timeline/timelineviewport.h"

#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

class TestRulerTicks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void labelsAdaptToZoom_data();
    void labelsAdaptToZoom();
    void viewportZoomKeepsTheCursorTime();
    void viewportStaysNearTheEvents();
};

void TestRulerTicks::labelsAdaptToZoom_data()
{
    QTest::addColumn<double>("start");
    QTest::addColumn<double>("end");
    QTest::addColumn<QString>("base");
    QTest::addColumn<QStringList>("firstLabels");

    // 1500 px wide, labels at least 90 px apart.
    QTest::newRow("300 ms from zero") << 0.0 << 300e6 << QString() << QStringList { u"0 ms"_s, u"20 ms"_s, u"40 ms"_s };
    QTest::newRow("300 ms at 60 s: seconds")
        << 60.111e9 << 60.411e9 << QString() << QStringList { u"60.12 s"_s, u"60.14 s"_s, u"60.16 s"_s };
    QTest::newRow("10 us at 60 s: offsets from a base")
        << 60000123456.0 << 60000133456.0 << u"60.000 s"_s << QStringList { u"+124 µs"_s, u"+125 µs"_s };
    QTest::newRow("100 ns from zero") << 0.0 << 100.0 << QString() << QStringList { u"0 ns"_s, u"10 ns"_s };
    QTest::newRow("before zero, no minus zero")
        << -50e6 << 50e6 << QString()
        << QStringList { u"-50 ms"_s, u"-40 ms"_s, u"-30 ms"_s, u"-20 ms"_s, u"-10 ms"_s, u"0 ms"_s };
}

void TestRulerTicks::labelsAdaptToZoom()
{
    QFETCH(double, start);
    QFETCH(double, end);
    QFETCH(QString, base);
    QFETCH(QStringList, firstLabels);

    const RulerTicks ticks = rulerTicks(start, end, (end - start) / 1500);
    QCOMPARE(ticks.base, base);
    QStringList labels;
    for (const RulerTick& t : ticks.ticks) {
        QVERIFY(t.time >= start && t.time <= end);
        if (t.major && labels.size() < firstLabels.size())
            labels << t.label;
    }
    QCOMPARE(labels, firstLabels);
}

void TestRulerTicks::viewportZoomKeepsTheCursorTime()
{
    TimelineViewport vp;
    vp.setWidth(1000);
    vp.setLimits(0, 1'000'000);
    vp.fitAll();
    QCOMPARE(vp.nsPerPixel(), 1000.0);
    const double t = vp.timeAt(250);
    vp.zoomAt(250, 8);
    QCOMPARE(vp.nsPerPixel(), 125.0);
    QCOMPARE(vp.timeAt(250), t);
    // Never closer than 10 ns across 1000 px.
    vp.zoomAt(250, 1e9);
    QCOMPARE(vp.nsPerPixel(), TimelineViewport::kMinNsPerPixel);
}

void TestRulerTicks::viewportStaysNearTheEvents()
{
    TimelineViewport vp;
    vp.setWidth(1000);
    vp.setLimits(0, 1'000'000);
    vp.fitAll();
    vp.zoomAt(0, 0.001); // no further out than a little beyond fit all
    QCOMPARE(vp.nsPerPixel(), 1250.0);
    vp.fitAll();
    vp.zoomAt(500, 10);
    vp.panPixels(1e9); // far beyond the end: at most a fifth of the width beyond the last event
    QCOMPARE(vp.end(), 1'000'000 + 0.2 * (vp.end() - vp.start()));
}

QTEST_GUILESS_MAIN(TestRulerTicks)
#include "tst_rulerticks.moc"
