// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nvf1writer.h"

#include <QString>

namespace nsw::tracegen {

enum class Workload
{
    LlmInference,
    Training
};

struct GeneratorConfig
{
    QString outPath;
    QString schemaVersion = QStringLiteral("2026.2");
    int gpus = 2;
    qint64 kernels = 10000; // rows in CUPTI_ACTIVITY_KIND_KERNEL, over all GPUs
    quint64 seed = 1;
    Workload workload = Workload::LlmInference;
    int layers = 8;
    int prefillEvery = 8; // inference: every Nth engine step is a prefill
    int jitterPct = 10; // 0: every duration and gap is exactly its base value
    qint64 stepGapUs = 0; // extra idle time after each step (mean), e.g. a lightly loaded server
    bool cudaGraphs = false;
    bool gpuMetrics = false;
    int gpuMetricsHz = 1000;
    bool allTables = false; // create every table of the version, also empty ones
    bool hpcActivity = false; // unified memory page faults and migrations, OpenMP and OpenACC events (hpcactivity.h)
    qint64 cpuSamples = 0; // CPU samples with call stacks (cpusampler.h), when the version has the tables
    qint64 cpuSampleSymbols = 0; // > 0: that many distinct innermost functions (SampleStress::distinctLeaves)
    int cpuSampleRecursion = 0; // > 0: every 10,000th sample recurses that deep (SampleStress::recursionDepth)
    QString nvlinkPath; // NVF1 recording of one GPU, aligned to the session
    int nvlinkGpu = 0;
    int nvlinkLinks = 12;
    Nvf1Faults nvlinkFaults;
    bool nvlinkCounterReset = false; // counters drop to 0 half-way through
};

struct GeneratorStats
{
    qint64 kernels = 0;
    qint64 ncclKernels = 0;
    qint64 runtimeCalls = 0;
    qint64 nvtxEvents = 0;
    qint64 memcpys = 0;
    qint64 memsets = 0;
    qint64 graphLaunches = 0;
    qint64 steps = 0;
    qint64 gpuMetricRows = 0;
    qint64 nvlinkRecords = 0;
    qint64 hpcEvents = 0; // page faults, OpenMP and OpenACC events (their migrations count as memcpys)
    qint64 cpuSamples = 0;
    qint64 utcEpochNs = 0;
    qint64 sessionEndNs = 0;
};

/// Writes a synthetic export (and optionally its NVLink recording). Deterministic for a given config. Throws
/// std::runtime_error on errors.
GeneratorStats generateExport(const GeneratorConfig& cfg);

/// A stand-alone NVF1 recording (no export): NCCL-like traffic bursts for durationNs.
struct NvlinkOnlyConfig
{
    QString path;
    qint64 durationNs = 10LL * 1000000000;
    qint64 utcEpochNs = 1767225600000000000;
    qint64 startOffsetNs = 0; // session time of the first poll
    int links = 12;
    quint64 seed = 1;
    Nvf1Faults faults;
    bool counterReset = false;
};
qint64 writeSyntheticNvlink(const NvlinkOnlyConfig& cfg);

} // namespace nsw::tracegen
