// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/kernelinstancemodel.h"
#include "core/models/modelroles.h"
#include "kernelfixture.h"
#include "profilebuilder.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QSignalSpy>
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

    // k1's durations in the fixture: 10, 20, 30 (rows 0-2), 40 (row 4), 50, 60 (rows 6, 7).
    void durationFilterListsTheBrushedRange_data()
    {
        QTest::addColumn<qint64>("min");
        QTest::addColumn<qint64>("max");
        QTest::addColumn<QList<qint64>>("durations"); ///< listed, longest first
        QTest::newRow("middle") << qint64(20) << qint64(45) << QList<qint64> { 40, 30, 20 };
        QTest::newRow("bounds included") << qint64(10) << qint64(10) << QList<qint64> { 10 };
        QTest::newRow("upper bound included") << qint64(41) << qint64(60) << QList<qint64> { 60, 50 };
        QTest::newRow("between executions") << qint64(31) << qint64(39) << QList<qint64> {};
        QTest::newRow("everything") << qint64(0) << qint64(1000) << QList<qint64> { 60, 50, 40, 30, 20, 10 };
    }
    void durationFilterListsTheBrushedRange()
    {
        QFETCH(qint64, min);
        QFETCH(qint64, max);
        QFETCH(QList<qint64>, durations);
        KernelInstanceModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setInstances(twoDeviceKernels(), { 0, 1, 2, 4, 6, 7 });
        model.sort(KernelInstanceModel::DurationColumn, Qt::DescendingOrder);
        model.setDurationFilter(KernelInstanceModel::DurationRange { min, max });
        QList<qint64> listed;
        for (int r = 0; r < model.rowCount(); ++r)
            listed << model.index(r, KernelInstanceModel::DurationColumn).data(SortRole).toLongLong();
        QCOMPARE(listed, durations); // the sort order survives the filter
        QCOMPARE(model.allKernelRows().size(), std::size_t(6));
        model.setDurationFilter(std::nullopt);
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.index(0, KernelInstanceModel::DurationColumn).data(SortRole).toLongLong(), qint64(60));
    }

    void newInstancesDropTheDurationFilter()
    {
        KernelInstanceModel model;
        const ProfilePtr p = twoDeviceKernels();
        model.setInstances(p, { 0, 1, 2, 4, 6, 7 });
        model.setDurationFilter(KernelInstanceModel::DurationRange { 10, 20 });
        QCOMPARE(model.rowCount(), 2);
        model.setInstances(p, { 3, 5, 8 }); // k2: 100, 200, 300
        QVERIFY(!model.durationFilter());
        QCOMPARE(model.rowCount(), 3);
    }

    /// More than kSortInPlaceRows executions sort off the GUI thread (1.29M took 3.2 s on it): sort() returns with
    /// the rows as they were, and the new order arrives with sortingChanged(false), the selection on its kernel.
    /// Durations are hand-made: execution i lasts (i * 7919) % 150001 ns, a permutation of 0..150000.
    void manyRowsSortInTheBackground()
    {
        constexpr int n = 150'001;
        ProfileBuilder b;
        const ProcessIndex p = b.process(1);
        std::vector<std::uint32_t> rows;
        for (int i = 0; i < n; ++i)
            rows.push_back(std::uint32_t(b.kernelWithoutApi(p, qint64(i) * 1'000'000,
                qint64(i) * 1'000'000 + (qint64(i) * 7919) % n, QStringLiteral("k"), 0, 7, std::uint32_t(i + 1))));
        KernelInstanceModel model;
        model.setInstances(b.build(), rows);
        QItemSelectionModel selection(&model);
        selection.setCurrentIndex(model.index(1, 0), QItemSelectionModel::SelectCurrent); // 7919 ns
        QSignalSpy sorting(&model, &KernelInstanceModel::sortingChanged);
        QVERIFY(std::size_t(n) > KernelInstanceModel::kSortInPlaceRows);
        model.sort(KernelInstanceModel::DurationColumn, Qt::DescendingOrder);
        QCOMPARE(sorting.count(), 1);
        QCOMPARE(sorting.at(0).at(0).toBool(), true);
        QVERIFY(model.isSorting());
        QCOMPARE(model.kernelRowAt(0), rows[0]); // not yet
        QTRY_COMPARE_WITH_TIMEOUT(sorting.count(), 2, 30000);
        QCOMPARE(sorting.at(1).at(0).toBool(), false);
        QCOMPARE(model.index(0, KernelInstanceModel::DurationColumn).data(SortRole).toLongLong(), qint64(n - 1));
        QCOMPARE(model.index(n - 1, KernelInstanceModel::DurationColumn).data(SortRole).toLongLong(), qint64(0));
        QCOMPARE(selection.currentIndex().row(), n - 1 - 7919); // durations n-1..0: 7919 ns at row n-1-7919
        QCOMPARE(model.kernelRowAt(selection.currentIndex().row()), rows[1]);
        // A new list drops a sort still running: its order never lands on the new rows.
        model.sort(KernelInstanceModel::StartColumn, Qt::AscendingOrder);
        QVERIFY(model.isSorting());
        model.setInstances(model.profile(), { rows[2], rows[1] });
        QVERIFY(!model.isSorting());
        QCOMPARE(sorting.last().at(0).toBool(), false);
        QTest::qWait(50);
        QCOMPARE(model.kernelRowAt(0), rows[2]);
    }

    /// Past kRowsPerFetch executions a view gets them a page at a time: fetchMore() adds the next page (a view calls it
    /// when scrolled to the end), selecting an execution further down adds the rows up to it, the CSV snapshot holds
    /// every row. Rows: kernel 0 listed n - 1 times, then kernel 1 once, last.
    void manyRowsAreFetchedAPageAtATime()
    {
        const std::size_t page = KernelInstanceModel::kRowsPerFetch;
        const std::size_t n = page * 2 + page / 2;
        std::vector<std::uint32_t> rows(n, 0);
        rows.back() = 1;
        // No QAbstractItemModelTester: it calls fetchMore() itself, from its handler of the reset.
        KernelInstanceModel model;
        model.setInstances(twoDeviceKernels(), rows);
        QCOMPARE(model.rowCount(), int(page));
        QCOMPARE(model.listedCount(), n);
        QVERIFY(model.canFetchMore({}));
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.fetchMore({});
        QCOMPARE(model.rowCount(), int(2 * page));
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.at(0).at(1).toInt(), int(page));
        QCOMPARE(inserted.at(0).at(2).toInt(), int(2 * page - 1));
        QCOMPARE(model.showRowOfKernel(1), int(n - 1));
        QCOMPARE(model.rowCount(), int(n));
        QVERIFY(!model.canFetchMore({}));
        QCOMPARE(model.showRowOfKernel(7), -1); // not listed
        // A new list starts at one page again; the snapshot a CSV export writes holds all of it.
        model.setInstances(model.profile(), rows);
        QCOMPARE(model.rowCount(), int(page));
        QCOMPARE(model.csvSnapshot()->rowCount(), int(n));
    }

    /// The copy the background CSV export writes from writes the model's CSV, rows in the order shown.
    void snapshotWritesTheSameCsv()
    {
        KernelInstanceModel model;
        model.setInstances(twoDeviceKernels(), { 0, 1, 2, 4, 6, 7 });
        model.sort(KernelInstanceModel::DurationColumn, Qt::DescendingOrder);
        const std::unique_ptr<QAbstractItemModel> copy = model.csvSnapshot();
        QCOMPARE(modelCsv(*copy, RawValueRole), modelCsv(model, RawValueRole));
        QVERIFY(modelCsv(model, RawValueRole).startsWith(QStringLiteral("Start (ns),Duration (ns),")));
        QCOMPARE(copy->thread(), nullptr); // usable on the export's thread
    }
};

QTEST_GUILESS_MAIN(TestKernelInstanceModel)
#include "tst_kernelinstancemodel.moc"
