// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/categories/categorytable.h"
#include "core/controllers/categorycontroller.h"
#include "core/models/nvtxtreemodel.h"
#include "core/nvtx/nvtxtree.h"
#include "core/session/workbench.h"
#include "core/session/workbenchload.h"
#include "core/timeline/timelinebuild.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "generator.h"
#include "oracleexports.h"
#include "widgets/nvtx/nvtxpane.h"
#include "widgets/timeline/timelinefindbar.h"
#include "widgets/timeline/timelinepane.h"
#include "widgets/timeline/timelineview.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
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

/// Count, first and last start of the kernels (demangled or short name), CUDA API calls and NVTX ranges and marks
/// whose name contains @p text (any case), straight from the export with SQLite's LIKE.
struct SqlMatches
{
    qint64 count = 0;
    qint64 first = 0;
    qint64 last = 0;
};

SqlMatches sqlMatches(const QString& path, const QString& text)
{
    SqlMatches m;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"oracle"_s);
        db.setDatabaseName(path);
        if (!db.open())
            qFatal("cannot open %s", qPrintable(path));
        QSqlQuery q(db);
        const QString like = u"'%"_s + text + u"%'"_s;
        q.exec(u"SELECT count(*), min(start), max(start) FROM ("
               "SELECT k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName "
               "  JOIN StringIds s ON s.id = k.shortName WHERE d.value LIKE %1 OR s.value LIKE %1 "
               "UNION ALL SELECT r.start FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
               "  WHERE s.value LIKE %1 "
               "UNION ALL SELECT n.start FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
               "  WHERE coalesce(s.value, n.text) LIKE %1 AND n.eventType IN (34, 59, 60, 70, 71))"_s.arg(like));
        q.next();
        m = { q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong() };
    }
    QSqlDatabase::removeDatabase(u"oracle"_s);
    return m;
}

bool isInView(const TimelineView& view, EventRef e)
{
    const Profile& p = view.index()->profile();
    const TimelineView::Hit hit = view.locate(e);
    return hit.valid() && !view.rowRect(hit.row).isEmpty() && view.viewport().start() <= double(eventStart(p, e))
        && double(eventEnd(p, e)) <= view.viewport().end();
}

} // namespace

class TestTimelinePane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void showsEveryGpuAndThread_data();
    void showsEveryGpuAndThread();
    void zoomsAtTheCursorAndFitsAll();
    void rangeTextNeverCutByTheHint();
    void clickSelectsKernelInOtherPanes();
    void tooltipNamesTheEvent();
    void kernelSelectedElsewhereIsRevealed();
    void keysZoomAndPan();
    void collapsingAGroupHidesItsRows();
    void draggingOnTheRulerFocusesTheProfile_data();
    void draggingOnTheRulerFocusesTheProfile();
    void backAndForwardRestoreTheExactView();
    void findCountsAndRevealsEachOccurrence();
    void findRefusesAnInvalidRegex();
    void colorsByCategoryAsTheCategoriesPane();
    void nvtxRangeAndTimeRangeFromOtherPanesAreRevealed();
    void rangePickedInTheNvtxPaneIsRevealed();
    void counterRowsShowTheGpuMetrics_data();
    void counterRowsShowTheGpuMetrics();
    void counterRowsOfAnIndexBuiltElsewhere();

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
    // Labelled as the ruler reads (the session clock): "1.234 s – 1.567 s".
    QCOMPARE(o.session->focus().label, formatTimeSpan(start - view->index()->origin(), end - view->index()->origin()));
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
    const Result<LoadedProfile> result = loadForWorkbench(path);
    if (!result)
        qFatal("cannot load %s: %s", qPrintable(path), qPrintable(result.errorMessage()));
    const LoadedProfile& loaded = *result;
    o.session = new ProfileSession(loaded);
    o.workbench->addSession(o.session);
    o.pane = std::make_unique<TimelinePane>(o.workbench.get());
    o.pane->resize(1400, 700);
    o.pane->show();
    // Pane-wide shortcuts (F3, Alt+Left) need an active window.
    o.pane->activateWindow();
    if (!QTest::qWaitForWindowActive(o.pane.get()))
        qFatal("the pane's window did not become active");
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

