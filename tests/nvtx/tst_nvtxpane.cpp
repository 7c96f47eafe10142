// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/nvtxtreemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/workbench.h"
#include "nvtxfixture.h"
#include "profilebuilder.h"
#include "widgets/common/durationhistogramchart.h"
#include "widgets/common/filterbar.h"
#include "widgets/nvtx/nvtxpane.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

/// The node under the proxy's root reached by labels, as the view shows it.
QModelIndex findIndex(const QAbstractItemModel& model, const QStringList& labels)
{
    QModelIndex parent;
    for (const QString& label : labels) {
        QModelIndex next;
        for (int r = 0; r < model.rowCount(parent); ++r)
            if (model.index(r, 0, parent).data().toString() == label)
                next = model.index(r, 0, parent);
        if (!next.isValid())
            return {};
        parent = next;
    }
    return parent;
}

std::vector<int> rowsOf(const std::shared_ptr<const std::vector<char>>& mask)
{
    std::vector<int> rows;
    if (!mask)
        return rows;
    for (std::size_t i = 0; i < mask->size(); ++i)
        if ((*mask)[i])
            rows.push_back(int(i));
    return rows;
}

} // namespace

class TestNvtxPane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void showsTreeAndCoverage();
    void coverageWarningThresholdIsRemembered();
    void selectingRangeShowsItsKernels();
    void kernelSelectedElsewhereHighlightsRanges();
    void groupingAndNormalization();
    void histogramOfTheSelectedRange();
    void filterAndExports();
    void noProfile();
    void nvtxOnlyTreeSortsByCpuTime();
    void namesReadableInANarrowDock();
    void focusOnThisRange_data();
    void focusOnThisRange();

private:
    std::unique_ptr<Workbench> m_workbench;
    ProfileSession* m_session = nullptr;
    QTemporaryDir m_settings;
};

void TestNvtxPane::initTestCase()
{
    QCoreApplication::setOrganizationName(u"nsw-tests"_s);
    QCoreApplication::setApplicationName(u"tst_nvtxpane"_s);
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
    m_workbench = std::make_unique<Workbench>();
    LoadedProfile loaded;
    loaded.profile = test::nvtxFixture();
    loaded.load.profile = loaded.profile;
    m_session = new ProfileSession(loaded);
    m_workbench->addSession(m_session);
}

void TestNvtxPane::showsTreeAndCoverage()
{
    NvtxPane pane(m_workbench.get());
    QSignalSpy shown(&pane, &NvtxPane::treeShown);
    QTRY_VERIFY(pane.model()->tree());
    QCOMPARE(pane.paneId(), u"nvtx"_s);
    QCOMPARE(pane.title(), u"&NVTX"_s);
    QCOMPARE(pane.model()->rowCount(), 2); // processes A and B
    QVERIFY(findIndex(*pane.proxy(), { u"trainer (100)"_s, u"main (101)"_s, u"step_1"_s, u"forward"_s }).isValid());
    // 1660 of 1910 ns of kernel time in ranges.
    QVERIFY2(pane.coverageLabel()->text().contains(u"86.9 %"_s), qPrintable(pane.coverageLabel()->text()));
    QVERIFY(pane.coverageLabel()->text().contains(u"12 of 15 kernels"_s));
    QVERIFY(pane.coverageLabel()->text().contains(u"1 ranges unterminated, 1 ended on another thread"_s));
}

void TestNvtxPane::coverageWarningThresholdIsRemembered()
{
    {
        NvtxPane pane(m_workbench.get());
        QTRY_VERIFY(pane.model()->tree());
        pane.coverageThreshold()->setValue(70);
        QVERIFY(!pane.coverageWarningShown());
        QVERIFY(!pane.coverageLabel()->text().contains(u"⚠"_s));
        pane.coverageThreshold()->setValue(90);
        QVERIFY(pane.coverageWarningShown());
        QVERIFY(pane.coverageLabel()->text().contains(u"⚠"_s));
        QVERIFY(pane.coverageLabel()->text().contains(u"below 90 %"_s));
    }
    NvtxPane again(m_workbench.get());
    QCOMPARE(again.coverageThreshold()->value(), 90);
    again.coverageThreshold()->setValue(70);
}

