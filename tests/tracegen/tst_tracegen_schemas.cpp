// SPDX-License-Identifier: GPL-3.0-or-later
// Schema fidelity of the per-version data: internally consistent, creates exactly what it says, and (when the real
// exports are available) identical to the real export of that version for every table the real file has.
#include "exportwriter.h"
#include "oracleexports.h"
#include "schemacatalog.h"
#include "sessiontables.h"
#include "sqltestutil.h"
#include "testutils.h"

#include <QDir>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw::tracegen;
using nsw::tracegen::test::Db;

namespace {

// The real export each version's data was taken from (see ../shared/traces/SOURCES.md).
const QList<QPair<QString, QString>> kRealFiles = {
    { QStringLiteral("2021"), QStringLiteral("nsys2021_quadro6000_mordred.sqlite") },
    { QStringLiteral("2022.1"), QStringLiteral("nsys2022.1_rtx2070_pytorch_dlprof_nvtx.sqlite") },
    { QStringLiteral("2022.2"), QStringLiteral("nsys2022.2_a100_mpi_saxpy_nvtx.sqlite") },
    { QStringLiteral("2022.4"), QStringLiteral("nsys2022.4_t4_vecadd.sqlite") },
    { QStringLiteral("2023.3"), QStringLiteral("nsys2023.3_t4_openmp_offload.sqlite") },
    { QStringLiteral("2023.4"), QStringLiteral("nsys2023.4_h100_cudaq_vqe_nokernels.sqlite") },
    { QStringLiteral("2024.6"), QStringLiteral("nsys2024.6_h200_nvfuser_nvtx.sqlite") },
    { QStringLiteral("2025.1"), QStringLiteral("nsys2025.1_t4_softmax_memcpy_heavy.sqlite") },
    { QStringLiteral("2025.3"), QStringLiteral("nsys2025.3_rtxa5000_nokernels_osrt.sqlite") },
    { QStringLiteral("2025.5"), QStringLiteral("nsys2025.5_rtx3060_vecadd_osrt.sqlite") },
    { QStringLiteral("2026.1"), QStringLiteral("nsys2026.1_rtx3080_small.sqlite") },
    { QStringLiteral("2026.2"), QStringLiteral("nsys2026.2_h100x2_mfu_before_nccl.sqlite") },
};

bool atLeast(const QString& v, const char* min)
{
    return SchemaCatalog::compareVersions(v, QString::fromLatin1(min)) >= 0;
}

QStringList stored(const TableSchema& t)
{
    QStringList out;
    for (const ColumnSchema& c : t.columns)
        out.append(QStringLiteral("%1|%2|%3|%4").arg(c.name, c.type).arg(c.notNull ? 1 : 0).arg(c.pk));
    return out;
}

/// Columns a third-party tool appended with ALTER TABLE ADD COLUMN: SQLite splices them in after the last line of
/// the original column list as "\n, name TYPE, ...)".
QStringList appendedColumns(const QString& sql)
{
    static const QRegularExpression re(QStringLiteral("\\n(, [^\\n]*)\\)$"));
    const auto m = re.match(sql);
    QStringList names;
    if (m.hasMatch()) {
        for (const QString& def : m.captured(1).mid(1).split(QLatin1Char(','), Qt::SkipEmptyParts))
            names.append(def.trimmed().section(QLatin1Char(' '), 0, 0));
    }
    return names;
}

/// A column a third-party tool spliced into another column's line (the 2022.2 file's SAMPLING_CALLCHAINS:
/// "stackDepth INTEGER NOT NULL, symbolName TEXT, -- ..."); extract_schemas.py strips it the same way.
const QRegularExpression& splicedColumn()
{
    static const QRegularExpression re(QStringLiteral(", (symbolName) TEXT(?=,\\s+--)"));
    return re;
}

} // namespace

