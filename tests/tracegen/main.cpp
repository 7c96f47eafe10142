// SPDX-License-Identifier: GPL-3.0-or-later
// nsys-tracegen: writes synthetic Nsight Systems SQLite exports and NVLink (NVF1) recordings for tests, the demo
// profile and benchmarks.
#include "generator.h"
#include "rankgen.h"
#include "schemacatalog.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <cstdio>
#include <stdexcept>

using namespace nsw::tracegen;

namespace {

QCommandLineOption opt(const QString& name, const QString& help, const QString& value = {}, const QString& def = {})
{
    QCommandLineOption o(name, help, value);
    if (!def.isEmpty())
        o.setDefaultValue(def);
    return o;
}

qint64 number(const QCommandLineParser& p, const QString& name)
{
    bool ok = false;
    const qint64 v = p.value(name).toLongLong(&ok);
    if (!ok)
        throw std::runtime_error(
            QStringLiteral("--%1 needs an integer, got '%2'").arg(name, p.value(name)).toStdString());
    return v;
}

Nvf1Faults faults(const QStringList& names, bool& counterReset)
{
    Nvf1Faults f;
    for (const QString& n : names) {
        if (n == QLatin1String("truncated"))
            f.truncateLast = true;
        else if (n == QLatin1String("bad-return"))
            f.badReturnEvery = 997;
        else if (n == QLatin1String("counter-reset"))
            counterReset = true;
        else if (n == QLatin1String("bad-magic"))
            f.badMagic = true;
        else
            throw std::runtime_error(
                QStringLiteral("unknown --nvlink-fault '%1' (truncated, bad-return, counter-reset, "
                               "bad-magic)")
                    .arg(n)
                    .toStdString());
    }
    return f;
}

void print(const QString& s)
{
    std::fputs(s.toLocal8Bit().constData(), stdout);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("nsys-tracegen"));
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Writes a synthetic Nsight Systems SQLite export with the schema of a given nsys version, and optionally an "
        "NVLink NVF1 recording aligned to it. With --nvlink-bin but no --out, writes a stand-alone recording."));
    p.addHelpOption();
    p.addOptions({
        opt(QStringLiteral("out"), QStringLiteral("Export to write (overwritten)."), QStringLiteral("file")),
        opt(QStringLiteral("schema"), QStringLiteral("nsys version whose schema to write."), QStringLiteral("version"),
            QStringLiteral("2026.2")),
        opt(QStringLiteral("list-schemas"), QStringLiteral("List the supported versions and exit.")),
        opt(QStringLiteral("gpus"), QStringLiteral("GPUs, one process each."), QStringLiteral("n"),
            QStringLiteral("2")),
        opt(QStringLiteral("kernels"), QStringLiteral("Kernel rows over all GPUs."), QStringLiteral("k"),
            QStringLiteral("10000")),
        opt(QStringLiteral("seed"), QStringLiteral("Seed; the same seed gives the same file."), QStringLiteral("s"),
            QStringLiteral("1")),
        opt(QStringLiteral("workload"), QStringLiteral("llm-inference or training."), QStringLiteral("kind"),
            QStringLiteral("llm-inference")),
        opt(QStringLiteral("layers"), QStringLiteral("Transformer layers per step."), QStringLiteral("n"),
            QStringLiteral("8")),
        opt(QStringLiteral("prefill-every"), QStringLiteral("Inference: every Nth step is a prefill."),
            QStringLiteral("n"), QStringLiteral("8")),
        opt(QStringLiteral("jitter"),
            QStringLiteral("Random variation of durations and gaps in percent; 0 makes every "
                           "kernel take exactly its base duration."),
            QStringLiteral("pct"), QStringLiteral("10")),
        opt(QStringLiteral("step-gap-us"),
            QStringLiteral("Extra idle time after each step (mean, µs), e.g. a lightly loaded server."),
            QStringLiteral("us"), QStringLiteral("0")),
        opt(QStringLiteral("cuda-graphs"),
            QStringLiteral("Inference decode steps replay a CUDA graph "
                           "(CUPTI_ACTIVITY_KIND_GRAPH_TRACE rows).")),
        opt(QStringLiteral("gpu-metrics"), QStringLiteral("Write GPU_METRICS with NVLink TX/RX throughput metrics.")),
        opt(QStringLiteral("gpu-metrics-hz"), QStringLiteral("GPU metrics sampling rate."), QStringLiteral("hz"),
            QStringLiteral("1000")),
        opt(QStringLiteral("all-tables"), QStringLiteral("Create every table of the version, also empty ones.")),
        opt(QStringLiteral("hpc-activity"),
            QStringLiteral("Add unified memory page faults and migrations, OpenMP and OpenACC events (2022.1 on).")),
        opt(QStringLiteral("cpu-samples"),
            QStringLiteral("CPU samples with call stacks (COMPOSITE_EVENTS, SAMPLING_CALLCHAINS; 2022.1 schemas on) "
                           "over each GPU process's main and worker threads."),
            QStringLiteral("n"), QStringLiteral("0")),
        opt(QStringLiteral("cpu-sample-symbols"),
            QStringLiteral(
                "With --cpu-samples: each sample gets one more innermost frame, host_fn_<id % n>: n distinct "
                "functions (benchmarks)."),
            QStringLiteral("n"), QStringLiteral("0")),
        opt(QStringLiteral("cpu-sample-recursion"),
            QStringLiteral("With --cpu-samples: every 10,000th sample recurses n frames deep (benchmarks)."),
            QStringLiteral("n"), QStringLiteral("0")),
        opt(QStringLiteral("nvlink-bin"),
            QStringLiteral("Write an NVF1 NVLink recording (1 ms polls, TX/RX per link)."), QStringLiteral("file")),
        opt(QStringLiteral("nvlink-gpu"), QStringLiteral("GPU the recording is of."), QStringLiteral("n"),
            QStringLiteral("0")),
        opt(QStringLiteral("nvlink-links"), QStringLiteral("Links per GPU in the recording."), QStringLiteral("n"),
            QStringLiteral("12")),
        opt(QStringLiteral("nvlink-fault"),
            QStringLiteral("Defect to put into the recording: truncated, bad-return, "
                           "counter-reset, bad-magic (repeatable)."),
            QStringLiteral("fault")),
        opt(QStringLiteral("nvlink-duration-s"), QStringLiteral("Stand-alone recording: length in seconds."),
            QStringLiteral("s"), QStringLiteral("10")),
        opt(QStringLiteral("nvlink-epoch-ns"),
            QStringLiteral("Stand-alone recording: wall clock (UTC ns) of session "
                           "time 0, e.g. an export's utcEpochNs."),
            QStringLiteral("ns"), QStringLiteral("1767225600000000000")),
        opt(QStringLiteral("nvlink-start-ns"), QStringLiteral("Stand-alone recording: session time of the first poll."),
            QStringLiteral("ns"), QStringLiteral("0")),
        opt(QStringLiteral("quiet"), QStringLiteral("Print nothing on success.")),
    });
    addRankRunOptions(p);
    p.process(app);

    if (p.isSet(QStringLiteral("list-schemas"))) {
        for (const QString& v : SchemaCatalog::versions()) {
            const VersionSchema* s = SchemaCatalog::find(v);
            print(QStringLiteral("%1\t%2\t%3\n")
                      .arg(v, s->productVersion.isEmpty() ? QStringLiteral("-") : s->productVersion, s->sourceFile));
        }
        return 0;
    }
    try {
        bool counterReset = false;
        const Nvf1Faults nvf1Faults = faults(p.values(QStringLiteral("nvlink-fault")), counterReset);
        const bool quiet = p.isSet(QStringLiteral("quiet"));
        QElapsedTimer timer;
        timer.start();
        if (p.isSet(QStringLiteral("ranks"))) {
            const RankRunStats s = generateRankRun(rankRunConfig(p));
            if (!quiet)
                print(QStringLiteral("%1 export(s) in %2: %3 kernels, %4 collectives on every rank\n")
                          .arg(s.files.size())
                          .arg(p.value(QStringLiteral("out-dir")))
                          .arg(s.kernels)
                          .arg(s.collectives));
            return 0;
        }
        if (!p.isSet(QStringLiteral("out"))) {
            if (!p.isSet(QStringLiteral("nvlink-bin")))
                throw std::runtime_error("give --out FILE (and/or --nvlink-bin FILE); see --help");
            NvlinkOnlyConfig c;
            c.path = p.value(QStringLiteral("nvlink-bin"));
            c.durationNs = qint64(p.value(QStringLiteral("nvlink-duration-s")).toDouble() * 1e9);
            c.utcEpochNs = number(p, QStringLiteral("nvlink-epoch-ns"));
            c.startOffsetNs = number(p, QStringLiteral("nvlink-start-ns"));
            c.links = int(number(p, QStringLiteral("nvlink-links")));
            c.seed = quint64(number(p, QStringLiteral("seed")));
            c.faults = nvf1Faults;
            c.counterReset = counterReset;
            const qint64 records = writeSyntheticNvlink(c);
            if (!quiet)
                print(QStringLiteral("%1: %2 NVF1 records, %3 bytes, %4 s\n")
                          .arg(c.path)
                          .arg(records)
                          .arg(QFileInfo(c.path).size())
                          .arg(double(timer.elapsed()) / 1000.0, 0, 'f', 2));
            return 0;
        }
        GeneratorConfig c;
        c.outPath = p.value(QStringLiteral("out"));
        c.schemaVersion = p.value(QStringLiteral("schema"));
        c.gpus = int(number(p, QStringLiteral("gpus")));
        c.kernels = number(p, QStringLiteral("kernels"));
        c.seed = quint64(number(p, QStringLiteral("seed")));
        const QString workload = p.value(QStringLiteral("workload"));
        if (workload == QLatin1String("training"))
            c.workload = Workload::Training;
        else if (workload != QLatin1String("llm-inference"))
            throw std::runtime_error("--workload must be llm-inference or training");
        c.layers = int(number(p, QStringLiteral("layers")));
        c.prefillEvery = int(number(p, QStringLiteral("prefill-every")));
        c.jitterPct = int(number(p, QStringLiteral("jitter")));
        c.stepGapUs = number(p, QStringLiteral("step-gap-us"));
        c.cudaGraphs = p.isSet(QStringLiteral("cuda-graphs"));
        c.gpuMetrics = p.isSet(QStringLiteral("gpu-metrics"));
        c.gpuMetricsHz = int(number(p, QStringLiteral("gpu-metrics-hz")));
        c.allTables = p.isSet(QStringLiteral("all-tables"));
        c.hpcActivity = p.isSet(QStringLiteral("hpc-activity"));
        c.cpuSamples = number(p, QStringLiteral("cpu-samples"));
        c.cpuSampleSymbols = number(p, QStringLiteral("cpu-sample-symbols"));
        c.cpuSampleRecursion = int(number(p, QStringLiteral("cpu-sample-recursion")));
        c.nvlinkPath = p.value(QStringLiteral("nvlink-bin"));
        c.nvlinkGpu = int(number(p, QStringLiteral("nvlink-gpu")));
        c.nvlinkLinks = int(number(p, QStringLiteral("nvlink-links")));
        c.nvlinkFaults = nvf1Faults;
        c.nvlinkCounterReset = counterReset;
        const GeneratorStats s = generateExport(c);
        const double secs = double(timer.nsecsElapsed()) / 1e9;
        if (!quiet) {
            print(QStringLiteral("%1: nsys %2 schema, %3 GPUs, %4 steps, session %5 s\n")
                      .arg(c.outPath, c.schemaVersion)
                      .arg(c.gpus)
                      .arg(s.steps)
                      .arg(double(s.sessionEndNs) / 1e9, 0, 'f', 3));
            print(QStringLiteral(
                "  kernels %1 (NCCL %2), CUDA API %3, NVTX %4, memcpy %5, memset %6, graph launches %7, "
                "GPU metric rows %8, NVF1 records %9, page faults/OpenMP/OpenACC events %10, CPU samples %11\n")
                      .arg(s.kernels)
                      .arg(s.ncclKernels)
                      .arg(s.runtimeCalls)
                      .arg(s.nvtxEvents)
                      .arg(s.memcpys)
                      .arg(s.memsets)
                      .arg(s.graphLaunches)
                      .arg(s.gpuMetricRows)
                      .arg(s.nvlinkRecords)
                      .arg(s.hpcEvents)
                      .arg(s.cpuSamples));
            print(QStringLiteral("  %1 bytes in %2 s (%3 kernels/s)\n")
                      .arg(QFileInfo(c.outPath).size())
                      .arg(secs, 0, 'f', 2)
                      .arg(qint64(double(s.kernels) / std::max(secs, 1e-9))));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nsys-tracegen: %s\n", e.what());
        return 1;
    }
    return 0;
}
