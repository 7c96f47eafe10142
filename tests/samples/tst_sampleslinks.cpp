// SPDX-License-Identifier: GPL-3.0-or-later
// The Samples pane in the window (issue 35), driven as a user drives it: it follows every kind of focus (a range
// focused from the timeline, an NVTX range, an iteration) and the linked selection (a range dragged on the timeline's
// ruler, an idle gap picked in the Findings pane), and a function selected in it marks its samples on the timeline's
// thread rows. Counts against plain SQL on a generated export with samples; what is checked is what the window shows.
#include "app/mainwindow.h"
#include "app/panekeys.h"
#include "core/models/modelroles.h"
#include "core/models/samplemodels.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/workbench.h"
#include "core/util/numberformat.h"
#include "generator.h"
#include "samplesoracle.h"
#include "sqlitefixture.h"
#include "widgets/diagnostics/findingspane.h"
#include "widgets/iterations/iterationspane.h"
#include "widgets/nvtx/nvtxpane.h"
#include "widgets/samples/samplespane.h"
#include "widgets/timeline/timelinelayout.h"
#include "widgets/timeline/timelinepane.h"
#include "widgets/timeline/timelineview.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace nsw;
using namespace nsw::test;
using namespace Qt::StringLiterals;

namespace {

/// The samples SQL selects in [start, end) of the export's clock.
QString during(qint64 start, qint64 end)
{
    return u"e.start >= %1 AND e.start < %2"_s.arg(start).arg(end);
}

void send(QWidget* w, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons)
{
    QMouseEvent e(type, pos, w->mapToGlobal(pos), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, buttons,
        Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}

/// A drag along the timeline's ruler from @p fromShare to @p toShare of its time area's width: a selected time range.
void dragOnRuler(TimelineView* view, double fromShare, double toShare)
{
    const int y = TimelineView::kRulerHeight / 2, width = view->width() - TimelineView::kLabelWidth;
    const int from = TimelineView::kLabelWidth + int(width * fromShare),
              to = TimelineView::kLabelWidth + int(width * toShare);
    send(view, QEvent::MouseButtonPress, { from, y }, Qt::LeftButton);
    send(view, QEvent::MouseMove, { (from + to) / 2, y }, Qt::LeftButton);
    send(view, QEvent::MouseMove, { to, y }, Qt::LeftButton);
    send(view, QEvent::MouseButtonRelease, { to, y }, Qt::NoButton);
}

} // namespace

class TestSamplesLinks : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;

    struct Window
    {
        MainWindow w { true };
        ProfileSession* session = nullptr;
        SamplesPane* samples = nullptr;
        TimelinePane* timeline = nullptr;
    };

    /// The window on the export, at a user's size, the timeline built and the Samples pane brought forward.
    bool open(Window& o)
    {
        o.w.resize(1600, 1000);
        o.w.show();
        if (!QTest::qWaitForWindowExposed(&o.w))
            return false;
        QSignalSpy ended(&o.w, &MainWindow::loadEnded);
        o.w.openFiles({ m_path });
        if (!ended.wait(30000) || !ended.value(0).value(1).toBool())
            return false;
        o.session = o.w.workbench()->current();
        o.samples = qobject_cast<SamplesPane*>(o.w.pane(u"samples"_s));
        o.timeline = qobject_cast<TimelinePane*>(o.w.pane(u"timeline"_s));
        if (!o.session || !o.samples || !o.timeline)
            return false;
        if (!o.timeline->view()->index() && !QSignalSpy(o.timeline, &TimelinePane::indexShown).wait(30000))
            return false;
        bringForward(o, o.samples);
        return QTest::qWaitFor([&] { return o.samples->shown() && o.samples->flatView()->isVisible(); }, 30000);
    }

    /// What View → a pane (or its shortcut) does.
    static void bringForward(Window& o, Pane* pane) { showActionOf(o.w.dockOf(pane))->trigger(); }

    /// The Samples pane shows, and says it shows, the samples of [start, end) (also checks they are some, not all).
    static void expectShown(const Window& o, const QString& path, qint64 start, qint64 end)
    {
        const SqlSampleCounts inside = sqlSampleCounts(path, during(start, end));
        const SqlSampleCounts all = sqlSampleCounts(path);
        QVERIFY2(inside.samples > 0 && inside.samples < all.samples, qPrintable(QString::number(inside.samples)));
        QTRY_COMPARE(flatModelCounts(*o.samples->flatModel()), inside.functions);
        QVERIFY(o.samples->flatView()->isVisible());
        const QString status = o.samples->statusLabel()->text();
        QVERIFY2(status.startsWith(u"%1 of %2 samples: all threads"_s.arg(
                     withThousandsSeparators(inside.samples), withThousandsSeparators(all.samples))),
            qPrintable(status));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        tracegen::GeneratorConfig c;
        c.outPath = m_path = m_dir.filePath(u"samples.sqlite"_s);
        c.kernels = 3000;
        c.layers = 2;
        c.seed = 4;
        c.cpuSamples = 6000;
        c.stepGapUs = 3000;
        tracegen::generateExport(c);
    }

