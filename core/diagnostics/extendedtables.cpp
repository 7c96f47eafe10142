// SPDX-License-Identifier: GPL-3.0-or-later
// The tables of the analyses issue 36 added beside the findings: stream concurrency, the longest kernels,
// host-to-device bytes over time, launch percentiles, tensor cores and what-if bounds.
#include "core/diagnostics/extendedtables.h"

namespace nsw {

namespace {

using Cell = DiagnosticsCell;

DiagnosticsTable table(const char* id, const QString& title, const char* columns)
{
    DiagnosticsTable t;
    t.id = QLatin1String(id);
    t.title = title;
    t.columns = QString::fromLatin1(columns).split(QLatin1Char(','));
    return t;
}

Cell share(double part, double whole)
{
    return whole > 0 ? Cell(100.0 * part / whole) : Cell();
}

class ExtendedTables
{
public:
    explicit ExtendedTables(const DiagnosticsResult& r)
        : r(r)
    { }

    void addTo(std::vector<DiagnosticsTable>& out) const
    {
        out.push_back(streamConcurrency());
        out.push_back(longestKernels());
        out.push_back(h2dOverTime());
        out.push_back(h2dPhases());
        out.push_back(launchPercentiles());
        out.push_back(tensorCores());
        out.push_back(nonTensorCoreKernels());
        out.push_back(whatIf());
    }

private:
    Cell label(int device) const { return Cell(r.deviceLabel(device)); }
    Cell onClock(TimeNs t) const { return t == kNoTime ? Cell() : Cell(qint64(t - r.clockOrigin)); }

    DiagnosticsTable streamConcurrency() const
    {
        DiagnosticsTable t = table("stream_concurrency", QStringLiteral("Stream concurrency per GPU"),
            "device,device_label,streams_busy,time_ns,time_pct");
        for (const DeviceConcurrency& d : r.streamConcurrency)
            for (std::size_t k = 0; k < d.timeWithStreams.size(); ++k)
                t.rows.push_back({ Cell(qint64(d.device)), label(d.device), Cell(qint64(k)),
                    Cell(qint64(d.timeWithStreams[k])), share(double(d.timeWithStreams[k]), double(d.spanNs)) });
        return t;
    }

    DiagnosticsTable longestKernels() const
    {
        DiagnosticsTable t = table("longest_kernels", QStringLiteral("Longest kernel executions"),
            "rank,device,device_label,stream,pid,start_ns,end_ns,duration_ns,kernel_name");
        qint64 rank = 0;
        for (const LongestKernel& k : r.kernelTiming.longest)
            t.rows.push_back({ Cell(++rank), Cell(qint64(k.device)), label(k.device), Cell(qint64(k.stream)),
                Cell(qint64(k.pid)), onClock(k.start), onClock(k.end), Cell(qint64(k.duration())), Cell(k.name) });
        return t;
    }

    DiagnosticsTable h2dOverTime() const
    {
        DiagnosticsTable t = table("h2d_over_time", QStringLiteral("Host-to-device bytes over time"),
            "start_ns,end_ns,copies,bytes,migration_bytes,gb_per_s");
        for (const H2dBin& b : r.h2d.bins)
            t.rows.push_back(
                { onClock(b.start), onClock(b.end), Cell(b.copies.count), Cell(b.copies.total), Cell(b.migrationBytes),
                    b.end > b.start ? Cell(double(b.copies.total) / double(b.end - b.start)) : Cell() });
        return t;
    }

    DiagnosticsTable h2dPhases() const
    {
        DiagnosticsTable t = table("h2d_load_phases",
            QStringLiteral("Host-to-device: initial load (before the first kernel) and steady state"),
            "phase,start_ns,end_ns,copies,bytes,bytes_pct,gb_per_s");
        const H2dTimeline& h = r.h2d;
        const double all = double(h.initial.total + h.steady.total);
        const TimeNs split = h.firstKernel == kNoTime ? r.windowEnd : h.firstKernel;
        const TimeNs initialNs = split - r.windowStart;
        t.rows.push_back({ Cell(QStringLiteral("initial load")), onClock(r.windowStart), onClock(split),
            Cell(h.initial.count), Cell(h.initial.total), share(double(h.initial.total), all),
            initialNs > 0 ? Cell(double(h.initial.total) / double(initialNs)) : Cell() });
        t.rows.push_back({ Cell(QStringLiteral("steady state")), onClock(split), onClock(r.windowEnd),
            Cell(h.steady.count), Cell(h.steady.total), share(double(h.steady.total), all),
            h.steadyNs > 0 ? Cell(h.steadyGbPerSecond()) : Cell() });
        return t;
    }

