// SPDX-License-Identifier: GPL-3.0-or-later
#include "statsrun.h"

#include "core/stats/reports.h"

namespace nsw {

namespace {

/// Why @p spec does not take the ":arg" @p argument, or an empty string: a plain argument it lists, or "key=N" for
/// a "key=" it lists with an integer N.
QString argumentError(const ReportSpec& spec, const QString& argument)
{
    if (spec.arguments.contains(argument) && !argument.endsWith(QLatin1Char('=')))
        return {};
    const qsizetype equals = argument.indexOf(QLatin1Char('='));
    if (equals > 0 && spec.arguments.contains(argument.left(equals + 1))) {
        bool ok = false;
        argument.mid(equals + 1).toLongLong(&ok);
        return ok ? QString()
                  : QStringLiteral("report %1: argument %2: invalid int value: '%3'")
                        .arg(spec.name, argument.left(equals), argument.mid(equals + 1));
    }
    return QStringLiteral("report %1 has no argument ':%2'").arg(spec.name, argument);
}

} // namespace

Result<StatsPlan> planReports(const QStringList& namesWithArguments)
{
    StatsPlan plan;
    plan.load.parts = 0;
    plan.load.kernelColumns = 0;
    for (const QString& name : namesWithArguments) {
        ReportRequest r;
        r.spec = findReport(name.trimmed(), &r.arguments);
        if (!r.spec)
            return Result<StatsPlan>::failure(ErrorKind::Usage, QStringLiteral("unknown report '%1'").arg(name));
        for (const QString& a : r.arguments)
            if (const QString error = argumentError(*r.spec, a); !error.isEmpty())
                return Result<StatsPlan>::failure(ErrorKind::Usage, error);
        plan.load.parts |= r.spec->loadParts;
        if (r.spec->loadParts & LoadKernels)
            plan.load.kernelColumns |= r.spec->kernelColumnsOf(r.arguments);
        plan.reports.push_back(r);
    }
    return plan;
}

void setFocus(StatsPlan& plan, const FocusRange& focus)
{
    for (ReportRequest& r : plan.reports)
        r.focus = focus;
}

Result<std::vector<ReportTable>> computeReports(const StatsPlan& plan, const Profile& profile, const JobContext& job)
{
    std::vector<ReportTable> tables;
    for (std::size_t i = 0; i < plan.reports.size(); ++i) {
        if (job.isCancelled())
            return Result<std::vector<ReportTable>>::cancelled();
        const ReportRequest& r = plan.reports[i];
        job.report(r.spec->name, double(i) / double(plan.reports.size()));
        tables.push_back(r.spec->compute(profile, r.arguments, r.focus));
        ReportTable& t = tables.back();
        if (r.legacyMemcpyNames && t.skipped.endsWith(QLatin1String("does not contain ENUM_CUDA_MEMCPY_OPER table.")))
            t = legacyMemOpReport(r.spec->name, profile, r.focus, r.arguments);
        if (r.focus.isActive() && t.skipped.isEmpty() && t.rowCount() == 0)
            t.skipped = QStringLiteral("%1: no rows overlap the focus (%2).").arg(r.spec->name, r.focus.label);
    }
    return tables;
}

} // namespace nsw
