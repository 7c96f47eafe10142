// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/column.h"
#include "core/profile/cpusamples.h"
#include "core/profile/derivedcache.h"
#include "core/profile/indexcolumn.h"
#include "core/profile/indexinto.h"
#include "core/profile/stringpool.h"
#include "core/profile/timecolumn.h"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace nsw {

using ProcessIndex = std::int32_t;
using ThreadIndex = std::int32_t;
inline constexpr std::int32_t kNoIndex = -1;

/// globalTid/globalPid packing (schema doc §2): TID bits 0-23, PID bits 24-47, host/VM key bits 48-63.
inline int tidOf(qint64 globalTid)
{
    return int(globalTid & 0xFFFFFF);
}
inline int pidOf(qint64 globalId)
{
    return int((globalId >> 24) & 0xFFFFFF);
}
inline int hostKeyOf(qint64 globalId)
{
    return int((quint64(globalId) >> 48) & 0xFFFF);
}
inline qint64 globalPidOf(qint64 globalTid)
{
    return globalTid & ~qint64(0xFFFFFF);
}

struct ProcessInfo
{
    qint64 globalPid = 0;
    int pid = 0;
    int hostKey = 0;
    QString name;
};

struct ThreadInfo
{
    qint64 globalTid = 0;
    int tid = 0;
    ProcessIndex process = kNoIndex;
    QString name;
    /// ThreadNames.priority of the row the name came from; kNoPriority when the name is not from ThreadNames.
    static constexpr qint64 kNoPriority = std::numeric_limits<qint64>::min();
    qint64 namePriority = kNoPriority;
};

struct GpuInfo
{
    int id = -1; ///< nsys GPU id (TARGET_INFO_GPU.id; deviceId in the oldest layout)
    int cudaDevice = -1; ///< cuDevice, -1 when unknown
    QString name;
    QString busLocation;
    QString uuid;
    QString chipName;
    int smCount = 0;
    qint64 totalMemory = 0;
    qint64 memoryBandwidth = 0;
    int computeMajor = 0;
    int computeMinor = 0;
};

/// TARGET_INFO_CUDA_DEVICE (2025.1+): (pid, CUDA ordinal) -> nsys GPU id.
struct CudaDeviceMapping
{
    int gpuId = -1;
    int cudaId = -1;
    int pid = 0;
};

struct LaunchShape
{
    std::uint32_t grid[3] = { 0, 0, 0 };
    std::uint32_t block[3] = { 0, 0, 0 };
    std::int32_t registersPerThread = 0;
    std::int32_t staticSharedMemory = 0;
    std::int32_t dynamicSharedMemory = 0;
    bool operator==(const LaunchShape&) const = default;
};

/// Columns shared by every GPU activity table: where and when it ran, and the API call that launched it.
struct GpuActivityColumns
{
    TimeColumn start;
    TimeColumn end;
    IndexColumn<ProcessIndex> process;
    IndexColumn<std::int32_t> device; ///< CUDA ordinal as seen by the process (deviceId)
    IndexColumn<std::uint32_t> context;
    IndexColumn<std::uint32_t> stream;
    Column<std::uint32_t> correlation;
    Column<std::int32_t> api; ///< row in CudaApiTable of the launching call (same process), or -1

    std::size_t size() const { return start.size(); }
    TimeNs duration(std::size_t i) const { return end[i] - start[i]; }

    /// Calls @p visit(name, column, IndexInto) for every column of @p self (see Profile::forEachTable).
    template <typename Self, typename Visit> static void forEachColumn(Self& self, Visit&& visit)
    {
        visit("start", self.start, IndexInto::Nothing);
        visit("end", self.end, IndexInto::Nothing);
        visit("process", self.process, IndexInto::Processes);
        visit("device", self.device, IndexInto::Nothing);
        visit("context", self.context, IndexInto::Nothing);
        visit("stream", self.stream, IndexInto::Nothing);
        visit("correlation", self.correlation, IndexInto::Nothing);
        visit("api", self.api, IndexInto::CudaApiCalls);
    }
};

/// After a full load every column has size() rows. A load that asks for fewer LoadOptions::kernelColumns (the
/// `stats` command) leaves the others empty: only start, end and the requested names are then filled.
struct KernelTable : GpuActivityColumns
{
    IndexColumn<StringRef> demangledName;
    IndexColumn<StringRef> shortName;
    IndexColumn<StringRef> mangledName; ///< kNoString when the export has no mangled names
    IndexColumn<std::uint32_t> shape; ///< index into Profile::launchShapes

