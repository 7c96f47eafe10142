// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/kernelinstancemodel.h"
#include "core/models/modelroles.h"
#include "kernelfixture.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QTest>

using namespace nsw;
using namespace nsw::test;

class TestKernelInstanceModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sortKeepsSelection()
    {
        KernelInstanceModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const ProfilePtr p = twoDeviceKernels();
        model.setInstances(p, { 0, 1, 2, 4, 6, 7 }); // all k1
        QCOMPARE(model.rowCount(), 6);
        QItemSelectionModel selection(&model);
        selection.setCurrentIndex(model.index(4, 0), QItemSelectionModel::SelectCurrent); // kernel row 6 (50 ns)
        model.sort(KernelInstanceModel::DurationColumn, Qt::DescendingOrder);
        QCOMPARE(model.index(0, KernelInstanceModel::DurationColumn).data(SortRole).toLongLong(), qint64(60));
        QCOMPARE(model.index(5, KernelInstanceModel::DurationColumn).data(SortRole).toLongLong(), qint64(10));
        QCOMPARE(selection.currentIndex().row(), 1); // the 50 ns kernel is now second
        QCOMPARE(model.kernelRowAt(selection.currentIndex().row()), 6u);
        QCOMPARE(model.index(1, KernelInstanceModel::DeviceColumn).data().toInt(), 1);
        QCOMPARE(model.index(1, KernelInstanceModel::ProcessColumn).data().toInt(), 2);
        QCOMPARE(model.index(1, KernelInstanceModel::LaunchColumn).data().toString(),
            QStringLiteral("cudaLaunchKernel_v7000"));
        QCOMPARE(model.index(1, KernelInstanceModel::BlockColumn).data().toString(), QStringLiteral("128 × 1 × 1"));
        model.sort(KernelInstanceModel::StartColumn, Qt::AscendingOrder);
        QCOMPARE(model.kernelRowAt(0), 0u);
    }
};

QTEST_GUILESS_MAIN(TestKernelInstanceModel)
#include "tst_kernelinstancemodel.moc"
