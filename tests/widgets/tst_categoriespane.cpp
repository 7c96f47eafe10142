// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/controllers/categorycontroller.h"
#include "core/models/categorynamesmodel.h"
#include "core/models/ruletablemodel.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "profilebuilder.h"
#include "widgets/categories/categoriespane.h"
#include "widgets/categories/categorychart.h"
#include "widgets/categories/ruleeditor.h"
#include "widgets/common/plotexport.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

using namespace nsw;

namespace {
/// The hand-worked profile of tst_categorybreakdown: g2g gemm 15 (sgemm 13 + hgemm 2), comm 10, memops 10, misc 2.
ProfilePtr fixture(const QString& fileName = QStringLiteral("hand-made.sqlite"))
{
    test::ProfileBuilder b;
    const ProcessIndex p = b.process(100, QStringLiteral("python"));
    const ThreadIndex t = b.thread(p, 100);
    const QString sgemm = QStringLiteral("void sgemm_kernel<int>(int)");
    const QString nccl = QStringLiteral("ncclDevKernel_AllReduce(x)");
    b.kernel(t, -5, -4, 0, 10, sgemm, 0, 7, QStringLiteral("sgemm_kernel"));
    b.kernel(t, -5, -4, 5, 15, nccl, 0, 8, QStringLiteral("ncclDevKernel_AllReduce"));
    b.kernel(t, -5, -4, 12, 20, QStringLiteral("void hgemm_kernel(int)"), 0, 7, QStringLiteral("hgemm_kernel"));
    b.memOp(t, -5, -4, 30, 40, 1, 4096, 0, 9);
    b.kernel(t, -5, -4, 32, 35, sgemm, 0, 7, QStringLiteral("sgemm_kernel"));
    b.kernel(t, -5, -4, 8, 18, sgemm, 1, 7, QStringLiteral("sgemm_kernel"));
    b.kernel(t, -5, -4, 18, 25, nccl, 1, 8, QStringLiteral("ncclDevKernel_AllReduce"));
    b.kernel(t, -5, -4, 20, 22, nccl, 1, 9, QStringLiteral("ncclDevKernel_AllReduce"));
    b.kernel(t, -5, -4, 50, 52, QStringLiteral("Weird_Kernel(int)"), 1, 7, QStringLiteral("Weird_Kernel"));
    return b.build(fileName);
}

const QByteArray kRules = "{\n  \"e\": {\n    \"m\": {\n      \"gemm\": \"gemm\",\n      \"(?i)NCCL\": \"comm\",\n"
                          "      \"CUDA mem\": \"memops\",\n      \".*\": \"misc\"\n    }\n  }\n}\n";

TimeNs chartTime(const CategoriesPane& pane, const QString& category, int bar = 0)
{
    const CategoryTable& t = pane.chart()->table();
    const qsizetype row = t.categories.indexOf(category);
    return row < 0 ? -1 : t.time[std::size_t(row)][std::size_t(bar)];
}
} // namespace

