// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpureports.h"

#include "core/stats/reportchecks.h"
#include "core/stats/reportnames.h"
#include "core/stats/reports.h"
#include "core/stats/summaryreport.h"

#include <QHash>
#include <algorithm>
#include <functional>
#include <map>
#include <memory>

namespace nsw {

namespace {

bool hasGpuTables(const Profile& p)
{
    return profileHasTable(p, "CUPTI_ACTIVITY_KIND_KERNEL") || profileHasTable(p, "CUPTI_ACTIVITY_KIND_MEMCPY")
        || profileHasTable(p, "CUPTI_ACTIVITY_KIND_MEMSET");
}

/// Exports before 2022.4 have no ENUM tables; current nsys refuses to name their copies (as the memory reports).
bool lacksMemcpyEnum(const Profile& p)
{
    return profileHasTable(p, "CUPTI_ACTIVITY_KIND_MEMCPY") && !profileHasTable(p, "ENUM_CUDA_MEMCPY_OPER");
}

QString noEnumMessage(const Profile& p)
{
    return QStringLiteral("%1 does not contain ENUM_CUDA_MEMCPY_OPER table.").arg(reportFileName(p));
}

} // namespace

QString memKindName(std::uint8_t kind)
{
    static const char* const kNames[]
        = { "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static", "Unknown" };
    return kind < std::size(kNames) ? QLatin1String(kNames[kind]) : QString();
}

ReportValue throughputMBps(qint64 bytes, TimeNs duration)
{
    if (duration == 0)
        return std::monostate {};
    const qint64 perSecond = qint64(1000000000) / duration;
    qint64 product = 0;
    if (__builtin_mul_overflow(bytes, perSecond, &product))
        return double(bytes) * double(perSecond) / 1e6;
    return double(product) / 1e6;
}

QString nsys2022MemcpyName(std::uint8_t copyKind)
{
    static const char* const kNames[] = { "[CUDA memcpy Unknown]", "[CUDA memcpy HtoD]", "[CUDA memcpy DtoH]",
        "[CUDA memcpy HtoA]", "[CUDA memcpy AtoH]", "[CUDA memcpy AtoA]", "[CUDA memcpy AtoD]", "[CUDA memcpy DtoA]",
        "[CUDA memcpy DtoD]", "[CUDA memcpy HtoH]", "[CUDA memcpy PtoP]", "[CUDA Unified Memory memcpy HtoD]",
        "[CUDA Unified Memory memcpy DtoH]", "[CUDA Unified Memory memcpy DtoD]" };
    return copyKind < std::size(kNames) ? QLatin1String(kNames[copyKind]) : QString();
}

namespace {

/// Durations of the rows of @p c that overlap @p focus, per name id; index 0 holds the rows without a name (NULL).
template <typename Columns, typename NameOf>
std::vector<std::vector<qint64>> durationsByName(
    const Profile& p, const Columns& c, std::size_t rows, NameOf nameOf, const FocusRange& focus)
{
    std::vector<std::vector<qint64>> byRef(p.strings.size() + 1);
    for (std::size_t i = 0; i < rows; ++i)
        if (focus.overlaps(c.start[i], c.end[i]))
            byRef[std::size_t(std::max<StringRef>(nameOf(i), kNoString) + 1)].push_back(c.end[i] - c.start[i]);
    return byRef;
}

/// Adds durations gathered per name id (durationsByName) to the group of each name's text as @p textOf makes it, with
/// @p category: the last category given to a group stands, as the last row's in nsys's UNION ALL.
template <typename TextOf>
void addNamed(TextGroups& groups, const Profile& p, const std::vector<std::vector<qint64>>& byRef,
    const QString& category, TextOf textOf)
{
    for (std::size_t r = 0; r < byRef.size(); ++r) {
        if (byRef[r].empty())
            continue;
        const QString text = r == 0 ? QString() : textOf(p.strings.at(StringRef(r - 1)));
        SummaryGroup& g = groups.group(r == 0 ? nullptr : &text);
        g.values.insert(g.values.end(), byRef[r].begin(), byRef[r].end());
        g.extra = QStringList { category };
    }
}

void addKernels(TextGroups& groups, const Profile& p, KernelNameMode mode, const FocusRange& focus)
{
    const KernelTable& k = p.kernels;
    addNamed(groups, p,
        durationsByName(
            p, k, k.size(), [&](std::size_t i) { return kernelNameOf(k, i, mode); }, focus),
        QStringLiteral("CUDA_KERNEL"), [](const QString& text) { return text; });
}

/// Memory operations by the name @p nameOf gives their copy kind (an empty name leaves the kind out), copies before
/// memsets as nsys reads its tables.
void addMemoryOperations(
    TextGroups& groups, const Profile& p, const FocusRange& focus, const std::function<QString(std::uint8_t)>& nameOf)
{
    const MemOpTable& m = p.memops;
    std::map<std::uint8_t, std::vector<qint64>> byKind; // kMemset (255) last
    for (std::size_t i = 0; i < m.size(); ++i)
        if (focus.overlaps(m.start[i], m.end[i]))
            byKind[m.copyKind[i]].push_back(m.end[i] - m.start[i]);
    for (const auto& [kind, values] : byKind) {
        const QString text = nameOf(kind);
        if (text.isEmpty())
            continue;
        SummaryGroup& g = groups.group(&text);
        g.values.insert(g.values.end(), values.begin(), values.end());
        g.extra = QStringList { QStringLiteral("MEMORY_OPER") };
    }
}

/// The summary of a mix of operations: one row per name text (NULL first, then byte order), by total descending.
ReportTable operationSummary(const QString& name, const QString& title, TextGroups& groups)
{
    std::vector<SummaryGroup> grouped = groups.take();
    if (grouped.empty())
        return skippedReport(name, title, noDataMessage());
    SummaryLayout layout;
    layout.nameHeader = QStringLiteral("Operation");
    layout.extraHeaders = { QStringLiteral("Category") };
    return buildSummaryReport(name, title, layout, std::move(grouped));
}

} // namespace

ReportTable cudaGpuSum(const Profile& p, KernelNameMode mode, const FocusRange& focus, bool requireEnum)
{
    const QString name = reportnames::cudaGpuSum.idString();
    const QString title = reportnames::cudaGpuSum.titleString();
    if (!hasGpuTables(p))
        return skippedReport(name, title,
            QStringLiteral("%1 does not contain GPU kernel/memory operations data.").arg(reportFileName(p)));
    if (requireEnum && lacksMemcpyEnum(p))
        return skippedReport(name, title, noEnumMessage(p));
    TextGroups groups;
    addKernels(groups, p, mode, focus);
    addMemoryOperations(groups, p, focus, [&p](std::uint8_t kind) { return p.memOpName(kind); });
    return operationSummary(name, title, groups);
}

ReportTable cudaApiGpuSum(const Profile& p, KernelNameMode mode, const FocusRange& focus)
{
    const QString name = reportnames::cudaApiGpuSum.idString();
    const QString title = reportnames::cudaApiGpuSum.titleString();
    if (!hasGpuTables(p) && !profileHasTable(p, "CUPTI_ACTIVITY_KIND_RUNTIME"))
        return skippedReport(name, title,
            QStringLiteral("%1 does not contain CUDA API, GPU kernel, nor memory operations data.")
                .arg(reportFileName(p)));
    // API names lose their "_v" suffix before grouping, so that cudaMalloc_v3020 joins cudaMalloc.
    TextGroups groups;
    const CudaApiTable& api = p.cudaApi;
    addNamed(groups, p,
        durationsByName(
            p, api, api.size(), [&](std::size_t i) { return api.name[i]; }, focus),
        QStringLiteral("CUDA_API"), apiReportName);
    addKernels(groups, p, mode, focus);
    // nsys 2022.4 names copies from its own list and drops kinds outside it (an inner join).
    addMemoryOperations(groups, p, focus, [](std::uint8_t kind) {
        return kind == MemOpTable::kMemset ? QStringLiteral("[CUDA memset]") : nsys2022MemcpyName(kind);
    });
    return operationSummary(name, title, groups);
}

namespace {

/// A row of the GPU trace: a kernel row, or a memory operation row with the top bit set.
constexpr std::uint32_t kMemOpBit = 1u << 31;

double megabytes(qint64 bytes)
{
    return double(bytes) / 1e6;
}

/// The kernels and memory operations that overlap @p focus as rows (memory operations tagged with kMemOpBit), by
/// start: kernels, then copies, then memsets for equal starts, as nsys's UNION ALL reads them.
std::vector<std::uint32_t> gpuTraceOrder(const Profile& p, const FocusRange& focus)
{
    const KernelTable& k = p.kernels;
    const MemOpTable& m = p.memops;
    std::vector<std::uint32_t> order;
    for (std::size_t i = 0; i < k.size(); ++i)
        if (focus.overlaps(k.start[i], k.end[i]))
            order.push_back(std::uint32_t(i));
    for (const bool memsets : { false, true })
        for (std::size_t i = 0; i < m.size(); ++i)
            if ((m.copyKind[i] == MemOpTable::kMemset) == memsets && focus.overlaps(m.start[i], m.end[i]))
                order.push_back(std::uint32_t(i) | kMemOpBit);
    auto startOf = [&k, &m](std::uint32_t row) { return row & kMemOpBit ? m.start[row & ~kMemOpBit] : k.start[row]; };
    std::stable_sort(
        order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) { return startOf(x) < startOf(y); });
    return order;
}

/// printf('%s (%d)', TARGET_INFO_GPU.name, deviceId) for each device of @p order: the name is empty when no GPU has
/// that id.
std::map<int, QString> gpuTraceDeviceLabels(const Profile& p, const std::vector<std::uint32_t>& order)
{
    std::map<int, QString> labels;
    const bool hasGpuTable = profileHasTable(p, "TARGET_INFO_GPU");
    for (const std::uint32_t row : order) {
        const int device = row & kMemOpBit ? p.memops.device[row & ~kMemOpBit] : p.kernels.device[row];
        if (labels.count(device))
            continue;
        QString gpuName;
        if (hasGpuTable)
            for (const GpuInfo& g : p.gpus)
                if (g.id == device) {
                    gpuName = g.name;
                    break;
                }
        labels[device] = QStringLiteral("%1 (%2)").arg(gpuName).arg(device);
    }
    return labels;
}

std::vector<ReportColumn> gpuTraceColumns()
{
    using T = ReportColumn::Type;
    return { { QStringLiteral("Start (ns)"), T::Integer }, { QStringLiteral("Duration (ns)"), T::Integer },
        { QStringLiteral("CorrId"), T::Integer }, { QStringLiteral("GrdX"), T::Integer },
        { QStringLiteral("GrdY"), T::Integer }, { QStringLiteral("GrdZ"), T::Integer },
        { QStringLiteral("BlkX"), T::Integer }, { QStringLiteral("BlkY"), T::Integer },
        { QStringLiteral("BlkZ"), T::Integer }, { QStringLiteral("Reg/Trd"), T::Integer },
        { QStringLiteral("StcSMem (MB)"), T::Real, 3 }, { QStringLiteral("DymSMem (MB)"), T::Real, 3 },
        { QStringLiteral("Bytes (MB)"), T::Real, 3 }, { QStringLiteral("Throughput (MBps)"), T::Real, 3 },
        { QStringLiteral("SrcMemKd"), T::Text }, { QStringLiteral("DstMemKd"), T::Text },
        { QStringLiteral("Device"), T::Text }, { QStringLiteral("Ctx"), T::Integer },
        { QStringLiteral("Strm"), T::Integer }, { QStringLiteral("Name"), T::Text } };
}

/// The launch shape columns of a kernel row and the transfer columns of a memory operation row (each blank for the
/// other kind).
void addShapeOrTransferCells(const Profile& p, bool memop, std::size_t i, std::vector<ReportValue>& cells)
{
    auto kindName = [](const Column<std::uint8_t>& kinds, std::size_t row) -> ReportValue {
        const QString n = row < kinds.size() ? memKindName(kinds[row]) : QString();
        return n.isEmpty() ? ReportValue {} : ReportValue { n };
    };
    if (!memop) {
        const LaunchShape& s = p.launchShapes[p.kernels.shape[i]];
        for (const std::uint32_t v : { s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2] })
            cells.emplace_back(qint64(v));
        cells.emplace_back(qint64(s.registersPerThread));
        cells.emplace_back(megabytes(s.staticSharedMemory));
        cells.emplace_back(megabytes(s.dynamicSharedMemory));
        cells.emplace_back(std::monostate {}); // Bytes
        cells.emplace_back(QString()); // Throughput: '' for kernels
        cells.emplace_back(std::monostate {});
        cells.emplace_back(std::monostate {});
        return;
    }
    const MemOpTable& m = p.memops;
    cells.insert(cells.end(), 9, std::monostate {});
    cells.emplace_back(megabytes(m.bytes[i]));
    cells.push_back(throughputMBps(m.bytes[i], m.end[i] - m.start[i]));
    cells.push_back(kindName(m.srcKind, i));
    cells.push_back(kindName(m.dstKind, i));
}

} // namespace

