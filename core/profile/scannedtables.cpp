// SPDX-License-Identifier: GPL-3.0-or-later
#include "scannedtables.h"

#include <iterator>

namespace nsw {

namespace {

/// Reads a chunk into the task's output @p Out with the table's reader @p Read.
template <auto Out, auto Read> bool readInto(const SqliteDb& db, ScanTask& task, const LoadOptions&)
{
    return Read(db, task.ctx, task.*Out);
}

bool readKernelChunk(const SqliteDb& db, ScanTask& task, const LoadOptions& options)
{
    return readKernels(db, task.ctx, task.kernels, options.kernelColumns);
}

constexpr ScannedTable kTables[] = {
    { TableKind::Kernels, LoadKernels, "CUPTI_ACTIVITY_KIND_KERNEL", "Reading kernels", readKernelChunk },
    { TableKind::Memcpy, LoadMemOps, "CUPTI_ACTIVITY_KIND_MEMCPY", "Reading memory copies",
        readInto<&ScanTask::memops, readMemcpy> },
    { TableKind::Memset, LoadMemOps, "CUPTI_ACTIVITY_KIND_MEMSET", "Reading memsets",
        readInto<&ScanTask::memops, readMemset> },
    { TableKind::Graphs, LoadGraphLaunches, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "Reading CUDA graph launches",
        readInto<&ScanTask::graphs, readGraphTrace> },
    { TableKind::CudaApi, LoadCudaApi, "CUPTI_ACTIVITY_KIND_RUNTIME", "Reading CUDA API calls",
        readInto<&ScanTask::api, readCudaApi> },
    { TableKind::Nvtx, LoadNvtx, "NVTX_EVENTS", "Reading NVTX events", readInto<&ScanTask::nvtx, readNvtx> },
    { TableKind::Osrt, LoadOsrt, "OSRT_API", "Reading OS runtime calls", readInto<&ScanTask::osrt, readOsrt> },
    { TableKind::Samples, LoadCpuSamples, "COMPOSITE_EVENTS", "Reading CPU samples",
        readInto<&ScanTask::samples, readSamples> },
    { TableKind::Callchains, LoadCpuSamples, "SAMPLING_CALLCHAINS", "Reading CPU call stacks",
        readInto<&ScanTask::callchains, readCallchains> },
};

constexpr bool inTableKindOrder()
{
    for (std::size_t i = 0; i < std::size(kTables); ++i)
        if (kTables[i].kind != TableKind(i))
            return false;
    return true;
}
static_assert(inTableKindOrder(), "scannedTable() finds a kind's table at the kind's index");

} // namespace

std::span<const ScannedTable> scannedTables()
{
    return kTables;
}

const ScannedTable& scannedTable(TableKind kind)
{
    return kTables[std::size_t(kind)];
}

} // namespace nsw
