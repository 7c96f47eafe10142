// SPDX-License-Identifier: GPL-3.0-or-later
// um_sum, um_total_sum and um_cpu_page_faults_sum on the hand-made unified memory export of statsfixtures.h: every
// expected line is what the real `nsys stats -f csv` (Nsight Systems 2022.4) printed for the same rows (its "None"
// cells empty, as the workbench prints NULL).
#include "sqlitefixture.h"
#include "statsfixtures.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;

class TestUmReports : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_fixture;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_fixture = test::writeUnifiedMemoryFixture(m_dir.path());
    }

    void sameAsNsys_data()
    {
        QTest::addColumn<QString>("report");
        QTest::addColumn<QString>("expected");
        const QString header = QStringLiteral("Virtual Address,HtoD Migration size (MB),DtoH Migration size (MB),CPU "
                                              "Page Faults, GPU Page Faults,Migration Throughput (MBps)\n");
        // By throughput (a zero-duration migration has none), then fault addresses before migration-only ones.
        QTest::newRow("um_sum (unifiedmemory)") << QStringLiteral("um_sum")
                                                << header
                + QStringLiteral("0x7F544A48C000,,2.097,,,2995930.530\n"
                                 "0x7F544A44C000,0.070,,2,3,49737.093\n"
                                 "0x7F544A49C000,0.012,,,,36900.901\n"
                                 "0xFF,,,1,,\n"
                                 "0x7F544A45C000,,,1,,\n"
                                 "0x7F544A46C000,,,1,,\n"
                                 "0x7F544A47C000,,,,7,\n"
                                 "0x7F544A4AC000,0.004,,,,\n");
        QTest::newRow("um_sum:rows=2 (unifiedmemory:rows=2)") << QStringLiteral("um_sum:rows=2")
                                                              << header
                + QStringLiteral("0x7F544A48C000,,2.097,,,2995930.530\n"
                                 "0x7F544A44C000,0.070,,2,3,49737.093\n");
        QTest::newRow("um_total_sum (unifiedmemorytotals)")
            << QStringLiteral("um_total_sum")
            << QStringLiteral("Total HtoD Migration Size (MB),Total DtoH Migration Size (MB),Total CPU Page Faults,"
                              "Total GPU PageFaults,Minimum Virtual Address,Maximum Virtual Address\n"
                              "0.086,2.097,5,10,0xFF,0x7F544A4AC000\n");
        QTest::newRow("um_cpu_page_faults_sum (umcpupagefaults)")
            << QStringLiteral("um_cpu_page_faults_sum")
            << QStringLiteral("CPU Page Faults,CPU Instruction Address\n"
                              "2,main\n"
                              "1,compute_loop\n"
                              "1,0x4005d0\n"
                              "1,\n");
    }

    void sameAsNsys()
    {
        QFETCH(QString, report);
        QFETCH(QString, expected);
        QCOMPARE(test::reportCsvOf(m_fixture, report), expected);
    }

    /// As nsys 2022.4: one source without a row (here no device-to-host migration) empties both address extremes,
    /// SQLite's min() and max() of several values being NULL when one of them is; the totals stay.
    void addressesEmptyWithoutOneSource()
    {
        const QString copy = m_dir.filePath(QStringLiteral("no-dtoh.sqlite"));
        QFile::remove(copy);
        QVERIFY(QFile::copy(m_fixture, copy));
        QFile(copy).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QCOMPARE(test::execOnFile(copy, QStringLiteral("DELETE FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 12")),
            QString());
        QCOMPARE(test::reportCsvOf(copy, QStringLiteral("um_total_sum")).section(QLatin1Char('\n'), 1),
            QStringLiteral("0.086,,5,10,,\n"));
    }

    void badRowLimitRefused()
    {
        QCOMPARE(test::reportCsvOf(m_fixture, QStringLiteral("um_sum:rows=abc")),
            QStringLiteral("report um_sum: argument rows: invalid int value: 'abc'"));
        QCOMPARE(test::reportCsvOf(m_fixture, QStringLiteral("um_sum:base")),
            QStringLiteral("report um_sum has no argument ':base'"));
    }
};

QTEST_GUILESS_MAIN(TestUmReports)
#include "tst_umreports.moc"
