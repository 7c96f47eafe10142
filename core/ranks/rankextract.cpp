// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ranks/rankextract.h"

#include "core/diagnostics/analysiscontext.h"
#include "core/iterations/iterations.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <map>
#include <unordered_map>

namespace nsw {

namespace {

struct NameSum
{
    qint64 count = 0;
    TimeNs totalNs = 0;
};

/// The GPU work of one process, gathered in one pass over the kernels and one over the memory operations.
struct ProcessWork
{
    ProcessIndex process = kNoIndex;
    std::vector<TimeInterval> compute;
    std::vector<TimeInterval> nccl;
    std::vector<TimeInterval> memory;
    std::vector<std::uint32_t> ncclRows;
    std::unordered_map<StringRef, NameSum> sums;
    std::map<int, TimeNs> timeOnDevice; ///< kernel time per DiagnosticsDevice key
};

ProcessIndex processOf(const GpuActivityColumns& t, std::size_t row)
{
    return row < t.process.size() ? t.process[row] : kNoIndex;
}

std::vector<ProcessWork> gatherWork(const AnalysisContext& c, const JobContext& job)
{
    const Profile& p = *c.profile;
    std::vector<int> slotOf(p.processes.size() + 1, -1); // by process + 1: kNoIndex has a slot too
    std::vector<ProcessWork> work;
    CancelPoll<> poll(job.cancelToken());
    for (std::size_t i = 0; i < p.kernels.size(); ++i) {
        if (poll())
            return {};
        const ProcessIndex process = processOf(p.kernels, i);
        int& slot = slotOf[std::size_t(process + 1)];
        if (slot < 0) {
            slot = int(work.size());
            work.emplace_back().process = process;
        }
        ProcessWork& w = work[std::size_t(slot)];
        const TimeNs start = p.kernels.start[i], end = p.kernels.end[i];
        if (c.kernelIsNccl[i]) {
            w.nccl.emplace_back(start, end);
            w.ncclRows.push_back(std::uint32_t(i));
        } else {
            w.compute.emplace_back(start, end);
        }
        NameSum& sum = w.sums[c.kernelNameRef(i)];
        ++sum.count;
        sum.totalNs += end - start;
        w.timeOnDevice[c.kernelDevice[i]] += end - start;
    }
    for (std::size_t i = 0; i < p.memops.size(); ++i) {
        if (poll())
            return {};
        if (const int slot = slotOf[std::size_t(processOf(p.memops, i) + 1)]; slot >= 0)
            work[std::size_t(slot)].memory.emplace_back(p.memops.start[i], p.memops.end[i]);
    }
    return work;
}

/// Kernel names by index, in order of first use.
class NameTable
{
public:
    explicit NameTable(const Profile& profile)
        : m_profile(profile)
    { }
    std::uint32_t indexOf(StringRef ref)
    {
        const auto [it, added] = m_index.try_emplace(ref, std::uint32_t(m_names.size()));
        if (added)
            m_names << m_profile.strings.at(ref);
        return it->second;
    }
    QStringList take() { return std::move(m_names); }

private:
    const Profile& m_profile;
    std::unordered_map<StringRef, std::uint32_t> m_index;
    QStringList m_names;
};

void addCollectives(const Profile& p, const AnalysisContext& c, ProcessWork& w, NameTable& names, RankSummary& rank)
{
    const KernelTable& k = p.kernels;
    auto streamOf = [&](std::uint32_t row) { return row < k.stream.size() ? k.stream[row] : 0u; };
    std::sort(w.ncclRows.begin(), w.ncclRows.end(), [&](std::uint32_t a, std::uint32_t b) {
        return k.start[a] != k.start[b] ? k.start[a] < k.start[b] : streamOf(a) < streamOf(b);
    });
    std::unordered_map<std::uint32_t, std::uint32_t> ordinalOfStream;
    rank.collectives.reserve(w.ncclRows.size());
    for (const std::uint32_t row : w.ncclRows) {
        const auto [it, added] = ordinalOfStream.try_emplace(streamOf(row), std::uint32_t(ordinalOfStream.size()));
        rank.collectives.push_back({ k.start[row], k.end[row], names.indexOf(c.kernelNameRef(row)), it->second });
    }
}

void addKernelSums(const ProcessWork& w, NameTable& names, RankSummary& rank)
{
    for (const auto& [ref, sum] : w.sums)
        rank.kernelSums.push_back({ names.indexOf(ref), sum.count, sum.totalNs });
    std::sort(rank.kernelSums.begin(), rank.kernelSums.end(),
        [](const KernelSum& a, const KernelSum& b) { return a.name < b.name; });
}

Status addIterations(const Profile& p, const QString& marker, ProcessWork& w, RankSummary& rank, const JobContext& job)
{
    const IntervalUnion compute(std::move(w.compute));
    const IntervalUnion withNccl = unite(compute, IntervalUnion(std::move(w.nccl)));
    const IntervalUnion busy = unite(withNccl, IntervalUnion(std::move(w.memory)));
    Result<IterationSpans> spans = findIterationSpans(p, marker, busy, job, w.process);
    if (spans.isCancelled())
        return spans.failureAs<Done>();
    if (!spans) {
        rank.iterationDetection = spans.errorMessage();
        return success(spans.warnings());
    }
    rank.iterationsGuessed = spans->source == IterationTable::Source::IdleGapGuess;
    rank.iterationDetection = spans->detection;
    for (const Iteration& it : spans->iterations) {
        RankIteration r { it.start, it.end };
        r.computeNs = compute.coveredWithin(it.start, it.end);
        r.communicationNs = withNccl.coveredWithin(it.start, it.end) - r.computeNs;
        r.memoryNs = busy.coveredWithin(it.start, it.end) - r.computeNs - r.communicationNs;
        rank.iterations.push_back(r);
    }
    return success(spans.warnings());
}

/// The GPU a process ran most of its kernel time on.
void setGpu(const AnalysisContext& c, const ProcessWork& w, RankSummary& rank)
{
    TimeNs most = -1;
    for (const auto& [device, time] : w.timeOnDevice)
        if (time > most) {
            most = time;
            rank.gpu = device;
        }
    for (const DiagnosticsDevice& d : c.devices)
        if (d.key == rank.gpu)
            rank.gpuLabel = d.label;
}

} // namespace

LoadOptions rankLoadOptions()
{
    LoadOptions o;
    o.parts = LoadKernels | LoadMemOps | LoadNvtx;
    o.kernelColumns = KernelDemangledName | KernelShortName | KernelPlacement;
    return o;
}

Result<RankFile> summarizeProfile(
    const ProfilePtr& profile, const QString& iterationMarker, const QStringList& loadWarnings, const JobContext& job)
{
    const Profile& p = *profile;
    RankFile file;
    file.exportPath = QFileInfo(p.meta.reportPath.isEmpty() ? p.meta.filePath : p.meta.reportPath).absoluteFilePath();
    file.exportSize = QFileInfo(file.exportPath).size();
    file.nsysVersion = p.meta.nsysVersion;
    file.sessionStartUtcNs = p.meta.sessionStartUtcNs;
    file.host = p.meta.hostname;
    file.iterationMarker = iterationMarker;
    file.warnings = loadWarnings;

    job.report(QStringLiteral("Ranks: GPU work per process"), 0);
    const AnalysisContext c = makeAnalysisContext(profile, {}, job.slice(0, 0.3));
    if (job.isCancelled() || !c.rows)
        return Result<RankFile>::cancelled();
    std::vector<ProcessWork> work = gatherWork(c, job);
    if (job.isCancelled())
        return Result<RankFile>::cancelled();
    if (work.empty())
        return Result<RankFile>::failure(ErrorKind::NoData,
            QStringLiteral("%1: no process ran a kernel, so there is no rank (trace CUDA with -t cuda)")
                .arg(file.exportPath));

    NameTable names(p);
    Warnings warnings;
    for (std::size_t i = 0; i < work.size(); ++i) {
        ProcessWork& w = work[i];
        RankSummary& rank = file.ranks.emplace_back();
        if (w.process >= 0) {
            rank.pid = p.processes[std::size_t(w.process)].pid;
            rank.processName = p.processes[std::size_t(w.process)].name;
        }
        setGpu(c, w, rank);
        addCollectives(p, c, w, names, rank);
        addKernelSums(w, names, rank);
        Status iterations = addIterations(p, iterationMarker, w, rank, job);
        if (iterations.isCancelled())
            return Result<RankFile>::cancelled();
        for (const QString& warning : iterations.warnings())
            if (!warnings.contains(warning))
                warnings << warning;
        job.report(
            QStringLiteral("Ranks: iterations and NCCL kernels"), 0.3 + 0.7 * double(i + 1) / double(work.size()));
    }
    std::stable_sort(file.ranks.begin(), file.ranks.end(),
        [](const RankSummary& a, const RankSummary& b) { return a.gpu != b.gpu ? a.gpu < b.gpu : a.pid < b.pid; });
    if (file.ranks.size() == 1)
        file.ranks.front().rankFromName = rankFromFileName(file.exportPath);
    file.names = names.take();
    file.warnings << warnings;
    return file;
}

int rankFromFileName(const QString& path)
{
    QString base = QFileInfo(path).fileName();
    static const QRegularExpression extension(
        QStringLiteral("\\.(sqlite|nsys-rep|qdrep|qdstrm|nswsum)$"), QRegularExpression::CaseInsensitiveOption);
    base.remove(extension);
    static const QRegularExpression named(
        QStringLiteral("(?:^|[^a-z])rank[_\\-. ]?(\\d{1,6})(?!\\d)"), QRegularExpression::CaseInsensitiveOption);
    if (const QRegularExpressionMatch m = named.match(base); m.hasMatch())
        return m.captured(1).toInt();
    static const QRegularExpression trailing(QStringLiteral("[_\\-.](\\d{1,6})$"));
    if (const QRegularExpressionMatch m = trailing.match(base); m.hasMatch())
        return m.captured(1).toInt();
    return -1;
}

} // namespace nsw
