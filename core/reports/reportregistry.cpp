// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportregistry.h"

#include "core/nvtx/nvtxpushpoptrace.h"
#include "core/nvtx/nvtxrangereports.h"
#include "core/nvtx/nvtxreports.h"
#include "core/profile/loadtypes.h"
#include "core/stats/apitrace.h"
#include "core/stats/directivereports.h"
#include "core/stats/gpureports.h"
#include "core/stats/kernexecreports.h"
#include "core/stats/reportnames.h"
#include "core/stats/reports.h"
#include "core/stats/umreports.h"

namespace nsw {

namespace {

/// The kernel name nsys's ":base" / ":mangled" arguments select.
KernelNameMode nameModeOf(const QStringList& args)
{
    if (args.contains(QLatin1String("base")))
        return KernelNameMode::Short;
    if (args.contains(QLatin1String("mangled")))
        return KernelNameMode::Mangled;
    return KernelNameMode::Demangled;
}

/// The kernel name columns nameModeOf(@p args) reads (a missing mangled name falls back to the demangled one).
unsigned nameColumnsOf(const QStringList& args)
{
    if (args.contains(QLatin1String("base")))
        return KernelShortName;
    if (args.contains(QLatin1String("mangled")))
        return KernelMangledName | KernelDemangledName;
    return KernelDemangledName;
}

QStringList nameArguments()
{
    return { QStringLiteral("base"), QStringLiteral("mangled") };
}

/// The value of a "key=N" argument (validated by planReports), or @p fallback.
qint64 integerArgument(const QStringList& args, const QString& key, qint64 fallback)
{
    for (const QString& a : args)
        if (a.startsWith(key + QLatin1Char('=')))
            return a.mid(key.size() + 1).toLongLong();
    return fallback;
}

} // namespace

const std::vector<ReportSpec>& reportSpecs()
{
    static const std::vector<ReportSpec> specs = {
        { reportnames::cudaGpuKernSum.idString(), { QStringLiteral("gpukernsum") },
            reportnames::cudaGpuKernSum.titleString(), LoadKernels, nameArguments(),
            [](const Profile& p, const QStringList& args, const FocusRange& f) {
                return cudaGpuKernSum(p, nameModeOf(args), f);
            },
            KernelDemangledName | KernelShortName | KernelMangledName, nameColumnsOf },
        { reportnames::cudaApiSum.idString(), { QStringLiteral("cudaapisum") }, reportnames::cudaApiSum.titleString(),
            LoadCudaApi, {},
            [](const Profile& p, const QStringList&, const FocusRange& f) { return cudaApiSum(p, f); } },
        { reportnames::cudaGpuMemTimeSum.idString(), { QStringLiteral("gpumemtimesum") },
            reportnames::cudaGpuMemTimeSum.titleString(), LoadMemOps, {},
            [](const Profile& p, const QStringList&, const FocusRange& f) { return cudaGpuMemTimeSum(p, f); } },
        { reportnames::cudaGpuMemSizeSum.idString(), { QStringLiteral("gpumemsizesum") },
            reportnames::cudaGpuMemSizeSum.titleString(), LoadMemOps, {},
            [](const Profile& p, const QStringList&, const FocusRange& f) { return cudaGpuMemSizeSum(p, f); } },
        { reportnames::osrtSum.idString(), { QStringLiteral("osrtsum") }, reportnames::osrtSum.titleString(), LoadOsrt,
            {}, [](const Profile& p, const QStringList&, const FocusRange& f) { return osrtSum(p, f); } },
        { reportnames::nvtxSum.idString(), { QStringLiteral("nvtxsum") }, reportnames::nvtxSum.titleString(), LoadNvtx,
            {}, [](const Profile& p, const QStringList&, const FocusRange& f) { return nvtxSum(p, f); } },
        { reportnames::nvtxGpuProjSum.idString(), {}, reportnames::nvtxGpuProjSum.titleString(),
            LoadNvtx | LoadCudaApi | LoadKernels | LoadMemOps, {},
            [](const Profile& p, const QStringList&, const FocusRange& f) { return nvtxGpuProjSum(p, f); } },
        { reportnames::cudaKernExecSum.idString(), { QStringLiteral("kernexecsum") },
            reportnames::cudaKernExecSum.titleString(), LoadKernels | LoadCudaApi, nameArguments(),
            [](const Profile& p, const QStringList& args, const FocusRange& f) {
                return cudaKernExecSum(p, nameModeOf(args), f);
            },
            KernelAllColumns,
            [](const QStringList& args) -> unsigned { return nameColumnsOf(args) | KernelPlacement; } },
        { reportnames::cudaKernExecTrace.idString(), { QStringLiteral("kernexectrace") },
            reportnames::cudaKernExecTrace.titleString(), LoadKernels | LoadCudaApi, nameArguments(),
            [](const Profile& p, const QStringList& args, const FocusRange& f) {
                return cudaKernExecTrace(p, nameModeOf(args), f);
            },
            KernelAllColumns,
            [](const QStringList& args) -> unsigned {
                return nameColumnsOf(args) | KernelPlacement | KernelLaunchShape;
            },
            true },
        { reportnames::cudaGpuSum.idString(), { QStringLiteral("gpusum") }, reportnames::cudaGpuSum.titleString(),
            LoadKernels | LoadMemOps, nameArguments(),
            [](const Profile& p, const QStringList& args, const FocusRange& f) {
                return cudaGpuSum(p, nameModeOf(args), f);
            },
            KernelAllColumns, nameColumnsOf },
        { reportnames::cudaGpuTrace.idString(), { QStringLiteral("gputrace") }, reportnames::cudaGpuTrace.titleString(),
            LoadKernels | LoadMemOps, {},
            [](const Profile& p, const QStringList&, const FocusRange& f) { return cudaGpuTrace(p, f); },
            KernelDemangledName | KernelPlacement | KernelLaunchShape, {}, true },
        { reportnames::cudaApiTrace.idString(), { QStringLiteral("cudaapitrace") },
            reportnames::cudaApiTrace.titleString(), LoadCudaApi, {},
            [](const Profile& p, const QStringList&, const FocusRange& f) { return cudaApiTrace(p, f); },
            KernelAllColumns, {}, true },
        { reportnames::nvtxKernSum.idString(), { QStringLiteral("nvtxkernsum") },
            reportnames::nvtxKernSum.titleString(), LoadNvtx | LoadCudaApi | LoadKernels, nameArguments(),
            [](const Profile& p, const QStringList& args, const FocusRange& f) {
                return nvtxKernSum(p, nameModeOf(args), f);
            },
            KernelAllColumns,
            [](const QStringList& args) -> unsigned { return nameColumnsOf(args) | KernelPlacement; } },
        { reportnames::nvtxPushPopSum.idString(), { QStringLiteral("nvtxppsum") },
            reportnames::nvtxPushPopSum.titleString(), LoadNvtx, {},
            [](const Profile& p, const QStringList&, const FocusRange& f) { return nvtxPushPopSum(p, f); } },
        { reportnames::nvtxPushPopTrace.idString(), { QStringLiteral("nvtxpptrace") },
            reportnames::nvtxPushPopTrace.titleString(), LoadNvtx, {},
            [](const Profile& p, const QStringList&, const FocusRange& f) { return nvtxPushPopTrace(p, f); },
            KernelAllColumns, {}, true },
        { reportnames::nvtxStartEndSum.idString(), { QStringLiteral("nvtxsesum") },
            reportnames::nvtxStartEndSum.titleString(), LoadNvtx, {},
            [](const Profile& p, const QStringList&, const FocusRange& f) { return nvtxStartEndSum(p, f); } },
        { reportnames::cudaApiGpuSum.idString(), { QStringLiteral("apigpusum") },
            reportnames::cudaApiGpuSum.titleString(), LoadCudaApi | LoadKernels | LoadMemOps, nameArguments(),
            [](const Profile& p, const QStringList& args, const FocusRange& f) {
                return cudaApiGpuSum(p, nameModeOf(args), f);
            },
            KernelAllColumns, nameColumnsOf },
        { reportnames::umSum.idString(), { QStringLiteral("unifiedmemory") }, reportnames::umSum.titleString(), 0,
            { QStringLiteral("rows=") },
            [](const Profile& p, const QStringList& args, const FocusRange& f) {
                return umSum(p, integerArgument(args, QStringLiteral("rows"), 10), f);
            } },
        { reportnames::umTotalSum.idString(), { QStringLiteral("unifiedmemorytotals") },
            reportnames::umTotalSum.titleString(), 0, {},
            [](const Profile& p, const QStringList&, const FocusRange& f) { return umTotalSum(p, f); } },
        { reportnames::umCpuPageFaultsSum.idString(), { QStringLiteral("umcpupagefaults") },
            reportnames::umCpuPageFaultsSum.titleString(), 0, {},
            [](const Profile& p, const QStringList&, const FocusRange& f) { return umCpuPageFaultsSum(p, f); } },
        { reportnames::openAccSum.idString(), { QStringLiteral("openaccsum") }, reportnames::openAccSum.titleString(),
            0, {}, [](const Profile& p, const QStringList&, const FocusRange& f) { return openAccSum(p, f); } },
        { reportnames::openMpSum.idString(), { QStringLiteral("openmpevtsum") }, reportnames::openMpSum.titleString(),
            0, {}, [](const Profile& p, const QStringList&, const FocusRange& f) { return openMpSum(p, f); } },
    };
    return specs;
}

const ReportSpec* findReport(const QString& nameWithArguments, QStringList* arguments)
{
    QStringList parts = nameWithArguments.split(QLatin1Char(':'));
    const QString name = parts.takeFirst();
    for (const ReportSpec& s : reportSpecs()) {
        if (s.name == name || s.aliases.contains(name)) {
            if (arguments)
                *arguments = parts;
            return &s;
        }
    }
    return nullptr;
}

} // namespace nsw
