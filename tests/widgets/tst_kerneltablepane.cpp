// SPDX-License-Identifier: GPL-3.0-or-later
// The Kernels pane's summary line and the linked selection under its filters, by what the pane shows.
#include "core/models/durationbinsmodel.h"
#include "core/models/kernelinstancemodel.h"
#include "core/models/kernelsummarymodel.h"
#include "core/models/modelroles.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/workbench.h"
#include "profilebuilder.h"
#include "testutils.h"
#include "widgets/common/durationhistogramchart.h"
#include "widgets/common/filterbar.h"
#include "widgets/kernels/kerneltablepane.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QtTest>

using namespace nsw;
using namespace nsw::test;

namespace {

QString qs(const char* utf8)
{
    return QString::fromUtf8(utf8);
}

const QString kNccl = QStringLiteral("ncclDevKernel_AllReduce");

/// gemm_a: 1,200 executions of 10 ns on device 0 (12.0 µs); ncclDevKernel_AllReduce: 500 ns and 500 ns on device 0,
/// 1,000 ns on device 1 (2.00 µs); elementwise: 100 ns on device 0. 1,204 executions in all.
struct Fixture
{
    ProfilePtr profile;
    std::vector<std::size_t> gemmRows;
    std::size_t ncclOnDevice0 = 0;
    std::size_t ncclOnDevice1 = 0;

    Fixture()
    {
        ProfileBuilder b;
        const ProcessIndex p = b.process(100, QStringLiteral("python"));
        for (int i = 0; i < 1200; ++i)
            gemmRows.push_back(b.kernelWithoutApi(p, i * 100, i * 100 + 10, QStringLiteral("gemm_a"), 0, 7, 1 + i));
        ncclOnDevice0 = b.kernelWithoutApi(p, 200000, 200500, kNccl, 0, 13, 5000);
        b.kernelWithoutApi(p, 201000, 201500, kNccl, 0, 13, 5001);
        ncclOnDevice1 = b.kernelWithoutApi(p, 202000, 203000, kNccl, 1, 13, 5002);
        b.kernelWithoutApi(p, 300000, 300100, QStringLiteral("elementwise"), 0, 7, 5003);
        profile = b.build(QStringLiteral("kernels.sqlite"));
    }

    ProfileSession* session() const
    {
        LoadedProfile loaded;
        loaded.profile = profile;
        loaded.kernelIndex = std::make_shared<KernelIndex>(profile, KernelNameMode::Demangled);
        loaded.load.profile = profile;
        return new ProfileSession(loaded);
    }
};

/// flash_fwd: 31 executions of 150 µs + 1 µs × i (median 165 µs) and 21 of 7 ms + 10 µs × j (median 7.10 ms), 52 in
/// all; steady: 40 executions of 50 µs.
struct TwoGroupFixture
{
    ProfilePtr profile;

    TwoGroupFixture()
    {
        ProfileBuilder b;
        const ProcessIndex p = b.process(100, QStringLiteral("python"));
        TimeNs at = 0;
        auto k = [&](const char* name, TimeNs duration) {
            b.kernelWithoutApi(p, at, at + duration, QLatin1String(name), 0, 7);
            at += duration + 1000;
        };
        for (int i = 0; i < 31; ++i)
            k("flash_fwd", 150000 + 1000 * i);
        for (int j = 0; j < 21; ++j)
            k("flash_fwd", 7000000 + 10000 * j);
        for (int i = 0; i < 40; ++i)
            k("steady", 50000);
        profile = b.build(QStringLiteral("twogroups.sqlite"));
    }

    ProfileSession* session() const
    {
        LoadedProfile loaded;
        loaded.profile = profile;
        loaded.kernelIndex = std::make_shared<KernelIndex>(profile, KernelNameMode::Demangled);
        loaded.load.profile = profile;
        return new ProfileSession(loaded);
    }
};

QString modesShownFor(const KernelTablePane& pane, const QString& name)
{
    const QAbstractItemModel* m = pane.summaryView()->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, KernelSummaryModel::NameColumn).data(KernelNameRole).toString() == name)
            return m->index(r, KernelSummaryModel::ModesColumn).data().toString();
    return QStringLiteral("(not listed)");
}

QString currentName(const KernelTablePane& pane)
{
    return pane.summaryView()->currentIndex().data(KernelNameRole).toString();
}

} // namespace