/// The navigation hint shows only beside a whole range text: decided at a resize alone, a longer range text (after a
/// zoom) was cut by the hint ("72.897704 s – 73.196976 s (29" at 1920x1080).
void TestTimelinePane::rangeTextNeverCutByTheHint()
{
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    QLabel* range = nullptr;
    QLabel* hint = nullptr;
    for (QLabel* l : o.pane->findChildren<QLabel*>()) {
        if (l->text().contains(u" shown)"_s))
            range = l;
        else if (l->text().startsWith(u"wheel: zoom"_s))
            hint = l;
    }
    QVERIFY(range && hint);
    const double start = double(view->index()->start());
    for (int width = 900; width <= 2400; width += 10) {
        range->clear(); // as before the profile's timeline is shown
        o.pane->resize(width, 400);
        QApplication::processEvents();
        view->showRange(start + 1234.5, start + 98765.4);
        QApplication::processEvents();
        QVERIFY2(range->width() >= range->sizeHint().width() || hint->isHidden(),
            qPrintable(u"%1 px: range %2 of %3 px beside the hint"_s.arg(width)
                           .arg(range->width())
                           .arg(range->sizeHint().width())));
        if (!hint->isHidden())
            QVERIFY(!range->geometry().intersects(hint->geometry()));
    }
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

void TestTimelinePane::backAndForwardRestoreTheExactView()
{
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    QAction* back = o.pane->backAction();
    QAction* forward = o.pane->forwardAction();
    QVERIFY(!back->isEnabled() && !forward->isEnabled());
    const TimelineViewport::State fitted = view->viewport().state();

    // A burst of wheel notches is one step back.
    const QPoint at(TimelineView::kLabelWidth + 300, TimelineView::kRulerHeight + 40);
    for (int i = 0; i < 6; ++i) {
        QWheelEvent wheel(
            at, view->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view, &wheel);
    }
    const TimelineViewport::State wheeled = view->viewport().state();
    QVERIFY(wheeled.nsPerPixel < fitted.nsPerPixel / 3);
    QVERIFY(back->isEnabled());

    // A revealed kernel is a step of its own.
    const std::uint32_t row = std::uint32_t(view->index()->profile().kernels.size() / 3);
    QVERIFY(view->revealEvent({ EventTable::Kernel, row }));
    const TimelineViewport::State revealed = view->viewport().state();
    QVERIFY(!(revealed == wheeled));

    // Alt+Left from the view, the Back button, then forward again: each view exactly as it was.
    QTest::keyClick(view, Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(view->viewport().state(), wheeled);
    QVERIFY(forward->isEnabled());
    const QList<QToolButton*> buttons = o.pane->findChildren<QToolButton*>();
    const auto backButton
        = std::find_if(buttons.begin(), buttons.end(), [&](QToolButton* b) { return b->defaultAction() == back; });
    QVERIFY(backButton != buttons.end() && (*backButton)->isVisible());
    QTest::mouseClick(*backButton, Qt::LeftButton);
    QCOMPARE(view->viewport().state(), fitted);
    QVERIFY(!back->isEnabled());
    QCOMPARE(view->viewport().start(), double(view->index()->start()));
    QCOMPARE(view->viewport().end(), double(view->index()->end()));
    forward->trigger();
    QCOMPARE(view->viewport().state(), wheeled);
    QTest::keyClick(view, Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(view->viewport().state(), revealed);
    QVERIFY(!forward->isEnabled());

    // A new step after going back drops what was forward.
    QTest::keyClick(view, Qt::Key_Left, Qt::AltModifier);
    QTest::keyClick(view, Qt::Key_F);
    QVERIFY(!forward->isEnabled());
    QCOMPARE(view->viewport().state(), fitted);
    view->grab();
}

void TestTimelinePane::findCountsAndRevealsEachOccurrence()
{
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    TimelineFindBar* find = o.pane->findBar();
    const Profile& profile = view->index()->profile();
    const SqlMatches expected = sqlMatches(test::demoExport(), u"moe"_s);
    QVERIFY(expected.count > 1000);
    const QString total = withThousandsSeparators(expected.count);
    QVERIFY(find->edit()->isVisible() && find->countLabel()->isVisible());
    // Nothing typed: Enter and the arrows do nothing.
    QVERIFY(!find->nextButton()->isEnabled() && !find->previousButton()->isEnabled());
    QTest::keyClick(find->edit(), Qt::Key_Return);
    QVERIFY(!view->selectedEvent().valid());

    QSignalSpy finished(find, &TimelineFindBar::searchFinished);
    QTest::keyClicks(find->edit(), u"MoE"_s);
    QVERIFY(finished.wait(20000));
    QCOMPARE(find->countLabel()->text(), u"%1 found"_s.arg(total));

    // Enter from the fitted view: the earliest occurrence, revealed, selected, and selected in the Kernels pane.
    QSignalSpy kernelSelected(o.workbench.get(), &Workbench::kernelInstanceSelected);
    QTest::keyClick(find->edit(), Qt::Key_Return);
    EventRef e = view->selectedEvent();
    QVERIFY(e.valid());
    QCOMPARE(eventStart(profile, e), expected.first);
    QVERIFY(eventName(profile, e).contains(u"moe"_s, Qt::CaseInsensitive));
    QVERIFY(isInView(*view, e));
    QCOMPARE(find->countLabel()->text(), u"1 of %1"_s.arg(total));
    QCOMPARE(kernelSelected.size(), e.table == EventTable::Kernel ? 1 : 0);

    // F3 and the ▼ button step forward in time, each occurrence in view.
    TimeNs previousStart = eventStart(profile, e);
    for (int i = 2; i <= 4; ++i) {
        if (i % 2)
            QTest::keyClick(find->edit(), Qt::Key_F3);
        else
            QTest::mouseClick(find->nextButton(), Qt::LeftButton);
        e = view->selectedEvent();
        QVERIFY(eventName(profile, e).contains(u"moe"_s, Qt::CaseInsensitive));
        QVERIFY(eventStart(profile, e) >= previousStart);
        previousStart = eventStart(profile, e);
        QVERIFY(isInView(*view, e));
        QCOMPARE(find->countLabel()->text(), u"%1 of %2"_s.arg(i).arg(total));
    }
    // Shift+Enter goes back; before the first comes the last.
    QTest::keyClick(find->edit(), Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(find->countLabel()->text(), u"3 of %1"_s.arg(total));
    for (int i = 0; i < 3; ++i)
        QTest::keyClick(find->edit(), Qt::Key_F3, Qt::ShiftModifier);
    QCOMPARE(find->countLabel()->text(), u"%1 of %1"_s.arg(total));
    QCOMPARE(eventStart(profile, view->selectedEvent()), expected.last);
    QVERIFY(isInView(*view, view->selectedEvent()));
    // Clicking elsewhere leaves the count without a position.
    view->selectEvent({});
    QCOMPARE(find->countLabel()->text(), u"%1 found"_s.arg(total));
    view->grab();
}

void TestTimelinePane::findRefusesAnInvalidRegex()
{
    Open o = open(test::demoExport());
    TimelineFindBar* find = o.pane->findBar();
    find->regexButton()->click();
    QSignalSpy finished(find, &TimelineFindBar::searchFinished);
    QTest::keyClicks(find->edit(), u"nccl(Dev"_s);
    QVERIFY(finished.wait(20000));
    QCOMPARE(find->countLabel()->text(), u"invalid"_s);
    QVERIFY(!find->nextButton()->isEnabled());
    QVERIFY(find->countLabel()->toolTip().contains(u"invalid regular expression"_s));
    QTest::keyClick(find->edit(), Qt::Key_Return);
    QVERIFY(!o.pane->view()->selectedEvent().valid());
    // Fixed, it finds the all-reduce kernels: 1,444 in the demo (sqlite3: demangled or short name LIKE the prefix).
    find->edit()->clear();
    QTest::keyClicks(find->edit(), u"^ncclDevKernel_AllReduce"_s);
    QVERIFY(finished.wait(20000));
    QCOMPARE(find->countLabel()->text(), u"1,444 found"_s);
    QVERIFY(find->countLabel()->toolTip().isEmpty());
}

void TestTimelinePane::colorsByCategoryAsTheCategoriesPane()
{
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    CategoryController categories(o.workbench.get());
    o.pane->setCategoryController(&categories);
    QVERIFY(!o.pane->colorsByCategory());
    const Profile& profile = view->index()->profile();
    // A kernel wide enough to be drawn alone (about 20 px), not selected.
    std::uint32_t row = 0;
    for (std::uint32_t r = 0; r < profile.kernels.size(); ++r)
        if (profile.kernels.duration(r) > profile.kernels.duration(row))
            row = r;
    const EventRef kernel { EventTable::Kernel, row };
    const double d = double(profile.kernels.duration(row));
    view->showRange(double(profile.kernels.start[row]) - 25 * d, double(profile.kernels.end[row]) + 25 * d);
    const auto pixelAtKernel = [&]() {
        const QRectF r = view->eventRect(kernel);
        return view->grab().toImage().pixel(r.center().toPoint());
    };
    QCOMPARE(pixelAtKernel(), EventColors::colorForName(eventName(profile, kernel)).rgb());

    o.pane->colorByBox()->setCurrentIndex(1);
    QTRY_VERIFY_WITH_TIMEOUT(categories.result(o.session) && !categories.isBusy(), 30000);
    const CategoryController::SessionResult* result = categories.result(o.session);
    const CategoryBreakdown& b = result->breakdown;
    const CategoryTable table = categories.table();
    const auto chartColor = [&](std::uint32_t kernelRow) {
        const QString category = b.categories[b.categoryOfName[result->timeline->nameOfKernel(kernelRow)]];
        return QColor::fromRgba(table.colors[std::size_t(table.categories.indexOf(category))]).rgb();
    };
    QCOMPARE(view->colors().colorOf(profile, kernel).rgb(), chartColor(row));
    QCOMPARE(pixelAtKernel(), chartColor(row));
    // The tooltip names the category.
    const QString category = b.categories[b.categoryOfName[result->timeline->nameOfKernel(row)]];
    const QString tip = view->toolTipAt(view->eventRect(kernel).center().toPoint());
    QVERIFY2(tip.contains(u"category %1"_s.arg(category).toHtmlEscaped()), qPrintable(tip));
    // Every kernel name has its category's colour; memory operations keep their copy kind's.
    for (std::uint32_t r = 0; r < profile.kernels.size(); r += 97)
        QCOMPARE(view->colors().colorOf(profile, { EventTable::Kernel, r }).rgb(), chartColor(r));
    if (profile.memops.size())
        QCOMPARE(view->colors().colorOf(profile, { EventTable::MemOp, 0 }).rgb(),
            EventColors::memOpColor(profile.memops.copyKind[0]).rgb());

    // Back to names.
    o.pane->colorByBox()->setCurrentIndex(0);
    QCOMPARE(pixelAtKernel(), EventColors::colorForName(eventName(profile, kernel)).rgb());
    QVERIFY(!view->toolTipAt(view->eventRect(kernel).center().toPoint()).contains(u"category "_s));
}

void TestTimelinePane::nvtxRangeAndTimeRangeFromOtherPanesAreRevealed()
{
    Open o = open(test::demoExport());
    TimelineView* view = o.pane->view();
    const Profile& p = view->index()->profile();
    // A terminated NVTX range in the middle of the capture, a hundredth of it or less.
    std::uint32_t row = 0;
    const TimeNs capture = view->index()->end() - view->index()->start();
    for (std::uint32_t r = std::uint32_t(p.nvtx.size() / 2); r < p.nvtx.size(); ++r)
        if (NvtxTable::isRange(p.nvtx.eventType[r]) && p.nvtx.end[r] != kNoTime
            && p.nvtx.end[r] - p.nvtx.start[r] < capture / 100 && p.nvtx.end[r] - p.nvtx.start[r] > 10'000) {
            row = r;
            break;
        }
    const EventRef range { EventTable::Nvtx, row };
    o.workbench->selectNvtxEvent(o.session, row);
    QCOMPARE(view->selectedEvent(), range);
    QVERIFY(isInView(*view, range));
    // Wide enough to see inside: 60 % of the width, context on both sides.
    const double shown = view->viewport().end() - view->viewport().start();
    QVERIFY(std::abs(double(p.nvtx.end[row] - p.nvtx.start[row]) / shown - 0.6) < 0.01);
    QVERIFY(o.pane->backAction()->isEnabled());

    // A time range, as an NVLink peak selects it: shown with context and marked as the selected range.
    const TimeNs a = p.kernels.start[p.kernels.size() / 3], b = a + 2'000'000;
    o.workbench->selectTimeRange(o.session, a, b);
    QVERIFY(view->viewport().start() < double(a) && double(b) < view->viewport().end());
    QVERIFY(std::abs(double(b - a) / (view->viewport().end() - view->viewport().start()) - 0.6) < 0.01);
    QCOMPARE(view->selectedRange(), std::make_pair(a, b));
    QVERIFY(o.pane->focusButton()->isEnabled());
    // Another profile's selection is not this pane's business.
    const TimelineViewport::State before = view->viewport().state();
    o.workbench->selectTimeRange(nullptr, a - 1'000'000'000, b);
    QCOMPARE(view->viewport().state(), before);
}

void TestTimelinePane::rangePickedInTheNvtxPaneIsRevealed()
{
    Open o = open(test::demoExport());
    NvtxPane nvtx(o.workbench.get());
    QTRY_VERIFY_WITH_TIMEOUT(nvtx.model()->tree(), 30000);
    const NvtxTree& tree = *nvtx.model()->tree();
    std::int32_t node = -1;
    for (std::size_t n = 0; n < tree.nodes.size() && node < 0; ++n)
        if (tree.nodes[n].kind == NvtxNode::Kind::Range && tree.nodes[n].firstRow >= 0 && tree.nodes[n].instances > 1)
            node = std::int32_t(n);
    QVERIFY(node >= 0);
    nvtx.selectNode(node);
    const EventRef first { EventTable::Nvtx, std::uint32_t(tree.nodes[std::size_t(node)].firstRow) };
    QCOMPARE(o.pane->view()->selectedEvent(), first);
    QVERIFY(isInView(*o.pane->view(), first));
    QCOMPARE(eventName(o.pane->view()->index()->profile(), first),
        tree.names[std::size_t(tree.nodes[std::size_t(node)].name)]);
}

void TestTimelinePane::counterRowsShowTheGpuMetrics_data()
{
    QTest::addColumn<bool>("metrics");
    QTest::newRow("export with GPU metrics") << true;
    QTest::newRow("export without GPU metrics") << false;
}

void TestTimelinePane::counterRowsShowTheGpuMetrics()
{
    QFETCH(bool, metrics);
    tracegen::GeneratorConfig c;
    c.outPath = m_dir.filePath(u"counters-%1.sqlite"_s.arg(metrics));
    c.kernels = 2000;
    c.layers = 2;
    c.gpuMetrics = metrics;
    tracegen::generateExport(c);
    Open o = open(c.outPath);
    TimelineView* view = o.pane->view();
    std::vector<int> counterRows;
    for (std::size_t r = 0; r < view->rows().size(); ++r)
        if (view->rows()[r].kind == TrackKind::Counter)
            counterRows.push_back(int(r));
    if (!metrics) {
        QVERIFY(counterRows.empty());
        QVERIFY(!view->counters());
        QCOMPARE(view->rows().size(), view->index()->rows().size());
        return;
    }

    // Per GPU: NVLink TX and RX (the user data metrics summed) and every other metric with samples.
    qint64 expectedRows = 0, smActive = 0;
    const TimeNs t = TimeNs(std::llround(view->viewport().timeAt(300)));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"metrics"_s);
        db.setDatabaseName(c.outPath);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(
            u"SELECT (SELECT count(*) FROM (SELECT DISTINCT i.typeId, i.metricName FROM TARGET_INFO_GPU_METRICS i "
            "  WHERE i.metricName NOT LIKE 'NVLink % User Data %' AND EXISTS (SELECT 1 FROM GPU_METRICS m "
            "  WHERE m.typeId = i.typeId AND m.metricId = i.metricId))) "
            "+ 2 * (SELECT count(DISTINCT typeId) FROM TARGET_INFO_GPU_METRICS)"_s));
        QVERIFY(q.next());
        expectedRows = q.value(0).toLongLong();
        // SMs Active of GPU 0 at time t: the last sample at or before it.
        QVERIFY(q.exec(u"SELECT m.value FROM GPU_METRICS m JOIN TARGET_INFO_GPU_METRICS i ON i.typeId = m.typeId AND "
                       "i.metricId = m.metricId WHERE i.metricName = 'SMs Active [Throughput %]' AND i.typeName LIKE "
                       "'%[0]%' AND m.timestamp <= %1 ORDER BY m.timestamp DESC LIMIT 1"_s.arg(t)));
        QVERIFY(q.next());
        smActive = q.value(0).toLongLong();
    }
    QSqlDatabase::removeDatabase(u"metrics"_s);
    QCOMPARE(qint64(counterRows.size()), expectedRows);

    int row = -1;
    for (const int r : counterRows)
        if (view->rows()[std::size_t(r)].label == u"SMs Active [%]"_s
            && view->rows()[std::size_t(view->rows()[std::size_t(r)].parent)].label.startsWith(u"GPU 0 metrics"_s))
            row = r;
    QVERIFY(row >= 0);
    view->setVerticalOffset(view->layout().itemOfRow(row)->y - 20);
    const QRect rect = view->rowRect(row);
    QVERIFY(view->isVisible());
    QCOMPARE(rect.height(), TimelineLayout::kCounterHeight);

    // The area chart is drawn: coloured pixels in the row's time area (the row backgrounds are grey).
    const QImage image = view->grab().toImage();
    int coloured = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = TimelineView::kLabelWidth; x < image.width(); ++x) {
            const QColor p = image.pixelColor(x, y);
            coloured += std::abs(p.red() - p.green()) + std::abs(p.green() - p.blue()) > 40;
        }
    QVERIFY2(coloured > 100, qPrintable(QString::number(coloured)));

    // Hovering names the metric, the time and the value with its unit, as the export holds it.
    const QString tip = view->toolTipAt(QPoint(TimelineView::kLabelWidth + 300, rect.center().y()));
    QVERIFY2(tip.contains(u"<b>SMs Active</b>"_s), qPrintable(tip));
    QVERIFY2(tip.contains(u"<b>%1 %</b>"_s.arg(smActive)), qPrintable(tip));
    QVERIFY2(tip.contains(u"at "_s), qPrintable(tip));

    // The rows are in a group that folds.
    const int group = view->rows()[std::size_t(row)].parent;
    view->setCollapsed(group, true);
    QVERIFY(view->rowRect(row).isEmpty());
    view->setCollapsed(group, false);
    QVERIFY(view->layout().itemOfRow(row));
}

void TestTimelinePane::counterRowsOfAnIndexBuiltElsewhere()
{
    // The index is kept with the profile (as bench_timeline or another pane may leave it) without counter rows: the
    // pane still reads the GPU metrics, in the background.
    tracegen::GeneratorConfig c;
    c.outPath = m_dir.filePath(u"counters-prebuilt.sqlite"_s);
    c.kernels = 2000;
    c.layers = 2;
    c.gpuMetrics = true;
    tracegen::generateExport(c);
    Workbench workbench;
    const Result<LoadedProfile> result = loadForWorkbench(c.outPath);
    QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
    const LoadedProfile& loaded = *result;
    auto* session = new ProfileSession(loaded);
    session->setAttachment(u"timeline"_s, std::const_pointer_cast<TimelineIndex>(*buildTimelineIndex(loaded.profile)));
    workbench.addSession(session);
    TimelinePane pane(&workbench);
    pane.resize(1400, 700);
    pane.show();
    QVERIFY(pane.view()->index());
    QTRY_VERIFY_WITH_TIMEOUT(pane.view()->counters(), 30000);
    QCOMPARE(pane.view()->counters()->groups().size(), std::size_t(2)); // one per GPU of the generated export
    const int row = pane.view()->counterRow(0);
    QVERIFY(row >= 0);
    QCOMPARE(pane.view()->rows()[std::size_t(row)].label, u"NVLink TX [%]"_s);
}

QTEST_MAIN(TestTimelinePane)
#include "tst_timelinepane.moc"
