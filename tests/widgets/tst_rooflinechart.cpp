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

/// The first label not whole inside the axes (labels are clipped to them), with its box; empty when none.
QString labelOutside(const RooflineChart& chart)
{
    const QRect axes = chart.axisRect()->rect().adjusted(-1, -1, 1, 1);
    for (int i = 0; i < chart.itemCount(); ++i)
        if (auto* label = qobject_cast<QCPItemText*>(chart.item(i))) {
            const QPoint topLeft = label->topLeft->pixelPosition().toPoint();
            const QPoint bottomRight = label->bottomRight->pixelPosition().toPoint();
            if (!axes.contains(topLeft) || !axes.contains(bottomRight))
                return QStringLiteral("\"%1\" at (%2,%3)-(%4,%5) in axes (%6,%7)-(%8,%9)")
                    .arg(label->text())
                    .arg(topLeft.x())
                    .arg(topLeft.y())
                    .arg(bottomRight.x())
                    .arg(bottomRight.y())
                    .arg(axes.left())
                    .arg(axes.top())
                    .arg(axes.right())
                    .arg(axes.bottom());
        }
    return {};
}

} // namespace

class TestRooflineChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void drawsTheRoofAndPoints_data();
    void drawsTheRoofAndPoints();
    void labelsStayInside_data();
    void labelsStayInside();
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
    // Labelled where drawn: the roof's numbers, the ridge, the column of iterations, the range.
    QCOMPARE(chart.labelTexts(),
        (QStringList { QStringLiteral("2 TB/s"), QStringLiteral("ridge 500"), QStringLiteral("peak 1000 TFLOP/s"),
            QStringLiteral("fwd"), QStringLiteral("iterations (2)") }));
    QVERIFY(!chart.legend->visible()); // a legend box would cover a docked chart
    const QString cut = labelOutside(chart);
    QVERIFY2(cut.isEmpty(), qPrintable(cut));
}

void TestRooflineChart::labelsStayInside_data()
{
    QTest::addColumn<QSize>("size");
    for (const QSize size : { QSize(300, 200), QSize(420, 230), QSize(800, 380) })
        QTest::addRow("%dx%d", size.width(), size.height()) << size;
}

/// The demo's shape: an H100 SXM (989.5 TFLOP/s, 3.35 TB/s, ridge 295.4) with iterations at 197.5 FLOPs/byte and a
/// range at 395, the ridge and the range in the right part of the chart: their labels go left of their marks.
void TestRooflineChart::labelsStayInside()
{
    QFETCH(QSize, size);
    MfuRoofline r;
    r.peakTflops = 989.5;
    r.bandwidthTBs = 3.35;
    r.ridge = 989.5 / 3.35;
    for (const double tflops : { 55.0, 390.0, 392.0, 1250.0 })
        r.points.push_back({ true, QStringLiteral("iteration"), 197.5, tflops, 661.6, true });
    r.points.push_back({ false, QStringLiteral("execute_model"), 395, 437.6, 989.5, false });
    RooflineChart chart;
    chart.resize(size);
    chart.setRoofline(r, QStringLiteral("Roofline per GPU · H100 SXM · bf16"));
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.replot();
    const QString cut = labelOutside(chart);
    QVERIFY2(cut.isEmpty(), qPrintable(cut));
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
    QVERIFY2(chart.labelTexts().contains(QStringLiteral("peak 1000 TFLOP/s (no memory roof known)")),
        qPrintable(chart.labelTexts().join(u'|')));
    QCOMPARE(chart.pointToolTip(0), QStringLiteral("iteration 0 (step): 100 TFLOP/s per GPU at 100 FLOPs/byte"));
    chart.clearRoofline(QStringLiteral("nothing yet"));
    QCOMPARE(chart.messageText(), QStringLiteral("nothing yet"));
    QCOMPARE(chart.labelTexts(), QStringList());
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
