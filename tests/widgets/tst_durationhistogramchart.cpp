// SPDX-License-Identifier: GPL-3.0-or-later
// The duration histogram as drawn in a docked pane: its duration ticks never run together.
#include "widgets/common/axisticks.h"
#include "widgets/common/durationhistogramchart.h"

#include <QTest>

using namespace nsw;

class TestDurationHistogramChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void durationTicksHaveRoom_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<qint64>("shortestNs");
        QTest::addColumn<qint64>("longestNs");
        // 290x60 is the NVTX pane's chart at 1366x768, where "2.25 ms2.50 ms2.75 ms3.00 ms" ran together.
        for (const QSize size : { QSize(290, 60), QSize(290, 120), QSize(800, 200) }) {
            QTest::addRow("within a decade at %dx%d", size.width(), size.height())
                << size << qint64(1'900'000) << qint64(3'100'000);
            QTest::addRow("over four decades at %dx%d", size.width(), size.height())
                << size << qint64(1'500) << qint64(25'000'000);
        }
    }
    void durationTicksHaveRoom()
    {
        QFETCH(QSize, size);
        QFETCH(qint64, shortestNs);
        QFETCH(qint64, longestNs);
        std::vector<qint64> values;
        for (int i = 0; i <= 40; ++i)
            values.push_back(shortestNs + (longestNs - shortestNs) * i / 40);
        DurationHistogramChart chart;
        chart.resize(size);
        chart.setHistogram(durationHistogram(values), QStringLiteral("41 executions"));
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.replot();
        QVERIFY2(chart.xAxis->tickVector().size() >= 2, qPrintable(QString::number(chart.xAxis->tickVector().size())));
        QStringList labels;
        for (const QString& label : chart.xAxis->tickVectorLabels())
            labels << label;
        QVERIFY2(tickLabelsHaveRoom(*chart.xAxis), qPrintable(labels.join(QStringLiteral(" | "))));
    }
};

QTEST_MAIN(TestDurationHistogramChart)
#include "tst_durationhistogramchart.moc"
