// SPDX-License-Identifier: GPL-3.0-or-later
#include "rankgen.h"

#include "exportwriter.h"
#include "random.h"
#include "sessiontables.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <stdexcept>
#include <vector>

namespace nsw::tracegen {

namespace {

constexpr qint64 kUs = 1000;
constexpr qint64 kEpochNs = 1767225600LL * 1000000000; // 2026-01-01T00:00:00Z
constexpr qint64 kComputeStream = 7;

const char* const kComputeKernels[] = { "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn",
    "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>(Flash_fwd_params)",
    "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>(int)",
    "void at::native::layer_norm_kernel<c10::BFloat16, float>(int, float)" };
const char* const kCollectives[] = { "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
    "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
    "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)" };

[[noreturn]] void fail(const QString& what)
{
    throw std::runtime_error(what.toStdString());
}

struct Span
{
    qint64 start = 0;
    qint64 end = 0;
    int name = 0; ///< kernel: index into kComputeKernels, or kCollectives for NCCL
    int stream = 0;
};

/// What one rank runs, on the true (shared) clock.
struct RankWork
{
    std::vector<Span> compute;
    std::vector<Span> nccl;
    std::vector<Span> memcpy;
    std::vector<Span> steps;
    QJsonArray iterations; ///< truth, times relative to the rank's own clock added when written
};

struct Instance
{
    int straggler = 0;
    qint64 first = 0;
    qint64 last = 0;
    qint64 transfer = 0;
    std::vector<qint64> arrivals;
};

struct Run
{
    std::vector<RankWork> ranks;
    std::vector<Instance> instances;
    std::vector<qint64> clockOffset; ///< true time - own time, per rank
    std::vector<qint64> utcError;
    qint64 end = 0;
};

int stragglerOf(const RankRunConfig& cfg, int iteration)
{
    switch (cfg.mode) {
    case StragglerMode::None:
        return -1;
    case StragglerMode::Persistent:
        return cfg.straggler;
    case StragglerMode::Rotating:
        return iteration % cfg.ranks;
    }
    return -1;
}

/// One phase on every rank: compute kernels, then the collective; returns the collective's end.
qint64 runPhase(const RankRunConfig& cfg, Run& run, std::vector<Rng>& rngs, qint64 start, int phase, int late,
    std::vector<QJsonObject>& cells)
{
    const int ranks = cfg.ranks;
    std::vector<qint64> arrival(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        RankWork& w = run.ranks[std::size_t(r)];
        qint64 t = start + 10 * kUs + (r == late && cfg.cause == StragglerCause::Host ? cfg.delayUs * kUs : 0);
        for (int k = 0; k < cfg.kernelsPerPhase; ++k) {
            qint64 d = rngs[std::size_t(r)].jitter(cfg.kernelUs * kUs * (2 + k % 3) / 2, cfg.jitterPct);
            if (r == late && cfg.cause == StragglerCause::Compute && k == 0)
                d += cfg.delayUs * kUs;
            w.compute.push_back({ t, t + d, k % 4, int(kComputeStream) });
            cells[std::size_t(r)][QStringLiteral("compute_ns")]
                = cells[std::size_t(r)][QStringLiteral("compute_ns")].toInteger() + d;
            t += d + 2 * kUs;
        }
        arrival[std::size_t(r)] = t;
    }
    Instance in;
    const auto last = std::max_element(arrival.begin(), arrival.end());
    in.straggler = int(last - arrival.begin());
    in.last = *last;
    in.first = *std::min_element(arrival.begin(), arrival.end());
    in.transfer = cfg.transferUs * kUs;
    const qint64 end = in.last + in.transfer;
    const int q = phase % cfg.commStreams;
    for (int r = 0; r < ranks; ++r) {
        const qint64 a = arrival[std::size_t(r)];
        run.ranks[std::size_t(r)].nccl.push_back({ a, end, q % 3, q });
        in.arrivals.push_back(a - run.clockOffset[0]);
        QJsonObject& c = cells[std::size_t(r)];
        c[QStringLiteral("communication_ns")] = c[QStringLiteral("communication_ns")].toInteger() + (end - a);
        c[QStringLiteral("wait_ns")] = c[QStringLiteral("wait_ns")].toInteger() + (in.last - a);
        c[QStringLiteral("transfer_ns")] = c[QStringLiteral("transfer_ns")].toInteger() + in.transfer;
    }
    run.instances.push_back(std::move(in));
    return end;
}

Run simulate(const RankRunConfig& cfg)
{
    Run run;
    run.ranks.resize(std::size_t(cfg.ranks));
    for (int r = 0; r < cfg.ranks; ++r) {
        run.clockOffset.push_back(cfg.oneFile ? 0 : r * cfg.clockOffsetUs * kUs);
        run.utcError.push_back(cfg.oneFile ? 0 : (r % 2 ? 1 : -1) * r * cfg.utcErrorUs * kUs);
    }
    std::vector<Rng> rngs;
    for (int r = 0; r < cfg.ranks; ++r)
        rngs.emplace_back(cfg.seed * 7919ULL + std::uint64_t(r) * 104729ULL + 3);
    qint64 t = 2000 * kUs * 1000 + cfg.ranks * cfg.clockOffsetUs * kUs; // every own clock stays positive
    for (int i = 0; i < cfg.iterations; ++i) {
        const qint64 iterationStart = t;
        std::vector<QJsonObject> cells(std::size_t(cfg.ranks));
        for (int r = 0; r < cfg.ranks; ++r) {
            run.ranks[std::size_t(r)].memcpy.push_back({ t + 5 * kUs, t + 5 * kUs + cfg.memcpyUs * kUs });
            for (const char* key : { "compute_ns", "communication_ns", "wait_ns", "transfer_ns" })
                cells[std::size_t(r)][QLatin1String(key)] = qint64(0);
        }
        qint64 phaseStart = t + 5 * kUs + cfg.memcpyUs * kUs;
        for (int p = 0; p < cfg.collectives; ++p)
            phaseStart = runPhase(cfg, run, rngs, phaseStart, p, stragglerOf(cfg, i), cells);
        const qint64 iterationEnd = phaseStart + 30 * kUs;
        for (int r = 0; r < cfg.ranks; ++r) {
            QJsonObject c = cells[std::size_t(r)];
            const qint64 duration = iterationEnd - iterationStart;
            c[QStringLiteral("iteration")] = i;
            c[QStringLiteral("start_ns")] = iterationStart - run.clockOffset[std::size_t(r)];
            c[QStringLiteral("duration_ns")] = duration;
            c[QStringLiteral("memory_ns")] = cfg.memcpyUs * kUs;
            c[QStringLiteral("idle_ns")] = duration - c[QStringLiteral("compute_ns")].toInteger()
                - c[QStringLiteral("communication_ns")].toInteger() - cfg.memcpyUs * kUs;
            run.ranks[std::size_t(r)].iterations.append(c);
            run.ranks[std::size_t(r)].steps.push_back({ iterationStart, iterationEnd, i });
        }
        t = iterationEnd;
    }
    run.end = t + 1000 * kUs;
    return run;
}

/// Writes rank @p r into @p w, on its own clock (true time - its offset).
void writeRank(ExportWriter& w, const RankRunConfig& cfg, const Run& run, int r, qint64& correlation)
{
    const RankWork& work = run.ranks[std::size_t(r)];
    const qint64 offset = run.clockOffset[std::size_t(r)];
    const qint64 pid = 4000 + 17 * r, gpu = r % cfg.gpusPerNode;
    const qint64 gpid = globalPid(pid), tid = globalTid(pid, pid);
    w.insert(QStringLiteral("PROCESSES"), { { "globalPid", gpid }, { "pid", pid }, { "name", "python3" } });
    w.insert(QStringLiteral("ThreadNames"),
        { { "nameId", w.string(QStringLiteral("python3")) }, { "priority", 20 }, { "globalTid", tid } });
    if (w.hasTable(QStringLiteral("TARGET_INFO_CUDA_DEVICE")))
        w.insert(QStringLiteral("TARGET_INFO_CUDA_DEVICE"), { { "gpuId", gpu }, { "cudaId", gpu }, { "pid", pid } });
    Inserter& k = w.prepare(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"),
        { QStringLiteral("start"), QStringLiteral("end"), QStringLiteral("deviceId"), QStringLiteral("contextId"),
            QStringLiteral("streamId"), QStringLiteral("correlationId"), QStringLiteral("globalPid"),
            QStringLiteral("demangledName"), QStringLiteral("shortName") });
    auto kernel = [&](const Span& s, const char* name, qint64 stream) {
        const qint64 id = w.string(QString::fromLatin1(name));
        k.set(0, s.start - offset);
        k.set(1, s.end - offset);
        k.set(2, gpu);
        k.set(3, 1);
        k.set(4, stream);
        k.set(5, ++correlation);
        k.set(6, gpid);
        k.set(7, id);
        k.set(8, id);
        k.insert();
    };
    for (const Span& s : work.compute)
        kernel(s, kComputeKernels[s.name], kComputeStream);
    for (const Span& s : work.nccl) // NCCL stream ids differ between ranks, as in real captures
        kernel(s, kCollectives[s.name], 20 + 4 * s.stream + r % 3);
    k.flush();
    for (const Span& s : work.memcpy)
        w.insert(QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY"),
            { { "start", s.start - offset }, { "end", s.end - offset }, { "deviceId", gpu }, { "contextId", 1 },
                { "streamId", kComputeStream }, { "correlationId", ++correlation }, { "globalPid", gpid },
                { "bytes", 64 << 20 }, { "copyKind", 1 }, { "srcKind", 1 }, { "dstKind", 2 } });
    for (const Span& s : work.steps)
        w.insert(QStringLiteral("NVTX_EVENTS"),
            { { "start", s.start - offset }, { "end", s.end - offset }, { "eventType", 59 },
                { "text", QStringLiteral("ProfilerStep#%1").arg(s.name) }, { "globalTid", tid } });
}

void writeFile(const QString& path, const RankRunConfig& cfg, const Run& run, const std::vector<int>& ranks)
{
    QFile::remove(path);
    ExportWriter w(path, cfg.schemaVersion);
    Inserter& gpu = w.prepare(QStringLiteral("TARGET_INFO_GPU"),
        { QStringLiteral("vmId"), QStringLiteral("id"), QStringLiteral("name"), QStringLiteral("busLocation"),
            QStringLiteral("cuDevice"), QStringLiteral("smCount") },
        ExportWriter::MissingColumns::Skip);
    for (int g = 0; g < std::min(cfg.gpusPerNode, cfg.oneFile ? cfg.ranks : cfg.gpusPerNode); ++g) {
        gpu.set(0, globalPid(0));
        gpu.set(1, g);
        gpu.setText(2, QStringLiteral("NVIDIA H100 80GB HBM3"));
        gpu.setText(3, QStringLiteral("0000:%1:00.0").arg(0x18 + g, 2, 16, QLatin1Char('0')));
        gpu.set(4, g);
        gpu.set(5, 132);
        gpu.insert();
    }
    qint64 correlation = 0;
    for (const int r : ranks)
        writeRank(w, cfg, run, r, correlation);
    const int first = ranks.front();
    SessionInfo session;
    // Its own time 0 is true time offset: the wall clock of that, as the node's clock (off by its error) saw it.
    session.utcEpochNs = kEpochNs + cfg.sessionStartS * 1'000'000'000 + run.clockOffset[std::size_t(first)]
        + run.utcError[std::size_t(first)];
    session.durationNs = run.end - run.clockOffset[std::size_t(first)];
    session.host = QStringLiteral("node-%1").arg(cfg.oneFile ? 0 : first / cfg.gpusPerNode);
    session.baseName = QFileInfo(path).completeBaseName();
    session.command = QStringLiteral("torchrun");
    writeSessionTables(w, session);
    w.finish();
}

QJsonObject truthJson(const RankRunConfig& cfg, const Run& run, const QStringList& files)
{
    QJsonArray ranks;
    for (int r = 0; r < cfg.ranks; ++r) {
        qint64 wait = 0, last = 0;
        for (const Instance& in : run.instances) {
            wait += in.last - (in.arrivals[std::size_t(r)] + run.clockOffset[0]);
            last += in.straggler == r ? 1 : 0;
        }
        ranks.append(QJsonObject { { QStringLiteral("rank"), r },
            { QStringLiteral("file"), QFileInfo(files[cfg.oneFile ? 0 : r]).absoluteFilePath() },
            { QStringLiteral("pid"), 4000 + 17 * r }, { QStringLiteral("gpu"), r % cfg.gpusPerNode },
            { QStringLiteral("host"), QStringLiteral("node-%1").arg(cfg.oneFile ? 0 : r / cfg.gpusPerNode) },
            { QStringLiteral("clock_offset_ns"), run.clockOffset[std::size_t(r)] - run.clockOffset[0] },
            { QStringLiteral("collectives"), qint64(run.instances.size()) }, { QStringLiteral("last_arrivals"), last },
            { QStringLiteral("wait_ns"), wait },
            { QStringLiteral("iterations"), run.ranks[std::size_t(r)].iterations } });
    }
    QJsonArray collectives;
    for (std::size_t i = 0; i < run.instances.size(); ++i) {
        const Instance& in = run.instances[i];
        QJsonArray arrivals, waits;
        for (const qint64 a : in.arrivals) {
            arrivals.append(a);
            waits.append(in.last - run.clockOffset[0] - a);
        }
        collectives.append(
            QJsonObject { { QStringLiteral("index"), qint64(i) }, { QStringLiteral("straggler"), in.straggler },
                { QStringLiteral("first_arrival_ns"), in.first - run.clockOffset[0] },
                { QStringLiteral("last_arrival_ns"), in.last - run.clockOffset[0] },
                { QStringLiteral("skew_ns"), in.last - in.first }, { QStringLiteral("transfer_ns"), in.transfer },
                { QStringLiteral("arrivals_ns"), arrivals }, { QStringLiteral("waits_ns"), waits } });
    }
    const char* modes[] = { "none", "persistent", "rotating" };
    return { { QStringLiteral("config"),
                 QJsonObject { { QStringLiteral("ranks"), cfg.ranks }, { QStringLiteral("iterations"), cfg.iterations },
                     { QStringLiteral("collectives"), cfg.collectives },
                     { QStringLiteral("straggler_mode"), QLatin1String(modes[int(cfg.mode)]) },
                     { QStringLiteral("straggler"), cfg.mode == StragglerMode::Persistent ? cfg.straggler : -1 },
                     { QStringLiteral("straggler_cause"),
                         cfg.cause == StragglerCause::Host ? QStringLiteral("host") : QStringLiteral("compute") },
                     { QStringLiteral("delay_ns"), cfg.delayUs * kUs } } },
        { QStringLiteral("ranks"), ranks }, { QStringLiteral("collectives"), collectives } };
}

void validate(const RankRunConfig& cfg)
{
    if (cfg.outDir.isEmpty())
        fail(QStringLiteral("give --out-dir DIR for a multi-rank run"));
    if (cfg.ranks < 1 || cfg.ranks > 4096)
        fail(QStringLiteral("--ranks must be 1..4096"));
    if (cfg.iterations < 1 || cfg.collectives < 1 || cfg.commStreams < 1 || cfg.kernelsPerPhase < 1)
        fail(QStringLiteral("--iterations, --collectives, --comm-streams and --phase-kernels must be >= 1"));
    if (cfg.gpusPerNode < 1 || cfg.jitterPct < 0 || cfg.jitterPct > 90 || cfg.delayUs < 0 || cfg.clockOffsetUs < 0)
        fail(QStringLiteral("--gpus-per-node >= 1, --jitter 0..90, --delay-us and --clock-offset-us >= 0"));
    if (cfg.mode == StragglerMode::Persistent && (cfg.straggler < 0 || cfg.straggler >= cfg.ranks))
        fail(QStringLiteral("--straggler must name one of the ranks"));
}

} // namespace

RankRunStats generateRankRun(const RankRunConfig& cfg)
{
    validate(cfg);
    if (!QDir().mkpath(cfg.outDir))
        fail(QStringLiteral("cannot create %1").arg(cfg.outDir));
    const Run run = simulate(cfg);
    RankRunStats stats;
    const QDir dir(cfg.outDir);
    if (cfg.oneFile) {
        stats.files << dir.filePath(cfg.prefix + QStringLiteral("all.sqlite"));
        std::vector<int> all(std::size_t(cfg.ranks));
        for (int r = 0; r < cfg.ranks; ++r)
            all[std::size_t(r)] = r;
        writeFile(stats.files.first(), cfg, run, all);
    } else {
        for (int r = 0; r < cfg.ranks; ++r) {
            stats.files << dir.filePath(QStringLiteral("%1%2.sqlite").arg(cfg.prefix).arg(r));
            writeFile(stats.files.last(), cfg, run, { r });
        }
    }
    for (const RankWork& w : run.ranks)
        stats.kernels += qint64(w.compute.size() + w.nccl.size());
    stats.collectives = qint64(run.instances.size());
    QFile truth(cfg.truthPath.isEmpty() ? dir.filePath(QStringLiteral("truth.json")) : cfg.truthPath);
    if (!truth.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || truth.write(QJsonDocument(truthJson(cfg, run, stats.files)).toJson()) < 0)
        fail(QStringLiteral("cannot write %1").arg(truth.fileName()));
    return stats;
}

void addRankRunOptions(QCommandLineParser& p)
{
    auto opt = [&](const char* name, const char* help, const char* value = nullptr, const char* def = nullptr) {
        QCommandLineOption o(QLatin1String(name), QLatin1String(help), value ? QLatin1String(value) : QString());
        if (def)
            o.setDefaultValue(QLatin1String(def));
        p.addOption(o);
    };
    opt("ranks", "Multi-rank run: write N rank exports with NCCL collectives and known waits (see --out-dir).", "n");
    opt("out-dir", "Multi-rank run: the folder for the exports and truth.json.", "dir");
    opt("one-file", "Multi-rank run: one export holding every rank as a process (else one export per rank).");
    opt("iterations", "Multi-rank run: iterations (NVTX ProfilerStep#i).", "n", "8");
    opt("collectives", "Multi-rank run: collectives per iteration.", "n", "3");
    opt("comm-streams", "Multi-rank run: NCCL streams (communicators) the collectives alternate over.", "n", "1");
    opt("phase-kernels", "Multi-rank run: compute kernels before each collective.", "n", "4");
    opt("gpus-per-node", "Multi-rank run: rank r runs on GPU r mod N of node r / N.", "n", "8");
    opt("straggler", "Multi-rank run: the rank that arrives late at every collective.", "rank");
    opt("rotating-straggler", "Multi-rank run: iteration i's straggler is rank i mod ranks.");
    opt("straggler-cause", "Multi-rank run: host (its kernels start late) or compute (a slower kernel).", "cause",
        "host");
    opt("delay-us", "Multi-rank run: the straggler's delay before each collective.", "us", "1500");
    opt("clock-offset-us", "Multi-rank run: file r's clock starts r x this later than rank 0's.", "us", "0");
    opt("utc-error-us", "Multi-rank run: file r's session start time is off by +-r x this.", "us", "0");
    opt("truth", "Multi-rank run: where to write the truth JSON (default OUT-DIR/truth.json).", "file");
    opt("session-start-s", "Multi-rank run: rank 0's session starts this many seconds after 2026-01-01.", "s", "0");
}

RankRunConfig rankRunConfig(const QCommandLineParser& p)
{
    auto number = [&](const char* name) {
        bool ok = false;
        const qint64 v = p.value(QLatin1String(name)).toLongLong(&ok);
        if (!ok)
            fail(QStringLiteral("--%1 needs an integer, got '%2'")
                     .arg(QLatin1String(name), p.value(QLatin1String(name))));
        return v;
    };
    RankRunConfig c;
    c.outDir = p.value(QStringLiteral("out-dir"));
    c.truthPath = p.value(QStringLiteral("truth"));
    c.schemaVersion = p.value(QStringLiteral("schema"));
    c.ranks = int(number("ranks"));
    c.oneFile = p.isSet(QStringLiteral("one-file"));
    c.iterations = int(number("iterations"));
    c.collectives = int(number("collectives"));
    c.commStreams = int(number("comm-streams"));
    c.kernelsPerPhase = int(number("phase-kernels"));
    c.gpusPerNode = int(number("gpus-per-node"));
    c.jitterPct = int(number("jitter"));
    c.seed = quint64(number("seed"));
    c.delayUs = number("delay-us");
    c.clockOffsetUs = number("clock-offset-us");
    c.utcErrorUs = number("utc-error-us");
    c.sessionStartS = number("session-start-s");
    if (p.isSet(QStringLiteral("straggler"))) {
        c.mode = StragglerMode::Persistent;
        c.straggler = int(number("straggler"));
    }
    if (p.isSet(QStringLiteral("rotating-straggler")))
        c.mode = StragglerMode::Rotating;
    const QString cause = p.value(QStringLiteral("straggler-cause"));
    if (cause != QLatin1String("host") && cause != QLatin1String("compute"))
        fail(QStringLiteral("--straggler-cause must be host or compute"));
    c.cause = cause == QLatin1String("host") ? StragglerCause::Host : StragglerCause::Compute;
    return c;
}

} // namespace nsw::tracegen
