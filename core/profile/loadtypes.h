// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"
#include "core/jobs/result.h"
#include "core/profile/profile.h"

#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <vector>

namespace nsw {

/// Which parts of an export to load. Metadata, GPUs, processes and threads are always read.
enum LoadPart : unsigned
{
    LoadKernels = 1u << 0,
    LoadMemOps = 1u << 1,
    LoadCudaApi = 1u << 2,
    LoadNvtx = 1u << 3,
    LoadOsrt = 1u << 4,
    LoadGraphLaunches = 1u << 5,
    LoadCpuSamples = 1u << 6, ///< COMPOSITE_EVENTS with SAMPLING_CALLCHAINS (Profile::cpuSamples)
    LoadEverything = 0x7Fu,
    /// The tables of a staged load's first stage (FirstStageCallback).
    LoadFirstStage = LoadKernels | LoadMemOps | LoadGraphLaunches,
};

/// Kernel columns beyond start/end. A report that needs only names and durations reads a fraction of each row,
/// which is most of the scan's cost.
enum KernelColumn : unsigned
{
    KernelDemangledName = 1u << 0,
    KernelShortName = 1u << 1,
    KernelMangledName = 1u << 2,
    KernelPlacement = 1u << 3, ///< deviceId, contextId, streamId, correlationId, globalPid
    KernelLaunchShape = 1u << 4, ///< grid, block, registers, shared memory
    KernelAllColumns = 0x1Fu,
};

struct LoadOptions
{
    unsigned parts = LoadEverything;
    /// KernelColumn flags; columns left out read as the demangled name (names) or zero.
    unsigned kernelColumns = KernelAllColumns;
    /// Worker threads reading tables in parallel (one SQLite connection each); 0 = one per core.
    int threads = 0;
    /// Tables with more rows are scanned in rowid ranges of this size by all workers at once.
    qint64 chunkRows = 2'000'000;
};

struct StageTiming
{
    QString stage;
    qint64 milliseconds = 0;
    qint64 rows = -1; ///< rows read by this stage, -1 when not a table scan
};

/// A loaded export: the profile and how it was read. The load's warnings (damage tolerated: rows skipped, ids out of
/// range, missing strings..., each naming the table) travel in its Result; the profile's meta.warnings hold them too,
/// with notes about the file (no kernels, --ts-normalize).
struct LoadOutcome
{
    ProfilePtr profile;
    /// How the file was read: the SQLite access path (native handle or Qt SQL) and the open mode.
    QString sqliteAccess;
    std::vector<StageTiming> timings;
    qint64 totalMilliseconds = 0;
    /// The profile cache file the profile was mapped from (core/profilecache); empty when it was read from SQLite.
    QString cacheFile;
    /// What happened to the profile cache when it was not used as it should be (an entry dropped as stale or damaged,
    /// a cache folder on a network file system); empty otherwise. A note, not damage of the export.
    QString cacheNote;
};

/// What ProfileLoader::load returns: the outcome, or an error (Input: unreadable or not an export; Busy: in use by
/// a writer; OutOfMemory; Tool: a report nsys could not export; Cancelled; Internal), with warnings either way.
using LoadResult = Result<LoadOutcome>;

/// The first stage of a staged load (issue 12): strings, GPUs, processes, kernels, memory operations and graph
/// launches are in memory; CUDA API calls, NVTX and OS runtime are still being read, and nothing links a GPU row to
/// its launching call yet (the `api` columns are empty). The profile is final for what it holds and never written
/// to again: the whole profile the load returns shares its kernel and memory columns (Column). Called once, from
/// the load's thread, with the load so far (its timings and warnings).
using FirstStageCallback = std::function<void(const ProfilePtr& firstStage, const LoadResult& soFar)>;

} // namespace nsw
