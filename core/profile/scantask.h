// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/samplereader.h"
#include "core/profile/scancontext.h"
#include "core/profile/tablereaders.h"

#include <memory>
#include <vector>

namespace nsw {

enum class TableKind
{
    Kernels,
    Memcpy,
    Memset,
    Graphs,
    CudaApi,
    Nvtx,
    Osrt,
    Samples,
    Callchains
};

/// One chunk of one table: its own connection-independent context (local maps) and its own output.
struct ScanTask
{
    TableKind kind;
    ScanContext ctx;
    KernelScan kernels;
    MemOpTable memops;
    GraphLaunchTable graphs;
    CudaApiTable api;
    NvtxScan nvtx;
    OsrtTable osrt;
    SampleScan samples;
    CallchainScan callchains;
};

/// The chunks of every table, by kind, in rowid order.
struct ChunkTasks
{
    std::vector<ScanTask*> kernels, memcpys, memsets, graphs, api, nvtx, osrt, samples, callchains;
};

/// @p tasks (in table order, chunks in rowid order) grouped by kind.
ChunkTasks chunkTasksOf(const std::vector<std::unique_ptr<ScanTask>>& tasks);

} // namespace nsw
