// SPDX-License-Identifier: GPL-3.0-or-later
#include "loaderfixtures.h"

namespace nsw::test {

namespace {
QString gp(qint64 pid)
{
    return QString::number(globalPid(pid));
}
QString gt(qint64 pid, qint64 tid)
{
    return QString::number(globalTid(pid, tid));
}
} // namespace

bool writeModernExport(const QString& path, QString* error)
{
    SqliteFixture db(path);
    const QString sql = QStringLiteral(R"(
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES
  (1, 'void gemm<float>(float *, int)'), (2, 'gemm'), (3, 'cudaLaunchKernel_v7000'),
  (4, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm *, unsigned long, ncclWork *)'),
  (5, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL'), (6, 'registered range'), (7, 'python3'),
  (8, '_Z4gemmIfEvPfi'), (9, CAST(X'6361666EE9' AS TEXT)), (10, 'cudaMemcpyAsync_v3020'), (11, 'ioctl');
CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', '2026.2.1.210'), ('EXPORT_SCHEMA_VERSION', '3.25.0');
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT, systemClockNs INTEGER);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, '', '', 5);
CREATE TABLE ANALYSIS_DETAILS (globalVid INTEGER, duration INTEGER, startTime INTEGER, stopTime INTEGER);
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 123456789, 0, 123456789);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES (%GP100%, 100, 'python3'), (%GP200%, 200, 'worker');
CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);
INSERT INTO ThreadNames VALUES (7, 10, %GT100_100%), (9, 10, %GT200_200%);
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, id INTEGER, name TEXT, busLocation TEXT, isDiscrete INTEGER,
  l2CacheSize INTEGER, totalMemory INTEGER, memoryBandwidth INTEGER, clockRate INTEGER, smCount INTEGER,
  uuid TEXT, chipName TEXT, cuDevice INTEGER, computeMajor INTEGER, computeMinor INTEGER);
INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'GPU A', '0000:01:00.0', 1, 0, 80, 0, 0, 132, 'u0', 'GH100', 1, 9, 0),
                                   (0, 1, 'GPU B', '0000:02:00.0', 1, 0, 80, 0, 0, 132, 'u1', 'GH100', 0, 9, 0);
CREATE TABLE TARGET_INFO_CUDA_DEVICE (gpuId INTEGER, cudaId INTEGER, pid INTEGER, uuid TEXT, numMultiprocessors INTEGER);
INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES (1, 0, 100, 'u1', 132), (0, 0, 200, 'u0', 132);
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER,
  globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER,
  launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL,
  gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL,
  blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
  addedByATool TEXT);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (1000, 1500, 0, 1, NULL, 7, 1, %GP100%, 1, 2, 8, 1, 0, 32, 4, 1, 1, 128, 1, 1, 0, 1024, 'x'),
  (2000, 2600, 0, 1, NULL, 7, 2, %GP100%, 1, 2, NULL, 1, 0, 32, 4, 1, 1, 128, 1, 1, 0, 1024, 'x'),
  (1200, 2200, 0, 5, NULL, 13, 1, %GP200%, 4, 5, NULL, 1, 0, 64, 8, 1, 1, 512, 1, 1, 4096, 0, NULL),
  (-50, 100, 0, 5, NULL, 13, 3, %GP200%, 4, 5, NULL, 1, 0, 64, 8, 1, 1, 512, 1, 1, 4096, 0, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
  (900, 950, 0, %GT100_100%, 1, 3, 0, NULL),
  (1900, 1950, 0, %GT100_101%, 2, 3, 0, NULL),
  (700, 760, 0, %GT200_200%, 1, 3, 0, NULL),
  (3000, 3100, 0, %GT200_200%, 4, 10, 0, NULL),
  (3200, 3300, 1, %GT200_200%, 5, 3, 0, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER,
  globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (3050, 3250, 0, 5, NULL, 13, 4, %GP200%, 4096, 1);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER,
  globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (3400, 3450, 0, 1, NULL, 7, 9, %GP100%, 0, 512, NULL, 2);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
  domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,
  int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT);
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, endGlobalTid, textId, domainId) VALUES
  (-1900000000, NULL, 75, 'NCCL', %GT100_100%, NULL, NULL, 1),
  (800, 2700, 59, 'step', %GT100_100%, NULL, NULL, 0),
  (850, 1960, 59, NULL, %GT100_100%, NULL, 6, 1),
  (880, NULL, 34, 'mark here', %GT100_100%, NULL, NULL, 0),
  (600, 3500, 60, 'async', %GT200_200%, %GT200_201%, NULL, 0),
  (650, NULL, 59, 'unterminated', %GT200_200%, NULL, NULL, 0),
  (9000, NULL, 33, 'a category', %GT200_200%, NULL, NULL, 0),
  (1000, 1100, 59, 'inline', %GT200_200%, NULL, 6, 0),
  (0, NULL, 39, 'nvtx-named', %GT200_201%, NULL, NULL, 0);
CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER,
  nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, nestingLevel INTEGER, callchainId INTEGER);
INSERT INTO OSRT_API VALUES (100, 300, 27, %GT100_100%, 11, 0, 0, NULL), (400, 450, 31, %GT100_100%, 11, 0, 0, NULL);
)");
    QString filled = sql;
    filled.replace(QStringLiteral("%GP100%"), gp(100))
        .replace(QStringLiteral("%GP200%"), gp(200))
        .replace(QStringLiteral("%GT100_100%"), gt(100, 100))
        .replace(QStringLiteral("%GT100_101%"), gt(100, 101))
        .replace(QStringLiteral("%GT200_200%"), gt(200, 200))
        .replace(QStringLiteral("%GT200_201%"), gt(200, 201));
    if (!db.exec(filled)) {
        *error = db.lastError();
        return false;
    }
    return true;
}

bool writeOldExport(const QString& path, QString* error)
{
    SqliteFixture db(path);
    QString sql = QStringLiteral(R"(
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'build_GPU2(int *, int)'), (2, 'build_GPU2'), (3, 'cudaLaunchKernel_v7000');
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, deviceId INTEGER, name TEXT, busLocation TEXT, isDiscrete INTEGER);
INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'Quadro RTX 6000', '0000:3b:00.0', 1);
CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, launchType INTEGER, cacheConfig INTEGER,
  registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
  blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL,
  dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER, localMemoryTotal INTEGER, gridId INTEGER,
  sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid,
  demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory,
  dynamicSharedMemory) VALUES (5000, 9000, 0, 1, 7, 42, %GP%, 1, 2, 40, 2, 2, 1, 64, 1, 1, 0, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (4000, 4100, 0, %GT%, 42, 3, 0, NULL);
)");
    sql.replace(QStringLiteral("%GP%"), gp(7)).replace(QStringLiteral("%GT%"), gt(7, 7));
    if (!db.exec(sql)) {
        *error = db.lastError();
        return false;
    }
    return true;
}

} // namespace nsw::test
