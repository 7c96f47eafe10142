// SPDX-License-Identifier: GPL-3.0-or-later
#include "iterationfixtures.h"

#include "exportwriter.h"

namespace nsw::test {

using tracegen::ExportWriter;
using tracegen::Fields;
using tracegen::globalPid;
using tracegen::globalTid;
using tracegen::Value;

namespace {

const QString kVersion = QStringLiteral("2026.2");

void kernel(ExportWriter& w, int device, qint64 start, qint64 end, const char* name)
{
    const qint64 id = w.string(QString::fromLatin1(name));
    w.insert(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"),
        Fields { { "start", start }, { "end", end }, { "deviceId", device }, { "contextId", 1 }, { "streamId", 7 },
            { "correlationId", start + device }, { "globalPid", globalPid(100) }, { "demangledName", id },
            { "shortName", id } });
}

void range(ExportWriter& w, qint64 tid, qint64 start, Value end, const char* text, Value domain = nullptr,
    int type = 59, Value endTid = nullptr)
{
    const qint64 pid = tid / 100 * 100;
    w.insert(QStringLiteral("NVTX_EVENTS"),
        Fields { { "start", start }, { "end", end }, { "eventType", type }, { "text", text },
            { "globalTid", globalTid(pid, tid) }, { "endGlobalTid", endTid }, { "domainId", domain } });
}

void ncclDomain(ExportWriter& w)
{
    w.insert(QStringLiteral("NVTX_EVENTS"),
        Fields { { "start", 10 }, { "eventType", 75 }, { "text", "NCCL" }, { "globalTid", globalTid(100, 101) },
            { "domainId", 5 } });
}

} // namespace

void writeMarkerFixture(const QString& path)
{
    ExportWriter w(path, kVersion);
    ncclDomain(w);
    range(w, 101, 100, 200, "iteration 1");
    range(w, 101, 1000, 2000, "ProfilerStep#0");
    range(w, 101, 1100, 1200, "ProfilerStep#0");
    range(w, 101, 2000, 3000, "ProfilerStep#1");
    range(w, 101, 3000, 4500, "ProfilerStep#2", nullptr, 60, globalTid(100, 102));
    range(w, 101, 4500, 5000, "ProfilerStep#3");
    range(w, 101, 2000, 3000, "ProfilerStep#7", 5);
    range(w, 101, 6000, nullptr, "ProfilerStep#4");
    range(w, 201, 1000, 1500, "ProfilerStep#0");
    kernel(w, 0, 500, 1000, "fill_kernel");
    kernel(w, 0, 1100, 1300, "gemm_a");
    kernel(w, 1, 1200, 1400, "gemm_b");
    kernel(w, 0, 1900, 2100, "gemm_c");
    kernel(w, 0, 3000, 3000, "zero");
    kernel(w, 1, 2900, 4600, "nccl_allreduce");
    kernel(w, 0, 4000, 4200, "gemm_a");
    kernel(w, 0, 4900, 5000, "tail");
    kernel(w, 0, 5000, 5100, "after");
    w.insert(QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY"),
        Fields { { "start", 2500 }, { "end", 2600 }, { "deviceId", 0 }, { "contextId", 1 }, { "streamId", 7 },
            { "correlationId", 77 }, { "globalPid", globalPid(100) }, { "bytes", 4096 }, { "copyKind", 1 },
            { "srcKind", 0 }, { "dstKind", 2 } });
    w.finish();
}

void writeGapFixture(const QString& path)
{
    ExportWriter w(path, kVersion);
    const qint64 bursts[][2] = { { 0, 1000 }, { 1050, 2000 }, { 2100, 3000 }, { 53000, 54000 }, { 54040, 55000 },
        { 55060, 56000 }, { 116000, 117000 }, { 117080, 118000 } };
    for (const auto& b : bursts)
        kernel(w, 0, b[0], b[1], b[1] - b[0] == 1000 ? "big" : "small");
    w.finish();
}

void writeTwoBurstsFixture(const QString& path)
{
    ExportWriter w(path, kVersion);
    const qint64 bursts[][2] = { { 0, 1000 }, { 1010, 2000 }, { 100000, 101000 }, { 101010, 102000 } };
    for (const auto& b : bursts)
        kernel(w, 0, b[0], b[1], "k");
    w.finish();
}

void writeLibraryFixture(const QString& path)
{
    ExportWriter w(path, kVersion);
    ncclDomain(w);
    range(w, 101, 1000, 2000, "step_1", 5);
    range(w, 101, 1000, 2000, "cub::step_2");
    range(w, 101, 3000, 4000, "outer_step");
    range(w, 101, 3100, 3200, "outer_step");
    range(w, 101, 5000, 6000, "ncclKernel step_3");
    kernel(w, 0, 1000, 1500, "k");
    kernel(w, 0, 3000, 3500, "k");
    w.finish();
}

} // namespace nsw::test
