// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/reports/reportregistry.h"
#include "core/stats/apitrace.h"
#include "core/stats/reportformat.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;
using namespace nsw::test;

class TestApiTrace : public QObject
{
    Q_OBJECT
private:
    static QStringList lines(const QString& csv) { return csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }

private Q_SLOTS:
    void trace()
    {
        ProfileBuilder b;
        const ProcessIndex p = b.process(10);
        const ThreadIndex main = b.thread(p, 10, QStringLiteral("main"));
        const ThreadIndex worker = b.thread(p, 11, QStringLiteral("worker"));
        b.apiCall(main, 0, 5, QStringLiteral("cudaLaunchKernel_v7000")); // correlation 1
        b.apiCall(main, 10, 12, QStringLiteral("cudaMemcpyAsync_v3020")); // 2
        b.apiCall(main, 30, 31, QStringLiteral("cudaMemcpyAsync_v3020")); // 3
        b.apiCall(main, 20, 22, QStringLiteral("cudaGetDeviceProperties_v2_v12000")); // 4
        b.apiCall(worker, 10, 11, QStringLiteral("cuCtxSynchronize")); // 5: same start as call 2, later row
        b.profile().cudaApi.returnValue = { 0, 0, 0, 0, 700 };
        // "main" is named in ThreadNames (priority 20); "worker" only by NVTX, which the report's join ignores.
        b.profile().threads[std::size_t(main)].namePriority = 20;
        const QStringList expected = {
            QStringLiteral("Start (ns),Duration (ns),Name,Result,CorrID,Pid,Tid,T-Pri,Thread Name"),
            QStringLiteral("0,5,cudaLaunchKernel,0,1,10,10,20,main"),
            QStringLiteral("10,2,cudaMemcpyAsync,0,2,10,10,20,main"),
            QStringLiteral("10,1,cuCtxSynchronize,700,5,10,11,,"),
            QStringLiteral("20,2,cudaGetDeviceProperties_v2_v12000,0,4,10,10,20,main"),
            QStringLiteral("30,1,cudaMemcpyAsync,0,3,10,10,20,main"),
        };
        const ProfilePtr profile = b.build();
        const ReportTable t = cudaApiTrace(*profile);
        QVERIFY(t.rows.empty()); // made on demand
        QCOMPARE(lines(reportToCsv(t)), expected);

        FocusRange focus;
        focus.start = 12;
        focus.end = 21;
        // Overlapping [12, 21): the call ending at 12 and the one starting at 20.
        QCOMPARE(
            lines(reportToCsv(cudaApiTrace(*profile, focus))), (QStringList { expected[0], expected[2], expected[4] }));
    }

    void skipped_data()
    {
        QTest::addColumn<bool>("table");
        QTest::addColumn<QString>("message");
        QTest::addRow("no API table") << false << QStringLiteral("/data/x.sqlite does not contain CUDA trace data.");
        QTest::addRow("empty API table") << true << QStringLiteral("No data available.");
    }
    void skipped()
    {
        QFETCH(bool, table);
        QFETCH(QString, message);
        ProfileBuilder b;
        b.process(1);
        ProfilePtr p = b.build(QStringLiteral("/data/x.sqlite"));
        if (table)
            const_cast<Profile&>(*p).meta.tables.append(QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME"));
        QStringList arguments;
        const ReportSpec* spec = findReport(QStringLiteral("cudaapitrace"), &arguments);
        QVERIFY(spec);
        QCOMPARE(spec->name, QStringLiteral("cuda_api_trace"));
        QCOMPARE(spec->compute(*p, arguments, {}).skipped, message);
    }
};

QTEST_GUILESS_MAIN(TestApiTrace)
#include "tst_apitrace.moc"
