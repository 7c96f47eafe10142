// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/whatif.h"

#include "core/util/timeformat.h"

#include <limits>

namespace nsw {

namespace {

WhatIfRow makeRow(
    const QString& scope, int device, TimeNs base, TimeNs removable, const QString& scenario, const QString& what)
{
    WhatIfRow row;
    row.scope = scope;
    row.device = device;
    row.scenario = scenario;
    row.baseNs = base;
    row.removableNs = std::min(removable, base);
    row.boundNs = base - row.removableNs;
    row.arithmetic = QStringLiteral("%1 - %2 %3 = %4 (at most %5 % shorter)")
                         .arg(formatDuration(base), formatDuration(row.removableNs), what, formatDuration(row.boundNs))
                         .arg(row.savingPercent(), 0, 'f', 1);
    return row;
}

QString deviceName(std::span<const DiagnosticsDevice> devices, int key)
{
    for (const DiagnosticsDevice& d : devices)
        if (d.key == key)
            return d.label;
    return QStringLiteral("GPU %1").arg(key);
}

/// Per scenario of the per-GPU @p rows, the row of the GPUs in @p lockstep together: the smallest of their savings.
std::vector<WhatIfRow> lockstepRows(const QString& scope, TimeNs base, const std::vector<WhatIfRow>& rows,
    const std::vector<int>& lockstep, std::span<const DiagnosticsDevice> devices)
{
    std::vector<WhatIfRow> out;
    QStringList scenarios;
    for (const WhatIfRow& r : rows)
        if (!scenarios.contains(r.scenario))
            scenarios << r.scenario;
    for (const QString& scenario : scenarios) {
        TimeNs least = base;
        QStringList savings;
        for (const int device : lockstep) {
            TimeNs saving = 0;
            for (const WhatIfRow& r : rows)
                if (r.device == device && r.scenario == scenario)
                    saving = r.removableNs;
            least = std::min(least, saving);
            savings << QStringLiteral("%1 %2").arg(deviceName(devices, device), formatDuration(saving));
        }
        WhatIfRow row = makeRow(scope, -1, base, least, scenario,
            QStringLiteral("(the least of %1: they wait for each other in collectives)")
                .arg(savings.join(QStringLiteral(", "))));
        row.lockstep = lockstep;
        out.push_back(std::move(row));
    }
    return out;
}

} // namespace

std::vector<WhatIfRow> whatIfScenarios(const QString& scope, TimeNs base, const IdleGapResult& gaps,
    const OverlapResult& overlap, const NcclSkewResult& skew, std::span<const DiagnosticsDevice> devices)
{
    std::vector<WhatIfRow> rows;
    for (const DeviceIdle& d : gaps.devices) {
        for (int c = 0; c < kGapCauseCount; ++c)
            if (d.causeNs[c] > 0) {
                const QString cause = gapCauseName(GapCause(c));
                rows.push_back(makeRow(scope, d.device, base, d.causeNs[c], QStringLiteral("no %1 gaps").arg(cause),
                    QStringLiteral("of %1 gaps").arg(cause)));
            }
        if (d.gapNs > 0)
            rows.push_back(makeRow(scope, d.device, base, d.gapNs, QStringLiteral("no idle gaps at all"),
                QStringLiteral("of idle gaps between operations")));
    }
    for (const DeviceOverlap& o : overlap.devices) {
        const TimeNs hidden = std::min(o.ncclOnlyNs, o.computeOnlyNs);
        if (hidden > 0)
            rows.push_back(makeRow(scope, o.device, base, hidden, QStringLiteral("NCCL fully overlapped with compute"),
                QStringLiteral("of NCCL alone (%1 of NCCL alone against %2 of compute alone: it can hide only "
                               "behind compute)")
                    .arg(formatDuration(o.ncclOnlyNs), formatDuration(o.computeOnlyNs))));
    }
    for (const NcclSkewDevice& s : skew.devices)
        if (s.waitNs > 0)
            rows.push_back(makeRow(scope, s.device, base, s.waitNs, QStringLiteral("no NCCL skew"),
                QStringLiteral("of waiting for the other GPUs in collectives")));
    if (skew.devices.size() >= 2) {
        std::vector<int> lockstep;
        for (const NcclSkewDevice& s : skew.devices)
            lockstep.push_back(s.device);
        const std::vector<WhatIfRow> together = lockstepRows(scope, base, rows, lockstep, devices);
        rows.insert(rows.end(), together.begin(), together.end());
    }
    return rows;
}

std::vector<WhatIfRow> computeWhatIf(const AnalysisContext& c, const IdleGapResult& gaps, const OverlapResult& overlap,
    const NcclSkewResult& skew, const IterationTable* iterations, const JobContext& job)
{
    std::vector<WhatIfRow> rows
        = whatIfScenarios(QStringLiteral("window"), c.windowDuration(), gaps, overlap, skew, c.devices);
    if (!iterations || !iterations->isConfident() || iterations->iterations.empty() || job.isCancelled())
        return rows;
    const Result<FocusRange> median = medianIterationRange(*iterations);
    if (!median)
        return rows;
    const AnalysisContext focused = makeAnalysisContext(c.profile, *median, job);
    if (job.isCancelled())
        return rows;
    const IdleGapResult iterationGaps = computeIdleGaps(focused, std::numeric_limits<TimeNs>::max(), 0, job);
    const std::vector<WhatIfRow> more = whatIfScenarios(median->label, focused.windowDuration(), iterationGaps,
        computeOverlap(focused, job), computeNcclSkew(focused, job), c.devices);
    rows.insert(rows.end(), more.begin(), more.end());
    return rows;
}

} // namespace nsw
