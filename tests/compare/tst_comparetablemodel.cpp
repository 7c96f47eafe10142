// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparefixture.h"
#include "core/compare/comparison.h"
#include "core/models/comparetablemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/util/csv.h"

#include <QAbstractItemModelTester>
#include <QBuffer>
#include <QTest>
#include <cmath>

using namespace nsw;
using namespace nsw::test;
using TableColumn = CompareTableModel::Column;

namespace {
QString s(const char* text)
{
    return QString::fromUtf8(text);
}

/// before/after by normalized kernel name: rows gemm<...> (+250,000), old (removed), new, relu, tail.
Comparison fixtureComparison(CompareNormalization n = CompareNormalization::None)
{
    auto keys = [](const ProfilePtr& p) {
        return std::make_shared<const ProfileKeys>(kernelKeys(KernelIndex(p, KernelNameMode::Demangled), true));
    };
    CompareOptions o;
    o.normalization = n;
    o.noiseFloorNs = 0;
    return compareProfiles({ { s("before"), keys(beforeProfile()), 2 }, { s("after"), keys(afterProfile()), 3 } }, o);
}

QStringList column(const QAbstractItemModel& m, int c, int role = Qt::DisplayRole)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out.append(m.index(r, c).data(role).toString());
    return out;
}
} // namespace

class TestCompareTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tester()
    {
        CompareTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 1); // the totals row, empty
        model.setComparison(fixtureComparison());
        model.setStatusFilter(1u << unsigned(CompareStatus::Regression));
        model.setStatusFilter(CompareTableModel::kAllStatuses);
        model.setComparison(fixtureComparison(CompareNormalization::PerIteration));
        model.setComparison({});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), 2);
    }

    void columns()
    {
        CompareTableModel model;
        model.setComparison(fixtureComparison());
        QCOMPARE(model.columnCount(), 2 + 4 + 7);
        QStringList raw;
        for (int c = 0; c < model.columnCount(); ++c)
            raw.append(model.headerData(c, Qt::Horizontal, RawValueRole).toString());
        QCOMPARE(raw,
            (QStringList { s("Key"), s("Status"), s("before Total (ns)"), s("before Instances"),
                s("before Average (ns)"), s("before Share (%)"), s("after Total (ns)"), s("after Instances"),
                s("after Average (ns)"), s("after Share (%)"), s("after Delta (ns)"), s("after Delta instances"),
                s("after Delta (%)") }));
        QCOMPARE(model.headerData(11, Qt::Horizontal).toString(), s("after\nΔ instances"));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), s("before (baseline)\nTotal"));
        QCOMPARE(model.headerData(10, Qt::Horizontal).toString(), s("after\nΔ"));
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), s("Kernel"));
        QCOMPARE(model.headerData(5, Qt::Horizontal, CompareTableModel::ProfileRole).toInt(), 0);
        QCOMPARE(model.headerData(1, Qt::Horizontal, CompareTableModel::ProfileRole).toInt(), -1);
        QCOMPARE(model.columnOf(TableColumn::Delta, 1), 10);
        QCOMPARE(model.columnOf(TableColumn::Delta, 0), -1);
        QCOMPARE(model.columnOf(TableColumn::Status), 1);
        QCOMPARE(model.columnKind(7), TableColumn::Instances);
        QCOMPARE(model.profileOfColumn(7), 1);
    }

    void cells()
    {
        CompareTableModel model;
        model.setComparison(fixtureComparison());
        QCOMPARE(column(model, 0), (QStringList { s("(all GPU time)"), kGemmNormalized, kOld, kNew, kRelu, kTail }));
        QCOMPARE(column(model, 1),
            (QStringList { s("regression (slower, more calls)"), s("regression (slower, more calls)"), s("removed"),
                s("new"), s("unchanged"), s("unchanged") }));
        // Δ instances: 6 -> 7 kernels; gemm 2 -> 3, old 1 -> 0, new 0 -> 1.
        QCOMPARE(column(model, 11), (QStringList { s("+1"), s("+1"), s("-1"), s("+1"), s("+0"), s("+0") }));
        QCOMPARE(model.index(2, 11).data(RawValueRole).toLongLong(), -1);
        QCOMPARE(column(model, 2),
            (QStringList { s("350 µs"), s("200 µs"), s("40.0 µs"), s("–"), s("100 µs"), s("10.0 µs") }));
        QCOMPARE(column(model, 4),
            (QStringList { s("58.3 µs"), s("100 µs"), s("40.0 µs"), s("–"), s("50.0 µs"), s("10.0 µs") }));
        QCOMPARE(column(model, 5),
            (QStringList { s("100.0 %"), s("57.1 %"), s("11.4 %"), s("0.0 %"), s("28.6 %"), s("2.9 %") }));
        QCOMPARE(column(model, 10),
            (QStringList { s("+240 µs"), s("+250 µs"), s("-40.0 µs"), s("+30.0 µs"), s("+0 ns"), s("+0 ns") }));
        QCOMPARE(column(model, 12),
            (QStringList { s("+68.6 %"), s("+125.0 %"), s("-100.0 %"), s("new"), s("+0.0 %"), s("+0.0 %") }));
        // Raw values: integers without normalization; "new" has no raw percentage but sorts above all.
        QCOMPARE(model.index(1, 2).data(RawValueRole), QVariant(qint64(200'000)));
        QCOMPARE(model.index(1, 10).data(SortRole), QVariant(qint64(250'000)));
        QCOMPARE(model.index(1, 12).data(SortRole).toDouble(), 125.0);
        QVERIFY(!model.index(3, 12).data(RawValueRole).isValid());
        QVERIFY(std::isinf(model.index(3, 12).data(SortRole).toDouble()));
        QCOMPARE(model.index(0, 0).data(PinnedRole).toBool(), true);
        QCOMPARE(model.index(1, 0).data(PinnedRole).toBool(), false);
        QCOMPARE(model.index(0, 0).data(IdentityRole).toInt(), -1);
        QCOMPARE(model.index(2, 0).data(IdentityRole).toInt(), 1);
        QCOMPARE(model.index(2, 0).data(KernelNameRole).toString(), kOld);
        QCOMPARE(model.index(2, 10).data(CompareTableModel::StatusRole).toInt(), int(CompareStatus::Removed));
        QCOMPARE(model.index(2, 2).data(CompareTableModel::StatusRole).toInt(), int(CompareStatus::Unchanged));
        QCOMPARE(model.index(2, 1).data(CompareTableModel::StatusRole).toInt(), int(CompareStatus::Removed));
        QCOMPARE(model.rowOfKey(kNew), 3);
        QCOMPARE(model.rowAt(3)->key, kNew);
        QCOMPARE(model.rowAt(0), &model.comparison().totals);
        QVERIFY(!model.index(1, 0).data(CompareTableModel::ColorRole).isValid());
    }

    void normalizedCells()
    {
        CompareTableModel model;
        model.setComparison(fixtureComparison(CompareNormalization::PerIteration));
        QCOMPARE(model.headerData(2, Qt::Horizontal, RawValueRole).toString(), s("before Total (ns/iteration)"));
        QCOMPARE(model.headerData(3, Qt::Horizontal, RawValueRole).toString(), s("before Instances per iteration"));
        QCOMPARE(model.index(1, 6).data().toString(), s("150 µs/it"));
        QCOMPARE(model.index(1, 7).data().toString(), s("1.00"));
        QCOMPARE(model.index(1, 6).data(RawValueRole).toDouble(), 150'000.0);
        QCOMPARE(model.index(0, 3).data(RawValueRole).toDouble(), 3.0); // 6 kernels over 2 iterations
    }

    void proxyKeepsTotalsOnTop()
    {
        CompareTableModel model;
        model.setComparison(fixtureComparison());
        SortFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(-1);
        QCOMPARE(column(proxy, 0), column(model, 0));
        proxy.sort(10, Qt::DescendingOrder);
        QCOMPARE(column(proxy, 0), (QStringList { s("(all GPU time)"), kGemmNormalized, kNew, kRelu, kTail, kOld }));
        proxy.sort(10, Qt::AscendingOrder);
        QCOMPARE(column(proxy, 0), (QStringList { s("(all GPU time)"), kOld, kRelu, kTail, kNew, kGemmNormalized }));
        proxy.sort(12, Qt::DescendingOrder);
        QCOMPARE(column(proxy, 0).mid(0, 3), (QStringList { s("(all GPU time)"), kNew, kGemmNormalized }));
        proxy.sort(0, Qt::AscendingOrder);
        QCOMPARE(column(proxy, 0).first(), s("(all GPU time)"));
        QVERIFY(proxy.setFilter(s("relu"), false).isEmpty());
        QCOMPARE(column(proxy, 0), (QStringList { s("(all GPU time)"), kRelu }));
        QVERIFY(proxy.setFilter(s("^(old|new)_"), true).isEmpty());
        QCOMPARE(column(proxy, 0), (QStringList { s("(all GPU time)"), kNew, kOld }));
    }

    void statusFilter_data()
    {
        QTest::addColumn<unsigned>("mask");
        QTest::addColumn<QStringList>("keys");
        QTest::newRow("regressions") << (1u << unsigned(CompareStatus::Regression))
                                     << QStringList { s("(all GPU time)"), kGemmNormalized };
        QTest::newRow("new and removed") << ((1u << unsigned(CompareStatus::New))
            | (1u << unsigned(CompareStatus::Removed)))
                                         << QStringList { s("(all GPU time)"), kOld, kNew };
        QTest::newRow("changed") << (CompareTableModel::kAllStatuses & ~(1u << unsigned(CompareStatus::Unchanged)))
                                 << QStringList { s("(all GPU time)"), kGemmNormalized, kOld, kNew };
        QTest::newRow("nothing") << 0u << QStringList { s("(all GPU time)") };
    }

    void statusFilter()
    {
        QFETCH(unsigned, mask);
        QFETCH(QStringList, keys);
        CompareTableModel model;
        model.setComparison(fixtureComparison());
        model.setStatusFilter(mask);
        QCOMPARE(column(model, 0), keys);
        QCOMPARE(model.statusFilter(), mask);
    }

    /// A failed comparison (no iteration marker) keeps its profile names but has no values to show.
    void failedComparison()
    {
        CompareTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setComparison(fixtureComparison());
        const auto keys = std::make_shared<const ProfileKeys>(
            kernelKeys(KernelIndex(beforeProfile(), KernelNameMode::Demangled), false));
        CompareOptions o;
        o.normalization = CompareNormalization::PerIteration;
        const Comparison failed = compareProfiles({ { s("before"), keys, 0 }, { s("after"), keys, 0 } }, o);
        QCOMPARE(failed.error, s("before: no instance of the iteration marker"));
        model.setComparison(failed);
        QCOMPARE(model.columnCount(), 2);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, 1).data().toString(), s("unchanged"));
    }

    void csv()
    {
        CompareTableModel model;
        model.setComparison(fixtureComparison());
        model.setStatusFilter(1u << unsigned(CompareStatus::New));
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(writeModelCsv(model, buffer, RawValueRole));
        QCOMPARE(QString::fromUtf8(buffer.data()),
            s("Key,Status,before Total (ns),before Instances,before Average (ns),before Share (%),after Total (ns),"
              "after Instances,after Average (ns),after Share (%),after Delta (ns),after Delta instances,after Delta "
              "(%)\n"
              "(all GPU time),regression,350000,6,58333.333333333336,100,590000,7,84285.71428571429,100,240000,1,"
              "68.57142857142857\n"
              "new_kernel(int),new,0,0,0,0,30000,1,30000,5.084745762711864,30000,1,new\n"));
    }
};

QTEST_GUILESS_MAIN(TestCompareTableModel)
#include "tst_comparetablemodel.moc"
