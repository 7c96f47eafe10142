// SPDX-License-Identifier: GPL-3.0-or-later
// The window's panes under a focus range (issue 16): what they show is checked against plain SQL with nsys's overlap
// predicate on generated exports, never against the code's own output.
#include "app/mainwindow.h"
#include "core/compare/comparison.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/models/kernelsummarymodel.h"
#include "core/models/modelroles.h"
#include "core/models/sortfilterproxy.h"
#include "core/profile/capturespan.h"
#include "core/session/workbench.h"
#include "generator.h"
#include "widgets/compare/comparepane.h"
#include "widgets/kernels/kerneltablepane.h"
#include "widgets/nvtx/nvtxpane.h"
#include "widgets/shell/focusbanner.h"
#include "widgets/shell/focusrangedialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <map>

using namespace nsw;

namespace {

/// Plain SQL on an export, with nsys's range filter: an event belongs to [s, e) when it starts in it, ends in it or
/// spans it.
class Oracle
{
public:
    explicit Oracle(const QString& path)
        : m_name(QStringLiteral("oracle-%1").arg(++s_connections))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setDatabaseName(path);
        db.open();
    }
    ~Oracle() { QSqlDatabase::removeDatabase(m_name); }

    /// min(start), max(end) of the kernels.
    std::pair<qint64, qint64> kernelSpan() const
    {
        QSqlQuery q(QSqlDatabase::database(m_name));
        q.exec(QStringLiteral("SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        q.next();
        return { q.value(0).toLongLong(), q.value(1).toLongLong() };
    }

    /// Instances per demangled name of the kernels overlapping [s, e) (all kernels when s == e == 0).
    std::map<QString, qint64> kernelsByName(qint64 s = 0, qint64 e = 0) const
    {
        QSqlQuery q(QSqlDatabase::database(m_name));
        const QString where = s == 0 && e == 0
            ? QString()
            : QStringLiteral(" WHERE (k.start >= %1 AND k.start < %2) OR (k.end >= %1 "
                             "AND k.end < %2) OR (k.start < %1 AND k.end >= %2)")
                  .arg(s)
                  .arg(e);
        q.exec(QStringLiteral("SELECT n.value, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds n ON n.id = "
                              "k.demangledName%1 GROUP BY n.value")
                   .arg(where));
        std::map<QString, qint64> out;
        while (q.next())
            out[q.value(0).toString()] = q.value(1).toLongLong();
        return out;
    }

private:
    static inline int s_connections = 0;
    QString m_name;
};

qint64 sum(const std::map<QString, qint64>& counts)
{
    qint64 n = 0;
    for (const auto& [name, count] : counts)
        n += count;
    return n;
}

} // namespace

class TestFocusPanes : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_first;
    QString m_second;

    static QString generate(const QString& path, quint64 seed)
    {
        tracegen::GeneratorConfig c;
        c.outPath = path;
        c.kernels = 3000;
        c.layers = 2;
        c.seed = seed;
        tracegen::generateExport(c);
        return path;
    }

    static bool openAndWait(MainWindow& w, const QStringList& paths)
    {
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles(paths);
        while (ended.count() < paths.size())
            if (!ended.wait(30000))
                return false;
        return w.workbench()->sessions().size() == std::size_t(paths.size());
    }

    static ProfileSession* sessionOf(MainWindow& w, const QString& path)
    {
        for (ProfileSession* s : w.workbench()->sessions())
            if (s->path() == path)
                return s;
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_first = generate(m_dir.filePath(QStringLiteral("first.sqlite")), 1);
        m_second = generate(m_dir.filePath(QStringLiteral("second.sqlite")), 2);
    }

    void kernelsFollowTheFocus()
    {
        MainWindow w(true);
        QVERIFY(openAndWait(w, { m_first }));
        ProfileSession* session = w.workbench()->current();
        auto* kernels = qobject_cast<KernelTablePane*>(w.pane(QStringLiteral("kernels")));
        QVERIFY(kernels);
        QAbstractItemModel* shown = kernels->summaryView()->model();
        const auto visible = [&]() {
            std::map<QString, qint64> rows;
            for (int r = 0; r < shown->rowCount(); ++r)
                rows[shown->index(r, KernelSummaryModel::NameColumn).data(KernelNameRole).toString()]
                    = shown->index(r, KernelSummaryModel::InstancesColumn).data(SortRole).toLongLong();
            return rows;
        };
        const Oracle oracle(m_first);
        const auto [s, end] = oracle.kernelSpan();
        const qint64 e = s + (end - s) / 3; // the first third of the kernels' span
        const std::map<QString, qint64> all = oracle.kernelsByName();
        const std::map<QString, qint64> inside = oracle.kernelsByName(s, e);
        QVERIFY(sum(inside) > 0 && sum(inside) < sum(all));
        QTRY_COMPARE(visible(), all);
        QVERIFY(!kernels->summaryLabel()->text().contains(QStringLiteral("Focus")));

        session->setFocus(FocusRange { s, e, QStringLiteral("first third") });
        QTRY_COMPARE(visible(), inside);
        const QString label = kernels->summaryLabel()->text();
        QVERIFY2(label.startsWith(QStringLiteral("Focus first third: %1 kernel executions").arg(sum(inside))),
            qPrintable(label));
        // The executions listed for a kernel are those in the focus too.
        kernels->summaryView()->setCurrentIndex(shown->index(0, 0));
        const QString name = shown->index(0, KernelSummaryModel::NameColumn).data(KernelNameRole).toString();
        QCOMPARE(qint64(kernels->instanceView()->model()->rowCount()), inside.at(name));

        session->clearFocus();
        QTRY_COMPARE(visible(), all);
        QVERIFY(!kernels->summaryLabel()->text().contains(QStringLiteral("Focus")));
    }

