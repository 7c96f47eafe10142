// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/diagnostics.h"
#include "core/diagnostics/extendedtables.h"

#include <limits>

namespace nsw {

namespace {

using Cell = DiagnosticsCell;
using Row = std::vector<Cell>;

Cell i64(qint64 v)
{
    return Cell(v);
}
Cell real(double v)
{
    return Cell(v);
}
Cell text(const QString& v)
{
    return Cell(v);
}
Cell average(TimeNs total, qint64 count)
{
    return count > 0 ? real(double(total) / double(count)) : Cell();
}
Cell percent(TimeNs part, TimeNs whole)
{
    return whole > 0 ? real(100.0 * double(part) / double(whole)) : Cell();
}

DiagnosticsTable table(const char* id, const char* title, const char* columns)
{
    DiagnosticsTable t;
    t.id = QLatin1String(id);
    t.title = QLatin1String(title);
    t.columns = QString::fromLatin1(columns).split(QLatin1Char(','));
    return t;
}

class TableBuilder
{
public:
    explicit TableBuilder(const DiagnosticsResult& r)
        : r(r)
    { }

    std::vector<DiagnosticsTable> build()
    {
        std::vector<DiagnosticsTable> out;
        out.push_back(kernels());
        out.push_back(named("nvtx_ranges", "NVTX ranges", r.perProcess.nvtxRanges, false, true));
        out.push_back(gaps("gpu_idle_gaps", "GPU idle gaps", r.idleGaps.deviceGaps, r.idleSamples.deviceGapTop,
            r.idleSamples.deviceGapSamples));
        out.push_back(named("kernels_by_pid", "Kernels by process", r.perProcess.kernelsByPid, true, false));
        out.push_back(syncByPid());
        out.push_back(named("nvtx_by_pid", "NVTX ranges by process", r.perProcess.nvtxByPid, true, true));
        out.push_back(idleByDevice());
        out.push_back(gaps("gpu_stream_gaps", "Stream idle gaps", r.idleGaps.streamGaps, r.idleSamples.streamGapTop,
            r.idleSamples.streamGapSamples));
        out.push_back(histogram());
        out.push_back(overlap());
        out.push_back(sharedStreams());
        out.push_back(ncclByCollective());
        out.push_back(ncclByStream());
        out.push_back(ncclSkew());
        out.push_back(launchCost());
        out.push_back(launchRate());
        out.push_back(syncByThread());
        out.push_back(memory("memory_by_direction", "Memory transfers by direction", r.memory.byDirection, false));
        out.push_back(memory("memory_by_kind", "Memory transfers by memory kind", r.memory.byKind, true));
        out.push_back(processes());
        out.push_back(temporal());
        if (!r.phases.empty())
            out.push_back(phases());
        if (r.iterations)
            out.push_back(iterations());
        if (r.idleSamples.hasSamples)
            out.push_back(idleSamples());
        addExtendedDiagnosticsTables(r, out);
        out.push_back(findings());
        return out;
    }

private:
    Cell rel(TimeNs t) const { return t == kNoTime ? Cell() : i64(t - r.clockOrigin); }
    Cell label(int device) const { return text(r.deviceLabel(device)); }

    QString kernelName(std::int64_t row) const
    {
        const KernelTable& k = r.profile->kernels;
        if (row < 0 || std::size_t(row) >= k.size())
            return {};
        const std::size_t i = std::size_t(row);
        const StringRef ref = i < k.demangledName.size() && k.demangledName[i] != kNoString ? k.demangledName[i]
            : i < k.shortName.size()                                                        ? k.shortName[i]
                                                                                            : kNoString;
        return r.profile->strings.at(ref);
    }

    DiagnosticsTable kernels()
    {
        DiagnosticsTable t = table("kernels", "Kernels", "kernel_name,count,total_ns,avg_ns,min_ns,max_ns,share_pct");
        TimeNs all = 0;
        for (const NamedDurations& k : r.perProcess.kernels)
            all += k.total;
        for (const NamedDurations& k : r.perProcess.kernels)
            t.rows.push_back({ text(k.name), i64(k.count), i64(k.total), average(k.total, k.count), i64(k.min),
                i64(k.max), percent(k.total, all) });
        return t;
    }

    DiagnosticsTable named(
        const char* id, const char* title, const std::vector<NamedDurations>& rows, bool byPid, bool nvtx)
    {
        QString columns = QStringLiteral("count,total_ns,avg_ns,min_ns,max_ns");
        columns.prepend(nvtx ? QStringLiteral("domain,range_name,") : QStringLiteral("kernel_name,"));
        if (byPid)
            columns.prepend(QStringLiteral("pid,"));
        DiagnosticsTable t = table(id, title, columns.toLatin1().constData());
        for (const NamedDurations& n : rows) {
            Row row;
            if (byPid)
                row.push_back(i64(n.pid));
            if (nvtx)
                row.push_back(text(n.domain));
            row.insert(row.end(),
                { text(n.name), i64(n.count), i64(n.total), average(n.total, n.count), i64(n.min), i64(n.max) });
            t.rows.push_back(std::move(row));
        }
        return t;
    }