void TestNvtxPane::selectingRangeShowsItsKernels()
{
    NvtxPane pane(m_workbench.get());
    QSignalSpy shown(&pane, &NvtxPane::treeShown);
    QTRY_VERIFY(pane.model()->tree());
    QSignalSpy selections(m_workbench.get(), &Workbench::kernelSelectionChanged);
    const QModelIndex forward
        = findIndex(*pane.proxy(), { u"trainer (100)"_s, u"main (101)"_s, u"step_1"_s, u"forward"_s });
    QVERIFY(forward.isValid());
    pane.view()->setCurrentIndex(forward);
    QCOMPARE(selections.count(), 1);
    const auto selection = selections.last().at(0).value<KernelSelection>();
    QCOMPARE(selection.session.data(), m_session);
    QCOMPARE(selection.label, u"NVTX: step_1 > forward"_s);
    QCOMPARE(rowsOf(selection.filter.rows), (std::vector<int> { 0, 1, 2, 3 })); // K1..K4
    const QModelIndex gemm = findIndex(
        *pane.proxy(), { u"trainer (100)"_s, u"main (101)"_s, u"step_1"_s, u"forward"_s, u"layer_1"_s, u"gemm"_s });
    pane.view()->setCurrentIndex(gemm);
    QCOMPARE(rowsOf(selections.last().at(0).value<KernelSelection>().filter.rows), (std::vector<int> { 1 }));

    // A new tree (other grouping) drops the range the kernel table was filtered to.
    QSignalSpy shownAgain(&pane, &NvtxPane::treeShown);
    pane.groupingSelector()->setCurrentIndex(pane.groupingSelector()->findData(int(NvtxGrouping::ByProcess)));
    QVERIFY(shownAgain.wait(5000));
    const auto cleared = selections.last().at(0).value<KernelSelection>();
    QCOMPARE(cleared.session.data(), m_session);
    QVERIFY(!cleared.filter.rows);
    pane.groupingSelector()->setCurrentIndex(0);
    QVERIFY(shownAgain.wait(5000));
}

void TestNvtxPane::kernelSelectedElsewhereHighlightsRanges()
{
    NvtxPane pane(m_workbench.get());
    QSignalSpy shown(&pane, &NvtxPane::treeShown);
    QTRY_VERIFY(pane.model()->tree());
    QSignalSpy selections(m_workbench.get(), &Workbench::kernelSelectionChanged);
    m_workbench->selectKernelInstance(m_session, 4); // K5 nccl_allreduce in step_1 > NCCL:ncclAllReduce
    const QStringList path = { u"trainer (100)"_s, u"main (101)"_s, u"step_1"_s, u"NCCL:ncclAllReduce"_s };
    const QModelIndex nccl = findIndex(*pane.proxy(), path);
    QVERIFY(nccl.data(NvtxTreeModel::HighlightRole).toBool());
    QVERIFY(nccl.parent().data(NvtxTreeModel::HighlightRole).toBool());
    QVERIFY(pane.view()->isExpanded(nccl)); // opened down to the kernel leaf
    QVERIFY(!findIndex(*pane.proxy(), { u"trainer (100)"_s, u"main (101)"_s, u"step_2"_s })
                 .data(NvtxTreeModel::HighlightRole)
                 .toBool());
    QCOMPARE(selections.count(), 0); // highlighting does not select

    m_workbench->selectKernelName(m_session, u"gemm"_s);
    QVERIFY(findIndex(*pane.proxy(), { u"other (200)"_s, u"main (201)"_s, u"step_1"_s, u"gemm"_s })
                .data(NvtxTreeModel::HighlightRole)
                .toBool());
    QVERIFY(!nccl.data(NvtxTreeModel::HighlightRole).toBool());
}

void TestNvtxPane::groupingAndNormalization()
{
    NvtxPane pane(m_workbench.get());
    QSignalSpy shown(&pane, &NvtxPane::treeShown);
    QTRY_VERIFY(pane.model()->tree());
    shown.clear();
    pane.groupingSelector()->setCurrentIndex(pane.groupingSelector()->findData(int(NvtxGrouping::Merged)));
    QVERIFY(shown.wait(5000));
    QCOMPARE(pane.model()->rowCount(), 5); // step_1, step_2, async_io, tail, worker
    shown.clear();
    pane.normalizeBox()->setChecked(true);
    QVERIFY(shown.wait(5000));
    const QModelIndex steps = findIndex(*pane.proxy(), { u"step_#"_s });
    QVERIFY(steps.isValid());
    QCOMPARE(steps.siblingAtColumn(NvtxTreeModel::InstancesColumn).data().toString(), u"3"_s);
    // Choices are remembered for the next pane.
    NvtxPane again(m_workbench.get());
    QCOMPARE(again.groupingSelector()->currentData().toInt(), int(NvtxGrouping::Merged));
    QVERIFY(again.normalizeBox()->isChecked());
    again.normalizeBox()->setChecked(false);
    again.groupingSelector()->setCurrentIndex(0);
}

