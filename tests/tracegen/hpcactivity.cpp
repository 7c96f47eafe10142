// SPDX-License-Identifier: GPL-3.0-or-later
#include "hpcactivity.h"

#include "random.h"

#include <array>

namespace nsw::tracegen {

namespace {

constexpr qint64 kUs = 1000;
constexpr qint64 kManagedBase = 0x7F544A400000LL; ///< first managed buffer; the others follow 4 MiB apart
constexpr qint64 kBuffers = 6;
constexpr int kOpenMpEventClass = 78; ///< ENUM_NSYS_EVENT_CLASS
constexpr int kUnifiedHtoD = 11; ///< ENUM_CUDA_MEMCPY_OPER
constexpr int kUnifiedDtoH = 12;
constexpr int kManaged = 4; ///< ENUM_CUDA_MEM_KIND

class HpcWriter
{
public:
    HpcWriter(ExportWriter& w, const HpcProcess& process, qint64 start, qint64 end, quint64 seed)
        : m_w(w)
        , m_p(process)
        , m_rng(seed ^ 0x48504341ULL)
        , m_start(start)
        , m_span(std::max<qint64>(end - start, 1000 * kUs))
    { }

    void unifiedMemory();
    void openMp();
    void openAcc();
    HpcStats stats;

private:
    /// Inserts the fields the version's table has; a table the version lacks is left out.
    bool insert(const QString& table, const Fields& fields)
    {
        if (!m_w.hasTable(table))
            return false;
        Fields known;
        for (const Field& f : fields)
            if (m_w.hasColumn(table, f.name))
                known.push_back(f);
        m_w.insert(table, known);
        return true;
    }
    qint64 at(int permille) const { return m_start + m_span / 1000 * permille; }
    qint64 gpid() const { return globalPid(m_p.pid); }
    qint64 tid(int thread) const { return globalTid(m_p.pid, thread == 0 ? m_p.pid : m_p.pid + 60 + thread); }
    void migration(qint64 start, qint64 duration, qint64 address, qint64 bytes, int kind, int cause);