    /// The listed gaps; with CPU samples, the samples of the GPU's launching threads in each gap and the function
    /// most of them were running in.
    DiagnosticsTable gaps(const char* id, const char* title, const std::vector<IdleGap>& gaps,
        const std::vector<std::int32_t>& topFunction, const std::vector<qint64>& samples)
    {
        DiagnosticsTable t = table(id, title,
            "device,device_label,stream,start_ns,end_ns,duration_ns,cause,pid,previous_kernel,next_kernel,cpu_samples,"
            "top_function");
        for (std::size_t i = 0; i < gaps.size(); ++i) {
            const IdleGap& g = gaps[i];
            const bool sampled = i < samples.size() && samples[i] > 0;
            t.rows.push_back(
                { i64(g.device), label(g.device), g.stream < 0 ? Cell() : i64(g.stream), rel(g.start), rel(g.end),
                    i64(g.duration()), text(gapCauseName(g.cause)), i64(g.pid), text(kernelName(g.previousKernel)),
                    text(kernelName(g.nextKernel)), i < samples.size() ? i64(samples[i]) : Cell(),
                    sampled ? text(sampleFunctionName(*r.profile, topFunction[i])) : Cell() });
        }
        return t;
    }

    /// Per GPU, the functions its launching threads were running in while it sat in an idle gap.
    DiagnosticsTable idleSamples()
    {
        DiagnosticsTable t = table("cpu_samples_gpu_idle", "CPU samples while the GPU is idle",
            "device,device_label,idle_gaps,idle_ns,samples,function,module,self,total,self_pct,total_pct");
        for (const GpuIdleSamples& g : r.idleSamples.gpus)
            for (const FunctionCount& f : g.functions)
                t.rows.push_back({ i64(g.device), label(g.device), i64(g.gaps), i64(g.gapNs), i64(g.samples),
                    text(sampleFunctionName(*r.profile, f.function)), text(sampleModuleName(*r.profile, f.function)),
                    i64(f.self), i64(f.total), percent(f.self, g.samples), percent(f.total, g.samples) });
        return t;
    }

    DiagnosticsTable syncByPid()
    {
        DiagnosticsTable t
            = table("sync_by_pid", "Synchronisation by process", "pid,api_name,count,total_ns,avg_ns,max_ns");
        for (const NamedDurations& n : r.perProcess.syncByPid)
            t.rows.push_back(
                { i64(n.pid), text(n.name), i64(n.count), i64(n.total), average(n.total, n.count), i64(n.max) });
        return t;
    }

    DiagnosticsTable idleByDevice()
    {
        QString columns = QStringLiteral("device,device_label,window_ns,busy_ns,idle_ns,idle_pct,gaps,gap_ns");
        for (int c = 0; c < kGapCauseCount; ++c)
            columns += QLatin1Char(',') + gapCauseName(GapCause(c)) + QStringLiteral("_ns");
        DiagnosticsTable t = table("gpu_idle_by_device", "GPU idle time by device", columns.toLatin1().constData());
        for (const DeviceIdle& d : r.idleGaps.devices) {
            Row row { i64(d.device), label(d.device), i64(d.spanNs), i64(d.busyNs), i64(d.idleNs),
                percent(d.idleNs, d.spanNs), i64(d.gaps), i64(d.gapNs) };
            for (int c = 0; c < kGapCauseCount; ++c)
                row.push_back(i64(d.causeNs[c]));
            t.rows.push_back(std::move(row));
        }
        return t;
    }

    DiagnosticsTable histogram()
    {
        DiagnosticsTable t = table(
            "gap_histogram", "GPU idle gap lengths", "device,device_label,bucket,lower_ns,upper_ns,count,total_ns");
        for (const DeviceIdle& d : r.idleGaps.devices)
            for (const GapBucket& b : d.histogram)
                t.rows.push_back({ i64(d.device), label(d.device), text(b.label), i64(b.lower),
                    b.upper == std::numeric_limits<TimeNs>::max() ? Cell() : i64(b.upper), i64(b.count),
                    i64(b.totalNs) });
        return t;
    }

