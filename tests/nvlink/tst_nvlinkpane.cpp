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
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>
#include <array>

using namespace nsw;
using namespace nsw::test;

namespace {

ProfileSession* makeSession(const ProfilePtr& profile)
{
    LoadedProfile loaded;
    loaded.profile = profile;
    loaded.kernelIndex = std::make_shared<KernelIndex>(profile, KernelNameMode::Demangled);
    loaded.load.profile = profile;
    return new ProfileSession(loaded);
}

/// 4 links, 41 polls 1 ms apart from kScenarioT0 (session 10..50 ms). KiB per interval: link 0 TX and RX 5000 and
/// 4900 in the last interval (the top-right corner, where the legend used to sit; one interval in both directions);
/// links 1, 2 and 3 TX 3000, 2990, 2980 in interval 20 (three marks on top of each other); link 2 RX 1000, 990, ...,
/// 950 in intervals 5 to 10 (neighbours 1 ms apart). The top 10 are these ten distinct intervals.
QByteArray crowdedRecording()
{
    std::vector<std::array<std::uint64_t, 8>> delta(40, std::array<std::uint64_t, 8> {}); // l0tx, l0rx, l1tx, ...
    delta[39][0] = 5000;
    delta[39][1] = 4900;
    delta[20][2] = 3000;
    delta[20][4] = 2990;
    delta[20][6] = 2980;
    for (int i = 5; i <= 10; ++i)
        delta[std::size_t(i)][5] = std::uint64_t(1000 - (i - 5) * 10);
    Nvf1Builder b;
    std::array<std::uint64_t, 8> counter {};
    for (int p = 0; p <= 40; ++p) {
        if (p > 0)
            for (std::size_t k = 0; k < 8; ++k)
                counter[k] += delta[std::size_t(p - 1)][k];
        std::vector<std::pair<std::uint64_t, std::uint64_t>> values;
        for (std::size_t link = 0; link < 4; ++link)
            values.emplace_back(counter[2 * link], counter[2 * link + 1]);
        b.poll(kScenarioT0 + p * 1000, values);
    }
    return b.bytes;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return {};
    return path;
}

/// The tick labels under the plot, as drawn (after a replot).
QStringList timeTickLabels(NvlinkPlot& plot)
{
    plot.refresh();
    plot.replot();
    return plot.ncclRect()->axis(QCPAxis::atBottom)->tickVectorLabels();
}

/// Where a label's text is drawn: its box less the padding that separates it from its mark.
QRectF textBox(const QCPItemText* t)
{
    return QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition())
        .normalized()
        .marginsRemoved(QMarginsF(t->padding()));
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

