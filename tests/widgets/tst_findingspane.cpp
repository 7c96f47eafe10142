// SPDX-License-Identifier: GPL-3.0-or-later
// The Findings pane on a hand-worked profile (ms): pid 100, device 0, stream 7.
//   gemm [0.1, 2.1] launched at 0; cudaStreamSynchronize [2.2, 10]; gemm [10.1, 12.1] launched at 10;
//   NCCL AllReduce [12.2, 13.2] on the same stream; a blocking cudaMemcpy [14, 15].
// Window [0, 15] (the capture span: the first launch call to the memcpy's end): kernel time and GPU busy 5 ms, so
// idle 10 of 15 ms = 66.7 % (critical: above the 30 % critical default); gemm 4 of 5 ms = 80.0 % of kernel time
// (dominant: above 30 %); the gap [2.1, 10.1] = 8 ms overlaps the sync.
#include "core/models/diagnosticstablemodel.h"
#include "core/models/modelroles.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "core/session/workbenchload.h"
#include "profilebuilder.h"
#include "widgets/diagnostics/findingspane.h"
#include "widgets/diagnostics/mfudialog.h"
#include "widgets/diagnostics/mfuview.h"
#include "widgets/diagnostics/rangeflopstable.h"
#include "widgets/diagnostics/reportcharts.h"
#include "widgets/diagnostics/rooflinechart.h"
#include "widgets/diagnostics/thresholdsdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextStream>
#include <limits>
#include <qcustomplot.h>

using namespace nsw;

namespace {
constexpr TimeNs ms = 1'000'000, us = 1000;

ProfilePtr handWorked()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    b.kernel(t, 0, 10 * us, 100 * us, 2100 * us, QStringLiteral("gemm"));
    b.apiCall(t, 2200 * us, 10 * ms, QStringLiteral("cudaStreamSynchronize_v3020"));
    b.kernel(t, 10 * ms, 10 * ms + 10 * us, 10100 * us, 12100 * us, QStringLiteral("gemm"));
    b.kernel(t, 12100 * us, 12110 * us, 12200 * us, 13200 * us, QStringLiteral("ncclDevKernel_AllReduce_Sum_f32"));
    b.apiCall(t, 14 * ms, 15 * ms, QStringLiteral("cudaMemcpy_v3020"));
    return b.build();
}

/// Four iterations ProfilerStep#0..3 of 1, 2, 1 and 0.5 ms back to back on an H100, each launching one kernel that
/// runs 100 µs (0.1 to 0.2 ms into the step). With 1e9 FLOPs per iteration against a peak of 2 TFLOP/s: 1, 0.5, 1
/// and 2 TFLOP/s, MFU 50, 25, 50 and 100 %; the median iteration (lower middle of 0.5, 1, 1, 2 ms) is step 0, 50 %;
/// all iterations 4e9 FLOPs in 4.5 ms = 0.889 TFLOP/s, 44.4 %. Per range instance 1e8 FLOPs over the 4 x 100 µs of
/// GPU work: 1 TFLOP/s, 50 % of one GPU.
ProfilePtr fourSteps()
{
    test::ProfileBuilder b;
    b.gpu(0, QStringLiteral("NVIDIA H100 80GB HBM3"));
    const ThreadIndex t = b.thread(b.process(100), 101);
    const TimeNs starts[] = { 0, 1 * ms, 3 * ms, 4 * ms, 4500 * us };
    for (int n = 0; n < 4; ++n) {
        const TimeNs start = starts[n];
        b.nvtxRange(t, start, starts[n + 1], QStringLiteral("ProfilerStep#%1").arg(n));
        b.kernel(t, start, start + 10 * us, start + 100 * us, start + 200 * us, QStringLiteral("gemm"));
    }
    return b.build(QStringLiteral("four-steps.sqlite"));
}

/// The MFU tab's button that opens its dialog (Set FLOPs…, Change FLOPs…).
QPushButton* inputsButtonOf(MfuView* view)
{
    return view->findChild<QPushButton*>(QString(), Qt::FindDirectChildrenOnly);
}

/// The column whose CSV name (as `mfu --format csv`) is @p name.
int columnOf(const QAbstractItemModel& model, const QString& name)
{
    for (int c = 0; c < model.columnCount(); ++c)
        if (model.headerData(c, Qt::Horizontal, CsvTextRole).toString() == name)
            return c;
    return -1;
}

/// The texts a column shows, top to bottom.
QStringList columnTexts(const QTableView& view, const QString& name)
{
    QStringList texts;
    const int column = columnOf(*view.model(), name);
    for (int row = 0; column >= 0 && row < view.model()->rowCount(); ++row)
        texts << view.model()->index(row, column).data().toString();
    return texts;
}