    void compareEntriesFollowTheFocusOfTheirProfile()
    {
        MainWindow w(true);
        QVERIFY(openAndWait(w, { m_first, m_second }));
        auto* compare = qobject_cast<ComparePane*>(w.pane(QStringLiteral("compare")));
        QVERIFY(compare);
        CompareController* controller = compare->controller();
        ProfileSession* first = sessionOf(w, m_first);
        ProfileSession* second = sessionOf(w, m_second);
        QVERIFY(first && second);
        controller->setBaseline(first);
        QSignalSpy results(compare, &ComparePane::resultsShown);
        controller->activate();
        const auto instances = [&](std::size_t profile) {
            std::map<QString, qint64> out;
            const Comparison& c = controller->comparison();
            for (const CompareRow& r : c.rows)
                if (profile < r.cells.size() && r.cells[profile].instances > 0)
                    out[r.key] = r.cells[profile].instances;
            return out;
        };
        const Oracle firstOracle(m_first), secondOracle(m_second);
        QTRY_VERIFY(!controller->isBusy() && controller->comparison().profileCount() == 2);
        QCOMPARE(instances(0), firstOracle.kernelsByName());
        QCOMPARE(instances(1), secondOracle.kernelsByName());
        QVERIFY(!compare->statusText().contains(QStringLiteral("Focus")));

        // Only the second profile is focused: its entry counts the kernels overlapping the range, the baseline all.
        const auto [s, end] = secondOracle.kernelSpan();
        const qint64 e = s + (end - s) / 4;
        const std::map<QString, qint64> inside = secondOracle.kernelsByName(s, e);
        QVERIFY(sum(inside) > 0 && sum(inside) < sum(secondOracle.kernelsByName()));
        results.clear();
        second->setFocus(FocusRange { s, e, QStringLiteral("a quarter") });
        QTRY_VERIFY(results.count() > 0 && !controller->isBusy());
        QCOMPARE(instances(1), inside);
        QCOMPARE(instances(0), firstOracle.kernelsByName());
        QCOMPARE(controller->comparison().totals.cells[1].instances, sum(inside));
        const QString status = compare->statusText();
        QVERIFY2(
            status.contains(QStringLiteral("Focus: %1 on a quarter").arg(second->displayName())), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("the others show the whole capture")), qPrintable(status));

        results.clear();
        second->clearFocus();
        QTRY_VERIFY(results.count() > 0 && !controller->isBusy());
        QCOMPARE(instances(1), secondOracle.kernelsByName());
        QVERIFY(!compare->statusText().contains(QStringLiteral("Focus")));
    }

    void viewMenuFocusesOnATypedRange()
    {
        MainWindow w(true);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, { m_first }));
        ProfileSession* session = w.workbench()->current();
        QAction* action = nullptr;
        for (QAction* menu : w.menuBar()->actions())
            if (menu->menu())
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == QStringLiteral("Focus on Ran&ge…"))
                        action = a;
        QVERIFY(action && action->isEnabled());
        action->trigger();
        auto* dialog = w.findChild<FocusRangeDialog*>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        QTest::keyClicks(dialog->startEdit(), QStringLiteral("1ms"));
        QTest::keyClicks(dialog->endEdit(), QStringLiteral("2.5ms"));
        QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        // On the export's own clock, as the timeline's ruler and the tables show times.
        QCOMPARE(session->focus().start, TimeNs(1'000'000));
        QCOMPARE(session->focus().end, TimeNs(2'500'000));
        QVERIFY(w.focusBanner()->isVisible());
        QVERIFY2(w.focusBanner()->text().contains(QStringLiteral("1 ms–2.5 ms")), qPrintable(w.focusBanner()->text()));
        QTRY_VERIFY(!w.findChild<FocusRangeDialog*>()); // closed and deleted
    }

    void nvtxTreeFocusesTheProfile()
    {
        MainWindow w(true);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, { m_first }));
        ProfileSession* session = w.workbench()->current();
        auto* nvtx = qobject_cast<NvtxPane*>(w.pane(QStringLiteral("nvtx")));
        QVERIFY(nvtx);
        QTRY_VERIFY(nvtx->proxy()->rowCount() > 0);
        // The first range under the first thread of the first process.
        QModelIndex range = nvtx->proxy()->index(0, 0);
        while (range.isValid() && !nvtx->contextMenuFor(range)->actions().first()->isEnabled())
            range = nvtx->proxy()->index(0, 0, range);
        QVERIFY(range.isValid());
        QAction* focus = nvtx->contextMenuFor(range)->actions().first();
        QCOMPARE(focus->text(), QStringLiteral("&Focus on this range"));
        focus->trigger();
        const QString name = range.data().toString().section(QStringLiteral("  ("), 0, 0); // without "(N unterminated)"
        QVERIFY(session->focus().isActive());
        QVERIFY2(session->focus().label.startsWith(name), qPrintable(session->focus().label));
        QVERIFY(w.focusBanner()->isVisible());
        QVERIFY2(w.focusBanner()->text().contains(name), qPrintable(w.focusBanner()->text()));
    }
};

QTEST_MAIN(TestFocusPanes)
#include "tst_focuspanes.moc"
