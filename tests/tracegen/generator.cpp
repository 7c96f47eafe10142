// SPDX-License-Identifier: GPL-3.0-or-later
#include "generator.h"

#include "cpusampler.h"
#include "exportwriter.h"
#include "gpumetrics.h"
#include "hpcactivity.h"
#include "nvlinkpoller.h"
#include "sessiontables.h"
#include "simulator.h"
#include "workloads.h"

#include <QFileInfo>
#include <optional>
#include <stdexcept>

namespace nsw::tracegen {

namespace {

constexpr qint64 kSecond = 1000000000;

[[noreturn]] void fail(const QString& what)
{
    throw std::runtime_error(what.toStdString());
}

QStringList cols(std::initializer_list<const char*> names)
{
    QStringList out;
    for (const char* n : names)
        out.append(QLatin1String(n));
    return out;
}

QString gpuUuid(Rng& rng)
{
    auto hex = [&](int digits) {
        return QStringLiteral("%1").arg(
            qulonglong(rng.next() & ((1ULL << (4 * digits)) - 1)), digits, 16, QLatin1Char('0'));
    };
    return hex(8) + QLatin1Char('-') + hex(4) + QLatin1Char('-') + hex(4) + QLatin1Char('-') + hex(4) + QLatin1Char('-')
        + hex(12);
}

void writeTargetInfo(ExportWriter& w, const GeneratorConfig& cfg, const std::vector<RankState>& ranks, Rng& rng)
{
    using M = ExportWriter::MissingColumns;
    QStringList uuids;
    for (int g = 0; g < cfg.gpus; ++g)
        uuids.append(gpuUuid(rng));

    Inserter& gpu = w.prepare(QStringLiteral("TARGET_INFO_GPU"),
        cols({ "vmId", "id", "name", "busLocation", "isDiscrete", "l2CacheSize", "totalMemory", "memoryBandwidth",
            "clockRate", "smCount", "pwGpuId", "uuid", "luid", "chipName", "cuDevice", "revision", "nodeMask",
            "constantMemory", "maxIPC", "maxRegistersPerBlock", "maxShmemPerBlock", "maxShmemPerBlockOptin",
            "maxShmemPerSm", "maxRegistersPerSm", "threadsPerWarp", "asyncEngines", "maxWarpsPerSm", "maxBlocksPerSm",
            "maxThreadsPerBlock", "maxBlockDimX", "maxBlockDimY", "maxBlockDimZ", "maxGridDimX", "maxGridDimY",
            "maxGridDimZ", "computeMajor", "computeMinor", "smMajor", "smMinor" }),
        M::Skip);
    const qint64 constants[] = { 1, 52428800, 85520809984, 3352320000000, 1980000000, 132 };
    for (int g = 0; g < cfg.gpus; ++g) {
        int i = 0;
        gpu.set(i++, globalPid(0));
        gpu.set(i++, g);
        gpu.setText(i++, QStringLiteral("NVIDIA H100 80GB HBM3"));
        gpu.setText(i++, QStringLiteral("0000:%1:00.0").arg(0x18 + 0x1a * g, 2, 16, QLatin1Char('0')));
        for (qint64 c : constants)
            gpu.set(i++, c);
        gpu.set(i++, g);
        gpu.setText(i++, uuids.at(g));
        gpu.set(i++, 0);
        gpu.setText(i++, QStringLiteral("GH100"));
        gpu.set(i++, g);
        for (qint64 c : { 161, 0, 65536, 4, 65536, 49152, 232448, 233472, 65536, 32, 4, 64, 32, 1024, 1024, 1024, 64,
                 2147483647, 65535, 65535, 9, 0, 9, 0 })
            gpu.set(i++, c);
        gpu.insert();
    }
    if (w.hasTable(QStringLiteral("TARGET_INFO_CUDA_DEVICE"))) {
        Inserter& dev = w.prepare(QStringLiteral("TARGET_INFO_CUDA_DEVICE"),
            cols({ "gpuId", "cudaId", "pid", "uuid", "numMultiprocessors" }), M::Skip);
        for (const RankState& r : ranks) {
            dev.set(0, r.rank);
            dev.set(1, r.rank);
            dev.set(2, r.pid);
            dev.setText(3, uuids.at(r.rank));
            dev.set(4, 132);
            dev.insert();
        }
    }
    if (w.hasTable(QStringLiteral("TARGET_INFO_CUDA_CONTEXT_INFO"))) {
        Inserter& ctx = w.prepare(QStringLiteral("TARGET_INFO_CUDA_CONTEXT_INFO"),
            cols({ "nullStreamId", "hwId", "vmId", "processId", "deviceId", "contextId", "parentContextId",
                "isGreenContext", "numMultiprocessors" }),
            M::Skip);
        for (const RankState& r : ranks) {
            int i = 0;
            for (qint64 v : { qint64(kStreamIds[Compute]), qint64(0), qint64(1), r.pid, qint64(r.rank),
                     qint64(r.rank + 1), qint64(0), qint64(0), qint64(132) })
                ctx.set(i++, v);
            ctx.insert();
        }
    } else if (w.hasTable(QStringLiteral("TARGET_INFO_CUDA_NULL_STREAM"))) {
        Inserter& ns = w.prepare(QStringLiteral("TARGET_INFO_CUDA_NULL_STREAM"),
            cols({ "streamId", "hwId", "vmId", "processId", "deviceId", "contextId" }));
        for (const RankState& r : ranks) {
            int i = 0;
            for (qint64 v :
                { qint64(kStreamIds[Compute]), qint64(0), qint64(1), r.pid, qint64(r.rank), qint64(r.rank + 1) })
                ns.set(i++, v);
            ns.insert();
        }
    }
    Inserter& st = w.prepare(QStringLiteral("TARGET_INFO_CUDA_STREAM"),
        cols({ "streamId", "hwId", "vmId", "processId", "contextId", "priority", "flag" }));
    for (const RankState& r : ranks) {
        // Null stream (flag 3), then the NCCL stream (high priority, non-blocking) and the copy stream.
        const qint64 rows[3][3]
            = { { kStreamIds[Compute], 0, 3 }, { kStreamIds[Comm], 4294967295LL, 2 }, { kStreamIds[Copy], 0, 2 } };
        for (const auto& row : rows) {
            int i = 0;
            for (qint64 v : { row[0], qint64(0), qint64(1), r.pid, qint64(r.rank + 1), row[1], row[2] })
                st.set(i++, v);
            st.insert();
        }
    }
}

void writeProcesses(
    ExportWriter& w, const GeneratorConfig& cfg, const std::vector<RankState>& ranks, qint64 launcherPid)
{
    const bool training = cfg.workload == Workload::Training;
    if (w.hasTable(QStringLiteral("PROCESSES"))) {
        Inserter& p = w.prepare(QStringLiteral("PROCESSES"), cols({ "globalPid", "pid", "name" }));
        p.set(0, globalPid(launcherPid));
        p.set(1, launcherPid);
        p.setText(2, training ? QStringLiteral("torchrun") : QStringLiteral("vllm"));
        p.insert();
        for (const RankState& r : ranks) {
            p.set(0, r.gpid);
            p.set(1, r.pid);
            p.setText(2, QStringLiteral("python3"));
            p.insert();
        }
    }
    Inserter& t = w.prepare(QStringLiteral("ThreadNames"), cols({ "nameId", "priority", "globalTid" }));
    auto thread = [&](const QString& name, qint64 tid, int priority = 20) {
        t.set(0, w.string(name));
        t.set(1, priority);
        t.set(2, tid);
        t.insert();
    };
    thread(training ? QStringLiteral("torchrun") : QStringLiteral("vllm"), globalTid(launcherPid, launcherPid));
    for (const RankState& r : ranks) {
        thread(QStringLiteral("python3"), r.tids[0]);
        thread(training ? QStringLiteral("pt_data_pin") : QStringLiteral("detokenizer"), r.tids[1]);
        if (training)
            thread(QStringLiteral("pt_autograd_0"), r.tids[2]);
        thread(QStringLiteral("cuda-EvtHandlr"), globalTid(r.pid, r.pid + 5));
        thread(QStringLiteral("CUPTI worker thread"), globalTid(r.pid, r.pid + 6), 10);
        if (cfg.gpus > 1) {
            thread(QStringLiteral("pt_nccl_watchdg"), globalTid(r.pid, r.pid + 27));
            thread(QStringLiteral("pt_nccl_heartbt"), globalTid(r.pid, r.pid + 28));
        }
    }
}

void validate(const GeneratorConfig& cfg)
{
    if (cfg.outPath.isEmpty())
        fail(QStringLiteral("no output file"));
    if (cfg.gpus < 1 || cfg.gpus > 256)
        fail(QStringLiteral("--gpus must be 1..256"));
    if (cfg.kernels < 0)
        fail(QStringLiteral("--kernels must be >= 0"));
    if (cfg.cpuSamples < 0 || cfg.cpuSamples > 100000000)
        fail(QStringLiteral("--cpu-samples must be 0..100000000"));
    if (cfg.cpuSampleSymbols < 0 || cfg.cpuSampleSymbols > 100000000 || cfg.cpuSampleRecursion < 0
        || cfg.cpuSampleRecursion > 1000000)
        fail(QStringLiteral("--cpu-sample-symbols must be 0..100000000, --cpu-sample-recursion 0..1000000"));
    if (cfg.layers < 1 || cfg.prefillEvery < 1)
        fail(QStringLiteral("--layers and --prefill-every must be >= 1"));
    if (cfg.stepGapUs < 0 || cfg.stepGapUs > 10000000)
        fail(QStringLiteral("--step-gap-us must be 0..10000000"));
    if (cfg.jitterPct < 0 || cfg.jitterPct > 90)
        fail(QStringLiteral("--jitter must be 0..90"));
    if (cfg.gpuMetricsHz < 10 || cfg.gpuMetricsHz > 200000)
        fail(QStringLiteral("--gpu-metrics-hz must be 10..200000"));
    if (!cfg.nvlinkPath.isEmpty() && (cfg.nvlinkGpu < 0 || cfg.nvlinkGpu >= cfg.gpus))
        fail(QStringLiteral("--nvlink-gpu must name one of the GPUs"));
    if (cfg.nvlinkLinks < 1 || cfg.nvlinkLinks > 18)
        fail(QStringLiteral("--nvlink-links must be 1..18"));
}

} // namespace

GeneratorStats generateExport(const GeneratorConfig& cfg)
{
    validate(cfg);
    GeneratorStats stats;
    Rng structure(cfg.seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL);

    SessionInfo session;
    // A plausible capture date in 2026 and a target clock that has been up for a while, both from the seed.
    session.utcEpochNs = 1767225600LL * kSecond + qint64(structure.below(300)) * 86400 * kSecond
        + qint64(structure.below(86400)) * kSecond + qint64(structure.below(kSecond));
    session.systemClockNs = structure.range(5 * kSecond, 900 * kSecond);
    session.host = QStringLiteral("gpu-node-%1").arg(structure.range(1, 64), 2, 10, QLatin1Char('0'));
    session.baseName = QFileInfo(cfg.outPath).completeBaseName();
    session.uuid = gpuUuid(structure);
    const bool training = cfg.workload == Workload::Training;
    session.command = training ? QStringLiteral("torchrun") : QStringLiteral("vllm");
    session.arguments = training
        ? QStringList { QStringLiteral("--nproc_per_node=%1").arg(cfg.gpus), QStringLiteral("train.py") }
        : QStringList { QStringLiteral("serve"), QStringLiteral("--tensor-parallel-size"), QString::number(cfg.gpus) };
    stats.utcEpochNs = session.utcEpochNs;

    ExportWriter w(cfg.outPath, cfg.schemaVersion,
        cfg.allTables ? ExportWriter::CreateTables::All : ExportWriter::CreateTables::Lazily);
    // Create the tables this trace fills in the version's order, so the file lists them as nsys would.
    const QStringList filled = {
        QStringLiteral("ThreadNames"),
        QStringLiteral("PROCESSES"),
        QStringLiteral("TARGET_INFO_SESSION_START_TIME"),
        QStringLiteral("ANALYSIS_DETAILS"),
        QStringLiteral("TARGET_INFO_SYSTEM_ENV"),
        QStringLiteral("TARGET_INFO_GPU"),
        QStringLiteral("TARGET_INFO_CUDA_DEVICE"),
        QStringLiteral("TARGET_INFO_CUDA_NULL_STREAM"),
        QStringLiteral("TARGET_INFO_CUDA_CONTEXT_INFO"),
        QStringLiteral("TARGET_INFO_CUDA_STREAM"),
        QStringLiteral("EXPORT_META_DATA"),
        QStringLiteral("META_DATA_EXPORT"),
        QStringLiteral("META_DATA_CAPTURE"),
        QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME"),
        QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"),
        QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY"),
        QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET"),
        QStringLiteral("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"),
        QStringLiteral("CUPTI_ACTIVITY_KIND_CUDA_EVENT"),
        QStringLiteral("NVTX_EVENTS"),
    };
    for (const TableSchema& t : w.schema().tables) {
        if (filled.contains(t.name) || (cfg.cudaGraphs && t.name == QLatin1String("CUPTI_ACTIVITY_KIND_GRAPH_TRACE"))
            || (cfg.gpuMetrics && t.name.contains(QLatin1String("GPU_METRICS")))
            || (cfg.hpcActivity && isHpcActivityTable(t.name)))
            w.createTable(t.name);
    }

    const qint64 launcherPid = 100 + structure.range(0, 3000);
    std::vector<RankState> ranks;
    ranks.reserve(std::size_t(cfg.gpus));
    for (int g = 0; g < cfg.gpus; ++g) {
        RankState& r = ranks.emplace_back(cfg.seed * 1000003ULL + std::uint64_t(g) * 7919ULL + 11);
        r.rank = g;
        r.pid = launcherPid + 19 + 17 * g;
        r.gpid = globalPid(r.pid);
        r.tids = { globalTid(r.pid, r.pid), globalTid(r.pid, r.pid + 3), globalTid(r.pid, r.pid + 41) };
        r.cpu = 40000000 + 2700000LL * g;
        r.kernelsLeft = cfg.kernels / cfg.gpus + (g < cfg.kernels % cfg.gpus ? 1 : 0);
        r.active = r.kernelsLeft > 0;
        if (cfg.gpuMetrics)
            r.metrics = std::make_unique<ActivityTimeline>(kSecond / cfg.gpuMetricsHz);
    }

    Simulator sim(w, cfg, stats, ranks);
    std::optional<GpuMetricsWriter> metrics;
    if (cfg.gpuMetrics) {
        metrics.emplace(w, cfg.gpus, session.systemClockNs, cfg.seed, cfg.jitterPct);
        sim.setMetrics(&*metrics);
    }
    std::optional<Nvf1Writer> nvf1;
    std::optional<NvlinkPoller> poller;
    Rng pollJitter(cfg.seed ^ 0x504F4C4CULL);
    if (!cfg.nvlinkPath.isEmpty()) {
        nvf1.emplace(cfg.nvlinkPath, cfg.nvlinkFaults);
        // The reset lands 50 ms into the session, well inside the start-up phase every trace has.
        poller.emplace(*nvf1, cfg.nvlinkLinks, session.utcEpochNs, session.systemClockNs, cfg.seed,
            cfg.nvlinkCounterReset ? 50 : -1);
        sim.setNvlink(&*poller, cfg.nvlinkGpu, &pollJitter);
    }

    initPhase(sim, cfg);
    while (sim.anyActive()) {
        if (training)
            trainingStep(sim, cfg, stats.steps, structure);
        else
            inferenceStep(sim, cfg, stats.steps, structure);
        if (cfg.stepGapUs > 0)
            sim.idle(structure.range(cfg.stepGapUs * 500, cfg.stepGapUs * 1500));
        sim.endStep();
        ++stats.steps;
    }
    const qint64 end = sim.finish();
    stats.sessionEndNs = end;
    if (nvf1) {
        nvf1->close();
        stats.nvlinkRecords = qint64(nvf1->recordsWritten());
    }
    if (metrics)
        stats.gpuMetricRows = metrics->rows();
    std::vector<SampledThread> sampled;
    for (const RankState& r : ranks) {
        sampled.push_back({ r.tids[0], true });
        sampled.push_back({ r.tids[1], false });
    }
    stats.cpuSamples
        = writeCpuSamples(w, sampled, end, cfg.cpuSamples, cfg.seed, { cfg.cpuSampleSymbols, cfg.cpuSampleRecursion });

    if (cfg.hpcActivity) {
        const HpcStats hpc = writeHpcActivity(w, { ranks.front().pid }, 0, end, cfg.seed);
        stats.memcpys += hpc.migrations;
        stats.hpcEvents = hpc.cpuPageFaults + hpc.gpuPageFaults + hpc.openmpEvents + hpc.openaccEvents;
    }
    writeTargetInfo(w, cfg, ranks, structure);
    writeProcesses(w, cfg, ranks, launcherPid);
    session.durationNs = end;
    writeSessionTables(w, session);
    w.finish();
    return stats;
}

qint64 writeSyntheticNvlink(const NvlinkOnlyConfig& cfg)
{
    if (cfg.links < 1 || cfg.links > 18 || cfg.durationNs <= 0)
        fail(QStringLiteral("bad NVLink recording parameters"));
    Nvf1Writer writer(cfg.path, cfg.faults);
    const qint64 polls = cfg.durationNs / 1000000;
    NvlinkPoller poller(writer, cfg.links, cfg.utcEpochNs, 28254349605LL, cfg.seed, cfg.counterReset ? polls / 2 : -1);
    Rng rng(cfg.seed ^ 0x53594E54ULL);
    // Training-like rhythm: 40 ms steps, each with a few NCCL bursts of 2-6 ms.
    qint64 burstLeft = 0;
    for (qint64 k = 0; k < polls; ++k) {
        if (burstLeft == 0 && rng.chance(k % 40 < 10 ? 300 : 40))
            burstLeft = rng.range(2, 6);
        double busy = 0.0;
        if (burstLeft > 0) {
            busy = double(rng.range(700, 1000)) / 1000.0;
            --burstLeft;
        }
        poller.poll(cfg.startOffsetNs + (k + 1) * 1000000 + rng.range(0, 40000), busy);
    }
    writer.close();
    return qint64(writer.recordsWritten());
}

} // namespace nsw::tracegen