class TestTracegenSchemas : public QObject
{
    Q_OBJECT

private slots:
    // nsys 2022.1's plain export (the real one in ../shared was made with DLProf, which appends cuda_name and
    // kernel_name to CUPTI_ACTIVITY_KIND_RUNTIME and kernel_name, long_kernel_name to CUPTI_ACTIVITY_KIND_KERNEL):
    // the columns as nsys 2022.1 writes them, listed by hand from its schema (SOURCES.md), whatever ../shared holds.
    void plain2022_1ActivityColumns_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("columns");
        QTest::newRow("CUPTI_ACTIVITY_KIND_RUNTIME")
            << QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME")
            << QStringLiteral("start,end,eventClass,globalTid,correlationId,nameId,returnValue,callchainId")
                   .split(QLatin1Char(','));
        QTest::newRow("CUPTI_ACTIVITY_KIND_KERNEL")
            << QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL")
            << QStringLiteral(
                   "start,end,deviceId,contextId,streamId,correlationId,globalPid,demangledName,shortName,"
                   "mangledName,launchType,cacheConfig,registersPerThread,gridX,gridY,gridZ,blockX,blockY,"
                   "blockZ,staticSharedMemory,dynamicSharedMemory,localMemoryPerThread,localMemoryTotal,gridId,"
                   "sharedMemoryExecuted,graphNodeId,sharedMemoryLimitConfig")
                   .split(QLatin1Char(','));
    }

    void plain2022_1ActivityColumns()
    {
        QFETCH(QString, table);
        QFETCH(QStringList, columns);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plain.sqlite"));
        {
            ExportWriter w(path, QStringLiteral("2022.1"), ExportWriter::CreateTables::All);
            w.finish();
        }
        QStringList names;
        for (const QString& c : Db(path).tableInfo(table))
            names.append(c.section(QLatin1Char('|'), 0, 0));
        QCOMPARE(names, columns);
    }

    void versions()
    {
        const QStringList v = SchemaCatalog::versions();
        for (const char* required : { "2021", "2022.1", "2022.4", "2023.3", "2024.6", "2025.5", "2026.2" })
            QVERIFY2(v.contains(QLatin1String(required)), required);
        QCOMPARE(v.size(), kRealFiles.size());
        QVERIFY(!SchemaCatalog::find(QStringLiteral("2019.1")));
    }

    void storedData_data()
    {
        QTest::addColumn<QString>("version");
        for (const auto& [v, f] : kRealFiles)
            QTest::newRow(qPrintable(v)) << v;
    }

    // Hand-written expectations from the schema notes (nsys-sqlite-schema.md §3-§4), not from the data files.
    void storedData()
    {
        QFETCH(QString, version);
        const VersionSchema* s = SchemaCatalog::find(version);
        QVERIFY(s);
        QCOMPARE(s->version, version);
        for (const auto& [v, f] : kRealFiles) {
            if (v == version)
                QCOMPARE(s->sourceFile, f);
        }
        for (const TableSchema& t : s->tables) {
            QVERIFY2(!t.columns.isEmpty(), qPrintable(t.name));
            QVERIFY2(t.sql.startsWith(QStringLiteral("CREATE TABLE ") + t.name + QLatin1Char(' ')), qPrintable(t.name));
            QVERIFY2(QSet<QString>({ QStringLiteral("real"), QStringLiteral("derived"), QStringLiteral("documented") })
                         .contains(t.origin),
                qPrintable(t.name));
            if (!t.isReal())
                QVERIFY2(!t.note.isEmpty(), qPrintable(t.name + QStringLiteral(" is not real but has no note")));
        }
        const bool has2022 = atLeast(version, "2022.1");
        QCOMPARE(s->table(u"PROCESSES") != nullptr, has2022);
        QCOMPARE(s->table(u"TARGET_INFO_SESSION_START_TIME") != nullptr, has2022);
        QCOMPARE(s->table(u"EXPORT_META_DATA") != nullptr, has2022 && !atLeast(version, "2023.3"));
        QCOMPARE(s->table(u"META_DATA_EXPORT") != nullptr, atLeast(version, "2023.3"));
        QCOMPARE(s->table(u"META_DATA_CAPTURE") != nullptr, atLeast(version, "2023.3"));
        QCOMPARE(s->exportMetaTable.isEmpty(), !has2022);
        QCOMPARE(s->table(u"ENUM_CUDA_KRENEL_LAUNCH_TYPE") != nullptr, version == QLatin1String("2022.4"));
        QCOMPARE(s->table(u"ENUM_CUDA_KERNEL_LAUNCH_TYPE") != nullptr, atLeast(version, "2023.3"));
        QCOMPARE(s->table(u"ENUM_NSYS_EVENT_CLASS") != nullptr, atLeast(version, "2022.4"));
        QCOMPARE(s->table(u"TARGET_INFO_CUDA_DEVICE") != nullptr, atLeast(version, "2025.1"));
        QCOMPARE(s->table(u"TARGET_INFO_CUDA_NULL_STREAM") != nullptr, !atLeast(version, "2023.4"));
        QCOMPARE(s->table(u"TARGET_INFO_CUDA_CONTEXT_INFO") != nullptr, atLeast(version, "2023.4"));
        for (const char* t : { "StringIds", "ThreadNames", "TARGET_INFO_GPU", "CUPTI_ACTIVITY_KIND_KERNEL",
                 "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
                 "NVTX_EVENTS", "GPU_METRICS", "TARGET_INFO_GPU_METRICS", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE" })
            QVERIFY2(s->table(QString::fromLatin1(t)), t);
        const TableSchema* k = s->table(u"CUPTI_ACTIVITY_KIND_KERNEL");
        QCOMPARE(k->columnIndex(u"mangledName") >= 0, has2022);
        QCOMPARE(k->columnIndex(u"greenContextId") >= 0, atLeast(version, "2024.5"));
        QCOMPARE(k->columnIndex(u"graphId") >= 0, atLeast(version, "2025.5"));
        QCOMPARE(k->columnIndex(u"tensorSizeMinusOneElements") >= 0, atLeast(version, "2026.2"));
        QCOMPARE(s->table(u"NVTX_EVENTS")->columnIndex(u"binaryData") >= 0, atLeast(version, "2024.6"));
        QCOMPARE(s->table(u"CUPTI_ACTIVITY_KIND_MEMCPY")->columnIndex(u"copyCount") >= 0, atLeast(version, "2025.1"));
        // Column order is stable apart from insertions: greenContextId sits between contextId and streamId.
        if (atLeast(version, "2024.5"))
            QCOMPARE(k->columnIndex(u"greenContextId"), k->columnIndex(u"contextId") + 1);
        QCOMPARE(k->columns.first().name, QStringLiteral("start"));
    }

    void createdTablesMatchStoredData_data() { storedData_data(); }

    void createdTablesMatchStoredData()
    {
        QFETCH(QString, version);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("all.sqlite"));
        const VersionSchema* s = SchemaCatalog::find(version);
        {
            ExportWriter w(path, version, ExportWriter::CreateTables::All);
            w.finish();
        }
        Db db(path);
        QVERIFY(db.isOpen());
        QStringList expected;
        for (const TableSchema& t : s->tables)
            expected.append(t.name);
        expected.sort();
        QCOMPARE(db.tables(), expected);
        for (const TableSchema& t : s->tables) {
            QCOMPARE(db.tableInfo(t.name), stored(t));
            QCOMPARE(db.value(QStringLiteral("SELECT sql FROM sqlite_master WHERE name='%1'").arg(t.name)).toString(),
                t.sql);
            QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM \"%1\"").arg(t.name)), qint64(t.rows.size()));
        }
    }

    void matchesRealExport_data() { storedData_data(); }

    void matchesRealExport()
    {
        QFETCH(QString, version);
        if (!QDir(nsw::test::sharedTracesDir()).exists())
            NSW_SKIP_WITHOUT_SHARED_TRACES("the generator's schemas are compared with the real exports");
        QString file;
        for (const auto& [v, f] : kRealFiles) {
            if (v == version)
                file = QDir(nsw::test::sharedTracesDir()).filePath(f);
        }
        if (!QFile::exists(file))
            QFAIL(qPrintable(QStringLiteral("%1 is missing from ../shared/traces").arg(file)));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("all.sqlite"));
        {
            ExportWriter w(path, version, ExportWriter::CreateTables::All);
            w.finish();
        }
        Db ours(path);
        Db real(file);
        QVERIFY(real.isOpen());
        const QStringList realTables = real.tables();
        int compared = 0;
        for (const TableSchema& t : SchemaCatalog::find(version)->tables) {
            // A table is "real" exactly when the version's real file has it.
            QCOMPARE(realTables.contains(t.name), t.isReal());
            if (!t.isReal())
                continue;
            const QString realSql
                = real.value(QStringLiteral("SELECT sql FROM sqlite_master WHERE name='%1'").arg(t.name)).toString();
            QStringList appended = appendedColumns(realSql);
            if (const auto spliced = splicedColumn().match(realSql); spliced.hasMatch())
                appended.append(spliced.captured(1));
            QStringList realInfo;
            for (const QString& c : real.tableInfo(t.name)) {
                if (!appended.contains(c.section(QLatin1Char('|'), 0, 0)))
                    realInfo.append(c);
            }
            QCOMPARE(ours.tableInfo(t.name), realInfo);
            QString trimmed = QString(realSql).remove(splicedColumn());
            if (!appendedColumns(realSql).isEmpty())
                trimmed = trimmed.left(trimmed.lastIndexOf(QStringLiteral("\n,"))) + QStringLiteral("\n)");
            QCOMPARE(ours.value(QStringLiteral("SELECT sql FROM sqlite_master WHERE name='%1'").arg(t.name)).toString(),
                trimmed);
            if (t.name.startsWith(QLatin1String("ENUM_"))) {
                const QString all = QStringLiteral("SELECT * FROM \"%1\" ORDER BY rowid").arg(t.name);
                QCOMPARE(ours.rows(all), real.rows(all));
            }
            ++compared;
        }
        QVERIFY(compared >= 8);
    }

    void metadataAsTheVersionWroteIt_data() { storedData_data(); }

    void metadataAsTheVersionWroteIt()
    {
        QFETCH(QString, version);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("report7.sqlite"));
        SessionInfo session;
        session.durationNs = 2500000000;
        session.baseName = QStringLiteral("report7");
        session.arguments = { QStringLiteral("train.py"), QStringLiteral("--fast") };
        {
            ExportWriter w(path, version);
            writeSessionTables(w, session);
            w.finish();
        }
        Db db(path);
        const QStringList tables = db.tables();
        if (!atLeast(version, "2022.1")) {
            QVERIFY(!tables.contains(QStringLiteral("EXPORT_META_DATA")));
            QVERIFY(!tables.contains(QStringLiteral("META_DATA_EXPORT")));
            QVERIFY(!tables.contains(QStringLiteral("TARGET_INFO_SESSION_START_TIME")));
            return;
        }
        const bool modern = atLeast(version, "2023.3");
        const QString meta = modern ? QStringLiteral("META_DATA_EXPORT") : QStringLiteral("EXPORT_META_DATA");
        QVERIFY(tables.contains(meta));
        auto metaValue = [&](const char* key) {
            return db.value(QStringLiteral("SELECT value FROM %1 WHERE name='%2'").arg(meta, QLatin1String(key)))
                .toString();
        };
        QVERIFY2(metaValue("EXPORT_PRODUCT_VERSION").startsWith(version + QLatin1Char('.')),
            qPrintable(metaValue("EXPORT_PRODUCT_VERSION")));
        QVERIFY(!metaValue("EXPORT_SCHEMA_VERSION").isEmpty());
        // 2022.x spelled OUTPUT as OUTUPT; 2024+ fixed it.
        if (!modern)
            QCOMPARE(metaValue("EXPORT_OUTUPT_FILE"), QStringLiteral("report7.sqlite"));
        if (atLeast(version, "2024.6"))
            QCOMPARE(metaValue("EXPORT_PARAM_OUTPUT_FILE"), QStringLiteral("report7.sqlite"));
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM %1 WHERE value LIKE '%${%'").arg(meta)), 0);
        QCOMPARE(tables.contains(QStringLiteral("META_DATA_CAPTURE")), modern);
        if (modern) {
            QCOMPARE(db.column(QStringLiteral("SELECT value FROM META_DATA_CAPTURE WHERE name='CAPTURE_EVENT_TYPE'")),
                QStringList({ QStringLiteral("NvtxEvents"), QStringLiteral("Cuda") }));
            QCOMPARE(db.column(QStringLiteral("SELECT value FROM META_DATA_CAPTURE WHERE name LIKE 'PROCESS_0:%' AND "
                                              "(name LIKE '%:COMMAND' OR name LIKE '%:ARGUMENT_%') ORDER BY rowid")),
                QStringList({ QStringLiteral("python3"), QStringLiteral("train.py"), QStringLiteral("--fast") }));
        }
        QCOMPARE(
            db.integer(QStringLiteral("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")), session.utcEpochNs);
        QCOMPARE(db.value(QStringLiteral("SELECT utcTime FROM TARGET_INFO_SESSION_START_TIME")).toString(),
            QStringLiteral("2026-01-01T00:00:00"));
        QCOMPARE(db.integer(QStringLiteral("SELECT duration FROM ANALYSIS_DETAILS")), session.durationNs);
        QCOMPARE(db.integer(QStringLiteral("SELECT stopTime - startTime FROM ANALYSIS_DETAILS")), session.durationNs);
        QCOMPARE(db.integer(QStringLiteral("SELECT globalVid FROM ANALYSIS_DETAILS")), qint64(1) << 48);
        QCOMPARE(db.value(QStringLiteral("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name='Hostname'")).toString(),
            session.host);
        if (atLeast(version, "2022.4"))
            QVERIFY(db.integer(QStringLiteral("SELECT count(*) FROM ENUM_CUDA_MEMCPY_OPER")) >= 14);

        if (!QDir(nsw::test::sharedTracesDir()).exists())
            return;
        // Same metadata keys as the real export (nsys-ai's DERIVED_* rows are not nsys's).
        QString file;
        for (const auto& [v, f] : kRealFiles) {
            if (v == version)
                file = QDir(nsw::test::sharedTracesDir()).filePath(f);
        }
        Db real(file);
        const QString keys
            = QStringLiteral("SELECT DISTINCT name FROM %1 WHERE name NOT LIKE 'DERIVED_%' ORDER BY name").arg(meta);
        QCOMPARE(db.column(keys), real.column(keys));
        if (modern) {
            const QString cap = QStringLiteral("SELECT DISTINCT name FROM META_DATA_CAPTURE WHERE name NOT LIKE "
                                               "'%ENVIRONMENT_VARIABLE' AND name NOT LIKE '%ARGUMENT_%' ORDER BY name");
            QCOMPARE(db.column(cap), real.column(cap));
        }
    }
};

QTEST_GUILESS_MAIN(TestTracegenSchemas)
#include "tst_tracegen_schemas.moc"
