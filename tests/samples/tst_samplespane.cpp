// SPDX-License-Identifier: GPL-3.0-or-later
// The Samples pane as a user sees it: what it shows (and says) for exports with and without samples, the counts of
// its views against SQL, the linked selection (a time range in, a function's samples out to the timeline), the
// flame graph's search and zoom.
#include "core/models/modelroles.h"
#include "core/models/samplemodels.h"
#include "core/profile/profileloader.h"
#include "core/session/workbench.h"
#include "core/util/numberformat.h"
#include "oracleexports.h"
#include "samplesoracle.h"
#include "sqlitefixture.h"
#include "widgets/common/filterbar.h"
#include "widgets/samples/flamegraphview.h"
#include "widgets/samples/samplespane.h"
#include "widgets/samples/threadstateview.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTreeView>
#include <memory>

using namespace nsw;
using namespace nsw::test;
using namespace Qt::StringLiterals;

namespace {

ProfileSession* openSession(Workbench& workbench, const QString& path)
{
    LoadResult result = ProfileLoader::load(path);
    if (!result.ok()) {
        qWarning("%s", qPrintable(result.errorMessage()));
        return nullptr;
    }
    LoadedProfile loaded;
    loaded.profile = result->profile;
    loaded.load = *result;
    auto* session = new ProfileSession(loaded);
    workbench.addSession(session);
    return session;
}

/// A Samples pane of @p size, shown, on a generated export of @p schema.
struct PaneOnExport
{
    PaneOnExport(const QString& schema, QSize size)
        : path(generatedExport(schema))
    {
        openSession(workbench, path);
        pane = std::make_unique<SamplesPane>(&workbench);
        pane->resize(size);
        pane->show();
    }

    Workbench workbench;
    QString path;
    std::unique_ptr<SamplesPane> pane;
};

} // namespace

class TestSamplesPane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsTheFunctionsOfAnExport();
    void exportWithoutSamplesSaysSo();
    void idleChoicesNameEveryGpuWithWork();
    void threadScope();
    void timeRangeFromAnotherPane();
    void functionMarksGoToTheTimeline();
    void flameGraphSearchAndZoom();
    void threadStatesPerThread();
    void viewsKeepTheOrderOfTheirSortColumn();
    void functionNamesReadableWhenDocked_data();
    void functionNamesReadableWhenDocked();
};

void TestSamplesPane::showsTheFunctionsOfAnExport()
{
    Workbench workbench;
    const QString path = generatedExport(u"2025.5"_s);
    openSession(workbench, path);
    SamplesPane pane(&workbench);
    pane.resize(1000, 600);
    pane.show();
    QSignalSpy shown(&pane, &SamplesPane::viewsShown);
    QTRY_VERIFY(pane.shown());
    QVERIFY(pane.tabs()->isVisible());
    QVERIFY(!pane.placeholder()->isVisible());
    QCOMPARE(pane.tabs()->tabText(0), u"Functions"_s);
    QCOMPARE(pane.tabs()->count(), 5);
    const SqlSampleCounts sql = sqlSampleCounts(path);
    QCOMPARE(flatModelCounts(*pane.flatModel()), sql.functions);
    // The status line reads the counts; the first row of the table is the function with the most self samples.
    const QString n = withThousandsSeparators(sql.samples);
    QVERIFY2(pane.statusLabel()->text().contains(u"%1 of %1 samples: all threads"_s.arg(n)),
        qPrintable(pane.statusLabel()->text()));
    QVERIFY(pane.flatView()->isVisible());
    QVERIFY(pane.flatView()->model()->rowCount() > 0);
    qint64 maxSelf = 0;
    for (const auto& [key, counts] : sql.functions)
        maxSelf = std::max(maxSelf, counts.first);
    QCOMPARE(pane.flatView()->model()->index(0, SampleSelfColumn).data(RawValueRole).toLongLong(), maxSelf);
    QVERIFY(pane.flatView()
                ->visualRect(pane.flatView()->model()->index(0, 0))
                .intersects(pane.flatView()->viewport()->rect()));
}

void TestSamplesPane::exportWithoutSamplesSaysSo()
{
    Workbench workbench;
    openSession(workbench, generatedExport(u"2021"_s));
    SamplesPane pane(&workbench);
    pane.resize(900, 500);
    pane.show();
    QTRY_VERIFY(pane.placeholder()->isVisible());
    QVERIFY(!pane.tabs()->isVisible());
    // Nothing to choose without samples (and no analysis of the kernels for the choices).
    QCOMPARE(pane.duringSelector()->count(), 1);
    QVERIFY2(pane.placeholder()->text().contains(u"has no CPU samples: the export has no COMPOSITE_EVENTS table"_s),
        qPrintable(pane.placeholder()->text()));
    QVERIFY(pane.placeholder()->text().contains(u"nsys profile -s cpu"_s));
}

