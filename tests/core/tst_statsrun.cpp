// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/profileloader.h"
#include "core/reports/statsrun.h"
#include "core/stats/reporttable.h"
#include "oracleexports.h"
#include "profilebuilder.h"
#include "sqlitefixture.h"

#include <QTest>

using namespace nsw;

class TestStatsRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void planRefuses_data()
    {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QString>("error");
        QTest::addRow("unknown report") << QStringList { QStringLiteral("osrt_sum"), QStringLiteral("nope") }
                                        << QStringLiteral("unknown report 'nope'");
        QTest::addRow("argument the report does not take") << QStringList { QStringLiteral("osrt_sum:base") }
                                                           << QStringLiteral("report osrt_sum has no argument ':base'");
    }
    void planRefuses()
    {
        QFETCH(QStringList, names);
        QFETCH(QString, error);
        const Result<StatsPlan> plan = planReports(names);
        QVERIFY(!plan);
        QCOMPARE(plan.error().kind, ErrorKind::Usage);
        QCOMPARE(plan.errorMessage(), error);
    }

    void planLoadsOnlyWhatItsReportsNeed_data()
    {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<unsigned>("parts");
        QTest::addRow("OS runtime only") << QStringList { QStringLiteral("osrt_sum") } << unsigned(LoadOsrt);
        QTest::addRow("old name of the kernel summary")
            << QStringList { QStringLiteral("gpukernsum") } << unsigned(LoadKernels);
        QTest::addRow("two reports: the union") << QStringList { QStringLiteral("cuda_api_sum"),
            QStringLiteral(" osrt_sum") } << unsigned(LoadCudaApi | LoadOsrt);
    }
    void planLoadsOnlyWhatItsReportsNeed()
    {
        QFETCH(QStringList, names);
        QFETCH(unsigned, parts);
        const Result<StatsPlan> plan = planReports(names);
        QVERIFY2(plan, qPrintable(plan.errorMessage()));
        QCOMPARE(plan->load.parts, parts);
        QCOMPARE(plan->reports.size(), std::size_t(names.size()));
    }

    void computesInOrderWithSkippedReports()
    {
        test::ProfileBuilder b;
        const ThreadIndex t = b.thread(b.process(10), 10);
        b.osrtCall(t, 100, 350, QStringLiteral("read"));
        b.osrtCall(t, 400, 450, QStringLiteral("read"));
        const ProfilePtr p = b.build();
        const Result<StatsPlan> plan = planReports({ QStringLiteral("osrt_sum"), QStringLiteral("nvtx_sum") });
        QVERIFY(plan);
        const Result<std::vector<ReportTable>> tables = computeReports(*plan, *p);
        QVERIFY(tables);
        QCOMPARE(tables->size(), std::size_t(2));
        QCOMPARE(tables->at(0).name, QStringLiteral("osrt_sum"));
        QVERIFY(tables->at(0).skipped.isEmpty());
        QCOMPARE(tables->at(0).rows.size(), std::size_t(1));
        QCOMPARE(std::get<qint64>(tables->at(0).rows[0][1]), qint64(250 + 50)); // Total Time (ns), by hand
        QVERIFY(!tables->at(1).skipped.isEmpty()); // no NVTX in this profile
    }

    void cancelledBeforeTheNextReport()
    {
        const ProfilePtr p = test::ProfileBuilder().build();
        const Result<StatsPlan> plan = planReports({ QStringLiteral("osrt_sum"), QStringLiteral("cuda_api_sum") });
        QVERIFY(plan);
        CancelToken token;
        int reported = 0;
        const JobContext job(token, [&](const Progress&) {
            if (++reported == 1)
                token.cancel(); // while the first report runs
        });
        const Result<std::vector<ReportTable>> tables = computeReports(*plan, *p, job);
        QVERIFY(tables.isCancelled());
        QCOMPARE(reported, 1);
    }

    /// An export older than the ENUM tables: `stats` refuses the memory reports as nsys does; the window's plan shows
    /// them with nsys 2022.4's names, each row's count and total equal to plain SQL's.
    void memoryReportsOfPreEnumExportsInTheWindow()
    {
        const QString path = nsw::test::generatedExport(QStringLiteral("2021"));
        QVERIFY(!path.isEmpty());
        const LoadResult loaded = ProfileLoader::load(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
        Result<StatsPlan> plan = planReports({ QStringLiteral("cuda_gpu_mem_time_sum") });
        QVERIFY(plan.ok());
        QVERIFY(computeReports(*plan, *loaded->profile)
                    ->front()
                    .skipped.endsWith(QStringLiteral("does not contain ENUM_CUDA_MEMCPY_OPER table.")));
        plan->reports.front().legacyMemcpyNames = true;
        const ReportTable t = computeReports(*plan, *loaded->profile)->front();
        QVERIFY2(t.skipped.isEmpty(), qPrintable(t.skipped));
        QVERIFY(t.note.contains(QStringLiteral("nsys 2022.4")));
        std::map<QString, std::pair<qint64, qint64>> expected; // name -> count, total ns
        const QStringList legacy
            = QStringLiteral(",HtoD,DtoH,HtoA,AtoH,AtoA,AtoD,DtoA,DtoD,HtoH,PtoP").split(QLatin1Char(','));
        for (const QStringList& row : nsw::test::queryRows(path,
                 QStringLiteral("SELECT copyKind, COUNT(*), SUM(end - start) FROM CUPTI_ACTIVITY_KIND_MEMCPY "
                                "GROUP BY copyKind")))
            expected[QStringLiteral("[CUDA memcpy %1]").arg(legacy.value(row[0].toInt()))]
                = { row[1].toLongLong(), row[2].toLongLong() };
        for (const QStringList& row : nsw::test::queryRows(
                 path, QStringLiteral("SELECT COUNT(*), SUM(end - start) FROM CUPTI_ACTIVITY_KIND_MEMSET")))
            if (row[0].toLongLong() > 0)
                expected[QStringLiteral("[CUDA memset]")] = { row[0].toLongLong(), row[1].toLongLong() };
        QVERIFY(!expected.empty());
        const int name = t.columnIndex(QStringLiteral("Operation"));
        const int count = t.columnIndex(QStringLiteral("Count"));
        const int total = t.columnIndex(QStringLiteral("Total Time (ns)"));
        std::map<QString, std::pair<qint64, qint64>> shown;
        for (const std::vector<ReportValue>& row : t.rows)
            shown[std::get<QString>(row[std::size_t(name)])]
                = { std::get<qint64>(row[std::size_t(count)]), std::get<qint64>(row[std::size_t(total)]) };
        QCOMPARE(shown, expected);
    }
};

QTEST_GUILESS_MAIN(TestStatsRun)
#include "tst_statsrun.moc"
