// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profile/profile.h"
#include "stats/kernelindex.h"
#include "stats/reporttable.h"

#include <QStringList>
#include <functional>
#include <vector>

namespace nsw {

/// An `nsys stats` report we reproduce: its name, older aliases, the tables it needs, and how to compute it.
struct ReportSpec
{
    QString name;
    QStringList aliases;
    QString title;
    unsigned loadParts = 0; ///< LoadPart flags the report needs
    QStringList arguments; ///< accepted ":arg" suffixes, e.g. "base", "mangled"
    std::function<ReportTable(const Profile&, const QStringList& arguments)> compute;
    unsigned kernelColumns = 0x1Fu; ///< KernelColumn flags it reads when it loads kernels (all by default)
    /// When set, the KernelColumn flags for the given ":arg" arguments (overrides kernelColumns).
    std::function<unsigned(const QStringList& arguments)> kernelColumnsFor = {};

    unsigned kernelColumnsOf(const QStringList& arguments) const
    {
        return kernelColumnsFor ? kernelColumnsFor(arguments) : kernelColumns;
    }
};

const std::vector<ReportSpec>& reportSpecs();
/// Finds "name[:arg...]" (also by alias); fills @p arguments. Returns nullptr when unknown.
const ReportSpec* findReport(const QString& nameWithArguments, QStringList* arguments);

ReportTable cudaGpuKernSum(const Profile& profile, KernelNameMode mode);
ReportTable cudaApiSum(const Profile& profile);
ReportTable cudaGpuMemTimeSum(const Profile& profile);
ReportTable cudaGpuMemSizeSum(const Profile& profile);
ReportTable osrtSum(const Profile& profile);

/// nsys's API name cleanup: a trailing "_v" + 4 characters (e.g. "_v7000", "_v3020") is a CUDA version tag.
QString apiReportName(const QString& name);

} // namespace nsw