/// Empty when @p view shows the whole of the column named @p name and @p rows whole rows, else what it shows.
QString notShowing(const QTableView& view, const QString& name, int rows)
{
    const int column = columnOf(*view.model(), name);
    const int x = view.columnViewportPosition(column);
    const QSize viewport = view.viewport()->size();
    const int bottom = view.rowViewportPosition(rows - 1) + view.rowHeight(rows - 1);
    if (view.isVisible() && column >= 0 && !view.isColumnHidden(column) && x >= 0
        && x + view.columnWidth(column) <= viewport.width() && bottom <= viewport.height())
        return {};
    return QStringLiteral("%1: column %2 at x %3 width %4, rows to %5, in a viewport of %6x%7")
        .arg(name)
        .arg(column)
        .arg(x)
        .arg(view.columnWidth(column))
        .arg(bottom)
        .arg(viewport.width())
        .arg(viewport.height());
}

int rowOf(const QTableView& view, const QString& id, const FindingsPane& pane)
{
    for (int row = 0; row < view.model()->rowCount(); ++row) {
        const int f = view.model()->index(row, 0).data(IdentityRole).toInt();
        if (pane.result()->findings[std::size_t(f)].id == id)
            return row;
    }
    return -1;
}
} // namespace

class TestFindingsPane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void showsFindingsByGpuCost();
    void detailShowsTheNumbersAndRecommendation();
    void showKernelsFiltersTheKernelPane();
    void focusOnRangeRequestsTheGap();
    void tablesAreTabs_data();
    void tablesAreTabs();
    void thresholdsChangeTheFindings();
    void followsTheFocus();
    void writesTheReportFolder();
    void reportChartLegendLeavesTheBarsBare();
    void refusesAFileAsReportFolder();
    void noProfileSaysSo();
    void mfuTabSaysWhatItNeeds();
    void mfuPerIteration_data();
    void mfuPerIteration();
    void mfuPerRange();
    void mfuFollowsTheCurrentProfile();
    void mfuRoofline_data();
    void mfuRoofline();
    void mfuAbovePeakWarned_data();
    void mfuAbovePeakWarned();

private:
    /// Makes the four-step profile current and shows the MFU tab.
    MfuView* showMfuOfFourSteps();
    /// Runs the dialog's request; false (with the message) when the dialog refuses it.
    bool runDialog(MfuView* view);
    void waitShown();
    std::unique_ptr<Workbench> m_workbench;
    std::unique_ptr<FindingsPane> m_pane;
};

void TestFindingsPane::init()
{
    m_workbench = std::make_unique<Workbench>();
    LoadedProfile loaded;
    loaded.profile = handWorked();
    loaded.load.profile = loaded.profile;
    m_workbench->addSession(new ProfileSession(loaded));
    m_pane = std::make_unique<FindingsPane>(m_workbench.get());
    m_pane->resize(1000, 700);
    QSignalSpy shown(m_pane.get(), &FindingsPane::resultShown);
    m_pane->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_pane.get()));
    if (!m_pane->result())
        QVERIFY(shown.wait(30000));
    QVERIFY(m_pane->result());
}

void TestFindingsPane::cleanup()
{
    m_pane.reset();
    m_workbench.reset();
}

void TestFindingsPane::waitShown()
{
    QSignalSpy shown(m_pane.get(), &FindingsPane::resultShown);
    QVERIFY(shown.wait(30000));
}

void TestFindingsPane::showsFindingsByGpuCost()
{
    QTableView* view = m_pane->findingsView();
    QVERIFY(view->isVisible());
    QVERIFY(view->height() > 60);
    QVERIFY(view->model()->rowCount() >= 2);
    QVERIFY(rowOf(*view, QStringLiteral("gpu_idle"), *m_pane) >= 0);
    QVERIFY(rowOf(*view, QStringLiteral("dominant_kernel"), *m_pane) >= 0);
    // Rows in the result's order: the GPU cost never rises going down, and it is shown with its share of the window.
    qint64 previous = std::numeric_limits<qint64>::max();
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        const qint64 cost = view->model()->index(row, FindingsModel::GpuCostColumn).data(SortRole).toLongLong();
        QVERIFY(cost <= previous);
        previous = cost;
    }
    QCOMPARE(
        view->model()->headerData(FindingsModel::GpuCostColumn, Qt::Horizontal).toString(), QStringLiteral("GPU cost"));
    // Idle 10 of 15 ms, the most costly.
    QCOMPARE(
        view->model()->index(0, FindingsModel::GpuCostColumn).data().toString(), QStringLiteral("10.0 ms (66.7 %)"));
    QCOMPARE(view->model()->index(0, FindingsModel::SeverityColumn).data().toString(), QStringLiteral("critical"));
    // The idle finding is critical: 66 % idle against the 10 % default.
    const int idle = rowOf(*view, QStringLiteral("gpu_idle"), *m_pane);
    QCOMPARE(view->model()->index(idle, FindingsModel::SeverityColumn).data().toString(), QStringLiteral("critical"));
    QVERIFY(m_pane->message()->isVisible());
    QVERIFY2(m_pane->message()->text().contains(QStringLiteral("critical")), qPrintable(m_pane->message()->text()));
    // Counted in words ("3 findings: 2 critical, 1 warning"), not "finding(s)".
    const QString message = m_pane->message()->text();
    QVERIFY2(message.startsWith(QStringLiteral("%1 findings: ").arg(view->model()->rowCount())), qPrintable(message));
    QVERIFY2(!message.contains(QStringLiteral("(s)")), qPrintable(message));
}