    /// Without NVLink data the pane says so under Attach and Link peaks, at the top of the pane: no plot, no controls
    /// of data it does not have (in a 370 px dock at 1366x768 they took six rows over a plot 48 px high). With data,
    /// the setup done once (clock offset, GPU model, Link peaks, Attach) waits under More.
    void withoutDataOnlyAttachAndTheMessageShow()
    {
        Workbench wb;
        NvlinkPane pane(&wb);
        pane.resize(370, 300);
        pane.show();
        const auto shownButtons = [&pane]() {
            QStringList texts;
            for (const QToolButton* b : pane.findChildren<QToolButton*>())
                if (b->isVisible())
                    texts << b->text();
            texts.sort();
            return texts;
        };
        QVERIFY(!pane.views()->isVisible());
        QVERIFY(pane.messageLabel()->isVisible());
        QCOMPARE(pane.messageText(), qs("No profile open."));

        ProfileSession* session = makeSession(scenarioProfile());
        wb.addSession(session);
        QVERIFY(!pane.views()->isVisible());
        QVERIFY(!pane.sourceSelector()->isVisible());
        QCOMPARE(shownButtons(), QStringList({ qs("Attach…"), qs("Link peaks…") }));
        QVERIFY(pane.messageLabel()->isVisible());
        QVERIFY(pane.messageText().startsWith(qs("No NVLink data for this profile.")));
        // The message right under the buttons, not pushed down or centred in the empty pane.
        QVERIFY2(pane.messageLabel()->geometry().bottom() < pane.height() / 2,
            qPrintable(QString::number(pane.messageLabel()->geometry().bottom())));

        QTemporaryDir dir;
        const QString bin = writeFile(dir, qs("nvlink_trace_gpu0.bin"), scenarioRecording());
        QVERIFY(!bin.isEmpty());
        attachNvlinkRecordings(session, { { bin, 0 } }, nullptr, [](const QStringList&, const QStringList&) {});
        QTRY_VERIFY(pane.peakModel()->rowCount() > 0);
        QVERIFY(pane.views()->isVisible());
        QVERIFY(pane.plot()->isVisible());
        QVERIFY(pane.sourceSelector()->isVisible());
        QVERIFY(shownButtons().contains(qs("Export")));
        // The setup a session needs once is under More.
        QVERIFY(!pane.clockOffsetBox()->isVisible());
        QVERIFY(!shownButtons().contains(qs("Attach…")));
        pane.moreButton()->click();
        QVERIFY(pane.clockOffsetBox()->isVisible());
        QVERIFY(shownButtons().contains(qs("Attach…")) && shownButtons().contains(qs("Link peaks…")));
        pane.moreButton()->click();
        QVERIFY(!pane.clockOffsetBox()->isVisible());
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
        QStringList warnings { QStringLiteral("not called") };
        attachNvlinkRecordings(session, { { bin, 0 } }, nullptr, [&](const QStringList& e, const QStringList& w) {
            errors = e;
            warnings = w;
        });
        QTRY_COMPARE(pane.peakModel()->rowCount(), 3);
        QCOMPARE(errors, QStringList());
        QCOMPARE(warnings, QStringList()); // the recording lies inside the capture
        QVERIFY(pane.placementBanner()->isHidden());
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
        attachNvlinkRecordings(session, { { bin, 0 } }, nullptr, [](const QStringList&, const QStringList&) {});
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

    void recordingOfAnotherSession()
    {
        QTemporaryDir dir;
        const QString bin = writeFile(dir, qs("nvlink_trace_gpu0.bin"), scenarioRecording(kAnotherSessionShiftUs));
        Workbench wb;
        NvlinkPane pane(&wb);
        pane.resize(1200, 800);
        pane.show();
        ProfileSession* session = makeSession(scenarioProfile());
        wb.addSession(session);
        QStringList errors, warnings;
        bool called = false;
        attachNvlinkRecordings(session, { { bin, 0 } }, nullptr, [&](const QStringList& e, const QStringList& w) {
            errors = e;
            warnings = w;
            called = true;
        });
        QTRY_VERIFY(called);
        QTRY_VERIFY(pane.peakModel()->rowCount() > 0);

        // Said where it is attached: the recording starts 1,309,077.770 s into a capture of 0 to 100 ms.
        QCOMPARE(errors, QStringList());
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings[0].startsWith(bin
                     + qs(": the recording does not overlap the capture: it starts at "
                          "1309077.770 s of the capture, which runs from 0.000 s to 0.100 s")),
            qPrintable(warnings[0]));
        // ... and in the pane, with the offer to align.
        QVERIFY(pane.placementBanner()->isVisible());
        QVERIFY(pane.placementWarning()->isVisible());
        QVERIFY2(
            pane.placementWarning()->text().contains(qs("does not overlap the capture: it starts at 1309077.770 s")),
            qPrintable(pane.placementWarning()->text()));
        QVERIFY(pane.alignButton()->isVisible());
        QCOMPARE(pane.alignButton()->text(), qs("Align recording start to capture start"));
        QVERIFY(pane.placementBanner()->geometry().intersects(pane.rect()));
        for (int r = 0; r < pane.peakModel()->rowCount(); ++r)
            QVERIFY(pane.peakModel()->peakAt(r)->kernels.empty());

        // Ticks are offsets from the origin the axis names, never "1.30908·10⁶" under every tick.
        QStringList ticks = timeTickLabels(*pane.plot());
        QVERIFY(ticks.size() >= 3);
        for (const QString& t : std::as_const(ticks))
            QVERIFY2(t.startsWith(QLatin1Char('+')) && t.size() <= 7 && !t.contains(QChar(0xB7)), qPrintable(t));
        QCOMPARE(QSet<QString>(ticks.begin(), ticks.end()).size(), ticks.size());
        const QString axis = pane.plot()->ncclRect()->axis(QCPAxis::atBottom)->label();
        QVERIFY2(axis.startsWith(qs("Seconds after 1309077.77")), qPrintable(axis));

        // Align: the first poll at the capture start, the top interval (link 1 TX, interval 2) at [2, 3) ms.
        QTest::mouseClick(pane.alignButton(), Qt::LeftButton);
        QTRY_COMPARE(session->attachment<const NvlinkAttachment>(nvlinkAttachmentKey())->clockOffsetNs,
            -TimeNs(1309077770000000));
        QTRY_COMPARE(pane.peakModel()->peakAt(0)->start, TimeNs(2000000));
        QVERIFY(pane.placementBanner()->isHidden());
        QVERIFY2(pane.alignmentLabel()->text().startsWith(qs("Recording starts at 0.000000 s of the capture")),
            qPrintable(pane.alignmentLabel()->text()));
        QCOMPARE(kernelNames(*pane.kernelModel()), qsl({ "persistentKernel" }));
        QCOMPARE(pane.clockOffsetBox()->value(), -1309077770.0);
        // The view follows the data back to the capture; absolute ticks again.
        ticks = timeTickLabels(*pane.plot());
        QVERIFY(ticks.size() >= 3);
        for (const QString& t : std::as_const(ticks))
            QVERIFY2(!t.startsWith(QLatin1Char('+')) && t.toDouble() >= 0 && t.toDouble() <= 0.006, qPrintable(t));
        QCOMPARE(pane.plot()->ncclRect()->axis(QCPAxis::atBottom)->label(), qs("Session time (s)"));
    }