ReportTable cudaGpuTrace(const Profile& p, const FocusRange& focus)
{
    const QString name = reportnames::cudaGpuTrace.idString();
    const QString title = reportnames::cudaGpuTrace.titleString();
    if (!hasGpuTables(p))
        return skippedReport(name, title, QStringLiteral("%1 does not contain GPU trace data.").arg(reportFileName(p)));
    if (lacksMemcpyEnum(p))
        return skippedReport(name, title, noEnumMessage(p));
    auto order = std::make_shared<const std::vector<std::uint32_t>>(gpuTraceOrder(p, focus));
    if (order->empty())
        return skippedReport(name, title, noDataMessage());
    auto devices = std::make_shared<const std::map<int, QString>>(gpuTraceDeviceLabels(p, *order));

    ReportTable t;
    t.name = name;
    t.title = title;
    t.columns = gpuTraceColumns();
    t.lazyRowCount = order->size();
    const Profile* profile = &p;
    t.lazyRow = [profile, order, devices](std::size_t r, std::vector<ReportValue>& cells) {
        const Profile& pr = *profile;
        const std::uint32_t row = (*order)[r];
        cells.clear();
        const bool memop = row & kMemOpBit;
        const GpuActivityColumns& c = memop ? static_cast<const GpuActivityColumns&>(pr.memops)
                                            : static_cast<const GpuActivityColumns&>(pr.kernels);
        const std::size_t i = row & ~kMemOpBit;
        cells.emplace_back(c.start[i]);
        cells.emplace_back(c.end[i] - c.start[i]);
        cells.emplace_back(qint64(c.correlation[i]));
        addShapeOrTransferCells(pr, memop, i, cells);
        cells.emplace_back(devices->at(c.device[i]));
        cells.emplace_back(qint64(c.context[i]));
        cells.emplace_back(qint64(c.stream[i]));
        if (memop) {
            cells.emplace_back(pr.memOpName(pr.memops.copyKind[i]));
        } else {
            const StringRef n = pr.kernels.demangledName[i];
            cells.push_back(n == kNoString ? ReportValue {} : ReportValue { pr.strings.at(n) });
        }
    };
    return t;
}

} // namespace nsw