void TestFindingsPane::detailShowsTheNumbersAndRecommendation()
{
    QVERIFY(m_pane->selectFinding(QStringLiteral("dominant_kernel")));
    const QString text = m_pane->detail()->toPlainText();
    QVERIFY(m_pane->detail()->isVisible());
    QVERIFY2(text.contains(QStringLiteral("gemm")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Recommendation")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("80.0 %")), qPrintable(text)); // 4 of 5 ms of kernel time
    QVERIFY(m_pane->showKernelsButton()->isEnabled());
    // The checks not run are the profile's: a link under the finding (the whole list was repeated under each one),
    // the list itself a click away.
    QVERIFY(!m_pane->result()->skipped.empty()); // no NVTX in the profile
    QVERIFY2(!text.contains(QStringLiteral("Not checked")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("not run for missing data")), qPrintable(text));
    Q_EMIT m_pane->detail()->anchorClicked(QUrl(QStringLiteral("not-checked")));
    const QString list = m_pane->detail()->toPlainText();
    QVERIFY2(list.contains(QStringLiteral("Not checked")) && list.contains(m_pane->result()->skipped.front().check),
        qPrintable(list));
}

void TestFindingsPane::showKernelsFiltersTheKernelPane()
{
    QVERIFY(m_pane->selectFinding(QStringLiteral("dominant_kernel")));
    QSignalSpy selected(m_workbench.get(), &Workbench::kernelSelectionChanged);
    QTest::mouseClick(m_pane->showKernelsButton(), Qt::LeftButton);
    QCOMPARE(selected.count(), 1);
    const auto selection = selected.front().front().value<KernelSelection>();
    QVERIFY(selection.filter.rows);
    // Kernel rows in the builder's order: gemm, gemm, nccl.
    QCOMPARE(*selection.filter.rows, (std::vector<char> { 1, 1, 0 }));
}

void TestFindingsPane::focusOnRangeRequestsTheGap()
{
    QVERIFY(m_pane->selectFinding(QStringLiteral("long_gaps")));
    QVERIFY(m_pane->focusRangeButton()->isEnabled());
    QSignalSpy focus(m_pane.get(), &FindingsPane::focusRequested);
    QTest::mouseClick(m_pane->focusRangeButton(), Qt::LeftButton);
    QCOMPARE(focus.count(), 1);
    const auto range = focus.front().front().value<FocusRange>();
    QCOMPARE(range.start, 2100 * us); // the gap between the first gemm and the second
    QCOMPARE(range.end, 10100 * us);
}

void TestFindingsPane::tablesAreTabs_data()
{
    QTest::addColumn<QString>("id");
    QTest::newRow("idle gaps") << QStringLiteral("gpu_idle_gaps");
    QTest::newRow("kernels") << QStringLiteral("kernels");
    QTest::newRow("sync by pid") << QStringLiteral("sync_by_pid");
    QTest::newRow("nccl by collective") << QStringLiteral("nccl_by_collective");
    QTest::newRow("stream concurrency") << QStringLiteral("stream_concurrency");
    QTest::newRow("longest kernels") << QStringLiteral("longest_kernels");
    QTest::newRow("launch percentiles") << QStringLiteral("launch_percentiles");
    QTest::newRow("tensor cores") << QStringLiteral("tensor_cores");
    QTest::newRow("what if") << QStringLiteral("what_if");
}

void TestFindingsPane::tablesAreTabs()
{
    QFETCH(QString, id);
    QTabWidget* tabs = m_pane->tabs();
    int tab = -1;
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->widget(i)->objectName() == id)
            tab = i;
    QVERIFY2(tab > 0, qPrintable(id));
    tabs->setCurrentIndex(tab);
    auto* view = qobject_cast<QTableView*>(tabs->widget(tab));
    QVERIFY(view && view->isVisible());
    QCOMPARE(m_pane->exportableView(), view);
    QVERIFY(m_pane->exportBaseName().startsWith(id));
    if (id == QLatin1String("gpu_idle_gaps")) {
        // One gap of 8 ms (2.1 → 10.1 ms) on device 0 between kernels; the shorter ones are below the report's floor.
        bool found = false;
        for (int row = 0; row < view->model()->rowCount(); ++row)
            for (int c = 0; c < view->model()->columnCount(); ++c)
                found |= view->model()->index(row, c).data(RawValueRole) == QVariant(qint64(8 * ms));
        QVERIFY(found);
        // Headers in words over formatted values ("start_ns" stood over "2.1 ms"), the CSV's names kept; a start
        // reads on the session clock to the nanosecond.
        QStringList headers, csvNames;
        for (int c = 0; c < view->model()->columnCount(); ++c) {
            headers << view->model()->headerData(c, Qt::Horizontal).toString();
            csvNames << view->model()->headerData(c, Qt::Horizontal, CsvTextRole).toString();
        }
        QVERIFY2(headers.contains(QStringLiteral("Start")) && headers.contains(QStringLiteral("Duration")),
            qPrintable(headers.join(u'|')));
        for (const QString& h : headers)
            QVERIFY2(!h.contains(u'_'), qPrintable(h));
        const int start = int(csvNames.indexOf(QStringLiteral("start_ns")));
        QVERIFY(start >= 0);
        QCOMPARE(view->model()->index(0, start).data().toString(), QStringLiteral("0.002100000 s"));
    }
}

void TestFindingsPane::thresholdsChangeTheFindings()
{
    // gemm is 80 % of kernel time: a dominance threshold above that silences the finding, without re-analysing.
    Thresholds t;
    QVERIFY(t.parseAssignment(QStringLiteral("dominant_kernel_pct=90")));
    m_pane->setThresholds(t);
    QCOMPARE(rowOf(*m_pane->findingsView(), QStringLiteral("dominant_kernel"), *m_pane), -1);
    QVERIFY(rowOf(*m_pane->findingsView(), QStringLiteral("gpu_idle"), *m_pane) >= 0);
    ThresholdsDialog dialog(m_pane->thresholds());
    QVERIFY(dialog.spinBox(QStringLiteral("dominant_kernel_pct")));
    QCOMPARE(dialog.spinBox(QStringLiteral("dominant_kernel_pct"))->value(), 90.0);
    QCOMPARE(dialog.thresholds().value(QStringLiteral("dominant_kernel_pct")), 90.0);
    // What a person reads: names in words, whole counts without "count" (it showed "launch_storm_min_kernels" and
    // "1000.000 count"), the identifier in the tooltip for the command line.
    QCOMPARE(dialog.spinBox(QStringLiteral("launch_storm_min_kernels"))->text(), QStringLiteral("1000"));
    QCOMPARE(dialog.spinBox(QStringLiteral("listed_gap_us"))->text(), QStringLiteral("100.00 µs"));
    QStringList labels;
    for (const QLabel* l : dialog.findChildren<QLabel*>())
        labels << l->text();
    QVERIFY2(labels.contains(QStringLiteral("GPU idle critical"))
            && labels.contains(QStringLiteral("Launch storm minimum kernels")),
        qPrintable(labels.join(u'|')));
    for (const QString& l : labels)
        QVERIFY2(!l.contains(u'_') || l.contains(QStringLiteral("<tt>")), qPrintable(l));
    QVERIFY(dialog.spinBox(QStringLiteral("gpu_idle_pct"))
                ->toolTip()
                .contains(QStringLiteral("--threshold gpu_idle_pct=")));
}

void TestFindingsPane::followsTheFocus()
{
    // Focused on the second gemm alone: the window is busy, nothing idle, and the message says it is focused.
    m_workbench->current()->setFocus(FocusRange { 10100 * us, 12100 * us, QStringLiteral("gemm 2") });
    waitShown();
    QVERIFY(m_pane->result()->focus.isActive());
    QCOMPARE(rowOf(*m_pane->findingsView(), QStringLiteral("gpu_idle"), *m_pane), -1);
    QVERIFY2(m_pane->message()->text().contains(QStringLiteral("focus")), qPrintable(m_pane->message()->text()));
}

/// The report's GPU time breakdown: its legend beside the bars, not over them (inside the plot it covered the
/// first bar, full to 100 %).
void TestFindingsPane::reportChartLegendLeavesTheBarsBare()
{
    const std::unique_ptr<QCustomPlot> plot = timeBreakdownPlot(*m_pane->result());
    QVERIFY(plot);
    plot->toPixmap(900, 420); // lays it out as the PNG is drawn
    QVERIFY(plot->legend->visible() && plot->legend->itemCount() == 4);
    const QRect legend = plot->legend->outerRect();
    const QRect bars = plot->axisRect()->rect();
    QVERIFY2(!legend.intersects(bars),
        qPrintable(QStringLiteral("legend %1,%2 %3x%4, plot %5,%6 %7x%8")
                       .arg(legend.x())
                       .arg(legend.y())
                       .arg(legend.width())
                       .arg(legend.height())
                       .arg(bars.x())
                       .arg(bars.y())
                       .arg(bars.width())
                       .arg(bars.height())));
    QVERIFY(QRect(0, 0, 900, 420).contains(legend));
}

void TestFindingsPane::writesTheReportFolder()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("report"));
    const Status written = m_pane->writeReport(out);
    QVERIFY2(written, qPrintable(written.errorMessage()));
    for (const QString& name : { QStringLiteral("report.md"), QStringLiteral("report.html"),
             QStringLiteral("tables/kernels.csv"), QStringLiteral("tables/gpu_idle_gaps.csv"),
             QStringLiteral("tables/sync_by_pid.csv"), QStringLiteral("charts/gpu_time_breakdown.png") })
        QVERIFY2(QFileInfo(QDir(out).filePath(name)).size() > 0, qPrintable(name));
    QFile json(QDir(out).filePath(QStringLiteral("report.json")));
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject report = QJsonDocument::fromJson(json.readAll()).object();
    // The same findings as the pane lists, in the same order.
    const QJsonArray findings = report.value(QStringLiteral("findings")).toArray();
    QCOMPARE(findings.size(), m_pane->findingsView()->model()->rowCount());
    QCOMPARE(findings.first().toObject().value(QStringLiteral("id")).toString(), m_pane->result()->findings.front().id);
}