void TestSamplesPane::idleChoicesNameEveryGpuWithWork()
{
    Workbench workbench;
    const QString path = generatedExport(u"2024.6"_s);
    openSession(workbench, path);
    SamplesPane pane(&workbench);
    pane.show();
    QTRY_VERIFY(pane.shown());
    QStringList expected { u"Whole focus"_s, u"While every GPU is idle"_s };
    for (const QStringList& row : queryRows(path,
             u"SELECT DISTINCT deviceId FROM (SELECT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT "
             "deviceId FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT deviceId FROM CUPTI_ACTIVITY_KIND_MEMSET) "
             "ORDER BY deviceId"_s))
        expected.append(u"While GPU %1 is idle"_s.arg(row.value(0)));
    QVERIFY(expected.size() > 2);
    // The GPUs are listed once their analysis, off the GUI thread, is done.
    const auto texts = [&]() {
        QStringList out;
        for (int i = 0; i < pane.duringSelector()->count(); ++i)
            out.append(pane.duringSelector()->itemText(i));
        return out;
    };
    QTRY_COMPARE(texts(), expected);
    QVERIFY(pane.duringSelector()->isVisible());
}

void TestSamplesPane::threadScope()
{
    Workbench workbench;
    const QString path = generatedExport(u"2024.6"_s);
    ProfileSession* session = openSession(workbench, path);
    SamplesPane pane(&workbench);
    pane.show();
    QTRY_VERIFY(pane.shown());
    // The first thread of the list, against SQL on its globalTid.
    const int index = pane.scopeSelector()->findText(u"Thread "_s, Qt::MatchStartsWith);
    QVERIFY(index > 0);
    const QStringList scope = pane.scopeSelector()->itemData(index).toStringList();
    const qint64 globalTid = session->profile()->threads[std::size_t(scope.value(1).toInt())].globalTid;
    QSignalSpy shown(&pane, &SamplesPane::viewsShown);
    pane.scopeSelector()->setCurrentIndex(index);
    Q_EMIT pane.scopeSelector()->activated(index);
    QVERIFY(shown.wait());
    QCOMPARE(flatModelCounts(*pane.flatModel()), sqlSampleCounts(path, u"e.globalTid = %1"_s.arg(globalTid)).functions);
    QVERIFY(pane.statusLabel()->text().contains(u"thread "_s));
}

void TestSamplesPane::timeRangeFromAnotherPane()
{
    Workbench workbench;
    const QString path = generatedExport(u"2026.2"_s);
    ProfileSession* session = openSession(workbench, path);
    SamplesPane pane(&workbench);
    pane.show();
    QTRY_VERIFY(pane.shown());
    const QStringList span = queryRows(path, u"SELECT min(start), max(start) FROM COMPOSITE_EVENTS"_s).value(0);
    const qint64 lo = span[0].toLongLong(), hi = span[1].toLongLong();
    const qint64 a = lo + (hi - lo) / 3, b = lo + (hi - lo) / 2;
    QSignalSpy shown(&pane, &SamplesPane::viewsShown);
    workbench.selectTimeRange(session, a, b);
    QVERIFY(shown.wait());
    QVERIFY(pane.clearSelectionButton()->isVisible());
    QVERIFY(pane.statusLabel()->text().contains(u"selection: "_s));
    QCOMPARE(flatModelCounts(*pane.flatModel()),
        sqlSampleCounts(path, u"e.start >= %1 AND e.start < %2"_s.arg(a).arg(b)).functions);
    QTest::mouseClick(pane.clearSelectionButton(), Qt::LeftButton);
    QVERIFY(shown.wait());
    QVERIFY(!pane.clearSelectionButton()->isVisible());
    QCOMPARE(flatModelCounts(*pane.flatModel()), sqlSampleCounts(path).functions);
}

void TestSamplesPane::functionMarksGoToTheTimeline()
{
    Workbench workbench;
    const QString path = generatedExport(u"2025.1"_s);
    openSession(workbench, path);
    SamplesPane pane(&workbench);
    pane.show();
    QTRY_VERIFY(pane.shown());
    std::shared_ptr<const SampleMarks> marks;
    connect(&workbench, &Workbench::sampleMarksSelected, this,
        [&](ProfileSession*, std::shared_ptr<const SampleMarks> m) { marks = std::move(m); });
    // The row of tokenizer.encode: its samples are those with it anywhere on the stack.
    QAbstractItemModel* model = pane.flatView()->model();
    int row = -1;
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, SampleFunctionColumn).data(RawValueRole).toString() == u"tokenizer.encode"_s)
            row = r;
    QVERIFY(row >= 0);
    pane.flatView()->setCurrentIndex(model->index(row, 0));
    QVERIFY(marks);
    const qint64 expected = queryRows(path,
        u"SELECT count(DISTINCT c.id) FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol "
        "WHERE s.value = 'tokenizer.encode'"_s)
                                .value(0)
                                .value(0)
                                .toLongLong();
    QCOMPARE(marks->count, expected);
    QCOMPARE(marks->label, u"tokenizer.encode"_s);
}

