// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/column.h"
#include "core/profile/cpusamples.h"
#include "core/profile/derivedcache.h"
#include "core/profile/indexcolumn.h"
#include "core/profile/stringpool.h"
#include "core/profile/timecolumn.h"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
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
    Column<ProcessIndex> process;
    Column<std::int32_t> device; ///< CUDA ordinal as seen by the process (deviceId)
    Column<std::uint32_t> context;
    Column<std::uint32_t> stream;
    Column<std::uint32_t> correlation;
    Column<std::int32_t> api; ///< row in CudaApiTable of the launching call (same process), or -1

    std::size_t size() const { return start.size(); }
    TimeNs duration(std::size_t i) const { return end[i] - start[i]; }
};

/// After a full load every column has size() rows. A load that asks for fewer LoadOptions::kernelColumns (the
/// `stats` command) leaves the others empty: only start, end and the requested names are then filled.
struct KernelTable : GpuActivityColumns
{
    Column<StringRef> demangledName;
    Column<StringRef> shortName;
    Column<StringRef> mangledName; ///< kNoString when the export has no mangled names
    Column<std::uint32_t> shape; ///< index into Profile::launchShapes
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
};

/// CUPTI_ACTIVITY_KIND_GRAPH_TRACE: one row per graph launch when kernels inside graphs are not exported.
struct GraphLaunchTable : GpuActivityColumns
{
    Column<qint64> graphId;
    Column<qint64> graphExecId;
};

/// CUDA runtime and driver API calls (CUPTI_ACTIVITY_KIND_RUNTIME).
struct CudaApiTable
{
    static constexpr std::uint8_t kRuntime = 0;
    static constexpr std::uint8_t kDriver = 1;
    TimeColumn start;
    TimeColumn end;
    IndexColumn<ThreadIndex> thread;
    std::vector<std::uint32_t> correlation;
    IndexColumn<StringRef> name;
    std::vector<std::uint8_t> eventClass;
    /// returnValue (a CUresult / cudaError_t). May be empty (profiles built by hand): read as NULL.
    std::vector<std::int32_t> returnValue;
    std::size_t size() const { return start.size(); }
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
    std::vector<std::int16_t> domain; ///< index into Profile::nvtxDomains, -1 = default domain (19M rows: 2 bytes)
    std::vector<std::uint8_t> eventType;
    /// (row, thread) for every row whose endGlobalTid is set (start/end ranges; it may equal the start thread).
    /// Sorted by row. nsys's GPU projection only uses ranges without an endGlobalTid.
    std::vector<std::pair<std::uint32_t, ThreadIndex>> endThread;
    /// max(start, end) over the whole NVTX_EVENTS table, all event types: nsys's end for unterminated ranges.
    TimeNs maxTimestamp = kNoTime;
    std::size_t size() const { return start.size(); }
    ThreadIndex endThreadOf(std::size_t row) const;
    bool hasEndThread(std::size_t row) const;
    /// end, or maxTimestamp for an unterminated range (nsys's end for it).
    TimeNs resolvedEnd(std::size_t row) const { return end[row] == kNoTime ? maxTimestamp : end[row]; }
};

/// OS runtime calls (OSRT_API).
struct OsrtTable
{
    static constexpr std::uint8_t kOsRuntime = 27; ///< ENUM_NSYS_EVENT_CLASS; osrt_sum counts only these
    std::vector<std::uint8_t> eventClass;
    TimeColumn start;
    TimeColumn end;
    IndexColumn<ThreadIndex> thread;
    IndexColumn<StringRef> name;
    std::size_t size() const { return start.size(); }
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

    QString displayName() const;
    /// captureSpanOf(*this).durationNs() (core/profile/capturespan.h): the capture span's one definition.
    TimeNs captureDurationNs() const;
    /// "[CUDA memcpy Host-to-Device]" or "[CUDA memset]", as nsys stats names memory operations.
    QString memOpName(std::uint8_t copyKind) const;
    /// The GPU a process's CUDA ordinal refers to, or nullptr when it cannot be told (schema doc §6).
    const GpuInfo* gpuFor(ProcessIndex process, int cudaDevice) const;
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

} // namespace nsw

Q_DECLARE_METATYPE(nsw::ProfilePtr)
