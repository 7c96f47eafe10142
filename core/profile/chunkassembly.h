// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Joining the chunks a load scanned into its Profile: chunk-local ids become the profile's, raw string ids pool
// indices, and the chunks' columns are concatenated in rowid order. Everything here works on memory only; the
// StringResolver passed in has fetched its strings already.

#include "core/jobs/cancel.h"
#include "core/profile/metadatareader.h"
#include "core/profile/profile.h"
#include "core/profile/scantask.h"
#include "core/profile/stringresolver.h"

#include <QHash>
#include <QStringList>
#include <cstdint>
#include <vector>

namespace nsw {

/// The profile's process and thread tables, filled from PROCESSES first and then from whatever rows reference.
class ProcessThreadRegistry
{
public:
    explicit ProcessThreadRegistry(Profile& profile);

    ProcessIndex process(qint64 globalPid);
    ThreadIndex thread(qint64 globalTid);
    /// Local index of @p local -> the profile's.
    std::vector<std::int32_t> processRemap(const LocalKeyMap& local);
    std::vector<std::int32_t> threadRemap(const LocalKeyMap& local);

private:
    Profile& m_profile;
    QHash<qint64, ProcessIndex> m_processIndex;
    QHash<qint64, ThreadIndex> m_threadIndex;
};

/// Rewrites the chunks' local process and thread indices into the profile's; returns, per NVTX chunk, its local
/// thread indices -> the profile's.
std::vector<std::vector<std::int32_t>> remapProcessesAndThreads(
    const ChunkTasks& tasks, ProcessThreadRegistry& registry);

/// The largest StringIds id the chunks and @p threadNames refer to.
std::int64_t maxStringId(const ChunkTasks& tasks, const std::vector<RawThreadName>& threadNames);
/// Tells @p strings every StringIds id the chunks and @p threadNames refer to (before StringResolver::resolve).
void needChunkStrings(StringResolver& strings, const ChunkTasks& tasks, const std::vector<RawThreadName>& threadNames);
/// Rewrites the chunks' name columns into pool indices (after StringResolver::resolve); returns, per NVTX chunk, its
/// inline texts' pool indices.
std::vector<std::vector<StringRef>> remapChunkStrings(StringResolver& strings, const ChunkTasks& tasks);

/// Names each thread by its highest-priority ThreadNames row (NVTX thread-name rows fill the rest, in
/// mergeNvtxDomains).
void nameThreads(Profile& profile, const std::vector<RawThreadName>& threadNames, ProcessThreadRegistry& registry,
    const StringResolver& strings);
/// Merges NVTX domains over chunks by (process, domain id), named from whichever chunk holds the create row, and
/// names threads that have no ThreadNames row by their NVTX thread-name row.
void mergeNvtxDomains(Profile& profile, const ChunkTasks& tasks,
    const std::vector<std::vector<std::int32_t>>& nvtxThreads, const std::vector<std::vector<StringRef>>& nvtxInline,
    ProcessThreadRegistry& registry, const StringResolver& strings);
/// One launch shape table for the profile; the kernel chunks' shape columns index it.
void mergeLaunchShapes(Profile& profile, const ChunkTasks& tasks);
/// Appends the chunks' columns to the profile's tables in rowid order, freeing each chunk's column as it goes.
void stitchChunks(Profile& profile, const ChunkTasks& tasks);
/// Joins the CPU sample chunks into Profile::cpuSamples; returns the damage read past.
QStringList stitchCpuSamples(
    Profile& profile, const ChunkTasks& tasks, const StringResolver& strings, const CancelToken& cancel);
/// Profile::activityStart/End: the span of every GPU and CPU event read.
void computeActivitySpan(Profile& profile);

} // namespace nsw
