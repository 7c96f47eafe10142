// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysisfixtures.h"

#include "exportwriter.h"

namespace nsw::test {

using tracegen::ExportWriter;
using tracegen::Fields;
using tracegen::globalPid;
using tracegen::globalTid;

namespace {

const QString kRuntime = QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME");
const QString kMemcpy = QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY");
const QString kMemset = QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET");
const QString kKernel = QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL");

void call(ExportWriter& w, qint64 start, qint64 end, qint64 pid, qint64 corr, const char* name)
{
    w.insert(kRuntime,
        Fields { { "start", start }, { "end", end }, { "globalTid", globalTid(pid, pid + 1) },
            { "correlationId", corr }, { "nameId", w.string(QString::fromLatin1(name)) }, { "eventClass", 1 } });
}

struct Copy
{
    qint64 start, end, corr, bytes, copyKind, srcKind, dstKind;
    tracegen::Value srcDevice, dstDevice;
};

void memcpy(ExportWriter& w, const Copy& c)
{
    w.insert(kMemcpy,
        Fields { { "start", c.start }, { "end", c.end }, { "deviceId", 0 }, { "contextId", 1 }, { "streamId", 7 },
            { "correlationId", c.corr }, { "globalPid", globalPid(100) }, { "bytes", c.bytes },
            { "copyKind", c.copyKind }, { "srcKind", c.srcKind }, { "dstKind", c.dstKind },
            { "srcDeviceId", c.srcDevice }, { "dstDeviceId", c.dstDevice } });
}

void memset(ExportWriter& w, qint64 start, qint64 end, qint64 corr, qint64 bytes, qint64 memKind)
{
    w.insert(kMemset,
        Fields { { "start", start }, { "end", end }, { "deviceId", 0 }, { "contextId", 1 }, { "streamId", 7 },
            { "correlationId", corr }, { "globalPid", globalPid(100) }, { "bytes", bytes }, { "memKind", memKind } });
}

void kernel(ExportWriter& w, qint64 start, qint64 end, qint64 device, qint64 context)
{
    const qint64 name = w.string(QStringLiteral("k"));
    w.insert(kKernel,
        Fields { { "start", start }, { "end", end }, { "deviceId", device }, { "contextId", context },
            { "streamId", 7 }, { "correlationId", start }, { "globalPid", globalPid(100) }, { "demangledName", name },
            { "shortName", name } });
}

void nvtxRange(ExportWriter& w, qint64 start, qint64 end, const char* text, tracegen::Value domain)
{
    w.insert(QStringLiteral("NVTX_EVENTS"),
        Fields { { "start", start }, { "end", end }, { "eventType", 59 }, { "text", text },
            { "globalTid", globalTid(100, 101) }, { "domainId", domain } });
}

} // namespace

void writeCudaFixture(const QString& path, const QString& schemaVersion)
{
    ExportWriter w(path, schemaVersion);
    call(w, 100, 150, 100, 1, "cudaMemcpyAsync_v3020"); // R1
    call(w, 200, 260, 100, 2, "cudaMemcpyAsync_v3020"); // R2
    call(w, 300, 330, 100, 3, "cudaMemcpy_v3020"); // R3
    call(w, 400, 900, 100, 4, "cudaStreamSynchronize_v3020"); // R4
    call(w, 1000, 1300, 200, 1, "cudaDeviceSynchronize_v3020"); // R5: pid 200 reuses correlation id 1
    call(w, 1400, 1410, 100, 5, "cudaMemset_v3020"); // R6
    call(w, 1500, 1510, 100, 6, "cudaMemsetAsync_v3020"); // R7
    call(w, 1600, 1610, 100, 7, "cudaMemcpy_v3020"); // R8
    call(w, 1700, 1710, 100, 8, "cudaMemcpy_v3020"); // R9
    call(w, 1800, 1810, 200, 2, "cudaMemcpyAsync_v3020"); // R10: pid 200 reuses correlation id 2
    memcpy(w, { 2000, 2300, 1, 1000000, 1, 0, 2, nullptr, 0 }); // M1 pageable -> device, async
    memcpy(w, { 2400, 2900, 2, 2500000, 2, 2, 0, 0, nullptr }); // M2 device -> pageable, async (R2 and R10)
    memcpy(w, { 3000, 3300, 3, 64000, 1, 0, 2, nullptr, 0 }); // M3 small HtoD, sync
    memcpy(w, { 3400, 3700, 7, 64001, 1, 1, 2, nullptr, 0 }); // M4 HtoD just over 64 kB, sync
    memcpy(w, { 3800, 4000, 8, 10, 8, 2, 2, 0, 0 }); // M5 DtoD within device 0, sync
    memcpy(w, { 4100, 4400, 4, 10, 1, 0, 2, nullptr, 0 }); // M6 correlated with a synchronize call
    memset(w, 5000, 5100, 5, 4096, 1); // S1 pinned
    memset(w, 5200, 5500, 6, 4096, 4); // S2 managed, async API
    memset(w, 5600, 5800, 5, 4096, 2); // S3 device memory
    memset(w, 5900, 6200, 5, 1500000, 4); // S4 managed
    nvtxRange(w, 350, 950, "step", nullptr);
    w.insert(QStringLiteral("NVTX_EVENTS"),
        Fields { { "start", 10 }, { "eventType", 75 }, { "text", "dom" }, { "globalTid", globalTid(100, 101) },
            { "domainId", 5 } });
    nvtxRange(w, 390, 920, "step", 5);
    w.finish();
}

void writeGpuFixture(const QString& path, const QString& schemaVersion)
{
    ExportWriter w(path, schemaVersion);
    kernel(w, 1000, 1100, 0, 1);
    kernel(w, 1050, 1200, 0, 1);
    kernel(w, 1900, 2000, 0, 1);
    kernel(w, 1000, 1050, 1, 2);
    kernel(w, 1950, 2000, 1, 2);
    // The generator's schemas have no PROFILER_OVERHEAD: the table as real 2024+ exports declare it.
    w.exec(QStringLiteral("CREATE TABLE PROFILER_OVERHEAD (start INTEGER NOT NULL, end INTEGER NOT NULL, globalTid "
                          "INTEGER, nameId INTEGER NOT NULL REFERENCES StringIds(id), overheadType INTEGER NOT NULL)"));
    w.exec(QStringLiteral("INSERT INTO PROFILER_OVERHEAD VALUES (1500, 1600, %1, %2, 0)")
               .arg(globalTid(100, 101))
               .arg(w.string(QStringLiteral("CUDA profiling overhead"))));
    w.finish();
}

void writeRuntimeOnlyFixture(const QString& path)
{
    ExportWriter w(path, QStringLiteral("2022.4"));
    call(w, 100, 200, 100, 1, "cudaStreamSynchronize_v3020");
    w.finish();
}

} // namespace nsw::test