void TestFindingsPane::refusesAFileAsReportFolder()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("not-a-folder"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("keep");
    f.close();
    const Status written = m_pane->writeReport(file);
    QVERIFY(!written);
    QVERIFY2(written.errorMessage().contains(QStringLiteral("not-a-folder")), qPrintable(written.errorMessage()));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("keep"));
}

void TestFindingsPane::noProfileSaysSo()
{
    m_workbench->removeSession(m_workbench->current());
    QCoreApplication::processEvents();
    QVERIFY(!m_pane->result());
    QVERIFY2(
        m_pane->message()->text().contains(QStringLiteral("Open a profile")), qPrintable(m_pane->message()->text()));
    QCOMPARE(m_pane->findingsView()->model()->rowCount(), 0);
}

MfuView* TestFindingsPane::showMfuOfFourSteps()
{
    LoadedProfile loaded;
    loaded.profile = fourSteps();
    loaded.load.profile = loaded.profile;
    auto* session = new ProfileSession(loaded);
    m_workbench->addSession(session);
    m_workbench->setCurrent(session);
    MfuView* view = m_pane->mfuView();
    m_pane->tabs()->setCurrentWidget(view);
    return view;
}

bool TestFindingsPane::runDialog(MfuView* view)
{
    QString error;
    view->dialog()->setProfile(m_workbench->current()->profile());
    MfuRequest request = view->dialog()->request(&error);
    if (!error.isEmpty()) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    QSignalSpy shown(view, &MfuView::resultShown);
    view->run(std::move(request));
    return shown.wait(30000);
}