void TestSamplesPane::flameGraphSearchAndZoom()
{
    Workbench workbench;
    const QString path = generatedExport(u"2025.5"_s);
    openSession(workbench, path);
    SamplesPane pane(&workbench);
    pane.resize(1200, 700);
    pane.show();
    QTRY_VERIFY(pane.shown());
    pane.tabs()->setCurrentIndex(3);
    FlameGraphView* flame = pane.flameGraph();
    QVERIFY(flame->isVisible());
    // The outermost frames share the whole width.
    const auto& rows = *pane.shown()->topDown;
    double width = 0;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].depth == 0)
            width += flame->rowRect(int(i)).width();
    QVERIFY2(std::abs(width - flame->width()) < 2.0 + rows.size(), qPrintable(QString::number(width)));
    pane.searchBar()->lineEdit()->setText(u"regex"_s);
    const qint64 matching = queryRows(path,
        u"SELECT count(DISTINCT c.id) FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol "
        "WHERE s.value LIKE '%regex%'"_s)
                                .value(0)
                                .value(0)
                                .toLongLong();
    QTRY_COMPARE(flame->matchingSamples(), matching);
    QVERIFY(pane.statusLabel()->text().contains(u"have a frame matching the search"_s));
    // A click zooms into the frame: it then spans the width.
    int deepest = -1;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].depth == 2 && !flame->rowRect(int(i)).isEmpty())
            deepest = int(i);
    QVERIFY(deepest >= 0);
    QTest::mouseClick(flame, Qt::LeftButton, {}, flame->rowRect(deepest).center().toPoint());
    QCOMPARE(flame->zoomRow(), deepest);
    QVERIFY(std::abs(flame->rowRect(deepest).width() - flame->width()) < 1.0);
    QTest::keyClick(flame, Qt::Key_Escape);
    QCOMPARE(flame->zoomRow(), rows[std::size_t(deepest)].parentRow);
}

void TestSamplesPane::threadStatesPerThread()
{
    Workbench workbench;
    const QString path = generatedExport(u"2026.1"_s);
    openSession(workbench, path);
    SamplesPane pane(&workbench);
    pane.resize(1200, 700);
    pane.show();
    QTRY_VERIFY(pane.shown());
    pane.tabs()->setCurrentIndex(4);
    QVERIFY(pane.threadStates()->isVisible());
    const ThreadStateBins& bins = pane.shown()->states;
    std::map<qint64, qint64> perThread;
    for (const QStringList& r : queryRows(path, u"SELECT globalTid, count(*) FROM COMPOSITE_EVENTS GROUP BY 1"_s))
        perThread[r[0].toLongLong()] = r[1].toLongLong();
    QCOMPARE(bins.rows.size(), perThread.size());
    // The generator's workers wait in pthread_cond_wait (state 8, OS runtime) 70 % of the time: their OS runtime
    // samples, against SQL.
    for (const ThreadStateBins::Row& row : bins.rows) {
        const qint64 globalTid = pane.shown()->result.profile->threads[std::size_t(row.thread)].globalTid;
        QCOMPARE(row.samples, perThread[globalTid]);
        qint64 osRuntime = 0;
        for (const auto& bin : row.bins)
            osRuntime += bin[std::size_t(SampleActivity::OsRuntime)];
        QCOMPARE(osRuntime,
            queryRows(path,
                u"SELECT count(*) FROM COMPOSITE_EVENTS WHERE globalTid = %1 AND threadState = 8"_s.arg(globalTid))
                .value(0)
                .value(0)
                .toLongLong());
    }
}

/// Whether @p values (per row, in the view's order) never rise (descending) or never fall (ascending).
static bool ordered(const std::vector<qint64>& values, Qt::SortOrder order)
{
    return order == Qt::DescendingOrder ? std::is_sorted(values.rbegin(), values.rend())
                                        : std::is_sorted(values.begin(), values.end());
}

/// The raw counts of @p column in @p view's rows under @p parent.
static std::vector<qint64> columnValues(const QAbstractItemModel& model, int column, const QModelIndex& parent = {})
{
    std::vector<qint64> values;
    for (int r = 0; r < model.rowCount(parent); ++r)
        values.push_back(model.index(r, column, parent).data(RawValueRole).toLongLong());
    return values;
}

