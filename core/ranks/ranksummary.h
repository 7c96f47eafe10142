// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

namespace nsw {

/// One iteration of one rank, on its export's own clock, with its GPU time split four ways (they add up to the
/// iteration's duration): compute (a non-NCCL kernel runs), communication (an NCCL kernel runs and no compute
/// kernel), memory (only a memory operation runs) and idle.
struct RankIteration
{
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs computeNs = 0;
    TimeNs communicationNs = 0;
    TimeNs memoryNs = 0;

    TimeNs duration() const { return end - start; }
    TimeNs idleNs() const { return duration() - computeNs - communicationNs - memoryNs; }
};

/// One NCCL kernel of a rank, on its export's own clock.
struct RankCollective
{
    TimeNs start = 0;
    TimeNs end = 0;
    std::uint32_t name = 0; ///< index into RankFile::names
    /// The rank's NCCL streams numbered by their first NCCL kernel (0, 1...): stream ids differ between ranks, the
    /// order in which a rank's communicators first run does not.
    std::uint32_t stream = 0;
};

/// The kernels of one name on one rank, over the whole capture.
struct KernelSum
{
    std::uint32_t name = 0; ///< index into RankFile::names
    qint64 count = 0;
    TimeNs totalNs = 0;
};

/// What the ranks view needs of one rank (a process that runs GPU work): what `summarize` writes and an export
/// gives, so that ranks over summaries and over exports are the same.
struct RankSummary
{
    /// The rank number the file name gives ("rank3", "run_3.sqlite") when the file holds this rank only, else -1.
    int rankFromName = -1;
    qint64 pid = 0;
    QString processName;
    int gpu = -1; ///< the GPU with most of its kernel time: the nsys GPU id, or the CUDA ordinal when unmapped
    QString gpuLabel; ///< "GPU 0 (NVIDIA H100 80GB HBM3)"
    bool iterationsGuessed = false;
    QString iterationDetection; ///< how the iterations were found, or why there are none
    std::vector<RankIteration> iterations; ///< in time order
    std::vector<RankCollective> collectives; ///< by start (ties by stream)
    std::vector<KernelSum> kernelSums; ///< by name index
};

/// The ranks of one input file (an export, or the summary made of one), and what is common to them.
struct RankFile
{
    QString exportPath; ///< the export (absolute); for a summary, the export it was made of
    qint64 exportSize = 0;
    QString summaryPath; ///< the summary it was read from, empty when read from the export
    QString nsysVersion;
    TimeNs sessionStartUtcNs = kNoTime; ///< the wall clock of time 0 of the export's clock
    QString host;
    QString iterationMarker; ///< the marker asked for when it was read, empty for automatic
    QStringList warnings; ///< damage tolerated while reading the export, each naming it
    QStringList names; ///< kernel names, referred to by index
    std::vector<RankSummary> ranks; ///< in the export's process order by GPU

    /// The file a message about this input names: the summary when read from one, else the export.
    QString inputPath() const { return summaryPath.isEmpty() ? exportPath : summaryPath; }
};

} // namespace nsw