void TestNvtxPane::histogramOfTheSelectedRange()
{
    NvtxPane pane(m_workbench.get());
    pane.resize(500, 700);
    pane.show();
    QSignalSpy shown(&pane, &NvtxPane::treeShown);
    QTRY_VERIFY(pane.model()->tree());
    // The choices are remembered: the next tests start from the defaults again, whatever happens here.
    const auto restore = qScopeGuard([&pane]() {
        pane.normalizeBox()->setChecked(false);
        pane.groupingSelector()->setCurrentIndex(0);
    });
    shown.clear();
    pane.groupingSelector()->setCurrentIndex(pane.groupingSelector()->findData(int(NvtxGrouping::Merged)));
    QVERIFY(shown.wait(5000));
    shown.clear();
    pane.normalizeBox()->setChecked(true);
    QVERIFY(shown.wait(5000));
    DurationHistogramChart* chart = pane.histogramChart();
    QVERIFY(chart->isVisible());
    QVERIFY(chart->histogram().bins.empty());

    // step_# > forward > layer_#: R3 (100 ns), R4 (140 ns), R8 (110 ns). Bins of 20 per decade: 100 to 112
    // (10^2.05 = 112.2 rounded up), 113 to 125, 126 to 141.
    const QModelIndex layers = findIndex(*pane.proxy(), { u"step_#"_s, u"forward"_s, u"layer_#"_s });
    QVERIFY(layers.isValid());
    pane.view()->setCurrentIndex(layers);
    QStringList bins;
    for (const HistogramBin& b : chart->histogram().bins)
        bins << u"%1-%2:%3"_s.arg(b.lower).arg(b.upper).arg(b.count);
    QCOMPARE(bins, (QStringList { u"100-112:2"_s, u"113-125:0"_s, u"126-141:1"_s }));
    QCOMPARE(chart->histogram().count, layers.siblingAtColumn(NvtxTreeModel::InstancesColumn).data().toLongLong());
    QVERIFY(chart->width() > 100 && chart->height() >= 60);
    QVERIFY(pane.view()->height() > 2 * chart->height()); // the tree stays what the pane is for

    // An unterminated range lasts until the table's last timestamp: tail [7000, 8000].
    const QModelIndex tail = findIndex(*pane.proxy(), { u"tail  (1 unterminated)"_s });
    QVERIFY(tail.isValid());
    pane.view()->setCurrentIndex(tail);
    QCOMPARE(chart->histogram().count, qint64(1));
    QCOMPARE(chart->histogram().min, qint64(1000));
    QCOMPARE(chart->titleText(), u"1 instance"_s);
    // A kernel leaf: gemm under layer_# ran K2 (200 ns), K3 (50 ns) and K7 (200 ns).
    pane.view()->setCurrentIndex(findIndex(*pane.proxy(), { u"step_#"_s, u"forward"_s, u"layer_#"_s, u"gemm"_s }));
    QCOMPARE(chart->histogram().count, qint64(3));
    QCOMPARE(chart->titleText(), u"3 executions"_s);
    QCOMPARE(chart->histogram().min, qint64(50));
    QCOMPARE(chart->histogram().median, 200.0);
    // Its own export (the pane's Export menu): File → Export → PNG stays with the big charts.
    QVERIFY(!pane.exportablePlot());
}

void TestNvtxPane::filterAndExports()
{
    NvtxPane pane(m_workbench.get());
    QSignalSpy shown(&pane, &NvtxPane::treeShown);
    QTRY_VERIFY(pane.model()->tree());
    pane.filterBar()->lineEdit()->setText(u"nccl_all"_s);
    QTRY_COMPARE(pane.proxy()->rowCount(), 1); // only process A keeps a match
    const QModelIndex leaf = findIndex(*pane.proxy(),
        { u"trainer (100)"_s, u"main (101)"_s, u"step_1"_s, u"NCCL:ncclAllReduce"_s, u"nccl_allreduce"_s });
    QVERIFY(leaf.isValid());
    QVERIFY(!findIndex(*pane.proxy(), { u"trainer (100)"_s, u"main (101)"_s, u"step_2"_s }).isValid());

    QAbstractItemView* flat = pane.exportableView();
    QVERIFY(flat && flat->model());
    QCOMPARE(flat->model()->rowCount(), 30); // every node but the root, unfiltered
    QTemporaryDir dir;
    const QString md = dir.filePath(u"tree.md"_s);
    QCOMPARE(pane.exportMarkdown(md), QString());
    QFile f(md);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QVERIFY(text.contains(u"Coverage: 86.9 %"_s));
    QVERIFY(text.contains(u"      - **`forward`** ×1"_s)); // process, thread, step_1, forward: depth 4
}

