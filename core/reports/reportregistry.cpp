// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportregistry.h"

#include "core/nvtx/nvtxreports.h"
#include "core/profile/loadtypes.h"
#include "core/stats/reportnames.h"
#include "core/stats/reports.h"

namespace nsw {

const std::vector<ReportSpec>& reportSpecs()
{
    static const std::vector<ReportSpec> specs = {
        { reportnames::cudaGpuKernSum.idString(), { QStringLiteral("gpukernsum") },
            reportnames::cudaGpuKernSum.titleString(), LoadKernels,
            { QStringLiteral("base"), QStringLiteral("mangled") },
            [](const Profile& p, const QStringList& args, const FocusRange& f) {
                const KernelNameMode mode = args.contains(QLatin1String("base")) ? KernelNameMode::Short
                    : args.contains(QLatin1String("mangled"))                    ? KernelNameMode::Mangled
                                                                                 : KernelNameMode::Demangled;
                return cudaGpuKernSum(p, mode, f);
            },
            KernelDemangledName | KernelShortName | KernelMangledName,
            [](const QStringList& args) -> unsigned {
                if (args.contains(QLatin1String("base")))
                    return KernelShortName;
                if (args.contains(QLatin1String("mangled")))
                    return KernelMangledName | KernelDemangledName;
                return KernelDemangledName;
            } },
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