class TestKernelTablePane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void equalPercentilesShareALabel()
    {
        // 50 executions of 1 µs and 50 of 2 µs: p90 and p99 are both 2 µs, one label says so; p50 has its own.
        std::vector<qint64> durations(50, 1000);
        durations.insert(durations.end(), 50, 2000);
        DurationHistogramChart chart;
        chart.resize(400, 120);
        chart.setHistogram(durationHistogram(durations), QStringLiteral("two groups"));
        QStringList labels;
        for (int i = 0; i < chart.itemCount(); ++i)
            if (const auto* text = qobject_cast<QCPItemText*>(chart.item(i)))
                labels << text->text();
        QCOMPARE(labels.filter(QStringLiteral("p9")), QStringList { QStringLiteral("p90 · p99 2.00 µs") });
        QCOMPARE(labels.filter(QStringLiteral("p50")).size(), 1);
        QVERIFY(chart.xAxis->tickLabels() && chart.yAxis->tickLabels());
        // Empty: only the message, no axis numbers for it to run into.
        chart.clearHistogram(QStringLiteral("No kernel selected"));
        QVERIFY(!chart.xAxis->tickLabels() && !chart.yAxis->tickLabels());
        QCOMPARE(chart.itemCount(), 1);
    }

    void summaryLineCountsWhatTheFilterShows_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<int>("hiddenDevice");
        QTest::addColumn<QString>("summary");
        QTest::newRow("no filter") << QString() << -1
                                   << qs("1,204 kernel executions, 3 names, 14.1 µs summed kernel time (of 1,204 in "
                                         "the profile)");
        QTest::newRow("name filter gemm")
            << qs("gemm") << -1
            << qs("Shown: 1,200 kernel executions, 1 name, 12.0 µs summed kernel time (the profile has 1,204 "
                  "executions)");
        QTest::newRow("name filter nccl")
            << qs("nccl") << -1
            << qs("Shown: 3 kernel executions, 1 name, 2.00 µs summed kernel time (the profile has 1,204 executions)");
        QTest::newRow("device 1 hidden")
            << QString() << 1
            << qs("Shown: 1,203 kernel executions, 3 names, 13.1 µs summed kernel time (the profile has 1,204 "
                  "executions)");
        QTest::newRow("name filter nccl, device 1 hidden")
            << qs("nccl") << 1
            << qs("Shown: 2 kernel executions, 1 name, 1.00 µs summed kernel time (the profile has 1,204 executions)");
        // One execution reads in the singular (it read "1 kernel executions").
        QTest::newRow("name filter elementwise")
            << qs("elementwise") << -1
            << qs("Shown: 1 kernel execution, 1 name, 100 ns summed kernel time (the profile has 1,204 executions)");
    }
    void summaryLineCountsWhatTheFilterShows()
    {
        QFETCH(QString, filter);
        QFETCH(int, hiddenDevice);
        QFETCH(QString, summary);
        const Fixture f;
        Workbench wb;
        KernelTablePane pane(&wb);
        pane.resize(900, 600);
        pane.show();
        wb.addSession(f.session());
        if (hiddenDevice >= 0)
            pane.setDeviceAllowed(hiddenDevice, false);
        pane.filterBar()->lineEdit()->setText(filter);
        QTRY_COMPARE(pane.summaryLabel()->text(), summary);
        QVERIFY(pane.summaryLabel()->isVisible());
        QCOMPARE(pane.summaryView()->model()->rowCount(), summary.contains(qs(" 1 name")) ? 1 : 3);
    }

    /// In a narrow dock the summary line wraps: at 1366x768 it was cut at the pane's edge ("(of 4,010,000 in th").
    void summaryLineWholeInANarrowPane()
    {
        const Fixture f;
        Workbench wb;
        KernelTablePane pane(&wb);
        pane.resize(pane.minimumSizeHint().width(), 600);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        ProfileSession* session = f.session();
        wb.addSession(session);
        // Focused: the longest form of the line.
        session->setFocus(FocusRange { 0, 1'000'000, qs("iteration 12 of execute_model") });
        QLabel* label = pane.summaryLabel();
        QTRY_VERIFY(label->text().endsWith(qs("in the profile)")) && label->text().startsWith(qs("Focus ")));
        QApplication::processEvents();
        const QRect room = label->contentsRect();
        const QRect needed = label->fontMetrics().boundingRect(room, Qt::TextWordWrap, label->text());
        QVERIFY2(needed.width() <= room.width() && needed.height() <= room.height(),
            qPrintable(qs("text needs %1x%2 px, the label has %3x%4")
                           .arg(needed.width())
                           .arg(needed.height())
                           .arg(room.width())
                           .arg(room.height())));
    }

    void linkedSelectionUnderAFilter_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<bool>("byName"); ///< selectKernelName (compare) rather than one execution (NVLink, timeline)
        QTest::addColumn<QString>("notice"); ///< empty: none shown
        QTest::newRow("no filter") << qs("none") << false << QString();
        QTest::newRow("category selection, execution")
            << qs("category") << false
            << qs("ncclDevKernel_AllReduce, selected in another pane, was hidden by the selection “category gemm”: "
                  "cleared to show it.");
        QTest::newRow("category selection, name")
            << qs("category") << true
            << qs("ncclDevKernel_AllReduce, selected in another pane, was hidden by the selection “category gemm”: "
                  "cleared to show it.");
        QTest::newRow("name filter, execution")
            << qs("name") << false
            << qs("ncclDevKernel_AllReduce, selected in another pane, was hidden by the name filter “gemm”: cleared "
                  "to show it.");
        QTest::newRow("device filter, execution on that device")
            << qs("device") << false
            << qs("ncclDevKernel_AllReduce, selected in another pane, was hidden by the device, process or stream "
                  "filter: cleared to show it.");
        QTest::newRow("category and name filter, execution")
            << qs("category+name") << false
            << qs("ncclDevKernel_AllReduce, selected in another pane, was hidden by the selection “category gemm” "
                  "and the name filter “gemm”: cleared to show it.");
    }
    void linkedSelectionUnderAFilter()
    {
        QFETCH(QString, filter);
        QFETCH(bool, byName);
        QFETCH(QString, notice);
        const Fixture f;
        Workbench wb;
        KernelTablePane pane(&wb);
        pane.resize(900, 600);
        pane.show();
        ProfileSession* session = f.session();
        wb.addSession(session);
        if (filter.contains(qs("name"))) {
            // Applied first: typing is debounced, and the category selection alone also leaves one row.
            pane.filterBar()->lineEdit()->setText(qs("gemm"));
            QTRY_COMPARE(pane.summaryView()->model()->rowCount(), 1);
        }
        if (filter.contains(qs("category"))) {
            auto rows = std::make_shared<std::vector<char>>(f.profile->kernels.size(), 0);
            for (const std::size_t r : f.gemmRows)
                (*rows)[r] = 1;
            KernelSelection selection;
            selection.session = session;
            selection.label = qs("category gemm");
            selection.filter.rows = rows;
            wb.showKernels(selection);
            QCOMPARE(pane.summaryView()->model()->rowCount(), 1);
        }
        if (filter == QLatin1String("device"))
            pane.setDeviceAllowed(1, false); // the name stays listed (device 0), this execution does not

        const quint32 picked = quint32(filter == QLatin1String("device") ? f.ncclOnDevice1 : f.ncclOnDevice0);
        if (byName)
            wb.selectKernelName(session, kNccl);
        else
            wb.selectKernelInstance(session, picked);

        // Never nothing: the kernel is selected, its execution too, and the notice says what was cleared.
        QCOMPARE(currentName(pane), kNccl);
        if (!byName)
            QCOMPARE(pane.instanceView()->currentIndex().data(IdentityRole).toUInt(), picked);
        QCOMPARE(pane.notice()->isVisible(), !notice.isEmpty());
        if (!notice.isEmpty())
            QCOMPARE(pane.notice()->text(), notice);
        QVERIFY(pane.filterBar()->text().isEmpty() || !filter.contains(qs("name")));
        // The table lists all three names again (the summary line says so).
        QTRY_COMPARE(pane.summaryView()->model()->rowCount(), 3);
        QVERIFY2(pane.summaryLabel()->text().startsWith(qs("1,204 kernel executions, 3 names")),
            qPrintable(pane.summaryLabel()->text()));

        // Typing a filter again retires the note.
        if (!notice.isEmpty()) {
            QTest::keyClicks(pane.filterBar()->lineEdit(), qs("e"));
            QVERIFY(pane.notice()->isHidden());
        }
    }

    void histogramOfTheSelectedKernel()
    {
        const TwoGroupFixture f;
        Workbench wb;
        KernelTablePane pane(&wb);
        pane.resize(1366, 700);
        pane.show();
        wb.addSession(f.session());
        QVERIFY(pane.selectKernelByName(QStringLiteral("flash_fwd")));

        // The table flags the two groups with their medians; the steady kernel has nothing to flag.
        QVERIFY(!pane.summaryView()->isColumnHidden(KernelSummaryModel::ModesColumn));
        QCOMPARE(modesShownFor(pane, QStringLiteral("flash_fwd")), qs("2 groups: 165 µs · 7.10 ms"));
        QCOMPARE(modesShownFor(pane, QStringLiteral("steady")), QString());
        // The histogram beside the executions leaves the summary room for eight rows and more.
        QVERIFY(
            pane.summaryView()->viewport()->height() >= 8 * pane.summaryView()->verticalHeader()->defaultSectionSize());

        DurationHistogramChart* chart = pane.histogramChart();
        QVERIFY(chart->isVisible());
        QVERIFY(chart->width() >= 200 && chart->height() >= 150);
        // What is drawn adds up to the kernel's executions.
        double drawn = 0;
        for (auto it = chart->graph(0)->data()->constBegin(); it != chart->graph(0)->data()->constEnd(); ++it)
            drawn += it->value;
        QCOMPARE(drawn, 52.0);
        QCOMPARE(pane.instanceView()->model()->rowCount(), 52);
        // The last bin, 10^6.85 to 10^6.9 ns rounded up, holds 7.08 ms to 7.2 ms: j = 8..20.
        const int last = int(chart->histogram().bins.size()) - 1;
        QCOMPARE(chart->binToolTip(last), qs("7.08 ms – 7.94 ms: 13 executions (25.0 %)"));

        // Dragging from the empty gap at 1 ms to the last bin lists the slow group only.
        const int gap = chart->histogram().binOf(1000000);
        QVERIFY(gap > 0 && chart->histogram().bins[std::size_t(gap)].count == 0);
        const int y = chart->axisRect()->center().y();
        QTest::mousePress(chart, Qt::LeftButton, {}, QPoint(int(chart->pixelOfBin(gap)), y));
        QTest::mouseRelease(chart, Qt::LeftButton, {}, QPoint(int(chart->pixelOfBin(last)), y));
        QCOMPARE(pane.instanceView()->model()->rowCount(), 21);
        for (int r = 0; r < 21; ++r)
            QVERIFY(
                pane.instanceView()->model()->index(r, KernelInstanceModel::DurationColumn).data(SortRole).toLongLong()
                >= 7000000);
        QVERIFY(pane.brushLabel()->isVisible());
        QVERIFY2(pane.brushLabel()->text().startsWith(qs("Durations 1.00 ms – 7.94 ms")),
            qPrintable(pane.brushLabel()->text()));
        QCOMPARE(pane.instancesLabel()->text(), qs("21 of 52 executions of flash_fwd"));

        // One bin by a click: the fast group's middle bin, 158.49 µs to 177.83 µs, holds i = 9..27.
        const int middle = chart->histogram().binOf(160000);
        QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(int(chart->pixelOfBin(middle)), y));
        QCOMPARE(pane.instanceView()->model()->rowCount(), 19);

        // The brush stays on this kernel through a recompute (a device filter), and goes with another kernel.
        pane.setDeviceAllowed(0, true);
        QCOMPARE(pane.instanceView()->model()->rowCount(), 19);
        Q_EMIT pane.brushLabel()->linkActivated(QStringLiteral("clear"));
        QCOMPARE(pane.instanceView()->model()->rowCount(), 52);
        QVERIFY(pane.brushLabel()->isHidden());
        QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(int(chart->pixelOfBin(middle)), y));
        QVERIFY(pane.selectKernelByName(QStringLiteral("steady")));
        QCOMPARE(pane.instanceView()->model()->rowCount(), 40);
        QVERIFY(pane.brushLabel()->isHidden());
        QCOMPARE(pane.binsModel()->rowCount(), 1);
    }
};

QTEST_MAIN(TestKernelTablePane)
#include "tst_kerneltablepane.moc"
