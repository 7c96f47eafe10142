// SPDX-License-Identifier: GPL-3.0-or-later
#include "statsfixtures.h"

#include "core/profile/profileloader.h"
#include "core/reports/statsrun.h"
#include "core/stats/reportformat.h"
#include "exportwriter.h"

#include <QDir>

namespace nsw::test {

namespace {

QString writeFixture(const QString& path, const QStringList& tables, const char* sql)
{
    QFile::remove(path);
    tracegen::ExportWriter w(path, QStringLiteral("2022.2"));
    w.createTable(QStringLiteral("StringIds"));
    for (const QString& t : tables)
        w.createTable(t);
    w.exec(QString::fromUtf8(sql));
    w.finish();
    return path;
}

// globalTid 281474993487873 = pid 1 tid 1, ...874 = pid 1 tid 2, 281475010265090 = pid 2 tid 2.
const char* const kNvtxKernelSql = R"(
INSERT INTO StringIds VALUES (1,'MPI'),(2,'MPI_Send'),(3,'registered'),(10,'void gemm<128>(float*)'),(11,'gemm'),
 (12,'_Z4gemmILi128EEvPf'),(13,'void relu(float*)'),(14,'relu'),(15,'cudaLaunchKernel_v7000'),
 (16,'cudaMemcpyAsync_v3020');
INSERT INTO NVTX_EVENTS(start,end,eventType,text,globalTid,endGlobalTid,textId,domainId) VALUES
 (-5000,NULL,75,'MPI',281474993487873,NULL,NULL,1),
 (20,30,59,'childB',281474993487873,NULL,NULL,0),
 (5,8,59,'childA',281474993487873,NULL,NULL,0),
 (0,100,59,'root1',281474993487873,NULL,NULL,0),
 (22,25,59,'grandB',281474993487873,NULL,NULL,0),
 (200,300,59,NULL,281474993487873,NULL,2,1),
 (210,220,59,'c2',281474993487873,NULL,NULL,0),
 (50,60,59,'other',281474993487874,NULL,NULL,0),
 (400,500,59,'P1',281474993487873,NULL,NULL,0),
 (401,501,59,'P2',281474993487873,NULL,NULL,0),
 (410,450,59,'tie',281474993487873,NULL,NULL,0),
 (600,700,59,'same',281474993487873,NULL,NULL,0),
 (600,700,59,'same',281474993487873,NULL,NULL,0),
 (650,660,59,'undersame',281474993487873,NULL,NULL,0),
 (800,NULL,59,'open',281474993487873,NULL,NULL,0),
 (810,820,59,NULL,281474993487873,NULL,NULL,0),
 (830,840,59,NULL,281474993487873,NULL,3,0),
 (900,1200,34,'mark',281474993487873,NULL,NULL,0),
 (100,400,60,'phase',281474993487873,281474993487874,NULL,0),
 (120,380,60,'phase',281474993487873,NULL,NULL,0),
 (150,NULL,60,'pending',281474993487874,NULL,NULL,0),
 (160,170,60,NULL,281474993487873,NULL,2,1);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME(start,end,eventClass,globalTid,correlationId,nameId,returnValue) VALUES
 (21,24,0,281474993487873,1,15,0), (23,24,0,281474993487873,2,15,0), (52,55,0,281474993487874,3,15,0),
 (205,209,0,281474993487873,4,15,0), (215,218,0,281474993487873,5,15,0), (1000,1001,0,281474993487873,6,15,0),
 (1100,1101,0,281474993487874,6,16,0), (2000,2001,0,281474993487873,7,15,0), (30,31,0,281475010265090,1,15,0);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(start,end,deviceId,contextId,streamId,correlationId,globalPid,demangledName,
 shortName,mangledName,registersPerThread,gridX,gridY,gridZ,blockX,blockY,blockZ,staticSharedMemory,
 dynamicSharedMemory,localMemoryPerThread,localMemoryTotal,gridId) VALUES
 (30,130,0,1,7,1,281474993487872,10,11,12,32,1,1,1,128,1,1,0,0,0,0,1),
 (140,290,0,1,7,2,281474993487872,10,11,12,32,1,1,1,128,1,1,0,0,0,0,2),
 (300,340,0,1,7,3,281474993487872,13,14,NULL,32,1,1,1,128,1,1,0,0,0,0,3),
 (350,460,0,1,7,4,281474993487872,10,11,12,32,1,1,1,128,1,1,0,0,0,0,4),
 (470,530,0,1,7,5,281474993487872,13,14,NULL,32,1,1,1,128,1,1,0,0,0,0,5),
 (1010,1210,0,1,7,6,281474993487872,10,11,12,32,1,1,1,128,1,1,0,0,0,0,6),
 (2010,2080,0,1,7,7,281474993487872,13,14,NULL,32,1,1,1,128,1,1,0,0,0,0,7),
 (2100,2180,0,1,7,8,281474993487872,13,14,NULL,32,1,1,1,128,1,1,0,0,0,0,8),
 (40,130,0,1,7,1,281475010265088,10,11,12,32,1,1,1,128,1,1,0,0,0,0,9);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY(start,end,deviceId,contextId,streamId,correlationId,globalPid,bytes,copyKind)
 VALUES (3000,3100,0,1,7,9,281474993487872,4096,1),(3200,3260,0,1,7,10,281474993487872,4096,11),
 (3300,3350,0,1,7,11,281474993487872,1,99);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET(start,end,deviceId,contextId,streamId,correlationId,globalPid,value,bytes)
 VALUES (3400,3410,0,1,7,12,281474993487872,0,64);
)";

const char* const kUnifiedMemorySql = R"(
INSERT INTO StringIds VALUES (1,'main'),(2,'libfoo.so'),(3,'compute_loop'),(4,'0x4005d0');
INSERT INTO CUDA_UM_CPU_PAGE_FAULT_EVENTS(start,globalPid,address,CpuInstruction,module) VALUES
 (100,281474993487872,140000000000000,1,2), (110,281474993487872,140000000000000,1,2),
 (120,281474993487872,140000000065536,3,2), (130,281474993487872,140000000131072,4,2),
 (140,281474993487872,255,99,2);
INSERT INTO CUDA_UM_GPU_PAGE_FAULT_EVENTS VALUES (200,300,281474993487872,0,140000000000000,3,1),
 (210,320,281474993487872,0,140000000196608,5,1), (220,330,281474993487872,0,140000000196608,2,2);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY(start,end,deviceId,contextId,streamId,correlationId,globalPid,bytes,copyKind,
 virtualAddress) VALUES
 (400,1400,0,1,7,0,281474993487872,65536,11,140000000000000),
 (1500,1900,0,1,7,0,281474993487872,4096,11,140000000000000),
 (2000,2700,0,1,7,0,281474993487872,2097152,12,140000000262144),
 (3000,3333,0,1,7,0,281474993487872,12288,11,140000000327680),
 (3400,3400,0,1,7,0,281474993487872,4096,11,140000000393216),
 (5000,6000,0,1,7,0,281474993487872,1000000,1,NULL);
)";