    ExportWriter& m_w;
    HpcProcess m_p;
    Rng m_rng;
    qint64 m_start;
    qint64 m_span;
};

void HpcWriter::migration(qint64 start, qint64 duration, qint64 address, qint64 bytes, int kind, int cause)
{
    if (insert(QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY"),
            { { "start", start }, { "end", start + duration }, { "deviceId", m_p.device },
                { "contextId", m_p.contextId }, { "greenContextId", 0 }, { "streamId", m_p.streamId },
                { "correlationId", 0 }, { "globalPid", gpid() }, { "bytes", bytes }, { "copyKind", kind },
                { "srcKind", kManaged }, { "dstKind", kManaged }, { "migrationCause", cause },
                { "virtualAddress", address }, { "copyCount", 1 } }))
        ++stats.migrations;
}

void HpcWriter::unifiedMemory()
{
    const QString cpuTable = QStringLiteral("CUDA_UM_CPU_PAGE_FAULT_EVENTS");
    const QString gpuTable = QStringLiteral("CUDA_UM_GPU_PAGE_FAULT_EVENTS");
    if (!m_w.hasTable(cpuTable))
        return;
    const std::array<qint64, 4> instructions
        = { m_w.string(QStringLiteral("init_buffers")), m_w.string(QStringLiteral("std::vector<float>::operator[]")),
              m_w.string(QStringLiteral("__memset_avx2")), m_w.string(QStringLiteral("0x55d1c0a4f2e0")) };
    const std::array<qint64, 3> modules = { m_w.string(QStringLiteral("/usr/bin/python3.10")),
        m_w.string(QStringLiteral("/lib/x86_64-linux-gnu/libc.so.6")),
        m_w.string(QStringLiteral("/opt/app/lib/libsolver.so")) };
    // The host fills the first pages of each buffer (some pages twice), the GPU touches 64 KiB groups and pulls
    // them over, the host reads results back.
    qint64 t = at(50);
    for (int i = 0; i < 48; ++i) {
        const qint64 buffer = m_rng.range(0, kBuffers - 2);
        const qint64 page = m_rng.range(0, 11);
        const std::size_t instruction = std::size_t(m_rng.below(instructions.size()));
        insert(cpuTable,
            { { "start", t }, { "globalPid", gpid() }, { "address", kManagedBase + buffer * 0x400000 + page * 4096 },
                { "originalFaultPc", 0x55d1c0a40000LL + qint64(instruction) * 0x2e0 },
                { "CpuInstruction", instructions[instruction] }, { "module", modules[instruction % modules.size()] },
                { "unresolvedFaultPc", instruction == 3 ? 1 : 0 } });
        ++stats.cpuPageFaults;
        t += m_rng.range(2 * kUs, 30 * kUs);
    }
    t = at(200);
    for (int i = 0; i < 30; ++i) {
        const qint64 buffer = m_rng.range(0, kBuffers - 2);
        const qint64 group = m_rng.range(0, 5);
        const qint64 address = kManagedBase + buffer * 0x400000 + group * 0x10000;
        const qint64 duration = m_rng.range(3 * kUs, 40 * kUs);
        insert(gpuTable,
            { { "start", t }, { "end", t + duration }, { "globalPid", gpid() }, { "deviceId", m_p.device },
                { "address", address }, { "numberOfPageFaults", m_rng.range(1, 24) },
                { "faultAccessType", m_rng.range(1, 2) } });
        ++stats.gpuPageFaults;
        // Every fault group migrates in; the same 64 KiB in the same time gives equal throughputs.
        migration(t + duration, i % 5 == 0 ? 8 * kUs : m_rng.range(5 * kUs, 12 * kUs), address, 65536, kUnifiedHtoD, 2);
        t += duration + m_rng.range(10 * kUs, 60 * kUs);
    }
    // Results read back by the host (device-to-host), one instant, and a prefetch of the last buffer with no faults.
    t = at(600);
    for (int i = 0; i < 12; ++i) {
        const qint64 address = kManagedBase + m_rng.range(0, kBuffers - 2) * 0x400000 + m_rng.range(0, 11) * 4096;
        migration(t, i == 7 ? 0 : m_rng.range(1 * kUs, 4 * kUs), address, 4096 * m_rng.range(1, 4), kUnifiedDtoH, 2);
        t += m_rng.range(20 * kUs, 80 * kUs);
    }
    migration(at(700), 180 * kUs, kManagedBase + (kBuffers - 1) * 0x400000, 2 * 1024 * 1024, kUnifiedHtoD, 1);
}

void HpcWriter::openMp()
{
    if (!m_w.hasTable(QStringLiteral("OPENMP_EVENT_KIND_PARALLEL")))
        return;
    auto event = [this](const char* kind, qint64 start, qint64 end, int thread, const QString& name, int eventKind,
                     Fields extra = {}) {
        Fields f { { "start", start }, { "end", end }, { "eventClass", kOpenMpEventClass },
            { "globalTid", tid(thread) }, { "nameId", m_w.string(name) }, { "eventKind", eventKind } };
        f.insert(f.end(), extra.begin(), extra.end());
        if (insert(QStringLiteral("OPENMP_EVENT_KIND_") + QLatin1String(kind), f))
            ++stats.openmpEvents;
    };
    const QString barrier = QStringLiteral("omp_barrier_implicit");
    const qint64 begin = at(300);
    qint64 t = begin;
    for (int region = 1; region <= 10; ++region) {
        const qint64 length = m_rng.range(150 * kUs, 600 * kUs);
        event("PARALLEL", t, t + length, 0, QStringLiteral("omp_parallel"), 3, { { "parallelId", region } });
        for (int thread = 0; thread < 4; ++thread) {
            const qint64 loop = length * m_rng.range(70, 90) / 100;
            event("WORKSHARE", t + 2 * kUs, t + 2 * kUs + loop, thread, QStringLiteral("omp_loop"), 23,
                { { "kind", 1 }, { "parallelId", region } });
            event("SYNC_REGION", t + 2 * kUs + loop, t + length, thread, barrier, 7,
                { { "kind", 2 }, { "parallelId", region } });
            event("SYNC_REGION_WAIT", t + 3 * kUs + loop, t + length - kUs, thread, barrier, 5,
                { { "kind", 2 }, { "parallelId", region } });
        }
        if (region % 3 == 0) {
            event("TASK_CREATE", t + 5 * kUs, t + 5 * kUs, 0, QStringLiteral("omp_task_create"), 15);
            event("MUTEX_WAIT", t + 9 * kUs, t + 9 * kUs + m_rng.range(1 * kUs, 9 * kUs), 1 + region % 3,
                QStringLiteral("omp_critical_wait"), 19);
        }
        t += length + m_rng.range(20 * kUs, 200 * kUs);
    }
    for (int thread = 1; thread < 4; ++thread)
        event("THREAD", begin - 40 * kUs, t, thread, QStringLiteral("omp_thread"), 1,
            { { "threadId", thread + 1 }, { "threadType", 2 } });
}

void HpcWriter::openAcc()
{
    if (!m_w.hasTable(QStringLiteral("CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH")))
        return;
    const qint64 source = m_w.string(QStringLiteral("jacobi.c"));
    const qint64 function = m_w.string(QStringLiteral("jacobi_step"));
    auto event = [this, function](const char* kind, qint64 start, qint64 duration, const QString& name, int eventKind,
                     int line, qint64 file, Fields extra = {}) {
        Fields f { { "start", start }, { "end", start + duration }, { "nameId", m_w.string(name) },
            { "globalTid", tid(0) }, { "eventKind", eventKind }, { "DeviceType", 4 }, { "lineNo", line },
            { "cuDeviceId", m_p.device }, { "cuContextId", m_p.contextId }, { "cuStreamId", m_p.streamId },
            { "funcName", function } };
        if (file > 0) // else NULL: no source file
            f.emplace_back("srcFile", file);
        f.insert(f.end(), extra.begin(), extra.end());
        if (insert(QStringLiteral("CUPTI_ACTIVITY_KIND_OPENACC_") + QLatin1String(kind), f))
            ++stats.openaccEvents;
    };
    event("OTHER", at(400), 900 * kUs, QStringLiteral("acc_device_init"), 1, 0, 0);
    qint64 t = at(420);
    const qint64 array = m_w.string(QStringLiteral("A[:n*m]"));
    for (int step = 0; step < 12; ++step) {
        const int line = step % 2 ? 71 : 52;
        event("DATA", t, m_rng.range(8 * kUs, 20 * kUs), QStringLiteral("acc_enqueue_upload"), 5, 40, source,
            { { "bytes", 1 << 20 }, { "varName", array } });
        event("OTHER", t + 25 * kUs, m_rng.range(60 * kUs, 120 * kUs), QStringLiteral("acc_compute_construct"), 9, line,
            source);
        event("LAUNCH", t + 30 * kUs, m_rng.range(4 * kUs, 9 * kUs), QStringLiteral("acc_enqueue_launch"), 4, line,
            source,
            { { "numGangs", 256 }, { "numWorkers", 1 }, { "vectorLength", 128 },
                { "kernelName", m_w.string(QStringLiteral("jacobi_step_%1_gpu").arg(line)) } });
        event("OTHER", t + 160 * kUs, m_rng.range(2 * kUs, 6 * kUs), QStringLiteral("acc_wait"), 7, line,
            step % 4 == 3 ? 0 : source);
        event("DATA", t + 170 * kUs, m_rng.range(8 * kUs, 20 * kUs), QStringLiteral("acc_enqueue_download"), 6, 88,
            step % 5 == 4 ? 0 : source, { { "bytes", 1 << 20 }, { "varName", array } });
        t += m_rng.range(250 * kUs, 400 * kUs);
    }
}

} // namespace

bool isHpcActivityTable(const QString& table)
{
    return table.startsWith(QLatin1String("CUDA_UM_")) || table.startsWith(QLatin1String("OPENMP_EVENT_KIND_"))
        || table.startsWith(QLatin1String("CUPTI_ACTIVITY_KIND_OPENACC_"));
}

HpcStats writeHpcActivity(ExportWriter& w, const HpcProcess& process, qint64 start, qint64 end, quint64 seed)
{
    HpcWriter writer(w, process, start, end, seed);
    writer.unifiedMemory();
    writer.openMp();
    writer.openAcc();
    return writer.stats;
}

} // namespace nsw::tracegen
