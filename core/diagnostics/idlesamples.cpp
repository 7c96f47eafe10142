// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/idlesamples.h"

#include <algorithm>
#include <map>

namespace nsw {

const std::vector<ThreadIndex>* GpuLaunchers::of(int device) const
{
    const auto it = std::lower_bound(devices.begin(), devices.end(), device);
    return it != devices.end() && *it == device ? &threads[std::size_t(it - devices.begin())] : nullptr;
}

std::shared_ptr<const GpuLaunchers> gpuLaunchersOf(const AnalysisContext& context, const CancelToken& cancel)
{
    const ProfilePtr profile = context.profile;
    return profile->derived.get<GpuLaunchers>("cpuSamples.gpuLaunchers", cancel, [&] {
        const Profile& p = *profile;
        std::map<int, std::vector<ThreadIndex>> byDevice;
        const auto add = [&](const GpuActivityColumns& ops, const IndexColumn<std::int32_t>& deviceOf) {
            for (std::size_t i = 0; i < ops.api.size() && i < deviceOf.size(); ++i) {
                const std::int32_t api = ops.api[i];
                if (api >= 0 && std::size_t(api) < p.cudaApi.size())
                    byDevice[deviceOf[i]].push_back(p.cudaApi.thread[std::size_t(api)]);
            }
        };
        add(p.kernels, context.kernelDevice);
        add(p.memops, context.memOpDevice);
        auto out = std::make_shared<GpuLaunchers>();
        for (auto& [device, threads] : byDevice) {
            std::sort(threads.begin(), threads.end());
            threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
            out->devices.push_back(device);
            out->threads.push_back(std::move(threads));
        }
        return std::shared_ptr<const GpuLaunchers>(out);
    });
}

void appendIdleSamples(const Profile& profile, const SampleThreadIndex& index, const std::vector<ThreadIndex>& threads,
    std::span<const IdleGap> gaps, const SampleScope& scope, const FocusRange& limit, std::vector<std::uint32_t>& rows)
{
    std::vector<TimeInterval> windows;
    for (const IdleGap& g : gaps) {
        const auto [s, e] = limit.clip(g.start, g.end);
        if (e > s)
            windows.emplace_back(s, e);
    }
    for (const ThreadIndex t : threads)
        if (scope.contains(profile, t))
            appendThreadSamples(index, t, windows, rows);
}

GapCause GpuIdleSamples::dominantCause() const
{
    int top = 0;
    for (int c = 1; c < kGapCauseCount; ++c)
        if (causeNs[c] > causeNs[top])
            top = c;
    return GapCause(top);
}

namespace {

/// The function most of @p rows were running in (ties: the lower row), -1 for none; and how many.
std::pair<std::int32_t, qint64> topLeafFunction(const CpuSamples& s, std::span<const std::uint32_t> rows)
{
    std::map<std::int32_t, qint64> counts;
    for (const std::uint32_t row : rows)
        ++counts[s.depthOf(row) > 0 ? s.frame(row, 0) : -1];
    std::pair<std::int32_t, qint64> best { -1, 0 };
    for (const auto& [function, n] : counts)
        if (n > best.second)
            best = { function, n };
    return best;
}

class IdleSampleJoin
{
public:
    IdleSampleJoin(const AnalysisContext& c, const JobContext& job)
        : m_c(c)
        , m_job(job)
    { }

