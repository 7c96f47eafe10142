// SPDX-License-Identifier: GPL-3.0-or-later
#include "topkernels.h"

namespace nsw {

namespace {
template <typename T> T valueAs(const ReportValue& value)
{
    if (const auto* v = std::get_if<qint64>(&value))
        return T(*v);
    if (const auto* v = std::get_if<double>(&value))
        return T(*v);
    return T();
}
} // namespace

std::vector<TopKernel> topKernels(const ReportTable& kernelSummary, int count)
{
    std::vector<TopKernel> top;
    const int name = kernelSummary.columnIndex(QStringLiteral("Name"));
    const int total = kernelSummary.columnIndex(QStringLiteral("Total Time (ns)"));
    const int instances = kernelSummary.columnIndex(QStringLiteral("Instances"));
    const int percent = kernelSummary.columnIndex(QStringLiteral("Time (%)"));
    if (!kernelSummary.skipped.isEmpty() || name < 0 || total < 0)
        return top;
    for (const std::vector<ReportValue>& row : kernelSummary.rows) {
        if (int(top.size()) >= count)
            break;
        const auto* text = std::get_if<QString>(&row[name]);
        top.push_back({ text ? *text : QString(), valueAs<qint64>(row[total]),
            instances >= 0 ? valueAs<qint64>(row[instances]) : 0, percent >= 0 ? valueAs<double>(row[percent]) : 0 });
    }
    return top;
}

} // namespace nsw
