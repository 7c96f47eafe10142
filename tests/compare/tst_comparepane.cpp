// SPDX-License-Identifier: GPL-3.0-or-later
// The compare pane offscreen: profiles added and removed without recomputing the others, linked selection, keys,
// normalization, exports.
#include "comparefixture.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/models/comparetablemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/tableviews.h"
#include "widgets/compare/comparechart.h"
#include "widgets/compare/comparepane.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace nsw;
using namespace nsw::test;

namespace {
QString s(const char* text)
{
    return QString::fromUtf8(text);
}

ProfileSession* session(const ProfilePtr& profile, const QString& name)
{
    LoadedProfile loaded;
    loaded.profile = profile;
    auto* s = new ProfileSession(loaded);
    s->setDisplayName(name);
    return s;
}

/// Rows of Profile::kernels whose demangled name is one of @p names.
std::vector<char> rowsNamed(const Profile& p, const QStringList& names)
{
    std::vector<char> rows(p.kernels.size(), 0);
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = names.contains(p.strings.at(p.kernels.demangledName[i])) ? 1 : 0;
    return rows;
}

const CompareRow* row(const Comparison& c, const QString& key)
{
    const int r = c.rowOf(key);
    return r < 0 ? nullptr : &c.rows[std::size_t(r)];
}

CompareController::Settings kernelSettings(bool normalize = true)
{
    CompareController::Settings st;
    st.by = CompareBy::Kernel;
    st.normalizeNames = normalize;
    st.noiseFloorNs = 0;
    return st;
}
} // namespace