    void followsEveryFocus_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("a range dragged on the ruler, then Focus") << u"timeline"_s;
        QTest::newRow("an NVTX range: Focus on this range") << u"nvtx"_s;
        QTest::newRow("an iteration activated (Enter) in the Iterations pane") << u"iteration"_s;
    }

    void followsEveryFocus()
    {
        QFETCH(QString, kind);
        Window o;
        QVERIFY(open(o));
        QTRY_COMPARE(flatModelCounts(*o.samples->flatModel()), sqlSampleCounts(m_path).functions);
        if (kind == u"timeline"_s) {
            dragOnRuler(o.timeline->view(), 1.0 / 3, 0.5);
            QVERIFY(o.timeline->focusButton()->isEnabled());
            QTest::mouseClick(o.timeline->focusButton(), Qt::LeftButton);
        } else if (kind == u"nvtx"_s) {
            auto* nvtx = qobject_cast<NvtxPane*>(o.w.pane(u"nvtx"_s));
            QTRY_VERIFY(nvtx->proxy()->rowCount() > 0);
            QModelIndex range = nvtx->proxy()->index(0, 0);
            while (range.isValid() && !nvtx->contextMenuFor(range)->actions().first()->isEnabled())
                range = nvtx->proxy()->index(0, 0, range);
            QVERIFY(range.isValid());
            nvtx->contextMenuFor(range)->actions().first()->trigger();
        } else {
            auto* iterations = qobject_cast<IterationsPane*>(o.w.pane(u"iterations"_s));
            bringForward(o, iterations);
            QTRY_VERIFY(iterations->view()->model() && iterations->view()->model()->rowCount() > 2);
            QTableView* table = iterations->view();
            const QModelIndex second = table->model()->index(1, 0);
            table->setCurrentIndex(second);
            QTest::keyClick(table, Qt::Key_Return);
        }
        const FocusRange focus = o.session->focus();
        QVERIFY(focus.isActive());
        expectShown(o, m_path, focus.start, focus.end);
        QVERIFY2(o.samples->statusLabel()->text().contains(u"focus: %1"_s.arg(focus.label)),
            qPrintable(o.samples->statusLabel()->text()));
        o.session->clearFocus();
        QTRY_COMPARE(flatModelCounts(*o.samples->flatModel()), sqlSampleCounts(m_path).functions);
        QVERIFY(!o.samples->statusLabel()->text().contains(u"focus: "_s));
    }

    void followsTheLinkedSelection_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("a range dragged on the timeline's ruler") << u"timeline"_s;
        QTest::newRow("an idle gap picked in the Findings pane") << u"gap"_s;
        QTest::newRow("an NVTX range picked in the NVTX tree") << u"nvtx"_s;
    }

    void followsTheLinkedSelection()
    {
        QFETCH(QString, kind);
        Window o;
        QVERIFY(open(o));
        qint64 start = 0, end = 0;
        if (kind == u"timeline"_s) {
            dragOnRuler(o.timeline->view(), 0.25, 0.5);
            std::tie(start, end) = o.timeline->view()->selectedRange();
        } else if (kind == u"nvtx"_s) {
            auto* nvtx = qobject_cast<NvtxPane*>(o.w.pane(u"nvtx"_s));
            QTRY_VERIFY(nvtx->proxy()->rowCount() > 0);
            QModelIndex range = nvtx->proxy()->index(0, 0);
            while (range.isValid() && !nvtx->contextMenuFor(range)->actions().first()->isEnabled())
                range = nvtx->proxy()->index(0, 0, range);
            QVERIFY(range.isValid());
            // The tree names the instance it selects (its first) to the other panes.
            QSignalSpy picked(o.w.workbench(), &Workbench::nvtxEventSelected);
            nvtx->view()->scrollTo(range);
            QTest::mouseClick(nvtx->view()->viewport(), Qt::LeftButton, {}, nvtx->view()->visualRect(range).center());
            QCOMPARE(picked.count(), 1);
            const auto row = picked.value(0).value(1).value<quint32>();
            const NvtxTable& events = o.session->profile()->nvtx;
            start = events.start[row];
            end = events.end[row];
            bringForward(o, o.samples);
        } else {
            auto* findings = qobject_cast<FindingsPane*>(o.w.pane(u"findings"_s));
            bringForward(o, findings);
            QTRY_VERIFY_WITH_TIMEOUT(findings->result() != nullptr, 30000);
            QTableView* gaps = nullptr;
            for (int i = 0; i < findings->tabs()->count(); ++i)
                if (findings->tabs()->tabToolTip(i).contains(u"tables/gpu_idle_gaps.csv"_s))
                    gaps = qobject_cast<QTableView*>(findings->tabs()->widget(i));
            QVERIFY(gaps && gaps->model()->rowCount() > 0);
            findings->tabs()->setCurrentWidget(gaps);
            // The longest gap, its start and end as the table holds them (on the session clock).
            const QAbstractItemModel* model = gaps->model();
            int startColumn = -1, endColumn = -1, longest = -1;
            for (int c = 0; c < model->columnCount(); ++c) {
                const QString name = model->headerData(c, Qt::Horizontal, CsvTextRole).toString();
                startColumn = name == u"start_ns"_s ? c : startColumn;
                endColumn = name == u"end_ns"_s ? c : endColumn;
            }
            QVERIFY(startColumn >= 0 && endColumn >= 0);
            const auto cell = [&](int row, int column) { return model->index(row, column).data(RawValueRole); };
            for (int r = 0; r < model->rowCount(); ++r)
                if (longest < 0
                    || cell(r, endColumn).toLongLong() - cell(r, startColumn).toLongLong()
                        > cell(longest, endColumn).toLongLong() - cell(longest, startColumn).toLongLong())
                    longest = r;
            gaps->scrollTo(model->index(longest, 0));
            QTest::mouseClick(
                gaps->viewport(), Qt::LeftButton, {}, gaps->visualRect(model->index(longest, 0)).center());
            QCOMPARE(gaps->currentIndex().row(), longest);
            // The generator's export has no session start time: its session clock is its own.
            start = cell(longest, startColumn).toLongLong();
            end = cell(longest, endColumn).toLongLong();
            bringForward(o, o.samples);
        }
        QVERIFY(end > start);
        expectShown(o, m_path, start, end);
        QVERIFY(o.samples->clearSelectionButton()->isVisible());
        QVERIFY(o.samples->statusLabel()->text().contains(u"selection: "_s));
        QTest::mouseClick(o.samples->clearSelectionButton(), Qt::LeftButton);
        QTRY_COMPARE(flatModelCounts(*o.samples->flatModel()), sqlSampleCounts(m_path).functions);
        QVERIFY(!o.samples->clearSelectionButton()->isVisible());
    }

    void functionMarksItsSamplesOnTheTimeline()
    {
        Window o;
        QVERIFY(open(o));
        // A click on tokenizer.encode in the Functions table.
        QTableView* table = o.samples->flatView();
        QModelIndex row;
        for (int r = 0; r < table->model()->rowCount(); ++r)
            if (table->model()->index(r, SampleFunctionColumn).data(RawValueRole).toString() == u"tokenizer.encode"_s)
                row = table->model()->index(r, SampleFunctionColumn);
        QVERIFY(row.isValid());
        table->scrollTo(row);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
        TimelineView* view = o.timeline->view();
        QTRY_VERIFY(view->sampleMarks());
        // Its samples, by thread, from SQL: those with the function anywhere on the stack.
        std::map<qint64, std::vector<qint64>> expected;
        for (const QStringList& r : queryRows(m_path,
                 u"SELECT e.globalTid, e.start FROM COMPOSITE_EVENTS e WHERE EXISTS (SELECT 1 FROM "
                 "SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol WHERE c.id = e.id AND s.value = "
                 "'tokenizer.encode')"_s))
            expected[r[0].toLongLong()].push_back(r[1].toLongLong());
        QVERIFY(!expected.empty());
        qint64 count = 0;
        for (const auto& [tid, times] : expected)
            count += qint64(times.size());
        QCOMPARE(view->sampleMarks()->count, count);
        // On each thread's row, a mark at the pixel of each of its samples; none on the rows of threads without them.
        const Profile& profile = o.session->profile().operator*();
        const QColor mark(220, 60, 200);
        int rowsWithMarks = 0, rowsWithout = 0;
        for (std::size_t r = 0; r < view->rows().size(); ++r) {
            const ThreadIndex thread = view->rows()[r].thread;
            if (thread < 0)
                continue;
            const TimelineLayout::Item* item = view->layout().itemOfRow(int(r));
            QVERIFY(item);
            view->setVerticalOffset(item->y);
            const QRect rect = view->rowRect(int(r));
            QVERIFY(!rect.isEmpty());
            const QImage image = view->grab().toImage();
            const int y = rect.top() + TimelineLayout::kGroupHeight / 2;
            int marked = 0;
            for (int x = TimelineView::kLabelWidth; x < view->width(); ++x)
                marked += QColor(image.pixel(x, y)) == mark;
            const auto it = expected.find(profile.threads[std::size_t(thread)].globalTid);
            if (it == expected.end()) {
                QCOMPARE(marked, 0);
                ++rowsWithout;
                continue;
            }
            ++rowsWithMarks;
            for (const qint64 t : it->second) {
                const int x = TimelineView::kLabelWidth + int(std::floor(view->viewport().xOf(double(t))));
                if (x >= TimelineView::kLabelWidth && x < view->width())
                    QVERIFY2(QColor(image.pixel(x, y)) == mark, qPrintable(u"sample at %1 ns, x %2"_s.arg(t).arg(x)));
            }
        }
        QCOMPARE(std::size_t(rowsWithMarks), expected.size());
        QVERIFY(rowsWithout > 0);
    }
};

QTEST_MAIN(TestSamplesLinks)
#include "tst_sampleslinks.moc"
