// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/workbench.h"
#include "core/session/workbenchload.h"
#include "generator.h"
#include "oracleexports.h"
#include "widgets/timeline/timelinepane.h"
#include "widgets/timeline/timelineview.h"

#include <QApplication>
#include <QHelpEvent>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QToolTip>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

/// The first visible row of a kind, or -1.
int firstRowOf(const TimelineIndex& index, TrackKind kind)
{
    for (std::size_t i = 0; i < index.rows().size(); ++i)
        if (index.rows()[i].kind == kind)
            return int(i);
    return -1;
}

/// The first kernel on a stream row's first lane: its row and lane position.
std::pair<int, std::uint32_t> firstKernel(const TimelineIndex& index)
{
    for (std::size_t r = 0; r < index.rows().size(); ++r) {
        const TimelineRow& row = index.rows()[r];
        if (row.kind != TrackKind::Stream)
            continue;
        for (std::uint32_t k = 0; k < index.lanes()[row.firstLane].count; ++k)
            if (index.eventAt(row.firstLane, k).table == EventTable::Kernel)
                return { int(r), k };
    }
    return { -1, 0 };
}

/// The widget point at the middle of lane position @p pos of @p row's first lane.
QPoint pointOf(const TimelineView& view, int row, std::uint32_t pos)
{
    const TimelineIndex& index = *view.index();
    const std::uint32_t lane = index.rows()[std::size_t(row)].firstLane;
    const double mid = (double(index.startAt(lane, pos)) + double(index.endAt(lane, pos))) / 2;
    const TimelineLayout::Item* item = view.layout().itemOfRow(row);
    const int y = TimelineView::kRulerHeight + item->y - view.verticalOffset() + TimelineLayout::kTrackPadding
        + TimelineLayout::kLaneHeight / 2;
    return { TimelineView::kLabelWidth + int(view.viewport().xOf(mid)), y };
}

} // namespace

class TestTimelinePane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsEveryGpuAndThread_data();
    void showsEveryGpuAndThread();
    void zoomsAtTheCursorAndFitsAll();
    void clickSelectsKernelInOtherPanes();
    void tooltipNamesTheEvent();
    void kernelSelectedElsewhereIsRevealed();
    void keysZoomAndPan();
    void collapsingAGroupHidesItsRows();
    void draggingOnTheRulerFocusesTheProfile_data();
    void draggingOnTheRulerFocusesTheProfile();

private:
    struct Open
    {
        std::unique_ptr<Workbench> workbench;
        ProfileSession* session = nullptr;
        std::unique_ptr<TimelinePane> pane;
    };
    Open open(const QString& path);
    QString generated(const QString& version, tracegen::Workload workload, bool graphs);
    QTemporaryDir m_dir;
};

void TestTimelinePane::draggingOnTheRulerFocusesTheProfile_data()
{
    QTest::addColumn<bool>("onRuler");
    QTest::addColumn<bool>("shift");
    QTest::addColumn<bool>("selects");
    QTest::newRow("drag on the ruler selects") << true << false << true;
    QTest::newRow("shift+drag in the rows selects") << false << true << true;
    QTest::newRow("plain drag in the rows pans") << false << false << false;
}

void TestTimelinePane::draggingOnTheRulerFocusesTheProfile()
{
    QFETCH(bool, onRuler);
    QFETCH(bool, shift);
    QFETCH(bool, selects);
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    QVERIFY(!o.pane->focusButton()->isEnabled());
    const int y = onRuler ? TimelineView::kRulerHeight / 2 : TimelineView::kRulerHeight + 40;
    const QPoint from(TimelineView::kLabelWidth + 200, y), to(TimelineView::kLabelWidth + 500, y);
    // The times under the two points, from the viewport's own mapping before anything moves.
    const double t0 = view->viewport().timeAt(200), t1 = view->viewport().timeAt(500);
    QSignalSpy selected(view, &TimelineView::rangeSelected);
    const Qt::KeyboardModifiers mods = shift ? Qt::ShiftModifier : Qt::NoModifier;
    QTest::mousePress(view, Qt::LeftButton, mods, from);
    for (int x = from.x() + 10; x <= to.x(); x += 10) {
        QMouseEvent move(
            QEvent::MouseMove, QPointF(x, y), view->mapToGlobal(QPointF(x, y)), Qt::NoButton, Qt::LeftButton, mods);
        QApplication::sendEvent(view, &move);
    }
    QTest::mouseRelease(view, Qt::LeftButton, mods, to);
    QCOMPARE(selected.size(), selects ? 1 : 0);
    QCOMPARE(o.pane->focusButton()->isEnabled(), selects);
    if (!selects) {
        QVERIFY(view->viewport().timeAt(200) < t0); // panned right: earlier times under the same pixel
        return;
    }
    const auto [start, end] = view->selectedRange();
    QVERIFY(std::abs(double(start) - t0) <= view->viewport().nsPerPixel());
    QVERIFY(std::abs(double(end) - t1) <= view->viewport().nsPerPixel());
    QVERIFY(o.pane->focusButton()->isVisible());
    QTest::mouseClick(o.pane->focusButton(), Qt::LeftButton);
    QCOMPARE(o.session->focus().start, start);
    QCOMPARE(o.session->focus().end, end);
    QVERIFY(o.session->focus().label.contains(QStringLiteral("from the capture start")));
    o.session->clearFocus();
    QCOMPARE(view->selectedRange().first, kNoTime);
    view->grab();
}

