// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/kernelsummarymodel.h"
#include "core/models/modelroles.h"
#include "core/models/sortfilterproxy.h"
#include "kernelfixture.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace nsw;
using namespace nsw::test;

class TestKernelSummaryModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rawValuesAndSorting()
    {
        KernelSummaryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        SortFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const ProfilePtr p = twoDeviceKernels();
        auto index = std::make_shared<const KernelIndex>(p, KernelNameMode::Demangled);
        model.setResults(index, summarizeKernels(*index, {}, false));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.totalTime(), qint64(810));
        proxy.sort(KernelSummaryModel::TotalColumn, Qt::DescendingOrder);
        // k2 600 ns before k1 210 ns: sorted by the raw value, not the formatted text.
        QCOMPARE(proxy.index(0, KernelSummaryModel::NameColumn).data().toString(), QStringLiteral("k2"));
        QCOMPARE(proxy.index(0, KernelSummaryModel::TotalColumn).data(SortRole).toLongLong(), qint64(600));
        QCOMPARE(proxy.index(0, KernelSummaryModel::TotalColumn).data().toString(), QStringLiteral("600 ns"));
        QCOMPARE(proxy.index(1, KernelSummaryModel::InstancesColumn).data(SortRole).toLongLong(), qint64(6));
        // 600 / 810 = 74.07 %
        QCOMPARE(proxy.index(0, KernelSummaryModel::TimePercentColumn).data().toString(), QStringLiteral("74.1"));
        QCOMPARE(proxy.setFilter(QStringLiteral("k1"), false), QString());
        QCOMPARE(proxy.rowCount(), 1);
        QVERIFY(!proxy.setFilter(QStringLiteral("k1("), true).isEmpty()); // invalid regex refused
        QCOMPARE(proxy.rowCount(), 1); // and the previous filter kept
        QCOMPARE(proxy.setFilter(QStringLiteral("^k[12]$"), true), QString());
        QCOMPARE(proxy.rowCount(), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestKernelSummaryModel)
#include "tst_kernelsummarymodel.moc"
