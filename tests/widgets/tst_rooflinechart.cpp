// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline chart, drawn from hand-made numbers: a GPU of 1000 TFLOP/s and 2 TB/s has its ridge at 1000 / 2 = 500
// FLOPs per byte. An iteration point at 100 FLOPs/byte achieving 100 TFLOP/s sits under a roof of 2 x 100 = 200
// (50 %); a range "fwd" at 2000 FLOPs/byte achieving 800 under the 1000 TFLOP/s peak (80 %).
#include "widgets/common/axisticks.h"
#include "widgets/common/plotexport.h"
#include "widgets/diagnostics/rooflinechart.h"

#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;

namespace {

MfuRoofline handMade(bool bandwidth)
{
    MfuRoofline r;
    r.peakTflops = 1000;
    r.bandwidthTBs = bandwidth ? 2 : 0;
    r.ridge = bandwidth ? 500 : 0;
    MfuRooflinePoint it { true, QStringLiteral("iteration 0 (step)"), 100, 100, bandwidth ? 200.0 : 0.0, true };
    MfuRooflinePoint slow { true, QStringLiteral("iteration 1 (step)"), 100, 50, bandwidth ? 200.0 : 0.0, true };
    MfuRooflinePoint fwd { false, QStringLiteral("fwd"), 2000, 800, bandwidth ? 1000.0 : 0.0, false };
    r.points = { it, slow, fwd };
    return r;
}

/// Whether @p point (widget pixels) lies inside the chart's axis rectangle.
bool inside(const RooflineChart& chart, QPointF point)
{
    return chart.axisRect()->rect().contains(point.toPoint());
}

} // namespace

class TestRooflineChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void drawsTheRoofAndPoints_data();
    void drawsTheRoofAndPoints();
    void saysWhenThereIsNoPoint();
    void exportsPng();
};

void TestRooflineChart::drawsTheRoofAndPoints_data()
{
    QTest::addColumn<QSize>("size");
    // The MFU tab's chart at 1366x768 is about 420x230; at 1920x1080 about 800x380.
    for (const QSize size : { QSize(420, 230), QSize(800, 380) })
        QTest::addRow("%dx%d", size.width(), size.height()) << size;
}

void TestRooflineChart::drawsTheRoofAndPoints()
{
    QFETCH(QSize, size);
    RooflineChart chart;
    chart.resize(size);
    chart.setRoofline(handMade(true), QStringLiteral("Roofline of one H100, bf16"));
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.replot();
    QCOMPARE(chart.titleText(), QStringLiteral("Roofline of one H100, bf16"));
    QCOMPARE(chart.messageText(), QString());
    // The roof: the slope 2 x I up to the ridge (500, 1000), flat after it.
    const QCPGraph* roof = chart.graph(0);
    QCOMPARE(roof->dataCount(), 3);
    const double left = roof->data()->at(0)->key;
    QCOMPARE(roof->data()->at(0)->value, 2 * left);
    QCOMPARE(roof->data()->at(1)->key, 500.0);
    QCOMPARE(roof->data()->at(1)->value, 1000.0);
    QCOMPARE(roof->data()->at(2)->value, 1000.0);
    QVERIFY(left <= 10 && roof->data()->at(2)->key >= 20000); // a decade either side of the points
    // Every point on screen inside the axes; the slower iteration below the faster, the range right of both.
    for (int i = 0; i < 3; ++i)
        QVERIFY2(inside(chart, chart.pixelOfPoint(i)), qPrintable(QString::number(i)));
    QVERIFY(chart.pixelOfPoint(1).y() > chart.pixelOfPoint(0).y());
    QCOMPARE(chart.pixelOfPoint(1).x(), chart.pixelOfPoint(0).x());
    QVERIFY(chart.pixelOfPoint(2).x() > chart.pixelOfPoint(0).x());
    // A decade is as long on screen wherever it is: log scales.
    QCOMPARE(qRound(chart.xAxis->coordToPixel(1000) - chart.xAxis->coordToPixel(100)),
        qRound(chart.xAxis->coordToPixel(100) - chart.xAxis->coordToPixel(10)));
    QVERIFY(tickLabelsHaveRoom(*chart.xAxis));
    QCOMPARE(chart.pointToolTip(0),
        QStringLiteral("iteration 0 (step): 100 TFLOP/s per GPU at 100 FLOPs/byte\n50.0 % of the 200 TFLOP/s the "
                       "roof allows there (memory-bound)"));
    QCOMPARE(chart.pointToolTip(2),
        QStringLiteral("fwd: 800 TFLOP/s per GPU at 2000 FLOPs/byte\n80.0 % of the 1000 TFLOP/s the roof allows "
                       "there (compute-bound)"));
    // The legend names the roof's numbers and counts the points.
    QStringList legend;
    for (int i = 0; i < chart.legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(chart.legend->item(i)))
            legend << item->plottable()->name();
    QCOMPARE(legend,
        (QStringList { QStringLiteral("roof: 2 TB/s, 1000 TFLOP/s"), QStringLiteral("iterations (2)"),
            QStringLiteral("NVTX ranges (1)") }));
    QVERIFY(chart.legend->visible());
}

void TestRooflineChart::saysWhenThereIsNoPoint()
{
    RooflineChart chart;
    chart.resize(420, 230);
    MfuRoofline noPoints = handMade(true);
    noPoints.points.clear();
    chart.setRoofline(noPoints, QStringLiteral("Roofline"));
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QCOMPARE(chart.messageText(), QStringLiteral("No achieved point: no bytes given"));
    QCOMPARE(chart.graph(0)->dataCount(), 3); // the roof is still drawn: where the ridge is helps choose bytes
    // Without a bandwidth: the peak alone, flat, named so.
    chart.setRoofline(handMade(false), QStringLiteral("Roofline"));
    QCOMPARE(chart.graph(0)->dataCount(), 2);
    QCOMPARE(chart.graph(0)->name(), QStringLiteral("peak 1000 TFLOP/s (no memory roof)"));
    QCOMPARE(chart.pointToolTip(0), QStringLiteral("iteration 0 (step): 100 TFLOP/s per GPU at 100 FLOPs/byte"));
    chart.clearRoofline(QStringLiteral("nothing yet"));
    QCOMPARE(chart.messageText(), QStringLiteral("nothing yet"));
    QVERIFY(!chart.legend->visible());
}

void TestRooflineChart::exportsPng()
{
    RooflineChart chart;
    chart.resize(420, 230);
    chart.setRoofline(handMade(true), QStringLiteral("Roofline"));
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("roofline.png"));
    PngExportOptions o;
    o.width = 900;
    o.height = 500;
    QCOMPARE(savePlotPng(chart, png, o), QString());
    QCOMPARE(QImage(png).size(), QSize(900, 500));
}

QTEST_MAIN(TestRooflineChart)
#include "tst_rooflinechart.moc"
