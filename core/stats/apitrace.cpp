// SPDX-License-Identifier: GPL-3.0-or-later
#include "apitrace.h"

#include "core/stats/reportchecks.h"
#include "core/stats/reportnames.h"
#include "core/stats/reports.h"

#include <algorithm>
#include <memory>

namespace nsw {

ReportTable cudaApiTrace(const Profile& p, const FocusRange& focus)
{
    const QString name = reportnames::cudaApiTrace.idString();
    const QString title = reportnames::cudaApiTrace.titleString();
    if (!profileHasTable(p, "CUPTI_ACTIVITY_KIND_RUNTIME"))
        return skippedReport(
            name, title, QStringLiteral("%1 does not contain CUDA trace data.").arg(reportFileName(p)));
    const CudaApiTable& a = p.cudaApi;
    auto order = std::make_shared<std::vector<std::uint32_t>>();
    for (std::size_t i = 0; i < a.size(); ++i)
        if (focus.overlaps(a.start[i], a.end[i]))
            order->push_back(std::uint32_t(i));
    if (order->empty())
        return skippedReport(name, title, noDataMessage());
    std::stable_sort(
        order->begin(), order->end(), [&a](std::uint32_t x, std::uint32_t y) { return a.start[x] < a.start[y]; });

    ReportTable t;
    t.name = name;
    t.title = title;
    using T = ReportColumn::Type;
    t.columns = { { QStringLiteral("Start (ns)"), T::Integer }, { QStringLiteral("Duration (ns)"), T::Integer },
        { QStringLiteral("Name"), T::Text }, { QStringLiteral("Result"), T::Integer },
        { QStringLiteral("CorrID"), T::Integer }, { QStringLiteral("Pid"), T::Integer },
        { QStringLiteral("Tid"), T::Integer }, { QStringLiteral("T-Pri"), T::Integer },
        { QStringLiteral("Thread Name"), T::Text } };
    t.lazyRowCount = order->size();
    const Profile* profile = &p;
    t.lazyRow = [profile, order](std::size_t r, std::vector<ReportValue>& cells) {
        const Profile& pr = *profile;
        const CudaApiTable& at = pr.cudaApi;
        const std::size_t i = (*order)[r];
        cells.clear();
        cells.emplace_back(at.start[i]);
        cells.emplace_back(at.end[i] - at.start[i]);
        const StringRef n = at.name[i];
        cells.push_back(n == kNoString ? ReportValue {} : ReportValue { apiReportName(pr.strings.at(n)) });
        cells.push_back(i < at.returnValue.size() ? ReportValue { qint64(at.returnValue[i]) } : ReportValue {});
        cells.emplace_back(qint64(at.correlation[i]));
        const ThreadIndex thread = at.thread[i];
        const ThreadInfo* info = thread >= 0 ? &pr.threads[std::size_t(thread)] : nullptr;
        const qint64 globalTid = info ? info->globalTid : 0;
        cells.emplace_back(qint64(pidOf(globalTid)));
        cells.emplace_back(qint64(tidOf(globalTid)));
        // LEFT JOIN ThreadNames: priority and name only for a thread named there.
        if (info && info->namePriority != ThreadInfo::kNoPriority) {
            cells.emplace_back(info->namePriority);
            cells.emplace_back(info->name);
        } else {
            cells.emplace_back(std::monostate {});
            cells.emplace_back(std::monostate {});
        }
    };
    return t;
}

} // namespace nsw