void TestSamplesPane::viewsKeepTheOrderOfTheirSortColumn()
{
    // The proxies take a model's own order for the column it comes sorted by (no comparison of a million rows):
    // the rows as shown must still be in the order of the column clicked, counts as SQL counts them.
    PaneOnExport on(u"2025.5"_s, QSize(1000, 600));
    SamplesPane& pane = *on.pane;
    QTRY_VERIFY(pane.shown());
    QCOMPARE(flatModelCounts(*pane.flatModel()), sqlSampleCounts(on.path).functions);
    QAbstractItemModel* flat = pane.flatView()->model();
    QVERIFY(flat->rowCount() > 5);
    // Self descending, ties by total descending.
    const std::vector<qint64> self = columnValues(*flat, SampleSelfColumn);
    const std::vector<qint64> total = columnValues(*flat, SampleTotalColumn);
    QVERIFY(ordered(self, Qt::DescendingOrder));
    for (std::size_t r = 1; r < self.size(); ++r)
        QVERIFY2(self[r] < self[r - 1] || total[r] <= total[r - 1], qPrintable(QString::number(r)));
    for (const auto& [column, order] : { std::pair(SampleTotalColumn, Qt::DescendingOrder),
             std::pair(SampleSelfColumn, Qt::AscendingOrder), std::pair(SampleSelfColumn, Qt::DescendingOrder) }) {
        pane.flatView()->sortByColumn(column, order);
        QVERIFY2(ordered(columnValues(*flat, column), order), qPrintable(QString::number(column)));
    }
    // The trees: every level by total descending, as they open; then ascending.
    for (QTreeView* tree : { pane.topDownView(), pane.bottomUpView() }) {
        for (const Qt::SortOrder order : { Qt::DescendingOrder, Qt::AscendingOrder }) {
            tree->sortByColumn(SampleTotalColumn, order);
            QAbstractItemModel* model = tree->model();
            QVERIFY(model->rowCount() > 0);
            std::vector<QModelIndex> parents { QModelIndex() };
            while (!parents.empty()) {
                const QModelIndex parent = parents.back();
                parents.pop_back();
                QVERIFY2(ordered(columnValues(*model, SampleTotalColumn, parent), order),
                    qPrintable(parent.data().toString()));
                for (int r = 0; r < model->rowCount(parent) && parents.size() < 10000; ++r)
                    parents.push_back(model->index(r, 0, parent));
            }
        }
    }
}

void TestSamplesPane::functionNamesReadableWhenDocked_data()
{
    QTest::addColumn<QSize>("size");
    // The CPU Samples tab of the default layout, on a maximised window.
    QTest::addRow("docked at 1366x768") << QSize(540, 300);
    QTest::addRow("docked at 1920x1080") << QSize(780, 420);
}

void TestSamplesPane::functionNamesReadableWhenDocked()
{
    // At 1366x768 the Function column had about 135 px beside the module: "float std…3253ul>&)".
    QFETCH(QSize, size);
    PaneOnExport on(u"2025.5"_s, size);
    SamplesPane& pane = *on.pane;
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QTRY_VERIFY(pane.shown());
    QTableView* view = pane.flatView();
    QTRY_VERIFY(view->isVisible() && view->model()->rowCount() > 5);
    const QHeaderView* header = view->horizontalHeader();
    const int viewport = view->viewport()->width();
    const auto visibleWidth = [&](int column) {
        const int x = header->sectionViewportPosition(column);
        return std::max(0, std::min(x + header->sectionSize(column), viewport) - std::max(x, 0));
    };
    // The function first, then the counts whole on screen; the module last.
    QCOMPARE(header->visualIndex(SampleFunctionColumn), 0);
    QCOMPARE(header->visualIndex(SampleModuleColumn), SampleColumnCount - 1);
    for (const int column : { SampleSelfColumn, SampleTotalColumn, SampleSelfPercentColumn, SampleTotalPercentColumn })
        QVERIFY2(visibleWidth(column) == header->sectionSize(column) && visibleWidth(column) > 0,
            qPrintable(QStringLiteral("column %1: %2 of %3 px").arg(column).arg(visibleWidth(column)).arg(viewport)));
    // Every function name whole in its cell (the generated names are up to 28 characters), and in its tooltip.
    const QFontMetrics metrics = view->fontMetrics();
    const int margins = 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        const QModelIndex cell = view->model()->index(r, SampleFunctionColumn);
        const QString name = cell.data().toString();
        QVERIFY2(metrics.horizontalAdvance(name) + margins <= visibleWidth(SampleFunctionColumn),
            qPrintable(QStringLiteral("%1: %2 px, the column shows %3 px of %4")
                           .arg(name)
                           .arg(metrics.horizontalAdvance(name))
                           .arg(visibleWidth(SampleFunctionColumn))
                           .arg(viewport)));
        QVERIFY(cell.data(Qt::ToolTipRole).toString().startsWith(cell.data(RawValueRole).toString()));
    }
}

QTEST_MAIN(TestSamplesPane)
#include "tst_samplespane.moc"