    IdleSamplesResult run(const IdleGapResult& listed)
    {
        IdleSamplesResult r;
        const ProfilePtr& p = m_c.profile;
        r.hasSamples = p->cpuSamples.size() > 0;
        if (!r.hasSamples)
            return r;
        m_index = sampleThreadIndexOf(p, m_job.cancelToken());
        m_tree = sampleCallTreeOf(p, m_job.cancelToken());
        m_launchers = gpuLaunchersOf(m_c, m_job.cancelToken());
        if (!m_index || !m_tree || !m_launchers)
            return r;
        const std::vector<IdleGap> gaps = allDeviceGaps(m_c, m_job);
        for (auto first = gaps.begin(); first != gaps.end() && !m_job.isCancelled();) {
            const auto last
                = std::find_if(first, gaps.end(), [&](const IdleGap& g) { return g.device != first->device; });
            r.gpus.push_back(joinDevice({ first, last }));
            first = last;
        }
        perGap(listed.deviceGaps, r.deviceGapTop, r.deviceGapSamples);
        perGap(listed.streamGaps, r.streamGapTop, r.streamGapSamples);
        return r;
    }

private:
    GpuIdleSamples joinDevice(std::span<const IdleGap> gaps)
    {
        GpuIdleSamples g;
        g.device = gaps.front().device;
        g.gaps = qint64(gaps.size());
        for (const IdleGap& gap : gaps) {
            g.gapNs += gap.duration();
            g.causeNs[int(gap.cause)] += gap.duration();
        }
        const std::vector<ThreadIndex>* threads = m_launchers->of(g.device);
        if (!threads)
            return g;
        const Profile& p = *m_c.profile;
        std::vector<std::uint32_t> rows;
        appendIdleSamples(p, *m_index, *threads, gaps, {}, {}, rows);
        g.samples = qint64(rows.size());
        const SampleCounts counts = countSamples(*m_tree, rows);
        g.functions = countFunctions(*m_tree, counts);
        if (g.functions.size() > GpuIdleSamples::kTopFunctions)
            g.functions.resize(GpuIdleSamples::kTopFunctions);
        std::map<ThreadIndex, qint64> perThread;
        for (const std::uint32_t row : rows)
            ++perThread[p.cpuSamples.thread[row]];
        for (const auto& [thread, n] : perThread)
            if (n > g.topThreadSamples)
                std::tie(g.topThread, g.topThreadSamples) = std::tuple(thread, n);
        exampleGap(g, *threads, gaps);
        return g;
    }

    /// The longest gap in which the top function ran most (the finding's time range).
    void exampleGap(GpuIdleSamples& g, const std::vector<ThreadIndex>& threads, std::span<const IdleGap> gaps) const
    {
        if (g.functions.empty())
            return;
        // Longest first; a few hundred looks find it in any real profile.
        std::vector<const IdleGap*> byLength;
        for (const IdleGap& gap : gaps)
            byLength.push_back(&gap);
        std::sort(byLength.begin(), byLength.end(),
            [](const IdleGap* a, const IdleGap* b) { return a->duration() > b->duration(); });
        const IdleGap* best = nullptr;
        for (std::size_t i = 0; i < byLength.size() && i < 500 && !best; ++i) {
            std::vector<std::uint32_t> rows;
            appendIdleSamples(*m_c.profile, *m_index, threads, std::span(byLength[i], 1), {}, {}, rows);
            if (!rows.empty() && topLeafFunction(m_c.profile->cpuSamples, rows).first == g.functions.front().function)
                best = byLength[i];
        }
        if (best)
            std::tie(g.exampleStart, g.exampleEnd) = std::tuple(best->start, best->end);
    }

    void perGap(const std::vector<IdleGap>& gaps, std::vector<std::int32_t>& top, std::vector<qint64>& samples) const
    {
        top.assign(gaps.size(), -1);
        samples.assign(gaps.size(), 0);
        for (std::size_t i = 0; i < gaps.size() && !m_job.isCancelled(); ++i) {
            const std::vector<ThreadIndex>* threads = m_launchers->of(gaps[i].device);
            if (!threads)
                continue;
            std::vector<std::uint32_t> rows;
            appendIdleSamples(*m_c.profile, *m_index, *threads, std::span(&gaps[i], 1), {}, {}, rows);
            std::tie(top[i], std::ignore) = topLeafFunction(m_c.profile->cpuSamples, rows);
            samples[i] = qint64(rows.size());
        }
    }

    const AnalysisContext& m_c;
    const JobContext& m_job;
    std::shared_ptr<const SampleThreadIndex> m_index;
    std::shared_ptr<const SampleCallTree> m_tree;
    std::shared_ptr<const GpuLaunchers> m_launchers;
};

} // namespace

IdleSamplesResult computeIdleSamples(const AnalysisContext& context, const IdleGapResult& listed, const JobContext& job)
{
    return IdleSampleJoin(context, job).run(listed);
}

} // namespace nsw