const char* const kDirectiveSql = R"(
INSERT INTO StringIds VALUES (1,'omp_thread'),(2,'omp_parallel'),(3,'omp_barrier'),(4,'acc_enqueue_launch'),
 (5,'saxpy.c'),(6,'acc_enter_data'),(7,'main');
INSERT INTO OPENMP_EVENT_KIND_THREAD(start,end,eventClass,globalTid,nameId) VALUES (0,100,78,1,1),(0,100,78,1,1);
INSERT INTO OPENMP_EVENT_KIND_PARALLEL(start,end,eventClass,globalTid,nameId) VALUES (0,200,78,1,2),(0,150,78,1,1);
INSERT INTO OPENMP_EVENT_KIND_SYNC_REGION(start,end,eventClass,globalTid,nameId) VALUES (0,200,78,1,3);
INSERT INTO OPENMP_EVENT_KIND_TASK(start,end,eventClass,globalTid,nameId) VALUES (0,200,78,1,9);
INSERT INTO CUPTI_ACTIVITY_KIND_OPENACC_DATA(start,end,nameId,globalTid,eventKind,DeviceType,lineNo,cuDeviceId,
 cuContextId,cuStreamId,srcFile,funcName) VALUES (0,70,6,1,1,2,12,0,1,7,5,7),(0,70,6,1,1,2,12,0,1,7,99,7);
INSERT INTO CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH(start,end,nameId,globalTid,eventKind,DeviceType,lineNo,cuDeviceId,
 cuContextId,cuStreamId,srcFile,funcName) VALUES (0,50,4,1,10,2,12,0,1,7,5,7),(10,80,4,1,10,2,12,0,1,7,5,7),
 (10,30,4,1,10,2,14,0,1,7,NULL,7);
)";

} // namespace

QString writeNvtxKernelFixture(const QString& folder)
{
    return writeFixture(QDir(folder).filePath(QStringLiteral("nvtx-kernels.sqlite")),
        { QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME"), QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"),
            QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY"), QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET"),
            QStringLiteral("NVTX_EVENTS") },
        kNvtxKernelSql);
}

QString writeUnifiedMemoryFixture(const QString& folder)
{
    return writeFixture(QDir(folder).filePath(QStringLiteral("unified-memory.sqlite")),
        { QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY"), QStringLiteral("CUDA_UM_CPU_PAGE_FAULT_EVENTS"),
            QStringLiteral("CUDA_UM_GPU_PAGE_FAULT_EVENTS") },
        kUnifiedMemorySql);
}

QString writeDirectiveFixture(const QString& folder)
{
    return writeFixture(QDir(folder).filePath(QStringLiteral("openmp-openacc.sqlite")),
        { QStringLiteral("OPENMP_EVENT_KIND_THREAD"), QStringLiteral("OPENMP_EVENT_KIND_PARALLEL"),
            QStringLiteral("OPENMP_EVENT_KIND_SYNC_REGION"), QStringLiteral("OPENMP_EVENT_KIND_TASK"),
            QStringLiteral("CUPTI_ACTIVITY_KIND_OPENACC_DATA"), QStringLiteral("CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH") },
        kDirectiveSql);
}

QString reportCsvOf(const QString& path, const QString& report)
{
    const Result<StatsPlan> plan = planReports({ report });
    if (!plan)
        return plan.errorMessage();
    const LoadResult loaded = ProfileLoader::load(path, plan->load);
    if (!loaded.ok())
        return loaded.errorMessage();
    const Result<std::vector<ReportTable>> tables = computeReports(*plan, *loaded->profile);
    const ReportTable& t = tables.value().front();
    return t.skipped.isEmpty() ? reportToCsv(t) : QStringLiteral("SKIPPED: ") + t.skipped;
}

} // namespace nsw::test