    DiagnosticsTable overlap()
    {
        DiagnosticsTable t = table("overlap_by_gpu", "Compute/communication overlap",
            "device,device_label,window_ns,compute_only_ns,nccl_only_ns,overlapped_ns,idle_ns,overlap_pct");
        for (const DeviceOverlap& d : r.overlap.devices)
            t.rows.push_back({ i64(d.device), label(d.device), i64(d.spanNs), i64(d.computeOnlyNs), i64(d.ncclOnlyNs),
                i64(d.overlappedNs), i64(d.idleNs), d.ncclNs() > 0 ? real(d.overlapPercent()) : Cell() });
        return t;
    }

    DiagnosticsTable sharedStreams()
    {
        DiagnosticsTable t = table("nccl_shared_streams", "Streams shared by NCCL and compute",
            "device,device_label,stream,nccl_kernels,compute_kernels,nccl_ns,queued_kernels,overlappable_ns");
        for (const SharedStream& s : r.overlap.sharedStreams)
            t.rows.push_back({ i64(s.device), label(s.device), i64(s.stream), i64(s.ncclKernels.count),
                i64(s.computeKernels), i64(s.ncclKernels.total), i64(s.queuedKernels), i64(s.overlappableNs) });
        return t;
    }

    /// @p row followed by the columns of @p s.
    static Row withStats(Row row, const NcclStats& s)
    {
        row.insert(
            row.end(), { i64(s.count), i64(s.total), real(s.average()), i64(s.min), i64(s.max), real(s.sharePercent) });
        return row;
    }

    DiagnosticsTable ncclByCollective()
    {
        DiagnosticsTable t = table(
            "nccl_by_collective", "NCCL by collective", "collective,count,total_ns,avg_ns,min_ns,max_ns,share_pct");
        for (const NcclCollectiveRow& c : r.nccl.collectives)
            t.rows.push_back(withStats({ text(collectiveName(c.collective)) }, c.stats));
        return t;
    }

    DiagnosticsTable ncclByStream()
    {
        DiagnosticsTable t = table("nccl_by_stream", "NCCL by stream",
            "device,device_label,stream,count,total_ns,avg_ns,min_ns,max_ns,share_pct");
        for (const NcclStreamRow& c : r.nccl.streams)
            t.rows.push_back(withStats({ i64(c.device), label(c.device), i64(c.stream) }, c.stats));
        return t;
    }

    DiagnosticsTable ncclSkew()
    {
        DiagnosticsTable t = table("nccl_skew", "NCCL skew between GPUs",
            "collective,device,device_label,instances,nccl_ns,wait_ns,wait_pct,arrived_last,unmatched_kernels");
        for (const NcclSkewCollective& c : r.ncclSkew.collectives)
            for (const NcclSkewDevice& d : c.devices)
                t.rows.push_back({ text(collectiveName(c.collective)), i64(d.device), label(d.device), i64(d.instances),
                    i64(d.ncclNs), i64(d.waitNs), percent(d.waitNs, d.ncclNs), i64(d.arrivedLast), i64(c.unmatched) });
        return t;
    }

    DiagnosticsTable launchCost()
    {
        DiagnosticsTable t = table("launch_cost", "Launch cost by kernel",
            "kernel_name,kernels,launches,api_total_ns,api_avg_ns,api_max_ns,queue_total_ns,queue_avg_ns,queue_max_ns,"
            "kernel_total_ns,kernel_avg_ns,kernel_min_ns,kernel_max_ns,short_kernels");
        for (const LaunchCostRow& k : r.launchCost.kernels)
            t.rows.push_back({ text(k.name), i64(k.kernels.count), i64(k.launchCalls.count), i64(k.launchCalls.total),
                average(k.launchCalls.total, k.launchCalls.count), i64(k.launchCalls.max), i64(k.queue.total),
                average(k.queue.total, k.queue.count), i64(k.queue.max), i64(k.kernels.total),
                average(k.kernels.total, k.kernels.count), i64(k.kernels.min), i64(k.kernels.max),
                i64(k.shortKernels) });
        return t;
    }

    DiagnosticsTable launchRate()
    {
        DiagnosticsTable t = table("launch_rate_by_pid", "Launch rate by process",
            "pid,process,launches,window_ns,launches_per_s,launch_api_ns,short_kernels,short_pct");
        for (const LaunchRateRow& p : r.launchCost.processes)
            t.rows.push_back({ i64(p.pid), text(p.process), i64(p.launches), i64(p.spanNs), real(p.launchesPerSecond()),
                i64(p.apiNs), i64(p.shortKernels), percent(p.shortKernels, p.launches) });
        return t;
    }

    DiagnosticsTable syncByThread()
    {
        DiagnosticsTable t = table("sync_by_thread", "Synchronisation by thread",
            "pid,tid,thread,calls,total_ns,max_ns,thread_span_ns,share_pct,api_ns");
        for (const SyncThreadRow& s : r.sync.threads)
            t.rows.push_back({ i64(s.pid), i64(s.tid), text(s.thread), i64(s.calls.count), i64(s.calls.total),
                i64(s.calls.max), i64(s.threadSpanNs), percent(s.calls.total, s.threadSpanNs), i64(s.apiNs) });
        return t;
    }