class TestComparePane : public QObject
{
    Q_OBJECT
private:
    Workbench* m_workbench = nullptr;
    ProfileSession* m_before = nullptr;
    ProfileSession* m_after = nullptr;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(s("nsys-workbench-test"));
        QCoreApplication::setApplicationName(s("tst_comparepane"));
        QDir(RuleLibrary::userRulesDir()).removeRecursively();
        QVERIFY(QDir().mkpath(RuleLibrary::userRulesDir()));
        QFile f(QDir(RuleLibrary::userRulesDir()).filePath(s("e.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"e\": {\"m\": {\"gemm\": \"gemm\", \"relu\": \"act\", \".*\": \"misc\"}}}\n");
    }

    void cleanupTestCase() { QDir(RuleLibrary::userRulesDir()).removeRecursively(); }

    void init()
    {
        QSettings().clear();
        m_workbench = new Workbench(this);
        m_before = session(beforeProfile(), s("before"));
        m_after = session(afterProfile(), s("after"));
        m_workbench->addSession(m_before);
        m_workbench->addSession(m_after);
    }

    void cleanup() { delete m_workbench; }

    /// A pane too short for the chart and the table (a docked tab at 1366x768) shows the table alone: squeezed, they
    /// were drawn over the controls. Heights swept until both cases are seen.
    void chartAndTableWhereTheyHaveRoom()
    {
        ComparePane pane(m_workbench, nullptr);
        pane.setMinimumSize(200, 120); // as the window docks it
        pane.resize(400, 300);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        const QTableView* table = pane.findChild<QTableView*>();
        const auto* splitter = qobject_cast<const QSplitter*>(pane.chart()->parentWidget());
        QVERIFY(table && splitter);
        QSet<QString> seen;
        for (int height = 300; height <= 1000; height += 10) {
            pane.resize(400, height);
            QApplication::processEvents();
            const QWidget* tableBox = table->parentWidget();
            const int room = splitter->height();
            const int chartMin = pane.chart()->minimumHeight();
            const bool both = room >= chartMin + splitter->handleWidth() + tableBox->minimumSizeHint().height();
            const QString at = QStringLiteral("%1 px (splitter %2)").arg(height).arg(room);
            QCOMPARE(pane.chart()->isVisible(), both);
            QVERIFY2(table->isVisible(), qPrintable(at));
            seen.insert(both ? QStringLiteral("both") : QStringLiteral("table"));
            for (const QWidget* w : { static_cast<const QWidget*>(pane.chart()), tableBox }) {
                if (!w->isVisible())
                    continue;
                const QRect r(w->mapTo(&pane, QPoint(0, 0)), w->size());
                QVERIFY2(pane.rect().contains(r) && r.height() >= w->minimumSizeHint().height(), qPrintable(at));
            }
            if (both)
                QVERIFY2(!pane.chart()->geometry().intersects(tableBox->geometry()), qPrintable(at));
        }
        QCOMPARE(seen, (QSet<QString> { QStringLiteral("both"), QStringLiteral("table") }));
    }

    /// The Compare tab docked at 1366x768 (about 360x340 px) gave its table one row: the options wrapped onto four
    /// rows and the status onto four lines; at 1920x1080 (510x540) it kept two rows under the chart. Short, the
    /// options fold behind "Options" and the status takes one line; tall, everything shows as before.
    void shortPaneKeepsItsRowsForTheTable_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("compact");
        QTest::newRow("docked tab at 1366x768") << QSize(360, 340) << true;
        QTest::newRow("docked tab at 1920x1080") << QSize(510, 540) << true;
        QTest::newRow("undocked, tall") << QSize(900, 900) << false;
    }
    void shortPaneKeepsItsRowsForTheTable()
    {
        QFETCH(QSize, size);
        QFETCH(bool, compact);
        ComparePane pane(m_workbench, nullptr);
        pane.setMinimumSize(200, 120);
        pane.resize(size);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTRY_VERIFY(!pane.controller()->isBusy() && !pane.controller()->comparison().rows.empty());
        QApplication::processEvents();
        QCOMPARE(pane.isCompact(), compact);
        auto* options = pane.findChild<QToolButton*>(s("options"));
        auto* threshold = pane.findChild<QDoubleSpinBox*>();
        auto* line = pane.findChild<QLabel*>(s("statusLine"));
        QVERIFY(options && threshold && line);
        QCOMPARE(options->isVisible(), compact);
        QCOMPARE(threshold->isVisible(), !compact);
        QCOMPARE(line->isVisible(), compact);
        QTableView* table = pane.tableView();
        const int rowHeight = table->verticalHeader()->defaultSectionSize();
        if (compact) {
            // One line that leads with the headline (what is slower per call); the whole status in its tooltip.
            QVERIFY2(line->height() < 2 * line->fontMetrics().height(), qPrintable(QString::number(line->height())));
            QVERIFY2(line->text().startsWith(s("Slower per call: ")) || line->text().startsWith(s("No key is slower")),
                qPrintable(line->text()));
            const QString keys = s("%1 keys: ").arg(pane.controller()->comparison().rows.size());
            QVERIFY2(line->toolTip().contains(keys), qPrintable(line->toolTip()));
            QVERIFY(line->toolTip().contains(s("Mode: totals")));
            QVERIFY2(table->isVisible() && table->viewport()->height() >= 5 * rowHeight,
                qPrintable(s("viewport %1 px, rows of %2 px").arg(table->viewport()->height()).arg(rowHeight)));
            // The options come back on demand.
            options->click();
            QApplication::processEvents();
            QVERIFY(threshold->isVisible());
            options->click();
            QApplication::processEvents();
            QVERIFY(!threshold->isVisible());
        } else {
            QVERIFY(pane.statusText().contains(s("Mode: totals")));
            QVERIFY(table->isVisible());
        }
    }