void TestNvtxPane::noProfile()
{
    Workbench empty;
    NvtxPane pane(&empty);
    QCOMPARE(pane.model()->rowCount(), 0);
    QVERIFY(!pane.coverageWarningShown());
}

/// No kernel anywhere: the GPU column is 0 on every row, so the tree is sorted by CPU time (longest first), and by
/// GPU time again when a profile with kernels in its ranges is shown.
void TestNvtxPane::nvtxOnlyTreeSortsByCpuTime()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(300, u"cpu_only"_s), 301);
    b.nvtxRange(t, 0, 100, u"short"_s);
    b.nvtxRange(t, 200, 900, u"long"_s);
    b.nvtxRange(t, 1000, 1300, u"middle"_s);
    Workbench workbench;
    LoadedProfile loaded;
    loaded.profile = b.build(u"nvtx-only.sqlite"_s);
    loaded.load.profile = loaded.profile;
    auto* cpuOnly = new ProfileSession(loaded);
    workbench.addSession(cpuOnly);
    NvtxPane pane(&workbench);
    pane.resize(900, 600);
    pane.show();
    QTRY_VERIFY(pane.model()->tree() && pane.model()->tree()->profile == loaded.profile);
    QCOMPARE(pane.view()->header()->sortIndicatorSection(), int(NvtxTreeModel::CpuColumn));
    const QModelIndex thread = findIndex(*pane.proxy(), { u"cpu_only (300)"_s, u"301"_s });
    QModelIndex parent = thread;
    if (!parent.isValid()) // thread labels carry a name when the profile has one
        parent = pane.proxy()->index(0, 0, pane.proxy()->index(0, 0));
    QStringList order;
    for (int r = 0; r < pane.proxy()->rowCount(parent); ++r)
        order.append(pane.proxy()->index(r, 0, parent).data().toString());
    QCOMPARE(order, (QStringList { u"long"_s, u"middle"_s, u"short"_s }));
    // A profile with GPU time in its ranges: back to the GPU column.
    LoadedProfile withKernels;
    withKernels.profile = test::nvtxFixture();
    withKernels.load.profile = withKernels.profile;
    auto* gpu = new ProfileSession(withKernels);
    workbench.addSession(gpu);
    workbench.setCurrent(gpu);
    QTRY_VERIFY(pane.model()->tree() && pane.model()->tree()->profile == withKernels.profile);
    QCOMPARE(pane.view()->header()->sortIndicatorSection(), int(NvtxTreeModel::GpuColumn));
}

void TestNvtxPane::namesReadableInANarrowDock()
{
    // The first-start NVTX dock at 1366x768 is about 40 characters wide (300 px of the window's font; 250 of the
    // offscreen one): a range two levels in (process, thread) showed "F…4" there, the numbers taking the width.
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(144, u"python3"_s), 145);
    // Numbers as wide as a real capture's: 300 instances, tens of seconds of CPU and GPU time.
    constexpr TimeNs ms = 1'000'000;
    for (TimeNs i = 0; i < 300; ++i) {
        b.nvtxRange(t, i * 200 * ms, i * 200 * ms + 190 * ms, u"FlashAttnFunctionForward, op_id = 995104"_s);
        b.kernel(
            t, i * 200 * ms + 1, i * 200 * ms + 2, i * 200 * ms + ms, i * 200 * ms + 180 * ms, u"flash_fwd_kernel"_s);
    }
    Workbench workbench;
    LoadedProfile loaded;
    loaded.profile = b.build(u"narrow.sqlite"_s);
    loaded.load.profile = loaded.profile;
    workbench.addSession(new ProfileSession(loaded));
    NvtxPane pane(&workbench);
    pane.setFixedSize(250, 600); // a dock gives a pane less than its toolbar asks
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QTRY_VERIFY(pane.model()->tree() && pane.model()->tree()->profile == loaded.profile);
    QTreeView* view = pane.view();
    view->expandAll();
    const QModelIndex process = pane.proxy()->index(0, 0);
    const QModelIndex range = pane.proxy()->index(0, 0, pane.proxy()->index(0, 0, process));
    QVERIFY(range.isValid());
    QVERIFY2(range.data().toString().startsWith(u"FlashAttn"_s), qPrintable(range.data().toString()));
    const int charWidth = view->fontMetrics().averageCharWidth();
    const QRect text = view->visualRect(range);
    QVERIFY2(text.left() < view->viewport()->width() && text.right() <= view->viewport()->width()
            && text.width() >= 16 * charWidth,
        qPrintable(u"the range's name gets %1 px of %2 (16 characters: %3 px)"_s.arg(text.width())
                       .arg(view->viewport()->width())
                       .arg(16 * charWidth)));
    // Its GPU time is next to it, inside the viewport.
    QHeaderView* header = view->header();
    QCOMPARE(header->visualIndex(NvtxTreeModel::GpuColumn), 1);
    QVERIFY(header->sectionViewportPosition(NvtxTreeModel::GpuColumn) + header->sectionSize(NvtxTreeModel::GpuColumn)
        <= view->viewport()->width());
}

