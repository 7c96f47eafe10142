// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/procstatus.h"

#include <QTest>

using namespace nsw;

class TestProcStatus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void field_data()
    {
        QTest::addColumn<QByteArray>("status");
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<qint64>("kib");
        // Lines as Linux writes them: the name, a colon, a tab, the number right-aligned, " kB".
        const QByteArray status = "Name:\tbench_load\nVmPeak:\t  912340 kB\nVmHWM:\t   40960 kB\nVmRSS:\t   "
                                  "38912 kB\nRssAnon:\t   30720 kB\nRssFile:\t    8192 kB\n";
        QTest::addRow("peak resident memory") << status << QByteArray("VmHWM") << qint64(40960);
        QTest::addRow("a field after others") << status << QByteArray("RssFile") << qint64(8192);
        QTest::addRow("a name that only starts another's is not it") << status << QByteArray("Vm") << qint64(-1);
        QTest::addRow("a missing field") << status << QByteArray("VmSwap") << qint64(-1);
        QTest::addRow("an empty text") << QByteArray() << QByteArray("VmHWM") << qint64(-1);
        QTest::addRow("the last line without a newline")
            << QByteArray("VmRSS:\t 12 kB\nVmHWM:\t 34 kB") << QByteArray("VmHWM") << qint64(34);
    }
    void field()
    {
        QFETCH(QByteArray, status);
        QFETCH(QByteArray, name);
        QFETCH(qint64, kib);
        QCOMPARE(procStatusFieldKiB(status, name), kib);
    }

    void ownProcess()
    {
        // This process holds memory, and its peak read afterwards is at least what it held; an unknown field reads -1.
        const qint64 now = procStatusKiB("VmRSS");
        const qint64 peak = procStatusKiB("VmHWM");
        QVERIFY2(now > 0, "VmRSS of /proc/self/status");
        QVERIFY(peak >= now);
        QCOMPARE(procStatusKiB("NoSuchField"), qint64(-1));
    }
};

QTEST_GUILESS_MAIN(TestProcStatus)
#include "tst_procstatus.moc"