    void addAndRemoveProfiles()
    {
        ComparePane pane(m_workbench, nullptr);
        QAbstractItemModelTester tester(pane.tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        CompareController* c = pane.controller();
        c->setSettings(kernelSettings());
        QCoreApplication::processEvents();
        QVERIFY(!c->isBusy());
        QCOMPARE(c->computedKeyTables(), 0); // nothing before the pane is shown
        pane.resize(1200, 800);
        pane.show();
        QTRY_COMPARE(c->comparison().profileCount(), std::size_t(2));
        QTRY_VERIFY(!c->isBusy());
        QCOMPARE(c->computedKeyTables(), 2);
        QCOMPARE(c->comparison().rows[0].key, kGemmNormalized);
        QCOMPARE(c->comparison().rows[0].delta[1], 250'000.0);
        QCOMPARE(pane.tableModel()->rowCount(), 1 + 5);
        const auto beforeEntry = c->entry(m_before);
        const auto afterEntry = c->entry(m_after);
        QVERIFY(beforeEntry && afterEntry);

        // A third profile joins: only it is computed; the others keep their cached keys.
        ProfileSession* third = session(beforeProfile(), s("before again"));
        m_workbench->addSession(third);
        QTRY_COMPARE(c->comparison().profileCount(), std::size_t(3));
        QTRY_VERIFY(!c->isBusy());
        QCOMPARE(c->computedKeyTables(), 3);
        QCOMPARE(c->entry(m_before), beforeEntry);
        QCOMPARE(c->entry(m_after), afterEntry);
        QCOMPARE(c->comparison().profiles, (QStringList { s("before"), s("after"), s("before again") }));
        QCOMPARE(pane.profilesMenu()->actions().size(), 3);

        // Unticked in the Profiles menu: out of the comparison, nothing recomputed; ticked again: back from cache.
        pane.profilesMenu()->actions()[2]->setChecked(false);
        QTRY_COMPARE(c->comparison().profileCount(), std::size_t(2));
        pane.profilesMenu()->actions()[2]->setChecked(true);
        QTRY_COMPARE(c->comparison().profileCount(), std::size_t(3));
        QTRY_VERIFY(!c->isBusy());
        QCOMPARE(c->computedKeyTables(), 3);

        // Another baseline: the deltas turn around, still without recomputing keys.
        c->setBaseline(m_after);
        QTRY_COMPARE(c->comparison().baseline, std::size_t(1));
        QTRY_VERIFY(!c->isBusy());
        QCOMPARE(row(c->comparison(), kGemmNormalized)->status[0], CompareStatus::Improvement);
        QCOMPARE(row(c->comparison(), kGemmNormalized)->delta[2], -250'000.0);
        QCOMPARE(c->computedKeyTables(), 3);

        // Closing a profile takes it out (and a closed baseline falls back to the first profile).
        m_workbench->removeSession(m_after);
        m_after = nullptr;
        QTRY_COMPARE(c->comparison().profileCount(), std::size_t(2));
        QCOMPARE(c->comparison().profiles, (QStringList { s("before"), s("before again") }));
        QCOMPARE(c->comparison().baseline, std::size_t(0));
        QTRY_VERIFY(!c->isBusy());
        QCOMPARE(c->computedKeyTables(), 3);
        for (const CompareRow& r : c->comparison().rows)
            QCOMPARE(r.summary, CompareStatus::Unchanged);
    }

    /// Selecting a kernel key filters the kernel table of the current profile to its kernels and selects the kernel
    /// name in every compared profile.
    void kernelSelection()
    {
        ComparePane pane(m_workbench, nullptr);
        pane.controller()->setSettings(kernelSettings());
        pane.show();
        QTRY_COMPARE(pane.controller()->comparison().rows.size(), std::size_t(5));
        QTRY_VERIFY(!pane.controller()->isBusy());
        QSignalSpy shown(m_workbench, &Workbench::kernelSelectionChanged);
        QSignalSpy names(m_workbench, &Workbench::kernelNameSelected);
        QCOMPARE(m_workbench->current(), m_after);
        QVERIFY(pane.selectKey(kGemmNormalized));
        QCOMPARE(shown.size(), 1);
        const auto selection = shown[0][0].value<KernelSelection>();
        QCOMPARE(selection.session.data(), m_after);
        QCOMPARE(selection.label, s("compare: kernel ") + kGemmNormalized);
        QVERIFY(selection.filter.rows);
        QCOMPARE(*selection.filter.rows, rowsNamed(*m_after->profile(), { kGemm256 }));
        QCOMPARE(names.size(), 2);
        QCOMPARE(names[0][0].value<ProfileSession*>(), m_before);
        QCOMPARE(names[0][1].toString(), kGemm128);
        QCOMPARE(names[1][1].toString(), kGemm256);

        // The other way round: a kernel chosen elsewhere selects its (normalized) row, without echoing it back.
        shown.clear();
        QVERIFY(pane.selectKey(kRelu));
        shown.clear();
        names.clear();
        m_workbench->selectKernelName(m_before, kGemm128);
        const QModelIndex current = pane.proxy()->mapToSource(pane.tableView()->currentIndex());
        QCOMPARE(pane.tableModel()->rowAt(current.row())->key, kGemmNormalized);
        QCOMPARE(shown.size(), 0);
        QCOMPARE(names.size(), 1);

        // A key the current profile lacks shows no kernels rather than all of them.
        shown.clear();
        QVERIFY(pane.selectKey(kOld));
        QCOMPARE(shown.size(), 1);
        const auto none = shown[0][0].value<KernelSelection>();
        QVERIFY(none.filter.rows);
        QCOMPARE(std::count(none.filter.rows->begin(), none.filter.rows->end(), 1), 0);

        // The chart's bars select rows too.
        Q_EMIT pane.chart()->keyClicked(kNew);
        QCOMPARE(
            pane.tableModel()->rowAt(pane.proxy()->mapToSource(pane.tableView()->currentIndex()).row())->key, kNew);
    }

    /// Category keys follow the categories controller's rules and time mode; an edit recomputes.
    void categoryKeys()
    {
        CategoryController categories(m_workbench);
        QVERIFY(categories.select(s("e"), s("m")));
        categories.setTimeMode(TimeMode::Sum);
        ComparePane pane(m_workbench, &categories);
        CompareController::Settings st;
        st.by = CompareBy::Category;
        st.noiseFloorNs = 0;
        pane.controller()->setSettings(st);
        pane.show();
        QTRY_VERIFY(row(pane.controller()->comparison(), s("gemm")));
        QTRY_VERIFY(!pane.controller()->isBusy());
        const Comparison& c = pane.controller()->comparison();
        QCOMPARE(c.rows[0].key, s("gemm"));
        QCOMPARE(c.rows[0].delta[1], 250'000.0);
        QCOMPARE(row(c, s("misc"))->delta[1], -10'000.0);
        QCOMPARE(row(c, s("act"))->summary, CompareStatus::Unchanged);
        QVERIFY(pane.statusText().contains(s("3 keys: 1 regressions, 1 improvements, 0 new, 0 removed, 1 unchanged")));
        // The category colour, as in the categories pane.
        const int gemmRow = pane.tableModel()->rowOfKey(s("gemm"));
        QCOMPARE(
            pane.tableModel()->index(gemmRow, 0).data(CompareTableModel::ColorRole).toUInt(), categoryColor(s("gemm")));
        QCOMPARE(pane.chart()->stack().segments.first(), s("gemm"));

        QSignalSpy shown(m_workbench, &Workbench::kernelSelectionChanged);
        QVERIFY(pane.selectKey(s("misc")));
        QCOMPARE(shown.size(), 1);
        QCOMPARE(*shown[0][0].value<KernelSelection>().filter.rows, rowsNamed(*m_after->profile(), { kNew, kTail }));

        // Switching the current profile gives the kernel table that profile's kernels of the selected key.
        m_workbench->setCurrent(m_before);
        QCOMPARE(shown.size(), 2);
        QCOMPARE(shown[1][0].value<KernelSelection>().session.data(), m_before);
        QCOMPARE(*shown[1][0].value<KernelSelection>().filter.rows, rowsNamed(*m_before->profile(), { kOld, kTail }));

        // Once another pane filters the kernel table, switching profiles no longer brings our key back.
        m_workbench->clearKernelSelection(m_before);
        const qsizetype before = shown.size();
        m_workbench->setCurrent(m_after);
        QCOMPARE(shown.size(), before);

        // A rule edited in the categories pane recomputes the comparison.
        RuleList edited = categories.rules();
        edited.rules[1].category = s("activation");
        categories.setRules(edited);
        QTRY_VERIFY(row(pane.controller()->comparison(), s("activation")));
        QVERIFY(!row(pane.controller()->comparison(), s("act")));
    }

    void nvtxKeysAndIterations()
    {
        ComparePane pane(m_workbench, nullptr);
        CompareController::Settings st;
        st.by = CompareBy::Nvtx;
        st.normalizeNames = true;
        st.noiseFloorNs = 0;
        st.normalization = CompareNormalization::PerIteration;
        st.marker = s("step");
        pane.controller()->setSettings(st);
        pane.show();
        QTRY_VERIFY(row(pane.controller()->comparison(), s("step > layer_#")));
        QTRY_VERIFY(!pane.controller()->isBusy());
        const Comparison& c = pane.controller()->comparison();
        QCOMPARE(c.divisor, (std::vector<double> { 2.0, 3.0 }));
        QCOMPARE(row(c, s("step > layer_#"))->cells[0].total, 150'000.0);
        QCOMPARE(row(c, s("step > layer_#"))->cells[1].total, 580'000.0 / 3);

        QSignalSpy shown(m_workbench, &Workbench::kernelSelectionChanged);
        QVERIFY(pane.selectKey(s("step > layer_#")));
        QCOMPARE(*shown[0][0].value<KernelSelection>().filter.rows,
            rowsNamed(*m_after->profile(), { kGemm256, kRelu, kNew }));

        // A marker no profile has: the error is shown, not a silent fallback.
        st.marker = s("iteration");
        pane.controller()->setSettings(st);
        QTRY_VERIFY(!pane.controller()->comparison().error.isEmpty());
        QCOMPARE(pane.controller()->comparison().error, s("before: no instance of the iteration marker"));
        QTRY_VERIFY(pane.statusText().contains(s("before: no instance of the iteration marker")));
        QCOMPARE(pane.tableModel()->rowCount(), 1);
    }

    /// Per instance: the pane says so (selector, status line, chart subtitle), shows medians, and says what changed.
    void perInstanceMode()
    {
        ComparePane pane(m_workbench, nullptr);
        CompareController::Settings st = kernelSettings();
        st.normalization = CompareNormalization::PerInstance;
        pane.controller()->setSettings(st);
        pane.resize(1200, 800);
        pane.show();
        QTRY_COMPARE(pane.controller()->comparison().normalization, CompareNormalization::PerInstance);
        QTRY_VERIFY(!pane.controller()->isBusy());
        QTRY_VERIFY(pane.statusText().contains(s("Mode: per instance (average and median per execution")));
        // The headline leads with the change per call: gemm 100 µs -> 150 µs (hand-worked fixture).
        QVERIFY2(pane.statusText().startsWith(s("Slower per call: gemm_kernel +50.0 % (100 µs → 150 µs)")),
            qPrintable(pane.statusText()));
        bool selectorShowsMode = false;
        for (const QComboBox* box : pane.findChildren<QComboBox*>())
            selectorShowsMode |= box->isVisible() && box->currentText() == s("per instance");
        QVERIFY(selectorShowsMode);
        const QAbstractItemModel* model = pane.tableModel();
        QStringList headers;
        for (int c = 0; c < model->columnCount(); ++c)
            headers.append(model->headerData(c, Qt::Horizontal).toString());
        QVERIFY2(headers.contains(s("before (baseline)\nTotal")) && headers.contains(s("before\nMedian"))
                && headers.contains(s("after\nΔ instances")),
            qPrintable(headers.join(s(" | "))));
        // gemm<...>: 100 µs per call before, 150 µs after (hand-worked fixture).
        const int gemm = pane.tableModel()->rowOfKey(kGemmNormalized);
        QVERIFY(gemm > 0);
        // 2 calls before, 3 after: said beside the status, never the status itself.
        QCOMPARE(model->index(gemm, 1).data().toString(), s("regression (slower, more calls)"));
        QCOMPARE(model->index(gemm, pane.tableModel()->columnOf(CompareTableModel::Column::Median, 1))
                     .data(SortRole)
                     .toDouble(),
            150'000.0);
        QCOMPARE(model->index(gemm, pane.tableModel()->columnOf(CompareTableModel::Column::DeltaInstances, 1))
                     .data()
                     .toString(),
            s("+1"));
    }

    /// Compare by NVTX path starts with name normalization on (numbered ranges of two runs match); kernels keep
    /// theirs off; each kind remembers its own choice.
    void nvtxPathsDefaultToNormalizedNames()
    {
        ComparePane pane(m_workbench, nullptr);
        pane.resize(1200, 800);
        pane.show();
        QComboBox* by = nullptr;
        QCheckBox* normalize = nullptr;
        for (QComboBox* box : pane.findChildren<QComboBox*>())
            if (box->findText(s("NVTX path")) >= 0)
                by = box;
        for (QCheckBox* box : pane.findChildren<QCheckBox*>())
            if (box->text() == s("Normalize names"))
                normalize = box;
        QVERIFY(by && normalize);
        QCOMPARE(pane.controller()->settings().by, CompareBy::Kernel);
        QVERIFY(!pane.controller()->settings().normalizeNames);
        by->setCurrentIndex(by->findData(int(CompareBy::Nvtx)));
        Q_EMIT by->activated(by->currentIndex());
        QCOMPARE(pane.controller()->settings().by, CompareBy::Nvtx);
        QVERIFY(pane.controller()->settings().normalizeNames);
        QVERIFY(normalize->isVisible() && normalize->isChecked());
        normalize->setChecked(false); // the user's choice for NVTX is kept
        QVERIFY(!pane.controller()->settings().normalizeNames);
        by->setCurrentIndex(by->findData(int(CompareBy::Kernel)));
        Q_EMIT by->activated(by->currentIndex());
        QVERIFY(!pane.controller()->settings().normalizeNames);
        by->setCurrentIndex(by->findData(int(CompareBy::Nvtx)));
        Q_EMIT by->activated(by->currentIndex());
        QVERIFY(!pane.controller()->settings().normalizeNames);
        QVERIFY(!normalize->isChecked());
    }

    void exports()
    {
        ComparePane pane(m_workbench, nullptr);
        pane.controller()->setSettings(kernelSettings());
        pane.resize(1100, 700);
        pane.show();
        QTRY_COMPARE(pane.controller()->comparison().rows.size(), std::size_t(5));
        QTRY_VERIFY(!pane.controller()->isBusy());
        QCOMPARE(pane.exportBaseName(), s("compare-by-kernel"));
        const QString csv = m_dir.filePath(s("t.csv"));
        QCOMPARE(exportViewCsv(pane.exportableView(), csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QVERIFY(lines[0].startsWith("Key,Status,before Total (ns),before Instances,"));
        QVERIFY(lines[1].startsWith("(all GPU time),regression,350000,6,"));
        QVERIFY(lines[2].startsWith("void gemm_kernel<...>(float*),regression,200000,2,"));
        QCOMPARE(lines.size(), 1 + 6 + 1);
        const QString png = m_dir.filePath(s("c.png"));
        PngExportOptions o;
        o.width = 900;
        o.height = 500;
        QCOMPARE(savePlotPng(*pane.exportablePlot(), png, o), QString());
        QCOMPARE(QImage(png).size(), QSize(900, 500));
        QCOMPARE(pane.chart()->changeKeys().first(), kGemmNormalized);
    }

    void chartFitsItsSize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("arrangement");
        // 500x260: the Compare tab docked beside the tables at 1920x1080, where the change bars squeezed beside the
        // stack and its legend had no room for their labels.
        QTest::newRow("docked 500x260: stack only, the table has the changes")
            << QSize(500, 260) << int(CompareChart::Arrangement::StackOnly);
        QTest::newRow("docked 500x220 under compact controls: stack only")
            << QSize(500, 220) << int(CompareChart::Arrangement::StackOnly);
        QTest::newRow("700x400: stack only, with a note")
            << QSize(700, 400) << int(CompareChart::Arrangement::StackOnly);
        QTest::newRow("tall 600x600: changes below") << QSize(600, 600) << int(CompareChart::Arrangement::Below);
        QTest::newRow("wide 1400x600: side by side") << QSize(1400, 600) << int(CompareChart::Arrangement::SideBySide);
    }
    void chartFitsItsSize()
    {
        QFETCH(QSize, size);
        QFETCH(int, arrangement);
        ComparePane pane(m_workbench, nullptr);
        pane.controller()->setSettings(kernelSettings());
        pane.show();
        QTRY_COMPARE(pane.controller()->comparison().rows.size(), std::size_t(5));
        QTRY_VERIFY(!pane.controller()->isBusy());
        CompareChart chart;
        chart.resize(size);
        chart.setComparison(pane.controller()->comparison(), s("baseline before"));
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.replot();
        QCOMPARE(int(chart.arrangement()), arrangement);
        const QRect stack = chart.stackRect()->rect();
        const QRect changes = chart.changeRect()->rect();
        QVERIFY(QRect(QPoint(0, 0), size).contains(stack));
        QVERIFY2(stack.width() >= 60 && stack.height() >= 60,
            qPrintable(s("stack %1x%2").arg(stack.width()).arg(stack.height())));
        switch (CompareChart::Arrangement(arrangement)) {
        case CompareChart::Arrangement::SideBySide:
            QVERIFY(chart.changeRect()->visible());
            QVERIFY(changes.left() > stack.right() && changes.width() >= size.width() / 4);
            break;
        case CompareChart::Arrangement::Below:
            QVERIFY(chart.changeRect()->visible());
            QVERIFY(changes.top() > stack.bottom() && changes.height() >= 120);
            break;
        case CompareChart::Arrangement::StackOnly:
            QVERIFY(!chart.changeRect()->visible());
            for (QCPAxis* axis : chart.changeRect()->axes())
                QVERIFY(!axis->visible());
            // The note where there is the height for a second line; never a legend entry for hidden bars.
            QCOMPARE(chart.subtitle().contains(s("largest changes are in the table")), size.height() >= 320);
            for (int i = 0; i < chart.legend->itemCount(); ++i)
                if (auto* item = qobject_cast<QCPPlottableLegendItem*>(chart.legend->item(i)))
                    QVERIFY(item->plottable()->visible());
            break;
        }
        // The totals above the stacks fit under the axis rect's top (a short chart cut them off).
        int totals = 0;
        for (int i = 0; i < chart.itemCount(); ++i)
            if (auto* label = qobject_cast<QCPItemText*>(chart.item(i));
                label && label->clipAxisRect() == chart.stackRect()) {
                const double top = label->position->pixelPosition().y() - QFontMetrics(label->font()).height()
                    - label->padding().bottom();
                QVERIFY2(top >= stack.top(),
                    qPrintable(s("%1 at %2, axis rect from %3").arg(label->text()).arg(top).arg(stack.top())));
                ++totals;
            }
        QCOMPARE(totals, 2);
        // Every line of the subtitle fits the chart's width.
        const QFontMetrics metrics(chart.font());
        for (const QString& line : chart.subtitle().split(QLatin1Char('\n')))
            QVERIFY2(metrics.horizontalAdvance(line) <= size.width(), qPrintable(line));
    }
};

QTEST_MAIN(TestComparePane)
#include "tst_comparepane.moc"