class TestCategoriesPane : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    Workbench* m_workbench = nullptr;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("nsys-workbench-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_categoriespane"));
        QDir(RuleLibrary::userRulesDir()).removeRecursively();
        QFile f(m_dir.filePath(QStringLiteral("e.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kRules);
    }

    void cleanupTestCase() { QDir(RuleLibrary::userRulesDir()).removeRecursively(); }

    void init()
    {
        m_workbench = new Workbench(this);
        LoadedProfile loaded;
        loaded.profile = fixture();
        m_workbench->addSession(new ProfileSession(loaded));
    }

    void cleanup() { delete m_workbench; }

    void editPatternSeeBarsChangeSaveReload()
    {
        CategoriesPane pane(m_workbench);
        pane.resize(1000, 700);
        pane.show();
        CategoryController* c = pane.controller();
        QCOMPARE(c->importFile(m_dir.filePath(QStringLiteral("e.json")), false), QString());
        QCOMPARE(c->engine(), QStringLiteral("e"));
        c->setTimeMode(TimeMode::Global);
        QTRY_COMPARE(chartTime(pane, QStringLiteral("gemm")), TimeNs(15));
        QCOMPARE(chartTime(pane, QStringLiteral("comm")), TimeNs(10));
        QCOMPARE(chartTime(pane, QStringLiteral("misc")), TimeNs(2));

        RuleEditorDialog* editor = pane.openEditor();
        QAbstractItemModelTester tester(editor->ruleModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE(editor->ruleModel()->index(0, RuleTableModel::NamesColumn).data().toInt(), 2);
        editor->setCurrentRow(0);
        QCOMPARE(editor->patternEdit()->text(), QStringLiteral("gemm"));

        // Type a pattern: hgemm no longer matches and falls to the catch-all (g2g: gemm 13, misc 2 + 2).
        editor->patternEdit()->selectAll();
        QTest::keyClicks(editor->patternEdit(), QStringLiteral("sgemm"));
        QTRY_COMPARE(chartTime(pane, QStringLiteral("gemm")), TimeNs(13));
        QCOMPARE(chartTime(pane, QStringLiteral("misc")), TimeNs(4));
        QCOMPARE(c->rules().rules[0].pattern, QStringLiteral("sgemm"));
        QCOMPARE(editor->undoStack()->count(), 1); // the keystrokes merged into one step

        // An invalid regex is refused, its error shown; the rules stay as they were.
        QTest::keyClicks(editor->patternEdit(), QStringLiteral("("));
        QVERIFY(editor->patternError()->text().contains(QStringLiteral("missing closing parenthesis")));
        editor->applyTypedFields(); // what the typing timer does
        QCOMPARE(c->rules().rules[0].pattern, QStringLiteral("sgemm"));
        QTest::keyClick(editor->patternEdit(), Qt::Key_Backspace);
        QTRY_VERIFY(editor->patternError()->text().isEmpty());

        // Undo and redo go through the same recompute.
        editor->undoStack()->undo();
        QTRY_COMPARE(chartTime(pane, QStringLiteral("gemm")), TimeNs(15));
        editor->undoStack()->redo();
        QTRY_COMPARE(chartTime(pane, QStringLiteral("gemm")), TimeNs(13));

        // The uncategorised browser lists hgemm (now taken by the catch-all); a rule made from it takes it back.
        auto* names = editor->namesModel();
        int hgemm = -1;
        QTRY_VERIFY([&] {
            for (int r = 0; r < names->rowCount(); ++r)
                if (names->rowAt(r)->shortName == QLatin1String("hgemm_kernel"))
                    hgemm = r;
            return hgemm >= 0;
        }());
        QVERIFY(editor->makeRuleFromName(hgemm, QStringLiteral("gemm")));
        QCOMPARE(c->rules().rules[3].pattern, QStringLiteral("hgemm_kernel")); // before the catch-all
        QTRY_COMPARE(chartTime(pane, QStringLiteral("gemm")), TimeNs(15));

        // A rule placed after one that takes all its names is flagged as shadowed.
        editor->setCurrentRow(0);
        editor->addRule();
        QCOMPARE(c->rules().rules[1].pattern, QStringLiteral("new_pattern_1"));
        CategoryRule shadowed = c->rules().rules[1];
        shadowed.pattern = QStringLiteral("sgemm_kernel");
        QVERIFY(editor->applyRule(1, shadowed));
        QTRY_COMPARE(
            editor->ruleModel()->index(1, 0).data(RuleTableModel::StatusRole).toInt(), int(RuleDiagnostic::Shadowed));
        QCOMPARE(editor->ruleModel()->index(1, RuleTableModel::StatusColumn).data().toString(),
            QStringLiteral("shadowed by rule 1"));
        // Dragging it above rule 1 (a drop on row 0) makes it win instead.
        std::unique_ptr<QMimeData> drag(editor->ruleModel()->mimeData({ editor->ruleModel()->index(1, 1) }));
        editor->ruleModel()->dropMimeData(drag.get(), Qt::MoveAction, 0, 0, {});
        QCOMPARE(c->rules().rules[0].pattern, QStringLiteral("sgemm_kernel"));
        QTRY_COMPARE(
            editor->ruleModel()->index(0, 0).data(RuleTableModel::StatusRole).toInt(), int(RuleDiagnostic::Wins));
        QCOMPARE(editor->ruleModel()->index(1, RuleTableModel::StatusColumn).data().toString(),
            QStringLiteral("shadowed by rule 1"));
        editor->deleteRule(0);
        QCOMPARE(c->rules().rules[0].pattern, QStringLiteral("sgemm"));

        // Save atomically to the user's folder, then a fresh pane (fresh library) reads it back.
        QVERIFY(c->isModified());
        QCOMPARE(editor->save(), QString());
        QVERIFY(!c->isModified());
        const QString saved = QDir(RuleLibrary::userRulesDir()).filePath(QStringLiteral("e.json"));
        QCOMPARE(c->savePath(), saved);
        RuleError error;
        const auto doc = RuleDocument::load(saved, &error);
        QVERIFY2(doc, qPrintable(error.message()));
        QCOMPARE(doc->engine(QStringLiteral("e"))->model(QStringLiteral("m"))->rules, c->rules().rules);

        CategoriesPane again(m_workbench);
        again.show();
        QVERIFY(again.controller()->select(QStringLiteral("e"), QStringLiteral("m")));
        QCOMPARE(again.controller()->rules().rules, c->rules().rules);
        again.controller()->setTimeMode(TimeMode::Global);
        QTRY_COMPARE(chartTime(again, QStringLiteral("gemm")), TimeNs(15));
        editor->close();
    }

    /// Esc with unsaved rules asks (it closed the editor and dropped the edits): Cancel keeps the editor and the
    /// edits, Discard closes it and reverts them.
    void escapeWithUnsavedEditsAsks()
    {
        CategoriesPane pane(m_workbench);
        pane.show();
        CategoryController* c = pane.controller();
        QVERIFY(c->select(QStringLiteral("e"), QStringLiteral("m")));
        RuleEditorDialog* editor = pane.openEditor();
        QTRY_VERIFY(editor->isVisible());
        const std::size_t rules = c->rules().rules.size();
        editor->setCurrentRow(0);
        editor->addRule();
        QVERIFY(c->isModified());
        for (const QMessageBox::StandardButton choice : { QMessageBox::Cancel, QMessageBox::Discard }) {
            QString question;
            QTimer answer;
            answer.setInterval(10);
            connect(&answer, &QTimer::timeout, this, [&]() {
                if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                    question = box->text();
                    box->button(choice)->click();
                }
            });
            answer.start();
            QTest::keyClick(editor, Qt::Key_Escape);
            answer.stop();
            QVERIFY2(question.contains(QStringLiteral("unsaved changes")), qPrintable(question));
            if (choice == QMessageBox::Cancel) {
                QVERIFY(editor->isVisible());
                QVERIFY(c->isModified());
                QCOMPARE(c->rules().rules.size(), rules + 1);
            }
        }
        QTRY_VERIFY(!editor->isVisible());
        QVERIFY(!c->isModified());
        QCOMPARE(c->rules().rules.size(), rules);
    }

    void clickSegmentShowsKernels()
    {
        CategoriesPane pane(m_workbench);
        // Nothing is built for a pane never shown.
        QCoreApplication::processEvents();
        QVERIFY(!pane.controller()->isBusy());
        QVERIFY(!m_workbench->current()->attachment<CategorySessionData>(CategoryController::attachmentKey()));
        pane.resize(1000, 700);
        pane.show();
        CategoryController* c = pane.controller();
        QVERIFY(c->select(QStringLiteral("e"), QStringLiteral("m")));
        c->setPerDevice(true);
        c->setTimeMode(TimeMode::Sum);
        QTRY_COMPARE(pane.chart()->table().bars.size(), 2);
        QTRY_COMPARE(chartTime(pane, QStringLiteral("gemm"), 1), TimeNs(10));
        QSignalSpy spy(m_workbench, &Workbench::kernelSelectionChanged);
        const int gemm = int(pane.chart()->table().categories.indexOf(QStringLiteral("gemm")));
        // Click in the middle of GPU 1's gemm segment (bottom of the stack).
        CategoryChart* chart = pane.chart();
        const QPoint at(int(chart->xAxis->coordToPixel(2)), int(chart->yAxis->coordToPixel(5)));
        const CategoryChart::Hit hit = chart->hitTest(at);
        QCOMPARE(hit.bar, 1);
        QCOMPARE(hit.row, gemm);
        QVERIFY(chart->describe(hit).startsWith(QStringLiteral("gemm: 10 ns (")));
        QTest::mouseClick(chart, Qt::LeftButton, {}, at);
        QCOMPARE(spy.size(), 1);
        const auto selection = spy[0][0].value<KernelSelection>();
        QCOMPARE(selection.session.data(), m_workbench->current());
        QVERIFY(selection.label.startsWith(QStringLiteral("category gemm")));
        QVERIFY(selection.label.contains(QStringLiteral("GPU 1")));
        // Kernel rows k0..k7: the gemm kernel on GPU 1 is k4.
        QCOMPARE(*selection.filter.rows, (std::vector<char> { 0, 0, 0, 0, 1, 0, 0, 0 }));

        // The memops category holds no kernel: the kernel table says so rather than showing an unexplained empty list.
        pane.selectSegment(0, int(pane.chart()->table().categories.indexOf(QStringLiteral("memops"))));
        QCOMPARE(spy.size(), 2);
        const auto memops = spy[1][0].value<KernelSelection>();
        QVERIFY(memops.label.startsWith(QStringLiteral("category memops")));
        QVERIFY(memops.label.contains(QStringLiteral("no kernels, only memory operations")));
        QCOMPARE(*memops.filter.rows, (std::vector<char>(8, 0)));
        QVERIFY(!selection.label.contains(QStringLiteral("no kernels")));
    }

    /// The outline of a clicked segment is for the screen: a PNG export is the same with and without it, and the
    /// outline is still on screen after the export.
    void exportedPngHasNoSelectionBox()
    {
        CategoriesPane pane(m_workbench);
        pane.resize(1000, 700);
        pane.show();
        CategoryController* c = pane.controller();
        QVERIFY(c->select(QStringLiteral("e"), QStringLiteral("m")));
        c->setPerDevice(true);
        c->setTimeMode(TimeMode::Sum);
        QTRY_COMPARE(pane.chart()->table().bars.size(), 2);
        QTRY_COMPARE(chartTime(pane, QStringLiteral("gemm"), 1), TimeNs(10));
        CategoryChart* chart = pane.chart();
        const int gemm = int(chart->table().categories.indexOf(QStringLiteral("gemm")));
        const QImage plain = chart->toPixmap(800, 500).toImage();
        chart->highlight({ 1, gemm });
        const QImage outlined = chart->toPixmap(800, 500).toImage();
        QVERIFY(outlined != plain); // the box is drawn on screen

        PngExportOptions o;
        o.width = 800;
        o.height = 500;
        const QString withBox = m_dir.filePath(QStringLiteral("with-box.png"));
        QCOMPARE(savePlotPng(*chart, withBox, o), QString());
        QCOMPARE(chart->toPixmap(800, 500).toImage(), outlined); // still on screen after the export
        chart->highlight({ -1, -1 });
        const QString withoutBox = m_dir.filePath(QStringLiteral("without-box.png"));
        QCOMPARE(savePlotPng(*chart, withoutBox, o), QString());
        const QImage exported(withBox);
        QVERIFY(!exported.isNull());
        QCOMPARE(exported, QImage(withoutBox));
    }

    /// Per-GPU bars: each bar's own instances (GPU 0: gemm 3, comm 1, memops 1; GPU 1: gemm 1, comm 2, misc 1), never
    /// their sum under one "Instances" header.
    void instancesPerBar()
    {
        CategoriesPane pane(m_workbench);
        pane.resize(1200, 700);
        pane.show();
        CategoryController* c = pane.controller();
        QVERIFY(c->select(QStringLiteral("e"), QStringLiteral("m")));
        c->setPerDevice(true);
        c->setTimeMode(TimeMode::Sum);
        QTRY_COMPARE(pane.chart()->table().bars.size(), 2);
        QTRY_COMPARE(chartTime(pane, QStringLiteral("gemm"), 1), TimeNs(10));
        QTableView* view = pane.tableView();
        const QAbstractItemModel* m = view->model();
        QCOMPARE(m->columnCount(), 7);
        const QStringList bars = pane.chart()->table().bars;
        QCOMPARE(m->headerData(3, Qt::Horizontal).toString(), QStringLiteral("instances · ") + bars[0]);
        QCOMPARE(m->headerData(6, Qt::Horizontal).toString(), QStringLiteral("instances · ") + bars[1]);
        const auto cell = [&](const QString& category, int column) {
            for (int r = 0; r < m->rowCount(); ++r)
                if (m->index(r, 0).data().toString() == category)
                    return m->index(r, column).data().toString();
            return QStringLiteral("?");
        };
        const struct
        {
            const char* category;
            const char* gpu0;
            const char* gpu1;
        } expected[] = { { "gemm", "3", "1" }, { "comm", "1", "2" }, { "memops", "1", "0" }, { "misc", "0", "1" } };
        for (const auto& e : expected) {
            QCOMPARE(cell(QLatin1String(e.category), 3), QLatin1String(e.gpu0));
            QCOMPARE(cell(QLatin1String(e.category), 6), QLatin1String(e.gpu1));
        }
        // Shown: the instance columns have room for their header's text.
        for (const int column : { 3, 6 }) {
            QVERIFY(!view->isColumnHidden(column));
            const QString header = m->headerData(column, Qt::Horizontal).toString();
            QVERIFY2(view->columnWidth(column) >= view->horizontalHeader()->fontMetrics().horizontalAdvance(header),
                qPrintable(header));
        }
        // One bar: the plain "Instances" column of that bar.
        c->setPerDevice(false);
        QTRY_COMPARE(pane.chart()->table().bars.size(), 1);
        QCOMPARE(m->columnCount(), 4);
        QCOMPARE(m->headerData(3, Qt::Horizontal).toString(), QStringLiteral("Instances"));
        QTRY_COMPARE(cell(QStringLiteral("gemm"), 3), QStringLiteral("4"));
    }

    /// Docked at 1366x768 the table is about 360 px wide; a column headed by a real export's file name
    /// ("nsys2025.1_t4_softmax_memcpy_heavy.sqlite [g2g]") pushed the times out of sight, and at 1920x1080 cut them.
    void longProfileNameKeepsTheTimesInSight()
    {
        delete m_workbench;
        m_workbench = new Workbench(this);
        LoadedProfile loaded;
        loaded.profile = fixture(QStringLiteral("nsys2025.1_t4_softmax_memcpy_heavy_with_a_longer_name.sqlite"));
        m_workbench->addSession(new ProfileSession(loaded));
        CategoriesPane pane(m_workbench);
        pane.resize(360, 340);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QVERIFY(pane.controller()->select(QStringLiteral("e"), QStringLiteral("m")));
        pane.controller()->setTimeMode(TimeMode::Global);
        QTRY_COMPARE(chartTime(pane, QStringLiteral("gemm")), TimeNs(15));
        QTableView* view = pane.tableView();
        QTRY_VERIFY(view->isVisible() && view->model()->rowCount() > 0);
        const int timeColumn = 1;
        const QString header = view->model()->headerData(timeColumn, Qt::Horizontal).toString();
        QVERIFY2(header.startsWith(QStringLiteral("g2g · nsys2025.1_t4_softmax")), qPrintable(header));
        // As drawn, elided on the right: the time and the share columns read apart (elided from the left, both
        // read "…memcpy_heavy_with_a_l…").
        QHeaderView* h = view->horizontalHeader();
        QCOMPARE(h->textElideMode(), Qt::ElideRight);
        const auto shown = [&](int column) {
            const QString text = view->model()->headerData(column, Qt::Horizontal).toString();
            return h->fontMetrics().elidedText(text, h->textElideMode(), h->sectionSize(column) - 8);
        };
        QVERIFY2(shown(timeColumn).startsWith(QStringLiteral("g2g · ")), qPrintable(shown(timeColumn)));
        QVERIFY2(shown(timeColumn + 1).startsWith(QStringLiteral("% · ")), qPrintable(shown(timeColumn + 1)));
        const int right = view->columnViewportPosition(timeColumn) + view->columnWidth(timeColumn);
        QVERIFY2(right <= view->viewport()->width(),
            qPrintable(QStringLiteral("time column ends at %1 px of %2").arg(right).arg(view->viewport()->width())));
        // Every time fits its column; the header, elided, is whole in its tooltip.
        for (int r = 0; r < view->model()->rowCount(); ++r) {
            const QString text = view->model()->index(r, timeColumn).data().toString();
            QVERIFY2(view->fontMetrics().horizontalAdvance(text) < view->columnWidth(timeColumn), qPrintable(text));
        }
        QVERIFY(view->model()
                    ->headerData(timeColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("nsys2025.1_t4_softmax_memcpy_heavy_with_a_longer_name.sqlite")));
    }

    /// A profile without kernels or memory operations: a sentence, not bars labelled "0.00 ns".
    void emptyChartSaysWhy()
    {
        test::ProfileBuilder b;
        const ThreadIndex t = b.thread(b.process(7, QStringLiteral("idle")), 7);
        b.nvtxRange(t, 0, 100, QStringLiteral("step"));
        LoadedProfile loaded;
        loaded.profile = b.build(QStringLiteral("no-kernels.sqlite"));
        ProfileSession* withKernels = m_workbench->current();
        m_workbench->addSession(new ProfileSession(loaded)); // current
        CategoriesPane pane(m_workbench);
        pane.resize(900, 600);
        pane.show();
        QVERIFY(pane.controller()->select(QStringLiteral("e"), QStringLiteral("m")));
        pane.controller()->setPerDevice(false);
        pane.controller()->setWallSource(CategoryController::WallSource::None); // no CPU segment either
        CategoryChart* chart = pane.chart();
        const auto visibleTexts = [&]() {
            chart->replot();
            QStringList texts;
            for (int i = 0; i < chart->itemCount(); ++i)
                if (const auto* text = qobject_cast<QCPItemText*>(chart->item(i)); text && text->visible())
                    texts << text->text();
            return texts;
        };
        // Beside a profile with kernels, its bar is labelled as empty rather than "0.00 ns".
        QTRY_COMPARE(chart->table().bars.size(), 2);
        QTRY_VERIFY(visibleTexts().contains(QStringLiteral("no kernel or memory time")));
        QVERIFY(chart->placeholderText().isEmpty());
        // Alone: a sentence instead of the bars.
        m_workbench->removeSession(withKernels);
        QTRY_VERIFY2(
            chart->placeholderText().startsWith(QStringLiteral("No kernel or memory time in no-kernels.sqlite")),
            qPrintable(chart->placeholderText()));
        // In a narrow dock (360 px, as at 1366x768) the sentence wraps inside the plot instead of running past it.
        chart->resize(360, 300);
        chart->replot();
        const auto oneLine = [](QString t) { return t.replace(QLatin1Char('\n'), QLatin1Char(' ')); };
        bool placeholderInPlot = false;
        for (int i = 0; i < chart->itemCount(); ++i) {
            const auto* text = qobject_cast<QCPItemText*>(chart->item(i));
            if (!text || !text->visible())
                continue;
            QVERIFY2(!text->text().contains(QStringLiteral(" ns")), qPrintable(text->text()));
            if (oneLine(text->text()) != oneLine(chart->placeholderText()))
                continue;
            placeholderInPlot = chart->axisRect()->rect().contains(text->position->pixelPosition().toPoint());
            const QFontMetrics metrics(text->font());
            for (const QString& line : text->text().split(QLatin1Char('\n')))
                QVERIFY2(metrics.horizontalAdvance(line) <= chart->axisRect()->width(), qPrintable(line));
        }
        QVERIFY(placeholderInPlot);
    }

    /// Import must not replace saved rules silently: an engine that another saved file defines is named in the
    /// question, "No" leaves everything as it was, "Yes" makes the import take effect and keeps the old file.
    void importAsksBeforeReplacingSavedRules()
    {
        const QString userDir = RuleLibrary::userRulesDir();
        CategoriesPane pane(m_workbench);
        CategoryController* c = pane.controller();
        QCOMPARE(c->importFile(m_dir.filePath(QStringLiteral("e.json")), true), QString());
        const QString saved = QDir(userDir).filePath(QStringLiteral("e.json"));
        QFile savedFile(saved);
        QVERIFY(savedFile.open(QIODevice::ReadOnly));
        const QByteArray savedBytes = savedFile.readAll();
        savedFile.close();
        const QString other = m_dir.filePath(QStringLiteral("gputrc2graph_e.json"));
        QFile f(other);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n  \"e\": {\n    \"m\": {\n      \"sgemm\": \"sgemm-only\"\n    }\n  }\n}\n");
        f.close();

        RuleEditorDialog* editor = pane.openEditor();
        for (const bool yes : { false, true }) {
            QString question;
            QTimer answer;
            answer.setInterval(10);
            connect(&answer, &QTimer::timeout, this, [&]() {
                if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                    question = box->text();
                    box->button(yes ? QMessageBox::Yes : QMessageBox::No)->click();
                }
            });
            answer.start();
            QCOMPARE(editor->importRulesFrom(other), yes);
            answer.stop();
            QCOMPARE(question,
                QStringLiteral("Importing gputrc2graph_e.json replaces your saved rules of engine \"e\" in e.json "
                               "(kept as e.json.bak). Replace?"));
            if (!yes) {
                QVERIFY(!QFileInfo::exists(QDir(userDir).filePath(QStringLiteral("gputrc2graph_e.json"))));
                QVERIFY(savedFile.open(QIODevice::ReadOnly));
                QCOMPARE(savedFile.readAll(), savedBytes);
                savedFile.close();
            }
        }
        // The import is what counts now, whatever the order of the file names; the saved file is kept aside.
        QCOMPARE(c->engine(), QStringLiteral("e"));
        QCOMPARE(c->rules().rules.size(), std::size_t(1));
        QCOMPARE(c->rules().rules[0].category, QStringLiteral("sgemm-only"));
        QVERIFY(!QFileInfo::exists(saved));
        QFile backup(saved + QStringLiteral(".bak"));
        QVERIFY(backup.open(QIODevice::ReadOnly));
        QCOMPARE(backup.readAll(), savedBytes);
        editor->close();
        // Later tests find the rules they expect.
        QFile::remove(QDir(userDir).filePath(QStringLiteral("gputrc2graph_e.json")));
        QCOMPARE(c->importFile(m_dir.filePath(QStringLiteral("e.json")), true), QString());
    }

    void wallTimeWarningAndExports()
    {
        CategoriesPane pane(m_workbench);
        pane.resize(1000, 700);
        pane.show();
        CategoryController* c = pane.controller();
        QVERIFY(c->select(QStringLiteral("e"), QStringLiteral("m")));
        c->setPerDevice(false);
        c->setTimeMode(TimeMode::Global);
        c->setWallSource(CategoryController::WallSource::Entered);
        m_workbench->current()->setWallTimeNs(30); // shorter than the 37 ns of GPU time
        QTRY_VERIFY(pane.statusText().contains(QStringLiteral("shorter than the GPU time 37 ns")));
        QCOMPARE(pane.chart()->table().barWarnings.size(), 1);
        QVERIFY(!pane.chart()->table().barWarnings[0].isEmpty());
        m_workbench->current()->setWallTimeNs(100);
        QTRY_COMPARE(chartTime(pane, cpuCategory()), TimeNs(63));
        QVERIFY(!pane.statusText().contains(QStringLiteral("shorter")));

        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("c.csv"));
        QCOMPARE(pane.exportCategoriesCsv(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(),
            QByteArray("Profile,Category,Instances,Time (ns),Share (%)\nhand-made.sqlite,gemm,4,15,15.00\n"
                       "hand-made.sqlite,comm,3,10,10.00\nhand-made.sqlite,memops,1,10,10.00\n"
                       "hand-made.sqlite,misc,1,2,2.00\nhand-made.sqlite,CPU (non-GPU),0,63,63.00\n"));
        const QString mapping = dir.filePath(QStringLiteral("result.csv"));
        QCOMPARE(pane.exportMappingCsv(mapping), QString());
        QFile m(mapping);
        QVERIFY(m.open(QIODevice::ReadOnly));
        QVERIFY(m.readAll().startsWith("Model_Engine,Category,Instances,Name,Elapsed Time (sec)"));

        const QString png = dir.filePath(QStringLiteral("chart.png"));
        PngExportOptions o;
        o.width = 800;
        o.height = 500;
        QCOMPARE(savePlotPng(*pane.exportablePlot(), png, o), QString());
        QCOMPARE(QImage(png).size(), QSize(800, 500));
    }
};

QTEST_MAIN(TestCategoriesPane)
#include "tst_categoriespane.moc"
