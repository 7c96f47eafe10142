// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/util/tally.h"

namespace nsw {

enum class Collective : std::uint8_t
{
    AllReduce,
    AllGather,
    ReduceScatter,
    Broadcast,
    Reduce,
    SendRecv,
    AllToAll,
    Other,
};
inline constexpr int kCollectiveCount = 8;
QString collectiveName(Collective c); ///< "AllReduce"...
/// From an NCCL kernel name ("ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ncclKernel_SendRecv..."): case and
/// underscores ignored; Send and Recv count as SendRecv, AllToAll also as "alltoall"/"a2a".
Collective collectiveOf(const QString& kernelName);

/// Count and durations of a group of NCCL kernels (durations whole, not clipped).
struct NcclStats : Tally
{
    double sharePercent = 0; ///< of all NCCL kernel time
};

struct NcclCollectiveRow
{
    Collective collective = Collective::Other;
    NcclStats stats;
};
struct NcclStreamRow
{
    int device = -1;
    std::int64_t stream = 0;
    NcclStats stats;
};

struct NcclBreakdown
{
    std::vector<NcclCollectiveRow> collectives; ///< only those that occur, by total time descending
    std::vector<NcclStreamRow> streams; ///< by total descending
    NcclStats total;
};

/// NCCL kernels (AnalysisContext::kernelIsNccl) that overlap the focus.
NcclBreakdown computeNcclBreakdown(const AnalysisContext& context, const JobContext& job = {});

} // namespace nsw