    template <typename Self, typename Visit> static void forEachColumn(Self& self, Visit&& visit)
    {
        GpuActivityColumns::forEachColumn(self, visit);
        visit("demangledName", self.demangledName, IndexInto::Strings);
        visit("shortName", self.shortName, IndexInto::Strings);
        visit("mangledName", self.mangledName, IndexInto::Strings);
        visit("shape", self.shape, IndexInto::LaunchShapes);
    }
};

/// Memory copies and memsets in one table, as nsys's mem reports treat them.
struct MemOpTable : GpuActivityColumns
{
    static constexpr std::uint8_t kMemset = 255;
    /// Unified-memory page migrations (ENUM_CUDA_MEMCPY_OPER 11-13, UVM host-to-device, device-to-host and
    /// device-to-device, the same ids in every export that has the enum).
    static bool isPageMigration(std::uint8_t copyKind) { return copyKind >= 11 && copyKind <= 13; }
    Column<std::int64_t> bytes;
    Column<std::uint8_t> copyKind; ///< ENUM_CUDA_MEMCPY_OPER id, or kMemset
    static constexpr std::uint8_t kNoMemKind = 255;
    /// ENUM_CUDA_MEM_KIND of the source (a memset's memKind) and destination (kNoMemKind for memsets); kNoMemKind
    /// when NULL. May be empty (profiles built by hand): read as kNoMemKind.
    Column<std::uint8_t> srcKind;
    Column<std::uint8_t> dstKind;

    template <typename Self, typename Visit> static void forEachColumn(Self& self, Visit&& visit)
    {
        GpuActivityColumns::forEachColumn(self, visit);
        visit("bytes", self.bytes, IndexInto::Nothing);
        visit("copyKind", self.copyKind, IndexInto::Nothing);
        visit("srcKind", self.srcKind, IndexInto::Nothing);
        visit("dstKind", self.dstKind, IndexInto::Nothing);
    }
};

/// CUPTI_ACTIVITY_KIND_GRAPH_TRACE: one row per graph launch when kernels inside graphs are not exported.
struct GraphLaunchTable : GpuActivityColumns
{
    Column<qint64> graphId;
    Column<qint64> graphExecId;

    template <typename Self, typename Visit> static void forEachColumn(Self& self, Visit&& visit)
    {
        GpuActivityColumns::forEachColumn(self, visit);
        visit("graphId", self.graphId, IndexInto::Nothing);
        visit("graphExecId", self.graphExecId, IndexInto::Nothing);
    }
};

/// CUDA runtime and driver API calls (CUPTI_ACTIVITY_KIND_RUNTIME).
struct CudaApiTable
{
    static constexpr std::uint8_t kRuntime = 0;
    static constexpr std::uint8_t kDriver = 1;
    TimeColumn start;
    TimeColumn end;
    IndexColumn<ThreadIndex> thread;
    Column<std::uint32_t> correlation;
    IndexColumn<StringRef> name;
    Column<std::uint8_t> eventClass;
    /// returnValue (a CUresult / cudaError_t). May be empty (profiles built by hand): read as NULL.
    IndexColumn<std::int32_t> returnValue;
    std::size_t size() const { return start.size(); }

    template <typename Self, typename Visit> static void forEachColumn(Self& self, Visit&& visit)
    {
        visit("start", self.start, IndexInto::Nothing);
        visit("end", self.end, IndexInto::Nothing);
        visit("thread", self.thread, IndexInto::Threads);
        visit("correlation", self.correlation, IndexInto::Nothing);
        visit("name", self.name, IndexInto::Strings);
        visit("eventClass", self.eventClass, IndexInto::Nothing);
        visit("returnValue", self.returnValue, IndexInto::Nothing);
    }
};

/// The thread that ended a start/end NVTX range (NvtxTable::endThread).
struct NvtxEndThread
{
    std::uint32_t row = 0;
    ThreadIndex thread = kNoIndex;
    friend auto operator<=>(const NvtxEndThread&, const NvtxEndThread&) = default;
};

struct NvtxDomain
{
    ProcessIndex process = kNoIndex;
    qint64 domainId = 0;
    QString name; ///< empty when the domain-create row is missing
};

