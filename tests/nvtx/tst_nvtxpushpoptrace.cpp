// SPDX-License-Identifier: GPL-3.0-or-later
// nvtx_pushpop_trace (parents, ties, identical ranges, an unterminated range) on the hand-made NVTX and kernel export
// of statsfixtures.h: every expected line is what the real `nsys stats -f csv` (Nsight Systems 2022.4) printed for the
// same rows (its "None" cells empty, as the workbench prints NULL).
#include "sqlitefixture.h"
#include "statsfixtures.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;

class TestNvtxPushPopTrace : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_fixture;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_fixture = test::writeNvtxKernelFixture(m_dir.path());
    }

    void sameAsNsys_data()
    {
        QTest::addColumn<QString>("report");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nvtx_pushpop_trace (nvtxpptrace)")
            << QStringLiteral("nvtx_pushpop_trace")
            << QStringLiteral("Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild "
                              "(ns),Name,PID,TID,Lvl,NumChild,RangeId,ParentId,RangeStack,NameTree\n"
                              "20,30,10,3,7,childB,1,1,1,1,2,4,:4:2,--childB\n"
                              "5,8,3,0,3,childA,1,1,1,0,3,4,:4:3,--childA\n"
                              "0,100,100,13,87,root1,1,1,0,2,4,,:4,root1\n"
                              "22,25,3,0,3,grandB,1,1,2,0,5,2,:4:2:5,----grandB\n"
                              "200,300,100,10,90,MPI:MPI_Send,1,1,0,1,6,,:6,MPI:MPI_Send\n"
                              "210,220,10,0,10,c2,1,1,1,0,7,6,:6:7,--c2\n"
                              "50,60,10,0,10,other,1,2,0,0,8,,:8,other\n"
                              "400,500,100,40,60,P1,1,1,0,1,9,,:9,P1\n"
                              "401,501,100,0,100,P2,1,1,0,0,10,,:10,P2\n"
                              "410,450,40,0,40,tie,1,1,1,0,11,9,:9:11,--tie\n"
                              "800,1200,400,20,380,open,1,1,0,2,15,,:15,open\n"
                              "810,820,10,0,10,,1,1,1,0,16,15,:15:16,\n"
                              "830,840,10,0,10,registered,1,1,1,0,17,15,:15:17,--registered\n");
    }

    void sameAsNsys()
    {
        QFETCH(QString, report);
        QFETCH(QString, expected);
        QCOMPARE(test::reportCsvOf(m_fixture, report), expected);
    }

    /// The rowids come from the export; a push/pop row the loader had to skip would shift them all.
    void damagedRowRefused()
    {
        const QString copy = m_dir.filePath(QStringLiteral("damaged.sqlite"));
        QFile::remove(copy);
        QVERIFY(QFile::copy(m_fixture, copy));
        QFile(copy).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QCOMPARE(
            test::execOnFile(copy, QStringLiteral("UPDATE NVTX_EVENTS SET start = 'x' WHERE rowid = 7")), QString());
        const QString csv = test::reportCsvOf(copy, QStringLiteral("nvtx_pushpop_trace"));
        QVERIFY2(csv.startsWith(QStringLiteral("SKIPPED: %1: NVTX_EVENTS has 16 push/pop rows, 15 of them readable")
                                    .arg(QFileInfo(copy).absoluteFilePath())),
            qPrintable(csv));
    }
};

QTEST_GUILESS_MAIN(TestNvtxPushPopTrace)
#include "tst_nvtxpushpoptrace.moc"
