// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/modelroles.h"
#include "core/models/reporttablemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/stats/reports.h"
#include "profilebuilder.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace nsw;
using namespace nsw::test;

class TestReportTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsAReport()
    {
        ReportTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        SortFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ProfileBuilder b;
        const ThreadIndex t = b.thread(b.process(1), 1);
        b.osrtCall(t, 0, 1500000, QStringLiteral("poll"));
        b.osrtCall(t, 0, 900, QStringLiteral("ioctl"));
        b.osrtCall(t, 0, 100, QStringLiteral("ioctl"));
        model.setReport(osrtSum(*b.build()));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Total Time (ns)"));
        QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("1,500,000"));
        QCOMPARE(model.index(1, 3).data().toString(), QStringLiteral("500.0"));
        proxy.sort(1, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, 8).data().toString(), QStringLiteral("ioctl")); // 1000 < 1500000 as numbers
        QCOMPARE(proxy.index(0, 1).data(SortRole).toLongLong(), qint64(1000));
    }
};

QTEST_GUILESS_MAIN(TestReportTableModel)
#include "tst_reporttablemodel.moc"