/// NVTX_EVENTS rows that matter for analysis: ranges (59 push/pop, 60 start/end, 70/71 their NVTXT-file forms)
/// and marks (34). Registration rows (domain create 75, category 33, thread name 39) are folded into names.
struct NvtxTable
{
    static constexpr std::uint8_t kMark = 34;
    static constexpr std::uint8_t kPushPop = 59;
    static constexpr std::uint8_t kStartEnd = 60;
    static constexpr std::uint8_t kNvtxtPushPop = 70;
    static constexpr std::uint8_t kNvtxtStartEnd = 71;
    static bool isPushPop(std::uint8_t type) { return type == kPushPop || type == kNvtxtPushPop; }
    static bool isStartEnd(std::uint8_t type) { return type == kStartEnd || type == kNvtxtStartEnd; }
    static bool isRange(std::uint8_t type) { return isPushPop(type) || isStartEnd(type); }
    TimeColumn start;
    TimeColumn end; ///< kNoTime for marks and unterminated ranges
    IndexColumn<ThreadIndex> thread;
    IndexColumn<StringRef> name; ///< StringIds[textId], else `text` (nsys's precedence); kNoString when both NULL
    /// Index into Profile::nvtxDomains, -1 = the default domain; at most 32767 (19M rows: a byte each when, as usual,
    /// there are fewer than 255 domains).
    IndexColumn<std::int32_t> domain;
    Column<std::uint8_t> eventType;
    /// Every row whose endGlobalTid is set (start/end ranges; it may equal the start thread), sorted by row. nsys's
    /// GPU projection only uses ranges without an endGlobalTid.
    Column<NvtxEndThread> endThread;
    /// max(start, end) over the whole NVTX_EVENTS table, all event types: nsys's end for unterminated ranges.
    TimeNs maxTimestamp = kNoTime;
    std::size_t size() const { return start.size(); }
    ThreadIndex endThreadOf(std::size_t row) const;
    bool hasEndThread(std::size_t row) const;
    /// end, or maxTimestamp for an unterminated range (nsys's end for it).
    TimeNs resolvedEnd(std::size_t row) const { return end[row] == kNoTime ? maxTimestamp : end[row]; }

    template <typename Self, typename Visit> static void forEachColumn(Self& self, Visit&& visit)
    {
        visit("start", self.start, IndexInto::Nothing);
        visit("end", self.end, IndexInto::Nothing);
        visit("thread", self.thread, IndexInto::Threads);
        visit("name", self.name, IndexInto::Strings);
        visit("domain", self.domain, IndexInto::NvtxDomains);
        visit("eventType", self.eventType, IndexInto::Nothing);
    }
    /// Calls @p visit(name, member, IndexInto) for what the table holds besides its columns (see forEachTableMember).
    template <typename Self, typename Visit> static void forEachExtra(Self& self, Visit&& visit)
    {
        visit("endThread", self.endThread, IndexInto::Nothing);
        visit("maxTimestamp", self.maxTimestamp, IndexInto::Nothing);
    }
};

/// OS runtime calls (OSRT_API).
struct OsrtTable
{
    static constexpr std::uint8_t kOsRuntime = 27; ///< ENUM_NSYS_EVENT_CLASS; osrt_sum counts only these
    Column<std::uint8_t> eventClass;
    TimeColumn start;
    TimeColumn end;
    IndexColumn<ThreadIndex> thread;
    IndexColumn<StringRef> name;
    std::size_t size() const { return start.size(); }

    template <typename Self, typename Visit> static void forEachColumn(Self& self, Visit&& visit)
    {
        visit("eventClass", self.eventClass, IndexInto::Nothing);
        visit("start", self.start, IndexInto::Nothing);
        visit("end", self.end, IndexInto::Nothing);
        visit("thread", self.thread, IndexInto::Threads);
        visit("name", self.name, IndexInto::Strings);
    }
};

struct ProfileMetadata
{
    QString filePath; ///< the SQLite file read (for a report: its export in the cache)
    QString reportPath; ///< the .nsys-rep / .qdrep / .qdstrm it was exported from, else empty
    qint64 fileSize = 0;
    QString nsysVersion; ///< EXPORT_PRODUCT_VERSION, empty for pre-2022 exports
    QString schemaVersion; ///< EXPORT_SCHEMA_VERSION
    QString metadataTable; ///< META_DATA_EXPORT, EXPORT_META_DATA or empty
    std::vector<std::pair<QString, QString>> exportMetadata;
    TimeNs sessionStartUtcNs = kNoTime; ///< TARGET_INFO_SESSION_START_TIME.utcEpochNs
    TimeNs analysisDurationNs = kNoTime; ///< ANALYSIS_DETAILS.duration
    bool timeNormalized = false; ///< exported with --ts-normalize: times are absolute
    QString hostname;
    QStringList warnings;
    QStringList tables; ///< every table in the file
};

/// A loaded export: compact, columnar, int64 ns, immutable once loaded (share it as ProfilePtr).
class Profile
{
public:
    ProfileMetadata meta;
    StringPool strings;
    std::vector<ProcessInfo> processes;
    std::vector<ThreadInfo> threads;
    std::vector<GpuInfo> gpus;
    std::vector<CudaDeviceMapping> cudaDevices;
    std::vector<NvtxDomain> nvtxDomains;
    std::vector<LaunchShape> launchShapes;
    std::map<int, QString> memcpyKindLabels; ///< ENUM_CUDA_MEMCPY_OPER id -> label