/// Before any input the MFU tab, second, says what it needs and which peak it would use.
void TestFindingsPane::mfuTabSaysWhatItNeeds()
{
    QTabWidget* tabs = m_pane->tabs();
    QCOMPARE(tabs->tabText(1), QStringLiteral("MFU"));
    QVERIFY(tabs->tabBar()->tabRect(1).right() < tabs->width()); // on screen, not behind the tab bar's scroll
    tabs->setCurrentIndex(1);
    MfuView* view = m_pane->mfuView();
    QVERIFY(view->isVisible());
    QVERIFY(view->headline()->isVisible());
    QVERIFY2(view->headline()->text().contains(QStringLiteral("Set FLOPs")), qPrintable(view->headline()->text()));
    QVERIFY(inputsButtonOf(view)->isVisible() && inputsButtonOf(view)->isEnabled());
    QCOMPARE(inputsButtonOf(view)->text(), QStringLiteral("Set FLOPs…"));
    QVERIFY(!view->iterationsView()->isVisible() && !view->rangesView()->isVisible());
    QVERIFY(!view->rooflineChart()->isVisible()); // nothing to draw yet: the explanation has the room
    QVERIFY(view->details()->isVisible() && view->details()->width() > 300);
    const QString details = view->details()->toPlainText();
    QVERIFY2(details.contains(QStringLiteral("transformer calculator")), qPrintable(details));
    // The hand-worked profile names no GPU: the peak it would use is none, and it says how to give one.
    QVERIFY2(details.contains(QStringLiteral("does not name its GPU")), qPrintable(details));
}