void TestNvtxPane::focusOnThisRange_data()
{
    QTest::addColumn<int>("grouping");
    QTest::addColumn<bool>("normalize");
    QTest::addColumn<QStringList>("path");
    QTest::addColumn<TimeNs>("start");
    QTest::addColumn<TimeNs>("end");
    QTest::addColumn<QString>("label"); // empty: the action is disabled
    const int byThread = int(NvtxGrouping::ByThread), merged = int(NvtxGrouping::Merged);
    const QStringList t1 = { u"trainer (100)"_s, u"main (101)"_s };
    QTest::newRow("a range with one instance: R2")
        << byThread << false << (t1 + QStringList { u"step_1"_s, u"forward"_s }) << TimeNs(1100) << TimeNs(1500)
        << u"step_1 > forward"_s;
    QTest::newRow("unterminated R10: to the last timestamp")
        << byThread << false << (t1 + QStringList { u"tail  (1 unterminated)"_s }) << TimeNs(7000) << TimeNs(8000)
        << u"tail"_s;
    // step_# aggregates R1 and R13 (both [1000, 2000], R1 first by row) and R6 [3000, 4000].
    QTest::newRow("aggregated path: its first instance")
        << merged << true << QStringList { u"step_#"_s } << TimeNs(1000) << TimeNs(2000)
        << u"step_# (first of 3 instances)"_s;
    // step_# > forward aggregates R2 [1100, 1500] and R7 [3100, 3500].
    QTest::newRow("nested aggregated path")
        << merged << true << QStringList { u"step_#"_s, u"forward"_s } << TimeNs(1100) << TimeNs(1500)
        << u"step_# > forward (first of 2 instances)"_s;
    QTest::newRow("a kernel leaf has no range")
        << byThread << false << (t1 + QStringList { u"step_1"_s, u"forward"_s, u"layer_1"_s, u"gemm"_s }) << TimeNs(0)
        << TimeNs(0) << QString();
    QTest::newRow("a thread is no range") << byThread << false << t1 << TimeNs(0) << TimeNs(0) << QString();
}

void TestNvtxPane::focusOnThisRange()
{
    QFETCH(int, grouping);
    QFETCH(bool, normalize);
    QFETCH(QStringList, path);
    QFETCH(TimeNs, start);
    QFETCH(TimeNs, end);
    QFETCH(QString, label);
    NvtxPane pane(m_workbench.get());
    QTRY_VERIFY(pane.model()->tree());
    pane.groupingSelector()->setCurrentIndex(pane.groupingSelector()->findData(grouping));
    pane.normalizeBox()->setChecked(normalize);
    QTRY_VERIFY(pane.model()->tree() && pane.model()->tree()->options.grouping == NvtxGrouping(grouping)
        && pane.model()->tree()->options.normalizeNames == normalize);
    const QModelIndex index = findIndex(*pane.proxy(), path);
    QVERIFY(index.isValid());
    std::unique_ptr<QMenu> menu(pane.contextMenuFor(index));
    QVERIFY(menu);
    QAction* focus = nullptr;
    for (QAction* a : menu->actions())
        if (a->text() == u"&Focus on this range"_s)
            focus = a;
    QVERIFY(focus);
    QCOMPARE(focus->isEnabled(), !label.isEmpty());
    if (!label.isEmpty()) {
        QSignalSpy requested(&pane, &NvtxPane::focusRequested);
        focus->trigger();
        QCOMPARE(requested.count(), 1);
        const auto range = requested.first().at(0).value<FocusRange>();
        QCOMPARE(range.start, start);
        QCOMPARE(range.end, end);
        QCOMPARE(range.label, label);
    }
    pane.normalizeBox()->setChecked(false);
    pane.groupingSelector()->setCurrentIndex(0);
}

QTEST_MAIN(TestNvtxPane)
#include "tst_nvtxpane.moc"