    KernelTable kernels;
    MemOpTable memops;
    GraphLaunchTable graphLaunches;
    CudaApiTable cudaApi;
    NvtxTable nvtx;
    OsrtTable osrt;
    CpuSamples cpuSamples; ///< with their call stacks (core/profile/cpusamples.h)

    /// min(start)..max(end) over the loaded kernel, memory, API and NVTX rows; kNoTime when there are none.
    TimeNs activityStart = kNoTime;
    TimeNs activityEnd = kNoTime;

    /// What analyses derive from the rows whatever the focus, built on first use (core/profile/derivedcache.h).
    DerivedCache derived;

    /// Calls @p visit(name, table) for every table of rows. The profile cache (core/profilecache/profilecodec.h)
    /// writes and maps exactly what these lists name, so a new table is cached by
    ///   1. giving its struct a forEachColumn(self, visit) that calls visit(name, column, IndexInto) for each column:
    ///      a Column<T> of a trivially copyable T, a TimeColumn or an IndexColumn<T>, with what its values index
    ///      (IndexInto::Nothing for values that index nothing; a new kind of index needs its row count in
    ///      core/profilecache/profilecodec.cpp). Every column holds the table's rows, or none (a column a load
    ///      skipped): a cache file whose columns disagree is refused. Anything else the table holds (a list that is
    ///      not one entry per row, a trivially copyable value such as a TimeNs) goes in a forEachExtra(self, visit)
    ///      of the same form (NvtxTable has one);
    ///   2. adding it here under a name of its own.
    /// Names are part of the cache format: renaming or retyping one makes older cache files mismatch, and they are
    /// rebuilt (the format's fingerprint covers every name and element size, no version bump needed).
    template <typename Self, typename Visit> static void forEachTable(Self& self, Visit&& visit)
    {
        visit("kernels", self.kernels);
        visit("memops", self.memops);
        visit("graphLaunches", self.graphLaunches);
        visit("cudaApi", self.cudaApi);
        visit("nvtx", self.nvtx);
        visit("osrt", self.osrt);
        visit("cpuSamples", self.cpuSamples);
        visit("cpuFunctions", self.cpuSamples.functions);
    }

    QString displayName() const;
    /// captureSpanOf(*this).durationNs() (core/profile/capturespan.h): the capture span's one definition.
    TimeNs captureDurationNs() const;
    /// "[CUDA memcpy Host-to-Device]" or "[CUDA memset]", as nsys stats names memory operations.
    QString memOpName(std::uint8_t copyKind) const;
    /// The GPU a process's CUDA ordinal refers to, or nullptr when it cannot be told (schema doc §6).
    const GpuInfo* gpuFor(ProcessIndex process, int cudaDevice) const;
    /// One key per GPU, to group work by device: the GPU's id when the export maps each process's CUDA ordinals to
    /// GPUs (TARGET_INFO_CUDA_DEVICE), else the ordinal itself (GpuKeyOfRow for a pass over rows).
    int gpuKey(ProcessIndex process, int cudaDevice) const;
    /// "GPU 0 (NVIDIA H100 80GB HBM3)", or "GPU 0" when the model is unknown or ambiguous.
    QString deviceLabel(ProcessIndex process, int cudaDevice) const;
    /// Distinct CUDA ordinals with kernel or memory activity.
    std::vector<int> devicesUsed() const;
    QString processLabel(ProcessIndex process) const;
    QString threadLabel(ThreadIndex thread) const;
    ProcessIndex processOfThread(ThreadIndex thread) const
    {
        return thread >= 0 ? threads[std::size_t(thread)].process : kNoIndex;
    }
    const QString& nvtxDomainName(int domain) const;

    std::size_t memoryBytes() const;
};

using ProfilePtr = std::shared_ptr<const Profile>;

/// Calls @p visit(name, member, IndexInto, perRow) for every column of @p table (perRow true), then for what its
/// forEachExtra lists, if it has one (perRow false).
template <typename Table, typename Visit> void forEachTableMember(Table& table, Visit&& visit)
{
    using T = std::remove_cvref_t<Table>;
    T::forEachColumn(table, [&](const char* name, auto& member, IndexInto into) { visit(name, member, into, true); });
    if constexpr (requires { T::forEachExtra(table, [](const char*, auto&, IndexInto) {}); })
        T::forEachExtra(
            table, [&](const char* name, auto& member, IndexInto into) { visit(name, member, into, false); });
}

} // namespace nsw

Q_DECLARE_METATYPE(nsw::ProfilePtr)