QString TestTimelinePane::generated(const QString& version, tracegen::Workload workload, bool graphs)
{
    tracegen::GeneratorConfig c;
    c.outPath = m_dir.filePath(u"generated-%1-%2.sqlite"_s.arg(version).arg(graphs));
    c.schemaVersion = version;
    c.workload = workload;
    c.kernels = 2000;
    c.layers = 2;
    c.cudaGraphs = graphs;
    tracegen::generateExport(c);
    return c.outPath;
}

TestTimelinePane::Open TestTimelinePane::open(const QString& path)
{
    Open o;
    o.workbench = std::make_unique<Workbench>();
    const LoadedProfile loaded = loadForWorkbench(path);
    if (!loaded.profile)
        qFatal("cannot load %s: %s", qPrintable(path), qPrintable(loaded.result.error));
    o.session = new ProfileSession(loaded);
    o.workbench->addSession(o.session);
    o.pane = std::make_unique<TimelinePane>(o.workbench.get());
    o.pane->resize(1400, 700);
    o.pane->show();
    QSignalSpy shown(o.pane.get(), &TimelinePane::indexShown);
    if (!o.pane->view()->index() && !shown.wait(30000))
        qFatal("timeline of %s not built", qPrintable(path));
    return o;
}

void TestTimelinePane::showsEveryGpuAndThread_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("demo") << test::demoExport();
    QTest::newRow("generated 2026.2 inference, CUDA graphs")
        << generated(u"2026.2"_s, tracegen::Workload::LlmInference, true);
    QTest::newRow("generated 2021 training") << generated(u"2021"_s, tracegen::Workload::Training, false);
}

void TestTimelinePane::showsEveryGpuAndThread()
{
    QFETCH(QString, path);
    Open o = open(path);
    const TimelineIndex& index = *o.pane->view()->index();
    const Profile& profile = index.profile();
    // Every loaded event is on a row: the rows' counts add up to the tables'.
    std::uint64_t onRows = 0;
    for (const TimelineRow& r : index.rows())
        if (r.parent < 0)
            onRows += r.events;
    const std::size_t loaded = profile.kernels.size() + profile.memops.size() + profile.graphLaunches.size()
        + profile.cudaApi.size() + profile.nvtx.size() + profile.osrt.size();
    QCOMPARE(onRows, std::uint64_t(loaded));
    QCOMPARE(index.eventCount(), loaded);
    QVERIFY(firstRowOf(index, TrackKind::Stream) >= 0);
    QVERIFY(firstRowOf(index, TrackKind::GpuBusy) >= 0);
    QVERIFY(firstRowOf(index, TrackKind::CudaApi) >= 0);
    for (const TimelineRow& r : index.rows())
        QVERIFY2(r.events > 0, qPrintable(r.label));
    QVERIFY(!o.pane->view()->grab().isNull());
}

void TestTimelinePane::zoomsAtTheCursorAndFitsAll()
{
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    const TimelineIndex& index = *view->index();
    QCOMPARE(view->viewport().start(), double(index.start()));
    QCOMPARE(view->viewport().end(), double(index.end()));
    const QPoint at(TimelineView::kLabelWidth + 300, TimelineView::kRulerHeight + 40);
    const double before = view->viewport().timeAt(300);
    for (int i = 0; i < 20; ++i) {
        QWheelEvent wheel(
            at, view->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view, &wheel);
    }
    QVERIFY(view->viewport().end() - view->viewport().start() < (index.end() - index.start()) / 50.0);
    QVERIFY(std::abs(view->viewport().timeAt(300) - before) < view->viewport().nsPerPixel());
    view->grab();
    view->fitAll();
    QCOMPARE(view->viewport().start(), double(index.start()));
}

