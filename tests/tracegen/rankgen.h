// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

class QCommandLineParser;

namespace nsw::tracegen {

enum class StragglerMode
{
    None,
    Persistent, ///< the same rank arrives late at every collective
    Rotating, ///< iteration i's straggler is rank i mod ranks
};

enum class StragglerCause
{
    Host, ///< its kernels start late (the GPU idles before them): a host-side delay
    Compute, ///< its first compute kernel of every phase runs longer
};

/// A distributed training run with known truth: every iteration (an NVTX ProfilerStep#i on every rank) copies its
/// batch to the GPU, then runs `collectives` phases of compute kernels each followed by an NCCL collective (on NCCL
/// stream q = phase mod commStreams: AllReduce on the first, AllGather on the second...). A collective's kernel starts
/// on each rank when that rank arrives and ends on every rank at the last arrival + transfer, as NCCL's do.
struct RankRunConfig
{
    QString outDir;
    QString prefix = QStringLiteral("rank_"); ///< files prefix<r>.sqlite; one file: prefix + "all.sqlite"
    QString truthPath; ///< default outDir/truth.json
    QString schemaVersion = QStringLiteral("2026.2");
    int ranks = 4;
    bool oneFile = false; ///< one export holding every rank as a process (no clock offsets)
    int gpusPerNode = 8; ///< rank r runs on GPU r mod this of node r / this
    int iterations = 8;
    int collectives = 3; ///< per iteration
    int commStreams = 1;
    int kernelsPerPhase = 4;
    qint64 kernelUs = 400; ///< base compute kernel duration
    qint64 transferUs = 300; ///< a collective's time after the last arrival
    qint64 memcpyUs = 80;
    int jitterPct = 10; ///< compute kernel durations vary by up to this, per rank
    StragglerMode mode = StragglerMode::None;
    int straggler = 0; ///< the persistent straggler
    StragglerCause cause = StragglerCause::Host;
    qint64 delayUs = 1500; ///< the straggler's delay before each collective
    qint64 clockOffsetUs = 0; ///< file r's clock starts r × this later than rank 0's
    qint64 utcErrorUs = 0; ///< file r's recorded session start (UTC) is off by ±r × this (the node clocks disagree)
    qint64 sessionStartS = 0; ///< rank 0's session starts this many seconds after 2026-01-01T00:00:00Z
    quint64 seed = 1;
};

struct RankRunStats
{
    QStringList files;
    qint64 kernels = 0;
    qint64 collectives = 0; ///< collective instances (each on every rank)
};

/// Writes the exports and the truth JSON: {config, ranks: [{rank, file, pid, gpu, host, clock_offset_ns, collectives,
/// last_arrivals, wait_ns, iterations: [{iteration, start_ns, duration_ns, compute_ns, communication_ns, wait_ns,
/// transfer_ns, memory_ns, idle_ns}]}], collectives: [{index, straggler, first_arrival_ns, last_arrival_ns, skew_ns,
/// transfer_ns, arrivals_ns, waits_ns}]}, with iteration starts on the rank's own clock and arrivals on rank 0's, as
/// `ranks --format json` reports them. Throws std::runtime_error on errors.
RankRunStats generateRankRun(const RankRunConfig& cfg);

/// The command-line options of a multi-rank run (nsys-tracegen --ranks N ...), and the config they give.
void addRankRunOptions(QCommandLineParser& parser);
RankRunConfig rankRunConfig(const QCommandLineParser& parser);

} // namespace nsw::tracegen