    DiagnosticsTable launchPercentiles() const
    {
        DiagnosticsTable t
            = table("launch_percentiles", QStringLiteral("Kernel durations and launch intervals (p50/p90/p99)"),
                "pid,process,kernels,kernel_p50_ns,kernel_p90_ns,kernel_p99_ns,kernel_max_ns,launch_intervals,"
                "interval_p50_ns,interval_p90_ns,interval_p99_ns");
        for (const LaunchPercentileRow& p : r.kernelTiming.percentiles) {
            const Percentiles& k = p.kernelDurations;
            const Percentiles& l = p.launchIntervals;
            auto value = [](const Percentiles& of, double v) { return of.count > 0 ? Cell(v) : Cell(); };
            t.rows.push_back({ p.pid > 0 ? Cell(qint64(p.pid)) : Cell(), Cell(p.process), Cell(k.count),
                value(k, k.p50), value(k, k.p90), value(k, k.p99), k.count > 0 ? Cell(qint64(k.max)) : Cell(),
                Cell(l.count), value(l, l.p50), value(l, l.p90), value(l, l.p99) });
        }
        return t;
    }

    DiagnosticsTable tensorCores() const
    {
        DiagnosticsTable t
            = table("tensor_cores", QStringLiteral("Tensor-core kernels (name heuristic: %1)").arg(r.tensorCores.rules),
                "device,device_label,kernel_ns,tensor_core_ns,tensor_core_pct");
        std::vector<TensorCoreDevice> rows = r.tensorCores.devices;
        if (rows.size() != 1)
            rows.push_back(r.tensorCores.total);
        for (const TensorCoreDevice& d : rows)
            t.rows.push_back({ d.device >= 0 ? Cell(qint64(d.device)) : Cell(),
                d.device >= 0 ? label(d.device) : Cell(QStringLiteral("all GPUs")), Cell(qint64(d.kernelNs)),
                Cell(qint64(d.tensorCoreNs)), share(double(d.tensorCoreNs), double(d.kernelNs)) });
        return t;
    }

    DiagnosticsTable nonTensorCoreKernels() const
    {
        DiagnosticsTable t
            = table("non_tensor_core_kernels", QStringLiteral("Biggest kernels not on tensor cores (name heuristic)"),
                "kernel_name,instances,total_ns,share_pct,matrix_like");
        for (const NonTensorCoreKernel& k : r.tensorCores.biggestOthers)
            t.rows.push_back({ Cell(k.name), Cell(k.instances), Cell(qint64(k.totalNs)), Cell(k.sharePercent),
                Cell(k.matrixLike ? QStringLiteral("yes") : QStringLiteral("no")) });
        return t;
    }

    DiagnosticsTable whatIf() const
    {
        DiagnosticsTable t = table("what_if", QStringLiteral("What if (upper bounds, not predictions)"),
            "scope,device,device_label,scenario,base_ns,removable_ns,bound_ns,saving_pct,arithmetic");
        for (const WhatIfRow& w : r.whatIf)
            t.rows.push_back({ Cell(w.scope), Cell(qint64(w.device)),
                w.device >= 0 ? label(w.device) : Cell(QStringLiteral("GPUs waiting for each other")), Cell(w.scenario),
                Cell(qint64(w.baseNs)), Cell(qint64(w.removableNs)), Cell(qint64(w.boundNs)), Cell(w.savingPercent()),
                Cell(w.arithmetic) });
        return t;
    }

    const DiagnosticsResult& r;
};

} // namespace

void addExtendedDiagnosticsTables(const DiagnosticsResult& result, std::vector<DiagnosticsTable>& tables)
{
    ExtendedTables(result).addTo(tables);
}

} // namespace nsw
