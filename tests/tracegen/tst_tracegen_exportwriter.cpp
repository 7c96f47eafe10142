// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportwriter.h"
#include "sqltestutil.h"

#include <QTemporaryDir>
#include <QTest>
#include <stdexcept>

using namespace nsw::tracegen;
using nsw::tracegen::test::Db;

class TestTracegenExportWriter : public QObject
{
    Q_OBJECT

private slots:
    void globalIds_data()
    {
        QTest::addColumn<qint64>("pid");
        QTest::addColumn<qint64>("tid");
        QTest::addColumn<qint64>("expectedPid");
        QTest::addColumn<qint64>("expectedTid");
        // Values seen in the real 2026.2 two-GPU export (PROCESSES / ThreadNames).
        QTest::newRow("torchrun rank 0 main thread")
            << qint64(144) << qint64(144) << qint64(281477392629760) << qint64(281477392629904);
        QTest::newRow("rank 1 worker thread")
            << qint64(145) << qint64(289) << qint64(281477409406976) << qint64(281477409407265);
        QTest::newRow("pid 1") << qint64(1) << qint64(1) << qint64(281474993487872) << qint64(281474993487873);
    }

    void globalIds()
    {
        QFETCH(qint64, pid);
        QFETCH(qint64, tid);
        QFETCH(qint64, expectedPid);
        QFETCH(qint64, expectedTid);
        QCOMPARE(globalPid(pid), expectedPid);
        QCOMPARE(globalTid(pid, tid), expectedTid);
        QCOMPARE(pidOfGlobalId(expectedTid), pid);
        QCOMPARE(tidOfGlobalId(expectedTid), tid);
        QCOMPARE(expectedTid & ~qint64(0xFFFFFF), expectedPid);
        QCOMPARE(globalPid(0), qint64(1) << 48); // TARGET_INFO_GPU.vmId / ANALYSIS_DETAILS.globalVid
    }

