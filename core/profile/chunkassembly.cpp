// SPDX-License-Identifier: GPL-3.0-or-later
#include "chunkassembly.h"

#include "core/profile/samplereader.h"
#include "core/util/hugepages.h"

#include <algorithm>
#include <limits>
#include <map>
#include <type_traits>
#include <utility>

namespace nsw {

namespace {

/// The index of the entry with @p key, found in @p indexOf or else made by @p make and appended to @p entries.
template <typename Entry, typename Make>
std::int32_t indexOrAppend(QHash<qint64, std::int32_t>& indexOf, std::vector<Entry>& entries, qint64 key, Make&& make)
{
    if (const auto it = indexOf.constFind(key); it != indexOf.constEnd())
        return it.value();
    entries.push_back(make());
    const auto index = std::int32_t(entries.size() - 1);
    indexOf.insert(key, index);
    return index;
}

/// Each local key of @p local (in local index order) -> its index by @p indexOfKey.
template <typename IndexOfKey> std::vector<std::int32_t> remapOf(const LocalKeyMap& local, IndexOfKey&& indexOfKey)
{
    std::vector<std::int32_t> remap;
    for (const std::int64_t key : local.keys())
        remap.push_back(indexOfKey(key));
    return remap;
}

} // namespace

ProcessThreadRegistry::ProcessThreadRegistry(Profile& profile)
    : m_profile(profile)
{
    for (std::size_t i = 0; i < profile.processes.size(); ++i)
        m_processIndex.insert(profile.processes[i].globalPid, ProcessIndex(i));
    for (std::size_t i = 0; i < profile.threads.size(); ++i)
        m_threadIndex.insert(profile.threads[i].globalTid, ThreadIndex(i));
}

ProcessIndex ProcessThreadRegistry::process(qint64 globalPid)
{
    globalPid = globalPidOf(globalPid);
    return indexOrAppend(m_processIndex, m_profile.processes, globalPid, [&] {
        ProcessInfo p;
        p.globalPid = globalPid;
        p.pid = pidOf(globalPid);
        p.hostKey = hostKeyOf(globalPid);
        return p;
    });
}

ThreadIndex ProcessThreadRegistry::thread(qint64 globalTid)
{
    return indexOrAppend(m_threadIndex, m_profile.threads, globalTid, [&] {
        ThreadInfo t;
        t.globalTid = globalTid;
        t.tid = tidOf(globalTid);
        t.process = process(globalPidOf(globalTid));
        return t;
    });
}

std::vector<std::int32_t> ProcessThreadRegistry::processRemap(const LocalKeyMap& local)
{
    return remapOf(local, [this](qint64 key) { return process(key); });
}

std::vector<std::int32_t> ProcessThreadRegistry::threadRemap(const LocalKeyMap& local)
{
    return remapOf(local, [this](qint64 key) { return thread(key); });
}

namespace {

template <typename C> void remapIndices(C& column, const std::vector<std::int32_t>& remap)
{
    for (auto& v : column)
        if (v >= 0)
            v = std::remove_reference_t<decltype(v)>(remap[std::size_t(v)]);
}
template <typename T> void remapIndices(IndexColumn<T>& column, const std::vector<std::int32_t>& remap)
{
    column.transform([&](T v) { return v >= 0 ? T(remap[std::size_t(v)]) : v; });
}

/// The @p member scan of each task.
template <typename Scan> std::vector<Scan*> scansOf(const std::vector<ScanTask*>& tasks, Scan ScanTask::*member)
{
    std::vector<Scan*> scans;
    for (ScanTask* t : tasks)
        scans.push_back(&(t->*member));
    return scans;
}

void needLocalNames(StringResolver& strings, const ScanContext& ctx)
{
    for (const std::int64_t raw : ctx.names.keys())
        strings.need(std::int32_t(raw));
}

/// Local name index (ScanContext::localName) -> string pool index.
std::vector<StringRef> localNameRefs(
    const StringResolver& strings, const ScanContext& ctx, const std::vector<StringRef>& inlineRefs)
{
    std::vector<StringRef> refs;
    refs.reserve(ctx.names.keys().size());
    for (const std::int64_t raw : ctx.names.keys())
        refs.push_back(strings.refOfRaw(std::int32_t(raw), inlineRefs));
    return refs;
}

/// Appends the chunks' column to @p dest in order, freeing each chunk's copy as soon as it is moved: the peak grows
/// by one column, not by one table. Without chunks @p dest is not touched (in the second stage of a staged load the
/// kernel columns are shared with the first stage's profile and must stay so).
template <typename Table, typename Member>
void concatColumn(Table& dest, const std::vector<Table*>& parts, Member member)
{
    if (parts.empty())
        return;
    std::size_t total = (dest.*member).size();
    for (Table* p : parts)
        total += (p->*member).size();
    // Time and index columns are encoded: an empty column takes the first chunk's storage as it is, later chunks are
    // appended value by value. Index columns are held in as few bytes a row as each chunk's values allow.
    if constexpr (requires { (dest.*member).append(dest.*member); }) {
        auto& out = dest.*member;
        for (Table* p : parts) {
            auto& in = p->*member;
            if constexpr (requires { in.compact(); })
                in.compact();
            if (out.empty()) {
                out = std::move(in);
            } else {
                out.reserve(total);
                out.append(in);
            }
            in.release();
        }
    } else if (parts.size() == 1 && (dest.*member).empty()) {
        dest.*member = std::move(parts[0]->*member);
    } else {
        auto& out = dest.*member;
        reserveHugePages(out, total);
        for (Table* p : parts) {
            const auto& in = std::as_const(p->*member);
            out.append(in.begin(), in.end());
            (p->*member).release();
        }
    }
}

template <typename Table, typename... Members>
void concatColumns(Table& dest, const std::vector<Table*>& parts, Members... members)
{
    (concatColumn<Table>(dest, parts, members), ...);
}

template <typename Table> void concatActivity(Table& dest, const std::vector<Table*>& parts)
{
    concatColumns(dest, parts, &Table::start, &Table::end, &Table::process, &Table::device, &Table::context,
        &Table::stream, &Table::correlation);
}

QString nameOf(
    const Profile& profile, const StringResolver& strings, std::int32_t raw, const std::vector<StringRef>& inlineRefs)
{
    if (raw >= 0)
        return profile.strings.at(strings.ref(raw));
    const auto index = std::size_t(InlineTexts::decode(raw));
    if (raw < kNoString && index < inlineRefs.size())
        return profile.strings.at(inlineRefs[index]);
    return {};
}

} // namespace

ChunkTasks chunkTasksOf(const std::vector<std::unique_ptr<ScanTask>>& tasks)
{
    ChunkTasks byKind;
    for (const auto& t : tasks) {
        std::vector<ScanTask*>* const kinds[] = { &byKind.kernels, &byKind.memcpys, &byKind.memsets, &byKind.graphs,
            &byKind.api, &byKind.nvtx, &byKind.osrt, &byKind.samples, &byKind.callchains };
        kinds[std::size_t(t->kind)]->push_back(t.get());
    }
    return byKind;
}

std::vector<std::vector<std::int32_t>> remapProcessesAndThreads(
    const ChunkTasks& tasks, ProcessThreadRegistry& registry)
{
    // Local process and thread indices of each chunk -> the profile's.
    for (ScanTask* t : tasks.kernels)
        remapIndices(t->kernels.table.process, registry.processRemap(t->ctx.processes));
    for (const std::vector<ScanTask*>* memops : { &tasks.memcpys, &tasks.memsets })
        for (ScanTask* t : *memops)
            remapIndices(t->memops.process, registry.processRemap(t->ctx.processes));
    for (ScanTask* t : tasks.graphs)
        remapIndices(t->graphs.process, registry.processRemap(t->ctx.processes));
    for (ScanTask* t : tasks.api)
        remapIndices(t->api.thread, registry.threadRemap(t->ctx.threads));
    for (ScanTask* t : tasks.osrt)
        remapIndices(t->osrt.thread, registry.threadRemap(t->ctx.threads));
    for (ScanTask* t : tasks.samples)
        remapIndices(t->samples.thread, registry.threadRemap(t->ctx.threads));
    std::vector<std::vector<std::int32_t>> nvtxThreads;
    for (ScanTask* t : tasks.nvtx) {
        nvtxThreads.push_back(registry.threadRemap(t->ctx.threads));
        remapIndices(t->nvtx.table.thread, nvtxThreads.back());
        for (auto& [row, thread] : t->nvtx.table.endThread)
            thread = nvtxThreads.back()[std::size_t(thread)];
    }
    return nvtxThreads;
}

std::int64_t maxStringId(const ChunkTasks& tasks, const std::vector<RawThreadName>& threadNames)
{
    std::int64_t maxId = -1;
    for (const std::vector<ScanTask*>* kind : { &tasks.kernels, &tasks.memcpys, &tasks.memsets, &tasks.graphs,
             &tasks.api, &tasks.nvtx, &tasks.osrt, &tasks.samples, &tasks.callchains })
        for (const ScanTask* t : *kind)
            maxId = std::max(maxId, t->ctx.maxStringId);
    for (const RawThreadName& n : threadNames)
        maxId = std::max<std::int64_t>(maxId, n.nameId);
    for (const ScanTask* t : tasks.nvtx)
        for (const NvtxScan::Domain& d : t->nvtx.domains)
            maxId = std::max<std::int64_t>(maxId, d.nameValue);
    return maxId;
}

void needChunkStrings(StringResolver& strings, const ChunkTasks& tasks, const std::vector<RawThreadName>& threadNames)
{
    for (ScanTask* t : tasks.kernels) {
        strings.needColumn(t->kernels.table.demangledName);
        strings.needColumn(t->kernels.table.shortName);
        strings.needColumn(t->kernels.table.mangledName);
    }
    for (ScanTask* t : tasks.api)
        needLocalNames(strings, t->ctx);
    for (ScanTask* t : tasks.osrt)
        needLocalNames(strings, t->ctx);
    for (ScanTask* t : tasks.nvtx) {
        needLocalNames(strings, t->ctx);
        for (const NvtxScan::Domain& d : t->nvtx.domains)
            strings.need(d.nameValue);
        for (const auto& [thread, name] : t->nvtx.threadNames)
            strings.need(name);
    }
    for (const RawThreadName& n : threadNames)
        strings.need(n.nameId);
    needCallchainStrings(strings, scansOf(tasks.callchains, &ScanTask::callchains));
}

std::vector<std::vector<StringRef>> remapChunkStrings(StringResolver& strings, const ChunkTasks& tasks)
{
    std::vector<std::vector<StringRef>> nvtxInline;
    for (ScanTask* t : tasks.kernels) {
        strings.remapColumn(t->kernels.table.demangledName);
        strings.remapColumn(t->kernels.table.shortName);
        strings.remapColumn(t->kernels.table.mangledName);
    }
    for (ScanTask* t : tasks.api)
        remapIndices(t->api.name, localNameRefs(strings, t->ctx, {}));
    for (ScanTask* t : tasks.osrt)
        remapIndices(t->osrt.name, localNameRefs(strings, t->ctx, {}));
    for (ScanTask* t : tasks.nvtx) {
        nvtxInline.push_back(strings.internTexts(t->ctx.inlineTexts.texts()));
        remapIndices(t->nvtx.table.name, localNameRefs(strings, t->ctx, nvtxInline.back()));
    }
    return nvtxInline;
}

void nameThreads(Profile& p, const std::vector<RawThreadName>& threadNames, ProcessThreadRegistry& registry,
    const StringResolver& strings)
{
    std::vector<qint64> bestPriority(p.threads.size(), std::numeric_limits<qint64>::min());
    for (const RawThreadName& n : threadNames) {
        const ThreadIndex t = registry.thread(n.globalTid);
        bestPriority.resize(p.threads.size(), std::numeric_limits<qint64>::min());
        if (n.priority >= bestPriority[std::size_t(t)]) {
            bestPriority[std::size_t(t)] = n.priority;
            p.threads[std::size_t(t)].name = nameOf(p, strings, n.nameId, {});
            p.threads[std::size_t(t)].namePriority = n.priority;
        }
    }
}

void mergeNvtxDomains(Profile& p, const ChunkTasks& tasks, const std::vector<std::vector<std::int32_t>>& nvtxThreads,
    const std::vector<std::vector<StringRef>>& nvtxInline, ProcessThreadRegistry& registry,
    const StringResolver& strings)
{
    // Threads without a ThreadNames row take their NVTX thread-name (39) row.
    std::map<std::pair<ProcessIndex, qint64>, std::int32_t> domainIndex;
    for (std::size_t c = 0; c < tasks.nvtx.size(); ++c) {
        NvtxScan& scan = tasks.nvtx[c]->nvtx;
        for (const auto& [localThread, name] : scan.threadNames) {
            ThreadInfo& t = p.threads[std::size_t(nvtxThreads[c][std::size_t(localThread)])];
            if (t.name.isEmpty())
                t.name = nameOf(p, strings, name, nvtxInline[c]);
        }
        std::vector<std::int32_t> domainRemap;
        for (const NvtxScan::Domain& d : scan.domains) {
            const auto key = std::make_pair(registry.process(d.globalPid), d.domainId);
            const auto [it, inserted] = domainIndex.try_emplace(key, std::int32_t(p.nvtxDomains.size()));
            if (inserted)
                p.nvtxDomains.push_back({ key.first, d.domainId, QString() });
            if (d.nameValue != kNoString && p.nvtxDomains[std::size_t(it->second)].name.isEmpty())
                p.nvtxDomains[std::size_t(it->second)].name = nameOf(p, strings, d.nameValue, nvtxInline[c]);
            domainRemap.push_back(it->second);
        }
        remapIndices(scan.table.domain, domainRemap);
    }
}

void mergeLaunchShapes(Profile& profile, const ChunkTasks& tasks)
{
    std::vector<LaunchShape>& shapes = profile.launchShapes;
    for (ScanTask* t : tasks.kernels) {
        std::vector<std::uint32_t> remap;
        for (const LaunchShape& s : t->kernels.shapes) {
            const auto it = std::find(shapes.begin(), shapes.end(), s);
            remap.push_back(std::uint32_t(it - shapes.begin()));
            if (it == shapes.end())
                shapes.push_back(s);
        }
        t->kernels.table.shape.transform([&](std::uint32_t s) { return remap[s]; });
    }
}

void stitchChunks(Profile& p, const ChunkTasks& tasks)
{
    {
        std::vector<KernelTable*> parts;
        for (ScanTask* t : tasks.kernels)
            parts.push_back(&t->kernels.table);
        concatActivity(p.kernels, parts);
        concatColumns(p.kernels, parts, &KernelTable::demangledName, &KernelTable::shortName, &KernelTable::mangledName,
            &KernelTable::shape);
    }
    for (const std::vector<ScanTask*>* memops : { &tasks.memcpys, &tasks.memsets }) {
        std::vector<MemOpTable*> parts;
        for (ScanTask* t : *memops)
            parts.push_back(&t->memops);
        concatActivity(p.memops, parts);
        concatColumns(
            p.memops, parts, &MemOpTable::bytes, &MemOpTable::copyKind, &MemOpTable::srcKind, &MemOpTable::dstKind);
    }
    {
        std::vector<GraphLaunchTable*> parts;
        for (ScanTask* t : tasks.graphs)
            parts.push_back(&t->graphs);
        concatActivity(p.graphLaunches, parts);
        concatColumns(p.graphLaunches, parts, &GraphLaunchTable::graphId, &GraphLaunchTable::graphExecId);
    }
    {
        std::vector<CudaApiTable*> parts;
        for (ScanTask* t : tasks.api)
            parts.push_back(&t->api);
        concatColumns(p.cudaApi, parts, &CudaApiTable::start, &CudaApiTable::end, &CudaApiTable::thread,
            &CudaApiTable::correlation, &CudaApiTable::name, &CudaApiTable::eventClass, &CudaApiTable::returnValue);
    }
    {
        std::vector<NvtxTable*> parts;
        std::uint32_t offset = 0;
        for (ScanTask* t : tasks.nvtx) {
            NvtxTable& part = t->nvtx.table;
            for (auto& [row, thread] : part.endThread)
                p.nvtx.endThread.push_back(NvtxEndThread { row + offset, thread });
            offset += std::uint32_t(part.size());
            p.nvtx.maxTimestamp = std::max(p.nvtx.maxTimestamp, part.maxTimestamp);
            parts.push_back(&part);
        }
        concatColumns(p.nvtx, parts, &NvtxTable::start, &NvtxTable::end, &NvtxTable::thread, &NvtxTable::name,
            &NvtxTable::domain, &NvtxTable::eventType);
    }
    {
        std::vector<OsrtTable*> parts;
        for (ScanTask* t : tasks.osrt)
            parts.push_back(&t->osrt);
        concatColumns(p.osrt, parts, &OsrtTable::eventClass, &OsrtTable::start, &OsrtTable::end, &OsrtTable::thread,
            &OsrtTable::name);
    }
}

QStringList stitchCpuSamples(
    Profile& profile, const ChunkTasks& tasks, const StringResolver& strings, const CancelToken& cancel)
{
    return assembleCpuSamples(profile.cpuSamples, scansOf(tasks.samples, &ScanTask::samples),
        scansOf(tasks.callchains, &ScanTask::callchains), strings, cancel);
}

void computeActivitySpan(Profile& p)
{
    TimeNs lo = std::numeric_limits<TimeNs>::max();
    TimeNs hi = std::numeric_limits<TimeNs>::min();
    auto cover = [&](const TimeColumn& starts, const TimeColumn& ends) {
        for (const TimeNs s : starts)
            lo = std::min(lo, s);
        for (const TimeNs e : ends)
            if (e != kNoTime)
                hi = std::max(hi, e);
    };
    cover(p.kernels.start, p.kernels.end);
    cover(p.memops.start, p.memops.end);
    cover(p.graphLaunches.start, p.graphLaunches.end);
    cover(p.cudaApi.start, p.cudaApi.end);
    cover(p.nvtx.start, p.nvtx.end);
    cover(p.nvtx.start, p.nvtx.start);
    if (lo <= hi) {
        p.activityStart = lo;
        p.activityEnd = hi;
    }
}

} // namespace nsw