    DiagnosticsTable memory(const char* id, const char* title, const std::vector<MemoryTransferRow>& rows, bool kinds)
    {
        DiagnosticsTable t = table(id, title,
            kinds ? "direction,memory_kind,count,bytes,total_ns,gb_per_s" : "direction,count,bytes,total_ns,gb_per_s");
        for (const MemoryTransferRow& m : rows) {
            Row row { text(m.direction) };
            if (kinds)
                row.push_back(text(m.memoryKind));
            row.insert(row.end(),
                { i64(m.count), i64(m.bytes), i64(m.totalNs), m.totalNs > 0 ? real(m.gbPerSecond()) : Cell() });
            t.rows.push_back(std::move(row));
        }
        return t;
    }

    DiagnosticsTable processes()
    {
        DiagnosticsTable t = table("processes", "Per process",
            "pid,process,kernels,kernel_ns,memops,memop_ns,api_calls,api_ns,sync_calls,sync_ns,nvtx_ranges,nvtx_ns");
        for (const ProcessBreakdownRow& p : r.perProcess.processes)
            t.rows.push_back({ i64(p.pid), text(p.process), i64(p.kernels.count), i64(p.kernels.total),
                i64(p.memOps.count), i64(p.memOps.total), i64(p.apiCalls.count), i64(p.apiCalls.total),
                i64(p.syncCalls.count), i64(p.syncCalls.total), i64(p.nvtxRanges.count), i64(p.nvtxRanges.total) });
        return t;
    }

    DiagnosticsTable temporal()
    {
        DiagnosticsTable t = table("gpu_time_breakdown", "GPU time breakdown",
            "device,device_label,window_ns,compute_ns,communication_ns,memory_ns,idle_ns,compute_pct,"
            "communication_pct,memory_pct,idle_pct");
        for (const DeviceTimeBreakdown& d : r.temporal)
            t.rows.push_back({ i64(d.device), label(d.device), i64(d.spanNs), i64(d.computeNs), i64(d.communicationNs),
                i64(d.memoryNs), i64(d.idleNs), percent(d.computeNs, d.spanNs), percent(d.communicationNs, d.spanNs),
                percent(d.memoryNs, d.spanNs), percent(d.idleNs, d.spanNs) });
        return t;
    }

    DiagnosticsTable phases()
    {
        DiagnosticsTable t = table("nvtx_phases", "NVTX phases", "phase,instances,cpu_ns,gpu_ns,kernels");
        if (!r.phasesLevel.isEmpty())
            t.title += QStringLiteral(" (%1)").arg(r.phasesLevel);
        for (const NvtxPhaseRow& p : r.phases)
            t.rows.push_back({ text(p.phase), i64(p.instances), i64(p.cpuTime), i64(p.gpuTime), i64(p.kernels) });
        return t;
    }

    DiagnosticsTable iterations()
    {
        DiagnosticsTable t = table("iterations", "Iterations",
            "index,name,start_ns,duration_ns,gpu_busy_ns,gpu_idle_ns,kernels,top_kernel,outlier");
        const IterationTable& it = *r.iterations;
        for (const Iteration& i : it.iterations)
            t.rows.push_back(
                { i64(i.index), text(r.profile->strings.at(i.name)), rel(i.start), i64(i.duration()), i64(i.gpuBusy),
                    i64(i.idle()), i64(i.kernels), text(r.profile->strings.at(i.topKernel)), i64(i.outlier ? 1 : 0) });
        return t;
    }

    DiagnosticsTable findings()
    {
        DiagnosticsTable t = table("findings", "Findings",
            "severity,id,title,gpu_cost_ns,gpu_cost_pct,host_ns,detail,recommendation,evidence_start_ns,evidence_end_"
            "ns,"
            "evidence_kernels,evidence_nvtx_range,evidence_apis");
        for (const Finding& f : r.findings)
            t.rows.push_back({ text(severityName(f.severity)), text(f.id), text(f.title), i64(f.gpuCostNs),
                real(f.gpuCostPercent), i64(f.hostNs), text(f.detail), text(f.recommendation), rel(f.evidence.start),
                rel(f.evidence.end), text(f.evidence.kernelNames.join(QLatin1Char(';'))), text(f.evidence.nvtxRange),
                text(f.evidence.apiNames.join(QLatin1Char(';'))) });
        return t;
    }

    const DiagnosticsResult& r;
};

} // namespace

std::vector<DiagnosticsTable> diagnosticsTables(const DiagnosticsResult& result)
{
    if (!result.profile)
        return {};
    return TableBuilder(result).build();
}

} // namespace nsw
