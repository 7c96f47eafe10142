// SPDX-License-Identifier: GPL-3.0-or-later
// Every chart of the window replots without painting at once: the paint comes with Qt's next paint of the window. A
// profile opening replots most charts in one go, and QCustomPlot's default immediate repaint painted and flushed the
// whole window once per chart (issue 33: half of a 310 ms stall of the GUI thread).
#include "widgets/categories/categorychart.h"
#include "widgets/common/chart.h"
#include "widgets/common/durationhistogramchart.h"
#include "widgets/compare/comparechart.h"
#include "widgets/diagnostics/rooflinechart.h"
#include "widgets/iterations/iterationschart.h"
#include "widgets/kernels/topkernelschart.h"
#include "widgets/nvlink/nvlinkplot.h"
#include "widgets/ranks/rankheatmap.h"

#include <QTest>
#include <functional>
#include <memory>

using namespace nsw;

namespace {

using MakeChart = std::function<QCustomPlot*()>;

class PaintCounter : public QObject
{
public:
    int paints = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        paints += event->type() == QEvent::Paint;
        return QObject::eventFilter(watched, event);
    }
};

template <typename T> MakeChart maker()
{
    return []() -> QCustomPlot* { return new T; };
}

} // namespace

Q_DECLARE_METATYPE(MakeChart)

class TestChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void replotPaintsWithTheWindow_data()
    {
        QTest::addColumn<MakeChart>("make");
        QTest::newRow("categories") << maker<CategoryChart>();
        QTest::newRow("compare") << maker<CompareChart>();
        QTest::newRow("duration histogram") << maker<DurationHistogramChart>();
        QTest::newRow("iterations") << maker<IterationsChart>();
        QTest::newRow("nvlink") << maker<NvlinkPlot>();
        QTest::newRow("rank heat map") << maker<RankHeatmap>();
        QTest::newRow("roofline") << maker<RooflineChart>();
        QTest::newRow("top kernels") << maker<TopKernelsChart>();
    }
    void replotPaintsWithTheWindow()
    {
        QFETCH(MakeChart, make);
        std::unique_ptr<QCustomPlot> chart(make());
        QVERIFY(qobject_cast<Chart*>(chart.get()));
        chart->resize(400, 300);
        chart->show();
        QVERIFY(QTest::qWaitForWindowExposed(chart.get()));
        PaintCounter counter;
        chart->installEventFilter(&counter);
        chart->replot();
        QCOMPARE(counter.paints, 0);
        QTRY_VERIFY(counter.paints > 0);
    }
};

QTEST_MAIN(TestChart)
#include "tst_chart.moc"