    void legendAndLabelsLeaveThePeaksVisible()
    {
        QTemporaryDir dir;
        const QString bin = writeFile(dir, qs("nvlink_trace_gpu0.bin"), crowdedRecording());
        Workbench wb;
        NvlinkPane pane(&wb);
        pane.resize(1000, 700);
        pane.show();
        ProfileSession* session = makeSession(scenarioProfile());
        wb.addSession(session);
        attachNvlinkRecordings(session, { { bin, 0 } }, nullptr, [](const QStringList&, const QStringList&) {});
        QTRY_COMPARE(pane.peakModel()->rowCount(), 10);

        // One interval, both directions: one peak "TX+RX" with the higher value; ten distinct intervals.
        const NvlinkPeakModel& peaks = *pane.peakModel();
        QCOMPARE(peaks.peakAt(0)->link, 0);
        QCOMPARE(peaks.peakAt(0)->start, TimeNs(49000000));
        QCOMPARE(peaks.peakAt(0)->gbps, 5000.0 * 1024 / 1e6);
        QCOMPARE(peaks.index(0, NvlinkPeakModel::DirectionColumn).data().toString(), qs("TX+RX"));
        QSet<QPair<int, qint64>> intervals;
        for (int r = 0; r < 10; ++r)
            intervals.insert({ peaks.peakAt(r)->link, qint64(peaks.peakAt(r)->start) });
        QCOMPARE(intervals.size(), 10);
        QCOMPARE(peaks.peakAt(9)->gbps, 950.0 * 1024 / 1e6); // the tenth: link 2 RX 950 KiB in interval 10
        QVERIFY(pane.kernelLabel()->text().contains(qs("link 0 TX+RX")));

        NvlinkPlot& plot = *pane.plot();
        plot.refresh();
        plot.replot();
        const QRect area = plot.throughputRect()->rect();
        // The legend sits above the plot, whole: it covers no data.
        QVERIFY(plot.legend->visible());
        const QRect legend = plot.legend->outerRect();
        QVERIFY2(!legend.intersects(area), qPrintable(QStringLiteral("%1 %2").arg(legend.bottom()).arg(area.top())));
        QVERIFY(plot.rect().contains(legend));
        for (int i = 0; i < plot.legend->itemCount(); ++i)
            QVERIFY(plot.rect().contains(plot.legend->item(i)->outerRect()));
        // Labels: #1 shown, none outside the plot, none on another label or on another peak's mark.
        const auto& labels = plot.peakLabels();
        QCOMPARE(int(labels.size()), 10);
        std::vector<QRectF> marks;
        QCPAxis* x = plot.throughputRect()->axis(QCPAxis::atBottom);
        QCPAxis* y = plot.throughputRect()->axis(QCPAxis::atLeft);
        for (int i = 0; i < plot.peakGraph()->dataCount(); ++i) {
            const auto d = plot.peakGraph()->data()->at(i);
            const QPointF at(x->coordToPixel(d->key), y->coordToPixel(d->value));
            QVERIFY(!QRectF(legend).contains(at));
            marks.emplace_back(at.x() - 4, at.y() - 4, 8, 8);
        }
        int shown = 0;
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (!labels[i]->visible())
                continue;
            ++shown;
            const QRectF box = textBox(labels[i]);
            QVERIFY2(QRectF(area).contains(box), qPrintable(labels[i]->text()));
            for (std::size_t j = 0; j < labels.size(); ++j) {
                if (j != i && labels[j]->visible())
                    QVERIFY2(!box.intersects(textBox(labels[j])), qPrintable(labels[i]->text() + labels[j]->text()));
                if (j != i)
                    QVERIFY2(!box.intersects(marks[j]), qPrintable(labels[i]->text()));
            }
        }
        const auto first = std::find_if(
            labels.begin(), labels.end(), [](const QCPItemText* t) { return t->text() == QLatin1String("#1"); });
        QVERIFY(first != labels.end() && (*first)->visible());
        QVERIFY(shown >= 7); // the three stacked marks leave room for at most one label to go
    }

    void timeTicks_data()
    {
        QTest::addColumn<double>("from"); // seconds since the capture start
        QTest::addColumn<double>("to");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<QString>("axis");
        QTest::newRow("capture, steps of 0.25 s")
            << 0.0 << 1.4 << qsl({ "0.00", "0.25", "0.50", "0.75", "1.00", "1.25" }) << qs("Session time (s)");
        // QCustomPlot's step for 1.4 s is 0.25 s; the origin is the last tick at or before the range's start.
        QTest::newRow("15 days away") << 1309077.2 << 1309078.6
                                      << qsl({ "+0.25", "+0.50", "+0.75", "+1.00", "+1.25", "+1.50" })
                                      << qs("Seconds after 1309077.00 s (session time)");
        QTest::newRow("a millisecond at 60 s")
            << 60.0001 << 60.0011 << qsl({ "+0.0002", "+0.0004", "+0.0006", "+0.0008", "+0.0010" })
            << qs("Seconds after 60.0000 s (session time)");
    }
    void timeTicks()
    {
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(QStringList, labels);
        QFETCH(QString, axis);
        NvlinkPlot plot;
        plot.resize(1000, 400);
        plot.show();
        plot.showRange(TimeNs(std::llround(from * 1e9)), TimeNs(std::llround(to * 1e9)));
        QCOMPARE(timeTickLabels(plot), labels);
        QCOMPARE(plot.ncclRect()->axis(QCPAxis::atBottom)->label(), axis);
    }

    void switchingToAProfileWithoutNvlinkClearsThePlot()
    {
        QTemporaryDir dir;
        const QString bin = writeFile(dir, qs("nvlink_trace_gpu0.bin"), scenarioRecording());
        Workbench wb;
        NvlinkPane pane(&wb);
        pane.resize(1000, 700);
        pane.show();
        ProfileSession* withRecording = makeSession(scenarioProfile());
        wb.addSession(withRecording);
        attachNvlinkRecordings(withRecording, { { bin, 0 } }, nullptr, [](const QStringList&, const QStringList&) {});
        QTRY_VERIFY(pane.peakModel()->rowCount() > 0);
        pane.selectPeak(1);
        NvlinkPlot& plot = *pane.plot();
        QVERIFY(plot.highlightItem()->visible());
        QCOMPARE(plot.throughputRect()->axis(QCPAxis::atBottom)->range().lower, 0.010); // the recording's span

        wb.addSession(makeSession(scenarioProfile(qs("no-nvlink.sqlite")))); // becomes current
        QTRY_COMPARE(pane.peakModel()->rowCount(), 0);
        QVERIFY(!plot.highlightItem()->visible());
        QCOMPARE(plot.plottedPoints(), 0);
        const QCPRange range = plot.throughputRect()->axis(QCPAxis::atBottom)->range();
        QCOMPARE(range.lower, 0.0);
        QCOMPARE(range.upper, 1.0);
        QCOMPARE(plot.throughputRect()->axis(QCPAxis::atLeft)->range().upper, 1.0);
        QCOMPARE(timeTickLabels(plot).first(), qs("0.0"));
        QVERIFY(!plot.legend->visible());
        QVERIFY(pane.messageLabel()->text().startsWith(qs("No NVLink data for this profile.")));
        QVERIFY(pane.alignmentLabel()->text().isEmpty());
        QVERIFY(pane.placementBanner()->isHidden());

        // Back to the first: its peaks again.
        wb.setCurrent(withRecording);
        QTRY_VERIFY(pane.peakModel()->rowCount() > 0);
        QCOMPARE(plot.throughputRect()->axis(QCPAxis::atBottom)->range().lower, 0.010);
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
        attachNvlinkRecordings(session, { { bin, 0 } }, nullptr, [&](const QStringList& e, const QStringList&) {
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