void TestFindingsPane::mfuPerIteration_data()
{
    QTest::addColumn<QString>("inputs");
    QTest::addColumn<QStringList>("tflops");
    QTest::addColumn<QStringList>("mfu");
    QTest::addColumn<QString>("summary");
    QTest::addColumn<QString>("peakSource");
    const QStringList tflops { QStringLiteral("1.000"), QStringLiteral("0.500"), QStringLiteral("1.000"),
        QStringLiteral("2.000") };
    const QStringList mfu { QStringLiteral("50.0 %"), QStringLiteral("25.0 %"), QStringLiteral("50.0 %"),
        QStringLiteral("100.0 %") };
    const QString summary = QStringLiteral("median iteration MFU 50.0 % (all iterations 44.4 %)");
    QTest::newRow("given FLOPs, given peak 2")
        << QStringLiteral("flops=1e9 peak=2") << tflops << mfu << summary << QStringLiteral("given");
    // 2 x 5e6 parameters x 100 tokens, a forward pass: 1e9 FLOPs.
    QTest::newRow("transformer calculator, inference")
        << QStringLiteral("params=5e6 tokens=100 peak=2") << tflops << mfu << summary << QStringLiteral("given");
    // H100 SXM bf16 dense: 989.5 TFLOP/s (1,979 with sparsity in NVIDIA's datasheet). 3.958e11 FLOPs in 1 ms is
    // 395.8 TFLOP/s, 40 %; all iterations 4 x 3.958e11 in 4.5 ms = 351.8 TFLOP/s, 35.6 %.
    QTest::newRow("built-in H100 bf16 peak") << QStringLiteral("flops=3.958e11")
                                             << QStringList { QStringLiteral("395.8"), QStringLiteral("197.9"),
                                                    QStringLiteral("395.8"), QStringLiteral("791.6") }
                                             << QStringList { QStringLiteral("40.0 %"), QStringLiteral("20.0 %"),
                                                    QStringLiteral("40.0 %"), QStringLiteral("80.0 %") }
                                             << QStringLiteral("median iteration MFU 40.0 % (all iterations 35.6 %)")
                                             << QStringLiteral("H100 Tensor Core GPU datasheet");
}

void TestFindingsPane::mfuPerIteration()
{
    QFETCH(QString, inputs);
    QFETCH(QStringList, tflops);
    QFETCH(QStringList, mfu);
    QFETCH(QString, summary);
    QFETCH(QString, peakSource);
    MfuView* view = showMfuOfFourSteps();
    MfuDialog* dialog = view->dialog();
    for (const QString& input : inputs.split(u' ')) {
        const QString name = input.section(u'=', 0, 0), value = input.section(u'=', 1);
        if (name == QLatin1String("flops")) {
            dialog->flopsChoice()->setChecked(true);
            dialog->field(QStringLiteral("--flops"))->setText(value);
        } else if (name == QLatin1String("params")) {
            dialog->modelChoice()->setChecked(true);
            dialog->inferenceBox()->setChecked(true);
            dialog->field(QStringLiteral("--params"))->setText(value);
        } else if (name == QLatin1String("tokens")) {
            dialog->field(QStringLiteral("--tokens"))->setText(value);
        } else if (name == QLatin1String("peak")) {
            dialog->field(QStringLiteral("--peak-tflops"))->setText(value);
        }
    }
    QVERIFY(runDialog(view));
    QVERIFY2(view->result(), qPrintable(view->headline()->text()));
    QTableView* table = view->iterationsView();
    for (const QString& column : { QStringLiteral("mfu_pct"), QStringLiteral("tflops") }) {
        const QString missing = notShowing(*table, column, 4);
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }
    QVERIFY(!view->rangesView()->isVisible());
    QCOMPARE(table->model()->headerData(columnOf(*table->model(), QStringLiteral("mfu_pct")), Qt::Horizontal),
        QVariant(QStringLiteral("MFU %")));
    QCOMPARE(table->model()->headerData(columnOf(*table->model(), QStringLiteral("tflops")), Qt::Horizontal),
        QVariant(QStringLiteral("TFLOP/s")));
    QCOMPARE(columnTexts(*table, QStringLiteral("mfu_pct")), mfu);
    QCOMPARE(columnTexts(*table, QStringLiteral("tflops")), tflops);
    QCOMPARE(columnTexts(*table, QStringLiteral("duration_ns")),
        (QStringList { QStringLiteral("1.00 ms"), QStringLiteral("2.00 ms"), QStringLiteral("1.00 ms"),
            QStringLiteral("500 µs") }));
    const QString headline = view->headline()->text();
    QVERIFY(view->headline()->isVisible());
    QVERIFY2(headline.contains(summary), qPrintable(headline));
    QVERIFY2(view->headline()->height() >= view->headline()->heightForWidth(view->headline()->width()),
        qPrintable(headline)); // not cut
    QCOMPARE(inputsButtonOf(view)->text(), QStringLiteral("Change FLOPs…"));
    const QString details = view->details()->toPlainText();
    QVERIFY(view->details()->isVisible());
    QVERIFY2(details.contains(QStringLiteral("Assumptions")) && details.contains(peakSource), qPrintable(details));
    QVERIFY2(details.contains(QStringLiteral("Iterations: ")), qPrintable(details));
    // The tab's table is what File → Export writes, named as the CLI's CSV table.
    QCOMPARE(m_pane->exportableView(), table);
    QVERIFY(m_pane->exportBaseName().startsWith(QStringLiteral("mfu_iterations-four-steps")));
}

