// SPDX-License-Identifier: GPL-3.0-or-later
// openacc_sum and openmp_sum on the hand-made OpenMP/OpenACC export of statsfixtures.h: every expected line is what
// the real `nsys stats -f csv` (Nsight Systems 2022.4) printed for the same rows (its "None" cells empty, as the
// workbench prints NULL), but for the order of equal totals from separate OpenMP tables, which changes from one nsys
// run to the next (the workbench: the tables in the file's order).
#include "statsfixtures.h"

#include <QTemporaryDir>
#include <QTest>

using namespace nsw;

class TestDirectiveReports : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_fixture;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_fixture = test::writeDirectiveFixture(m_dir.path());
    }

    void sameAsNsys_data()
    {
        QTest::addColumn<QString>("report");
        QTest::addColumn<QString>("expected");
        // "name@file:line" with a source file; a source file id without string makes the whole name NULL.
        QTest::newRow("openacc_sum (openaccsum)")
            << QStringLiteral("openacc_sum")
            << QStringLiteral("Time(%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
                              "42.9,120,2,60.0,60.0,50,70,14.1,acc_enqueue_launch@saxpy.c:12\n"
                              "25.0,70,1,70.0,70.0,70,70,0.0,\n"
                              "25.0,70,1,70.0,70.0,70,70,0.0,acc_enter_data@saxpy.c:12\n"
                              "7.1,20,1,20.0,20.0,20,20,0.0,acc_enqueue_launch\n");
        // One row per (table, name): omp_thread of OPENMP_EVENT_KIND_PARALLEL is a row of its own.
        QTest::newRow("openmp_sum (openmpevtsum)")
            << QStringLiteral("openmp_sum")
            << QStringLiteral("Time (%),Total Time (ns),Count,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
                              "21.1,200,2,100.0,100.0,100,100,0.0,omp_thread\n"
                              "21.1,200,1,200.0,200.0,200,200,0.0,omp_parallel\n"
                              "21.1,200,1,200.0,200.0,200,200,0.0,omp_barrier\n"
                              "21.1,200,1,200.0,200.0,200,200,0.0,\n"
                              "15.8,150,1,150.0,150.0,150,150,0.0,omp_thread\n");
    }

    void sameAsNsys()
    {
        QFETCH(QString, report);
        QFETCH(QString, expected);
        QCOMPARE(test::reportCsvOf(m_fixture, report), expected);
    }
};

QTEST_GUILESS_MAIN(TestDirectiveReports)
#include "tst_directivereports.moc"
