// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/categories/categorytable.h"
#include "core/models/categorynamesmodel.h"
#include "core/models/categorytablemodel.h"
#include "core/models/ruletablemodel.h"
#include "profilebuilder.h"
#include "testutils.h"

#include <QAbstractItemModelTester>
#include <QMimeData>
#include <QSignalSpy>
#include <QTest>

using namespace nsw;

namespace {
struct Fixture
{
    RuleList rules;
    std::shared_ptr<const CategoryTimeline> timeline;
    RuleEvaluation evaluation;
    CategoryBreakdown breakdown;
};

/// GPU 0: gemm_a [0,10), nccl [4,8); GPU 1: gemm_b [0,6), odd [6,7); rules gemm, nccl, catch-all misc.
Fixture fixture(CategoryOptions options = {})
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(1), 1);
    b.kernel(t, -2, -1, 0, 10, QStringLiteral("gemm_a"), 0);
    b.kernel(t, -2, -1, 4, 8, QStringLiteral("nccl_x"), 0, 8);
    b.kernel(t, -2, -1, 0, 6, QStringLiteral("gemm_b"), 1);
    b.kernel(t, -2, -1, 6, 7, QStringLiteral("odd"), 1);
    Fixture f;
    f.rules.engine = QStringLiteral("e");
    f.rules.model = QStringLiteral("m");
    f.rules.rules = { CategoryRule::fromKey(QStringLiteral("gemm"), QStringLiteral("gemm")),
        CategoryRule::fromKey(QStringLiteral("nccl"), QStringLiteral("comm")),
        CategoryRule::fromKey(QStringLiteral("gemm_b"), QStringLiteral("never")),
        CategoryRule::fromKey(QStringLiteral(".*"), QStringLiteral("misc")) };
    f.timeline = CategoryTimeline::build(b.build(QStringLiteral("a.sqlite")));
    RuleMatchCache cache(NameSet { f.timeline->demangledNames(), f.timeline->shortNames() });
    f.evaluation = evaluateRules(f.rules, cache, nullptr);
    f.breakdown = categorize(*f.timeline, f.rules, f.evaluation, options);
    return f;
}
} // namespace

class TestCategoryModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void categoryTable()
    {
        CategoryTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        CategoryOptions options;
        options.mode = TimeMode::Exclusive;
        options.perDevice = true;
        options.wallNs = 20;
        const Fixture f = fixture(options);
        model.setTable(
            makeCategoryTable({ { QStringLiteral("a.sqlite"), QStringLiteral("a.sqlite"), f.timeline, f.breakdown } }));
        // Exclusive per GPU: GPU 0 gemm 10, comm 0 (inside gemm); GPU 1 gemm 6, misc 1; CPU 20-10 and 20-7.
        // Instances per bar, never summed over the bars: gemm_a on GPU 0 and gemm_b on GPU 1 are one each.
        QCOMPARE(test::printModel(model),
            QStringList({ QStringLiteral("gemm | 10 ns | 50.0 | 1 | 6 ns | 30.0 | 1"),
                QStringLiteral("comm | 0 ns | 0.0 | 1 | 0 ns | 0.0 | 0"),
                QStringLiteral("misc | 0 ns | 0.0 | 0 | 1 ns | 5.0 | 1"),
                QStringLiteral("CPU (non-GPU) | 10 ns | 50.0 |  | 13 ns | 65.0 | ") }));
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("exclusive · GPU 0"));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("% · GPU 0"));
        QCOMPARE(model.headerData(1, Qt::Horizontal, RawValueRole).toString(), QStringLiteral("GPU 0 (ns)"));
        QCOMPARE(model.headerData(3, Qt::Horizontal).toString(), QStringLiteral("instances · GPU 0"));
        QCOMPARE(model.headerData(6, Qt::Horizontal).toString(), QStringLiteral("instances · GPU 1"));
        QCOMPARE(model.index(0, 6).data(SortRole).toLongLong(), 1);
        QCOMPARE(model.index(0, 1).data(SortRole).toLongLong(), 10);
        QCOMPARE(model.index(0, 0).data(CategoryTableModel::ColorRole).toUInt(), categoryColor(QStringLiteral("gemm")));
        QCOMPARE(model.index(3, 0).data(IdentityRole).toInt(), -1);
        model.setTable({});
        QCOMPARE(model.rowCount(), 0);
    }

    void ruleTable()
    {
        RuleTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Fixture f = fixture();
        model.setRules(f.rules);
        model.setDiagnostics(f.evaluation.rules, f.breakdown.ruleInstances, f.breakdown.ruleTime, f.breakdown.mode);
        // g2g: gemm_a 10, gemm_b 0 (inside gemm_a), nccl 0, odd 0 (inside gemm_a's [0,10)).
        QCOMPARE(test::printModel(model),
            QStringList({ QStringLiteral("1 | gemm | gemm |  | demangled |  | 2 | 2 | 10 ns | ok"),
                QStringLiteral("2 | nccl | comm |  | demangled |  | 1 | 1 | 0 ns | ok"),
                QStringLiteral("3 | gemm_b | never |  | demangled |  | 0 | 0 | 0 ns | shadowed by rule 1"),
                QStringLiteral("4 | .* | misc |  | demangled |  | 1 | 1 | 0 ns | catch-all") }));
        QCOMPARE(model.index(2, 0).data(RuleTableModel::StatusRole).toInt(), int(RuleDiagnostic::Shadowed));
        QCOMPARE(model.index(0, RuleTableModel::CaseColumn).data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));

        // Edits are requested, not applied.
        QSignalSpy edits(&model, &RuleTableModel::editRequested);
        QVERIFY(model.setData(model.index(1, RuleTableModel::PatternColumn), QStringLiteral("NCCL")));
        QVERIFY(model.setData(model.index(1, RuleTableModel::CaseColumn), Qt::Checked, Qt::CheckStateRole));
        QCOMPARE(edits.size(), 2);
        QCOMPARE(edits[0][1].value<CategoryRule>().pattern, QStringLiteral("NCCL"));
        QVERIFY(edits[1][1].value<CategoryRule>().caseInsensitive);
        QCOMPARE(model.index(1, RuleTableModel::PatternColumn).data().toString(), QStringLiteral("nccl"));
        QVERIFY(!model.setData(model.index(1, RuleTableModel::NamesColumn), 3));

        // Drag rule 4 onto row 1: a move from 3 to 0; dropping below the last row moves it to the end.
        QSignalSpy moves(&model, &RuleTableModel::moveRequested);
        std::unique_ptr<QMimeData> data(model.mimeData({ model.index(3, 1) }));
        QVERIFY(!model.dropMimeData(data.get(), Qt::MoveAction, 0, 0, {}));
        data.reset(model.mimeData({ model.index(0, 1) }));
        QVERIFY(!model.dropMimeData(data.get(), Qt::MoveAction, -1, -1, {}));
        QCOMPARE(moves.size(), 2);
        QCOMPARE(moves[0], (QList<QVariant> { 3, 0 }));
        QCOMPARE(moves[1], (QList<QVariant> { 0, 3 }));

        RuleList shorter = f.rules;
        shorter.rules.pop_back();
        model.setRules(shorter);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, RuleTableModel::NamesColumn).data().toString(), QString());
    }

    void names()
    {
        CategoryNamesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Fixture f = fixture();
        model.setRows(categoryNameRows(*f.timeline, f.breakdown, f.evaluation, false), f.breakdown.mode);
        QCOMPARE(test::printModel(model),
            QStringList({ QStringLiteral("gemm_a | gemm | 1 | 1 | 10 ns"),
                QStringLiteral("nccl_x | comm | 2 | 1 | 0 ns"), QStringLiteral("gemm_b | gemm | 1 | 1 | 0 ns"),
                QStringLiteral("odd | misc | 4 (catch-all) | 1 | 0 ns") }));
        model.setRows(categoryNameRows(*f.timeline, f.breakdown, f.evaluation, true), f.breakdown.mode);
        QCOMPARE(test::printModel(model), QStringList({ QStringLiteral("odd | misc | 4 (catch-all) | 1 | 0 ns") }));
        QCOMPARE(model.index(0, 0).data(KernelNameRole).toString(), QStringLiteral("odd"));
        QCOMPARE(model.rowAt(0)->shortName, QStringLiteral("odd"));
        QVERIFY(!model.rowAt(1));
    }
};

QTEST_GUILESS_MAIN(TestCategoryModels)
#include "tst_categorymodels.moc"