void TestTimelinePane::clickSelectsKernelInOtherPanes()
{
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    const auto [stream, pos] = firstKernel(*view->index());
    QVERIFY(stream >= 0);
    const std::uint32_t lane = view->index()->rows()[std::size_t(stream)].firstLane;
    const EventRef event = view->index()->eventAt(lane, pos);
    // Zoom onto the kernel so that it is wide enough to click.
    view->showRange(double(view->index()->startAt(lane, pos)) - 1000, double(view->index()->endAt(lane, pos)) + 1000);
    QSignalSpy selected(o.workbench.get(), &Workbench::kernelInstanceSelected);
    QTest::mouseClick(view, Qt::LeftButton, {}, pointOf(*view, stream, pos));
    QCOMPARE(view->selectedEvent(), event);
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.at(0).at(1).toUInt(), event.row);
    view->grab();
}

void TestTimelinePane::tooltipNamesTheEvent()
{
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    const TimelineIndex& index = *view->index();
    const auto [stream, pos] = firstKernel(index);
    QVERIFY(stream >= 0);
    const std::uint32_t lane = index.rows()[std::size_t(stream)].firstLane;
    view->showRange(double(index.startAt(lane, pos)) - 1000, double(index.endAt(lane, pos)) + 1000);
    const QPoint at = pointOf(*view, stream, pos);
    const QString name = eventName(index.profile(), index.eventAt(lane, pos)).left(100);
    const QString text = view->toolTipAt(at);
    QVERIFY2(text.contains(name.toHtmlEscaped()), qPrintable(text));
    QVERIFY2(text.contains(u"stream "_s), qPrintable(text));
    QVERIFY2(text.contains(u"grid "_s) && text.contains(u"block "_s), qPrintable(text));
    QVERIFY2(text.contains(u"duration "_s), qPrintable(text));
    QHelpEvent help(QEvent::ToolTip, at, view->mapToGlobal(at));
    QApplication::sendEvent(view, &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY(QToolTip::text().contains(name.toHtmlEscaped()));
    // Nothing under the label column.
    QVERIFY(view->toolTipAt(QPoint(10, at.y())).isEmpty());
}

void TestTimelinePane::kernelSelectedElsewhereIsRevealed()
{
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    const std::uint32_t row = std::uint32_t(view->index()->profile().kernels.size() / 2);
    o.workbench->selectKernelInstance(o.session, row);
    const EventRef kernel { EventTable::Kernel, row };
    QCOMPARE(view->selectedEvent(), kernel);
    const Profile& p = view->index()->profile();
    QVERIFY(view->viewport().start() <= double(p.kernels.start[row]));
    QVERIFY(view->viewport().end() >= double(p.kernels.end[row]));
    const TimelineView::Hit hit = view->locate(kernel);
    QVERIFY(hit.valid());
    QVERIFY(!view->rowRect(hit.row).isEmpty());
}

void TestTimelinePane::keysZoomAndPan()
{
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    const double width = view->viewport().end() - view->viewport().start();
    QTest::keyClick(view, Qt::Key_W);
    QTest::keyClick(view, Qt::Key_W);
    QVERIFY(view->viewport().end() - view->viewport().start() < width / 2);
    const double start = view->viewport().start();
    QTest::keyClick(view, Qt::Key_D);
    QVERIFY(view->viewport().start() > start);
    QTest::keyClick(view, Qt::Key_A);
    QCOMPARE(view->viewport().start(), start);
    QTest::keyClick(view, Qt::Key_S);
    QTest::keyClick(view, Qt::Key_F);
    QCOMPARE(view->viewport().end() - view->viewport().start(), width);
}

void TestTimelinePane::collapsingAGroupHidesItsRows()
{
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    const int height = view->contentHeight();
    // The first row is a GPU group: a click on its label folds it.
    QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(20, TimelineView::kRulerHeight + 5));
    QVERIFY(view->isCollapsed(0));
    QVERIFY(view->contentHeight() < height);
    QVERIFY(view->rowRect(1).isEmpty());
    QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(20, TimelineView::kRulerHeight + 5));
    QCOMPARE(view->contentHeight(), height);
}

QTEST_MAIN(TestTimelinePane)
#include "tst_timelinepane.moc"