void TestFindingsPane::mfuPerRange()
{
    MfuView* view = showMfuOfFourSteps();
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("flops.json"));
    QFile json(file);
    QVERIFY(json.open(QIODevice::WriteOnly));
    json.write(R"({"re:ProfilerStep#\\d+": 1e8})"); // the JSON escape of re:ProfilerStep#\d+
    json.close();
    view->dialog()->field(QStringLiteral("--flops"))->clear();
    QCOMPARE(view->dialog()->rangeTable()->load(file), QString());
    view->dialog()->field(QStringLiteral("--peak-tflops"))->setText(QStringLiteral("2"));
    QVERIFY(runDialog(view));
    QVERIFY2(view->result(), qPrintable(view->headline()->text()));
    QTableView* table = view->rangesView();
    const QString missing = notShowing(*table, QStringLiteral("mfu_pct"), 1);
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    QVERIFY(!view->iterationsView()->isVisible());
    QCOMPARE(columnTexts(*table, QStringLiteral("range")), QStringList { QStringLiteral("re:ProfilerStep#\\d+") });
    QCOMPARE(columnTexts(*table, QStringLiteral("instances")), QStringList { QStringLiteral("4") });
    QCOMPARE(columnTexts(*table, QStringLiteral("gpu_time_ns")), QStringList { QStringLiteral("400 µs") });
    QCOMPARE(columnTexts(*table, QStringLiteral("tflops")), QStringList { QStringLiteral("1.000") });
    QCOMPARE(columnTexts(*table, QStringLiteral("mfu_pct")), QStringList { QStringLiteral("50.0 %") });
    QCOMPARE(m_pane->exportableView(), table);
}

/// The inputs stay when another profile becomes current: it is computed with them, and an error says why.
void TestFindingsPane::mfuFollowsTheCurrentProfile()
{
    MfuView* view = showMfuOfFourSteps();
    view->dialog()->field(QStringLiteral("--flops"))->setText(QStringLiteral("1e9"));
    view->dialog()->field(QStringLiteral("--peak-tflops"))->setText(QStringLiteral("2"));
    QVERIFY(runDialog(view));
    QVERIFY(view->result());
    ProfileSession* handWorked = m_workbench->sessions().front();
    QSignalSpy shown(view, &MfuView::resultShown);
    m_workbench->setCurrent(handWorked);
    QVERIFY(shown.wait(30000));
    // No NVTX marker and too few gaps for a confident guess: no iterations, and the headline says what to give.
    QVERIFY(!view->result());
    QVERIFY(!view->iterationsView()->isVisible());
    const QString headline = view->headline()->text();
    QVERIFY2(headline.contains(QStringLiteral("--marker")), qPrintable(headline));
    QVERIFY(view->headline()->isVisible());
}

void TestFindingsPane::mfuRoofline_data()
{
    // The four steps with 1e9 FLOPs and 1e8 bytes per iteration: 10 FLOPs/byte, past the ridge of the given 2 TFLOP/s
    // over the table's 3.35 TB/s (0.597 FLOPs/byte): the roof is the peak, 2 TFLOP/s; the steps reach 1, 0.5, 1 and 2
    // TFLOP/s, 50, 25, 50 and 100 % of it. Without bytes: no point, and the tab says why.
    QTest::addColumn<QString>("bytes");
    QTest::addColumn<QStringList>("roofPct");
    QTest::addColumn<QString>("note");
    QTest::newRow("bytes given: a point per iteration")
        << QStringLiteral("1e8")
        << QStringList { QStringLiteral("50.0 %"), QStringLiteral("25.0 %"), QStringLiteral("50.0 %"),
               QStringLiteral("100.0 %") }
        << QString();
    QTest::newRow("no bytes: said plainly") << QString() << QStringList { QString(), QString(), QString(), QString() }
                                            << QStringLiteral("needs the bytes an iteration moves");
}

