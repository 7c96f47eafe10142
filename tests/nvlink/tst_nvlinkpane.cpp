// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/kernelinstancemodel.h"
#include "core/models/modelroles.h"
#include "core/models/nvlinkkernelmodel.h"
#include "core/models/nvlinkpeakmodel.h"
#include "core/session/workbench.h"
#include "expectedjson.h"
#include "nvlinkscenario.h"
#include "widgets/common/plotexport.h"
#include "widgets/kernels/kerneltablepane.h"
#include "widgets/nvlink/nvlinkattach.h"
#include "widgets/nvlink/nvlinkpane.h"
#include "widgets/nvlink/nvlinkplot.h"

#include <QComboBox>
#include <QImage>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace nsw;
using namespace nsw::test;

namespace {

ProfileSession* makeSession(const ProfilePtr& profile)
{
    LoadedProfile loaded;
    loaded.profile = profile;
    loaded.kernelIndex = std::make_shared<KernelIndex>(profile, KernelNameMode::Demangled);
    loaded.result.profile = profile;
    return new ProfileSession(loaded);
}

QStringList kernelNames(const NvlinkKernelModel& m)
{
    QStringList n;
    for (int r = 0; r < m.rowCount(); ++r)
        n << m.nameAt(r);
    return n;
}

} // namespace

class TestNvlinkPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // Keep the user's link-peak table out of the test.
        QStandardPaths::setTestModeEnabled(true);
    }

    void emptyProfile()
    {
        Workbench wb;
        NvlinkPane pane(&wb);
        wb.addSession(makeSession(scenarioProfile()));
        QCOMPARE(pane.peakModel()->rowCount(), 0);
        QCOMPARE(pane.sourceSelector()->count(), 0);
        QCOMPARE(pane.paneId(), QStringLiteral("nvlink"));
        QCOMPARE(pane.exportablePlot(), pane.plot());
    }

    void peaksKernelsAndLinkedSelection()
    {
        QTemporaryDir dir;
        const QString bin = dir.filePath(QStringLiteral("nvlink_trace_gpu0.bin"));
        QFile f(bin);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(scenarioRecording());
        f.close();

        Workbench wb;
        KernelTablePane kernels(&wb);
        NvlinkPane pane(&wb);
        pane.resize(1200, 800);
        pane.show();
        ProfileSession* session = makeSession(scenarioProfile());
        wb.addSession(session);
        pane.setTopPeaks(3);

        QSignalSpy shown(&pane, &NvlinkPane::peaksShown);
        QStringList errors { QStringLiteral("not called") };
        attachNvlinkRecordings(session, { { bin, 0 } }, nullptr, [&](const QStringList& e) { errors = e; });
        QTRY_COMPARE(pane.peakModel()->rowCount(), 3);
        QCOMPARE(errors, QStringList());
        QCOMPARE(pane.sourceSelector()->count(), 1);
        QVERIFY(pane.sourceSelector()->currentText().startsWith(qs("nvlink_trace_gpu0.bin — GPU 0")));

        const NvlinkPeakModel& peaks = *pane.peakModel();
        QCOMPARE(peaks.peakAt(0)->link, 1);
        QCOMPARE(peaks.peakAt(0)->start, TimeNs(12000000));
        QCOMPARE(peaks.peakAt(0)->gbps, 2.048);
        QCOMPARE(peaks.peakAt(0)->percentOfPeak, 100.0 * 2.048 / 25.0); // A100 link, from TARGET_INFO_GPU
        QCOMPARE(peaks.peakAt(2)->direction, LinkDirection::Rx);

        // The first peak is selected: its kernels are listed, longest overlap first.
        QCOMPARE(kernelNames(*pane.kernelModel()),
            qsl({ "persistentKernel", "ncclDevKernel_AllReduce", "gemm_kernel", "elementwise_kernel" }));

        // Clicking a kernel selects that execution in the kernel table.
        QSignalSpy instance(&wb, &Workbench::kernelInstanceSelected);
        pane.kernelView()->setCurrentIndex(pane.kernelView()->model()->index(1, 0));
        // (The kernel table then announces the same execution as its own selection, and stops there.)
        QVERIFY(instance.count() >= 1 && instance.count() <= 2);
        for (const QList<QVariant>& args : instance)
            QCOMPARE(args.at(1).toUInt(), 1u);
        QCOMPARE(kernels.summaryView()->currentIndex().data(KernelNameRole).toString(),
            QStringLiteral("ncclDevKernel_AllReduce"));
        QCOMPARE(kernels.instanceView()->currentIndex().data(IdentityRole).toUInt(), 1u);

        // Peak 3 from the plot: its kernels.
        pane.selectPeak(3);
        QCOMPARE(kernelNames(*pane.kernelModel()), qsl({ "persistentKernel", "ncclKernel_SendRecv" }));
        Q_EMIT pane.plot()->peakClicked(2);
        QCOMPARE(pane.peakView()->currentIndex().data(SortRole).toInt(), 2);

        // The plot holds the reduced data only, and the three peak marks.
        pane.plot()->refresh();
        QCOMPARE(pane.plot()->peakGraph()->dataCount(), 3);
        QVERIFY(pane.plot()->plottedPoints() > 0);
        QVERIFY(pane.plot()->plottedPoints() < 4 * 30 + 3 + 2 * 1200);

        // The ccl-bench JSON of the selection (top 1, per link) is the tool's.
        pane.setTopPeaks(1);
        QTRY_COMPARE(pane.peakModel()->rowCount(), 1);
        QCOMPARE(QString::fromUtf8(pane.peakKernelsJson()),
            QString::fromLatin1(kExpectedPeakKernelsTop1) + QLatin1Char('\n'));

        // Summed over links: TX interval 2 carries 3000 KiB in 1 ms.
        shown.clear();
        pane.setSummedLinks(true);
        QTRY_VERIFY(shown.count() > 0);
        QTRY_COMPARE(pane.peakModel()->peakAt(0)->gbps, 3.072);
        QCOMPARE(pane.peakModel()->peakAt(0)->link, kAllLinks);
        pane.setSummedLinks(false);

        // A clock offset of +0.5 ms moves the peak to [12.5, 13.5) ms of the capture, and its kernels with it.
        pane.setClockOffsetMs(0.5);
        QCOMPARE(session->attachment<const NvlinkAttachment>(nvlinkAttachmentKey())->clockOffsetNs, TimeNs(500000));
        QTRY_COMPARE(pane.peakModel()->peakAt(0)->start, TimeNs(12500000));
        QCOMPARE(kernelNames(*pane.kernelModel()),
            qsl({ "persistentKernel", "ncclDevKernel_AllReduce", "elementwise_kernel", "gemm_kernel" }));
        QCOMPARE(pane.kernelModel()->index(3, NvlinkKernelModel::OverlapColumn).data(SortRole).toLongLong(), 250000);

        // PNG export through the common helper.
        const QString png = dir.filePath(QStringLiteral("plot.png"));
        PngExportOptions o;
        o.width = 900;
        o.height = 500;
        QCOMPARE(savePlotPng(*pane.plot(), png, o), QString());
        QCOMPARE(QImage(png).size(), QSize(900, 500));
    }

    void focusRestrictsPeaksKernelsAndThePlot()
    {
        QTemporaryDir dir;
        const QString bin = dir.filePath(QStringLiteral("nvlink_trace_gpu0.bin"));
        QFile f(bin);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(scenarioRecording());
        f.close();

        Workbench wb;
        NvlinkPane pane(&wb);
        pane.resize(1200, 800);
        pane.show();
        ProfileSession* session = makeSession(scenarioProfile());
        wb.addSession(session);
        pane.setTopPeaks(3);
        attachNvlinkRecordings(session, { { bin, 0 } }, nullptr, [](const QStringList&) {});
        QTRY_COMPARE(pane.peakModel()->rowCount(), 3);
        QCOMPARE(pane.peakModel()->peakAt(0)->start, TimeNs(12000000)); // the whole recording's top peak
        QVERIFY(!pane.messageText().contains(QStringLiteral("Focus")));

        // Focus [14.0, 14.4) ms: intervals 3 ([13, 14] ms, ending at the focus start: in, by nsys's predicate) and
        // 4 ([14, 15] ms) overlap it. Their non-zero values: link 0 RX interval 4 (500 KiB = 0.512 GB/s), link 1 RX
        // intervals 3 and 4 (10 KiB each; the earlier one first).
        QSignalSpy shown(&pane, &NvlinkPane::peaksShown);
        session->setFocus(FocusRange { 14000000, 14400000, QStringLiteral("the focus") });
        QTRY_VERIFY(shown.count() > 0);
        const NvlinkPeakModel& peaks = *pane.peakModel();
        QCOMPARE(peaks.rowCount(), 3);
        QCOMPARE(peaks.peakAt(0)->link, 0);
        QCOMPARE(peaks.peakAt(0)->direction, LinkDirection::Rx);
        QCOMPARE(peaks.peakAt(0)->start, TimeNs(14000000));
        QCOMPARE(peaks.peakAt(1)->link, 1);
        QCOMPARE(peaks.peakAt(1)->start, TimeNs(13000000));
        QCOMPARE(peaks.peakAt(2)->link, 1);
        QCOMPARE(peaks.peakAt(2)->start, TimeNs(14000000));
        // Peak 1's interval also holds ncclKernel_SendRecv (from 14.5 ms: after the focus) and peak 2's
        // ncclDevKernel_AllReduce and elementwise_kernel (ending before 14 ms): only persistentKernel overlaps the
        // focus.
        QCOMPARE(kernelNames(*pane.kernelModel()), qsl({ "persistentKernel" }));
        pane.selectPeak(2);
        QCOMPARE(kernelNames(*pane.kernelModel()), qsl({ "persistentKernel" }));
        // The plot shows the focus range, and the pane says why.
        const QCPRange range = pane.plot()->throughputRect()->axis(QCPAxis::atBottom)->range();
        QCOMPARE(range.lower, 0.014);
        QCOMPARE(range.upper, 0.0144);
        QVERIFY2(pane.messageText().startsWith(QStringLiteral("Focus the focus: peaks among the intervals that overlap "
                                                              "it")),
            qPrintable(pane.messageText()));

        // Cleared: the whole recording again.
        shown.clear();
        session->clearFocus();
        QTRY_VERIFY(shown.count() > 0);
        QCOMPARE(pane.peakModel()->peakAt(0)->start, TimeNs(12000000));
        pane.selectPeak(3); // link 0 RX interval 4 again, now with both of its kernels
        QCOMPARE(kernelNames(*pane.kernelModel()), qsl({ "persistentKernel", "ncclKernel_SendRecv" }));
        QVERIFY(!pane.messageText().contains(QStringLiteral("Focus")));
    }

    void gpuMetricsSource()
    {
        // nsys GPU metrics of GPU 0: TX at 5 %, 40 %, 10 % of peak over [12, 15) ms of the capture.
        auto metrics = std::make_shared<GpuMetricsNvlink>();
        ThroughputSeries tx;
        tx.gpu = 0;
        tx.unit = ThroughputUnit::PercentOfPeak;
        tx.time = std::vector<TimeNs> { 12000000, 13000000, 14000000, 15000000 };
        tx.percent = { 5, 40, 10 };
        metrics->series.push_back(std::move(tx));
        metrics->metrics = qsl({ "NVLink TX Requests User Data [Throughput %]" });
        Workbench wb;
        NvlinkPane pane(&wb);
        ProfileSession* session = makeSession(scenarioProfile());
        wb.addSession(session);
        auto a = std::make_shared<NvlinkAttachment>();
        a->gpuMetrics = metrics;
        a->gpuMetricsSearched = true;
        pane.setTopPeaks(2);
        session->setAttachment(nvlinkAttachmentKey(), a);
        QTRY_COMPARE(pane.peakModel()->rowCount(), 2);
        QVERIFY(pane.sourceSelector()->currentText().startsWith(qs("GPU 0 — nsys GPU metrics")));
        const NvlinkPeak& top = *pane.peakModel()->peakAt(0);
        QCOMPARE(top.start, TimeNs(13000000)); // no clock offset: the export's own clock
        QCOMPARE(top.percentOfPeak, 40.0);
        QCOMPARE(top.gbps, 40.0 / 100 * 300); // A100: 12 links x 25 GB/s per direction
        QCOMPARE(kernelNames(*pane.kernelModel()),
            qsl({ "persistentKernel", "ncclDevKernel_AllReduce", "elementwise_kernel" }));
    }

    void badRecordingIsReported()
    {
        QTemporaryDir dir;
        const QString bin = dir.filePath(QStringLiteral("broken.bin"));
        QFile f(bin);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(nvf1Header("NVF1", 7));
        f.close();
        Workbench wb;
        ProfileSession* session = makeSession(scenarioProfile());
        wb.addSession(session);
        QStringList errors;
        bool called = false;
        attachNvlinkRecordings(session, { { bin, 0 } }, nullptr, [&](const QStringList& e) {
            errors = e;
            called = true;
        });
        QTRY_VERIFY(called);
        QCOMPARE(errors, QStringList { bin + QStringLiteral(": unsupported NVF1 version 7 (only version 1 exists)") });
        QVERIFY(!session->attachment<const NvlinkAttachment>(nvlinkAttachmentKey()));
    }

    void longRecordingIsReducedPerPixel()
    {
        // 300,000 polls of one link (10 min at 2 ms): the plot must never get more than a few points per pixel.
        Nvf1Builder b;
        b.bytes.reserve(12 + 600000 * 48);
        std::uint64_t tx = 0;
        for (int p = 0; p < 300000; ++p) {
            tx += p == 123456 ? 500000 : std::uint64_t(p % 7);
            b.poll(kScenarioT0 + std::int64_t(p) * 2000, { { tx, 0 } });
        }
        auto rec
            = parseNvf1Bytes(b.bytes.constData(), std::size_t(b.bytes.size()), QStringLiteral("long.bin"), 0).recording;
        QVERIFY(rec);
        Workbench wb;
        NvlinkPane pane(&wb);
        pane.resize(1000, 700);
        pane.show();
        ProfileSession* session = makeSession(scenarioProfile());
        wb.addSession(session);
        auto a = std::make_shared<NvlinkAttachment>();
        a->recordings.push_back({ rec, 0 });
        session->setAttachment(nvlinkAttachmentKey(), a);
        QTRY_COMPARE(pane.peakModel()->rowCount(), 10);
        // The spike: 500,000 KiB in 2 ms.
        QCOMPARE(pane.peakModel()->peakAt(0)->gbps, 500000.0 * 1024 / 2000 / 1000);
        NvlinkPlot& plot = *pane.plot();
        plot.refresh();
        const int width = plot.throughputRect()->width();
        QVERIFY(width > 100);
        QVERIFY2(plot.plottedPoints() <= 2 * (std::max(100, width) + 1) + 10 + width,
            qPrintable(QString::number(plot.plottedPoints())));
        // The spike survives the reduction at full view.
        double yMax = 0;
        for (int g = 0; g < plot.graphCount(); ++g)
            if (plot.graph(g) != plot.peakGraph())
                for (auto it = plot.graph(g)->data()->constBegin(); it != plot.graph(g)->data()->constEnd(); ++it)
                    if (plot.graph(g)->valueAxis() == plot.throughputRect()->axis(QCPAxis::atLeft))
                        yMax = std::max(yMax, it->value);
        QCOMPARE(yMax, 256.0);
        // Zoomed in to 20 ms: the ten 2 ms intervals themselves (plus the closing point), TX and RX.
        const TimeNs start = plot.dataFrom() + 100000000;
        plot.showRange(start, start + 20000000);
        plot.refresh();
        int throughputPoints = 0;
        for (int g = 0; g < plot.graphCount(); ++g)
            if (plot.graph(g) != plot.peakGraph()
                && plot.graph(g)->valueAxis() == plot.throughputRect()->axis(QCPAxis::atLeft))
                throughputPoints += plot.graph(g)->dataCount();
        QCOMPARE(throughputPoints, 2 * 11);
    }
};

QTEST_MAIN(TestNvlinkPane)
#include "tst_nvlinkpane.moc"