    void stringsAreInterned()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.sqlite"));
        {
            ExportWriter w(path, QStringLiteral("2026.2"));
            QCOMPARE(w.string(QStringLiteral("cudaLaunchKernel_v7000")), 1);
            QCOMPARE(w.string(QStringLiteral("ncclDevKernel_SendRecv")), 2);
            QCOMPARE(w.string(QStringLiteral("cudaLaunchKernel_v7000")), 1);
            QCOMPARE(w.string(QStringLiteral("Grüße ✓")), 3);
            w.finish();
        }
        Db db(path);
        QCOMPARE(db.rows(QStringLiteral("SELECT id, value FROM StringIds ORDER BY id")),
            QList<QVariantList>({ { qint64(1), QStringLiteral("cudaLaunchKernel_v7000") },
                { qint64(2), QStringLiteral("ncclDevKernel_SendRecv") }, { qint64(3), QStringLiteral("Grüße ✓") } }));
    }

    void insertFillsDefaults_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("textNotNull"); // a TEXT NOT NULL column of the kernel table, if any
        QTest::newRow("2021") << QStringLiteral("2021") << QString();
        QTest::newRow("2022.4") << QStringLiteral("2022.4") << QString();
        QTest::newRow("2026.2") << QStringLiteral("2026.2") << QStringLiteral("tensorSizeMinusOneElements");
    }

    void insertFillsDefaults()
    {
        QFETCH(QString, version);
        QFETCH(QString, textNotNull);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("k.sqlite"));
        {
            ExportWriter w(path, version);
            const qint64 id = w.string(QStringLiteral("void k(int)"));
            w.insert(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"),
                { { "start", 100 }, { "end", 250 }, { "deviceId", 1 }, { "streamId", 7 }, { "demangledName", id },
                    { "shortName", id }, { "correlationId", nullptr }, { "gridX", 4096LL } });
            w.insert(QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME"),
                { { "start", 90 }, { "end", 99 }, { "nameId", w.string(QStringLiteral("cudaLaunchKernel_v7000")) },
                    { "globalTid", globalTid(144, 144) } });
            w.finish();
        }
        Db db(path);
        QCOMPARE(db.rows(QStringLiteral("SELECT start, end, deviceId, streamId, demangledName, gridX, contextId, "
                                        "registersPerThread, correlationId, globalPid, graphNodeId FROM "
                                        "CUPTI_ACTIVITY_KIND_KERNEL")),
            QList<QVariantList>({ { qint64(100), qint64(250), qint64(1), qint64(7), qint64(1), qint64(4096), qint64(0),
                qint64(0), QVariant(), QVariant(), QVariant() } }));
        if (!textNotNull.isEmpty())
            QCOMPARE(
                db.value(
                      QStringLiteral("SELECT typeof(%1) || ':' || %1 FROM CUPTI_ACTIVITY_KIND_KERNEL").arg(textNotNull))
                    .toString(),
                QStringLiteral("text:"));
        QCOMPARE(db.rows(QStringLiteral("SELECT eventClass, returnValue, correlationId, globalTid FROM "
                                        "CUPTI_ACTIVITY_KIND_RUNTIME")),
            QList<QVariantList>({ { qint64(0), qint64(0), QVariant(), qint64(281477392629904) } }));
        // Tables are created lazily: only those written to exist.
        QCOMPARE(db.tables(),
            QStringList({ QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"), QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME"),
                QStringLiteral("StringIds") }));
    }

    void failsLoudly_data()
    {
        QTest::addColumn<int>("what");
        QTest::newRow("unknown column") << 0;
        QTest::newRow("table the version lacks") << 1;
        QTest::newRow("NULL into NOT NULL") << 2;
        QTest::newRow("column given twice") << 3;
        QTest::newRow("unknown table") << 4;
    }

    void failsLoudly()
    {
        QFETCH(int, what);
        QTemporaryDir dir;
        ExportWriter w(dir.filePath(QStringLiteral("f.sqlite")), QStringLiteral("2022.4"));
        switch (what) {
        case 0:
            QVERIFY_THROWS_EXCEPTION(
                std::runtime_error, w.insert(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"), { { "strat", 1 } }));
            break;
        case 1:
            QVERIFY_THROWS_EXCEPTION(
                std::runtime_error, w.insert(QStringLiteral("TARGET_INFO_CUDA_DEVICE"), { { "gpuId", 0 } }));
            break;
        case 2:
            QVERIFY_THROWS_EXCEPTION(
                std::runtime_error, w.insert(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"), { { "start", nullptr } }));
            break;
        case 3:
            QVERIFY_THROWS_EXCEPTION(
                std::runtime_error, w.insert(QStringLiteral("NVTX_EVENTS"), { { "start", 1 }, { "start", 2 } }));
            break;
        case 4:
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, w.insert(QStringLiteral("NO_SUCH_TABLE"), { { "start", 1 } }));
            break;
        }
    }

    void unknownVersionThrows()
    {
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(
            std::runtime_error, ExportWriter(dir.filePath(QStringLiteral("v.sqlite")), QStringLiteral("2019.5")));
    }

    void preparedInsertsAcrossVersions_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("hasGreenContext");
        QTest::newRow("2022.4 has no greenContextId") << QStringLiteral("2022.4") << false;
        QTest::newRow("2024.6 has greenContextId") << QStringLiteral("2024.6") << true;
    }

    // Rows written through a batched Inserter: more rows than a batch, a skipped column, values that persist.
    void preparedInsertsAcrossVersions()
    {
        QFETCH(QString, version);
        QFETCH(bool, hasGreenContext);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.sqlite"));
        {
            ExportWriter w(path, version);
            if (!hasGreenContext)
                QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                    w.prepare(QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET"),
                        { QStringLiteral("start"), QStringLiteral("greenContextId") }));
            Inserter& ins = w.prepare(QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET"),
                { QStringLiteral("start"), QStringLiteral("end"), QStringLiteral("greenContextId"),
                    QStringLiteral("bytes") },
                ExportWriter::MissingColumns::Skip, 16, { { "memKind", 2 }, { "value", -1 } });
            QCOMPARE(ins.has(2), hasGreenContext);
            ins.set(2, 5);
            ins.set(3, 4096); // persists for every row
            for (int i = 0; i < 130; ++i) {
                ins.set(0, i * 10);
                ins.set(1, i * 10 + 3);
                ins.insert();
            }
            w.finish();
        }
        Db db(path);
        QCOMPARE(db.rows(QStringLiteral("SELECT count(*), sum(start), sum(end - start), min(bytes), max(bytes), "
                                        "sum(memKind = 2 AND value = -1) FROM CUPTI_ACTIVITY_KIND_MEMSET")),
            QList<QVariantList>({ { qint64(130), qint64(10 * 129 * 130 / 2), qint64(3 * 130), qint64(4096),
                qint64(4096), qint64(130) } }));
        if (hasGreenContext)
            QCOMPARE(
                db.integer(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE greenContextId = 5")),
                130);
    }

    void textValues()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("n.sqlite"));
        {
            ExportWriter w(path, QStringLiteral("2024.6"));
            w.insert(QStringLiteral("NVTX_EVENTS"),
                { { "start", -5 }, { "eventType", 75 }, { "text", "NCCL" }, { "domainId", 1 } });
            w.insert(QStringLiteral("NVTX_EVENTS"),
                { { "start", 10 }, { "end", 20 }, { "eventType", 59 },
                    { "text", QStringLiteral("aten::mm, op_id = 7") }, { "doubleValue", 2.5 } });
            w.exec(QStringLiteral("UPDATE NVTX_EVENTS SET color = 4294956800 WHERE eventType = 59"));
            w.finish();
        }
        Db db(path);
        QCOMPARE(
            db.rows(QStringLiteral("SELECT start, end, eventType, text, domainId, doubleValue, color FROM NVTX_EVENTS "
                                   "ORDER BY start")),
            QList<QVariantList>(
                { { qint64(-5), QVariant(), qint64(75), QStringLiteral("NCCL"), qint64(1), QVariant(), QVariant() },
                    { qint64(10), qint64(20), qint64(59), QStringLiteral("aten::mm, op_id = 7"), QVariant(), 2.5,
                        qint64(4294956800) } }));
    }

    void allTablesAndOverwrite()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.sqlite"));
        {
            ExportWriter w(path, QStringLiteral("2023.3"), ExportWriter::CreateTables::All);
            QVERIFY(w.hasTable(QStringLiteral("EXPORT_META_DATA")) == false);
            QVERIFY(w.hasColumn(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"), QStringLiteral("mangledName")));
            QVERIFY(!w.hasColumn(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"), QStringLiteral("greenContextId")));
        }
        QVERIFY(Db(path).tables().contains(QStringLiteral("ENUM_CUDA_KERNEL_LAUNCH_TYPE")));
        {
            ExportWriter w(path, QStringLiteral("2026.2")); // replaces the file
        }
        QCOMPARE(Db(path).tables(), QStringList({ QStringLiteral("StringIds") }));
    }
};

QTEST_GUILESS_MAIN(TestTracegenExportWriter)
#include "tst_tracegen_exportwriter.moc"