void TestFindingsPane::mfuRoofline()
{
    QFETCH(QString, bytes);
    QFETCH(QStringList, roofPct);
    QFETCH(QString, note);
    MfuView* view = showMfuOfFourSteps();
    view->dialog()->field(QStringLiteral("--flops"))->setText(QStringLiteral("1e9"));
    view->dialog()->field(QStringLiteral("--peak-tflops"))->setText(QStringLiteral("2"));
    view->dialog()->field(QStringLiteral("--bytes"))->setText(bytes);
    QVERIFY(runDialog(view));
    QVERIFY2(view->result(), qPrintable(view->headline()->text()));
    RooflineChart* chart = view->rooflineChart();
    QCOMPARE(m_pane->exportablePlot(), chart);
    QVERIFY(chart->isVisible());
    QVERIFY2(chart->width() >= 240 && chart->height() >= 160,
        qPrintable(QStringLiteral("%1x%2").arg(chart->width()).arg(chart->height())));
    QCOMPARE(chart->titleText(), QStringLiteral("Roofline per GPU · NVIDIA H100 80GB HBM3 · bf16")); // peak given
    QCOMPARE(chart->roofline().ridge, 2 / 3.35);
    QCOMPARE(columnTexts(*view->iterationsView(), QStringLiteral("roof_pct")), roofPct);
    const QString details = view->details()->toPlainText();
    QVERIFY(view->details()->isVisible());
    if (note.isEmpty()) {
        QVERIFY2(!details.contains(QStringLiteral("No point")), qPrintable(details));
        QCOMPARE(int(chart->roofline().points.size()), 4);
        for (int i = 0; i < 4; ++i)
            QVERIFY(chart->axisRect()->rect().contains(chart->pixelOfPoint(i).toPoint()));
        QCOMPARE(chart->messageText(), QString());
        return;
    }
    QVERIFY2(details.startsWith(QStringLiteral("GPU: NVIDIA H100 80GB HBM3\nRoofline\n")), qPrintable(details));
    QVERIFY2(details.contains(note), qPrintable(details));
    QCOMPARE(chart->messageText(), QStringLiteral("No achieved point: no bytes given"));
}

void TestFindingsPane::mfuAbovePeakWarned_data()
{
    // fourSteps() (1, 2, 1 and 0.5 ms) against a peak of 2 TFLOP/s.
    QTest::addColumn<QString>("flops");
    QTest::addColumn<QString>("warning"); ///< the start of the warning; empty: none shown
    QTest::newRow("1e9 FLOPs: 50, 25, 50, 100 %, possible") << QStringLiteral("1e9") << QString();
    // 2e9: 100, 50, 100, 200 %; all 8e9 in 4.5 ms = 1.78 TFLOP/s, 88.9 %.
    QTest::newRow("2e9 FLOPs: step 3 at 200 %")
        << QStringLiteral("2e9")
        << QStringLiteral("MFU above 100 %: 1 of 4 iterations (the highest iteration 3 (ProfilerStep#3) at 200.0 %). ");
    // 5e9: 250, 125, 250, 500 %; all 2e10 in 4.5 ms = 4.44 TFLOP/s, 222.2 %.
    QTest::newRow("5e9 FLOPs: every step, all at 222.2 %")
        << QStringLiteral("5e9")
        << QStringLiteral(
               "MFU above 100 %: 4 of 4 iterations (the highest iteration 3 (ProfilerStep#3) at 500.0 %); all "
               "iterations together at 222.2 %. ");
}

void TestFindingsPane::mfuAbovePeakWarned()
{
    QFETCH(QString, flops);
    QFETCH(QString, warning);
    MfuView* view = showMfuOfFourSteps();
    view->dialog()->flopsChoice()->setChecked(true);
    view->dialog()->field(QStringLiteral("--flops"))->setText(flops);
    view->dialog()->field(QStringLiteral("--peak-tflops"))->setText(QStringLiteral("2"));
    QVERIFY(runDialog(view));
    QVERIFY2(view->result(), qPrintable(view->headline()->text()));
    QLabel* label = view->warning();
    QCOMPARE(label->isVisible(), !warning.isEmpty());
    if (warning.isEmpty())
        return;
    QVERIFY2(label->text().startsWith(warning), qPrintable(label->text()));
    QVERIFY2(label->text().contains(QStringLiteral("so an input is wrong")), qPrintable(label->text()));
    // Whole, between the headline and the tables.
    QVERIFY2(label->height() >= label->heightForWidth(label->width()), qPrintable(label->text()));
    QVERIFY(label->geometry().top() >= view->headline()->geometry().bottom());
    QVERIFY(label->geometry().bottom() <= view->iterationsView()->mapTo(view, QPoint(0, 0)).y());
    // A later possible result hides it.
    view->dialog()->field(QStringLiteral("--flops"))->setText(QStringLiteral("1e9"));
    QVERIFY(runDialog(view));
    QVERIFY(!label->isVisible());
}

QTEST_MAIN(TestFindingsPane)
#include "tst_findingspane.moc"
