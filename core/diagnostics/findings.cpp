// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/findingsbuilder.h"
#include "core/util/findby.h"
#include "core/util/outputtext.h"
#include "core/util/timeformat.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace nsw {

namespace findingtext {

QString pct(double value)
{
    return QString::number(value, 'f', 1) + QStringLiteral(" %");
}

QString sentence(QString text)
{
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text.endsWith(QLatin1Char('.')) ? text : text + QLatin1Char('.');
}

QString shortName(const QString& name, qsizetype maxChars)
{
    if (name.size() <= maxChars)
        return name;
    const qsizetype head = (maxChars - 1) / 2;
    return name.left(head) + QChar(0x2026) + name.right(maxChars - 1 - head);
}

} // namespace findingtext

using namespace findingtext;

const QString FindingsBuilder::kSubjectGpu = QStringLiteral("\x1f{gpu}\x1f");

FindingsBuilder::FindingsBuilder(DiagnosticsResult& r, const Thresholds& t)
    : r(r)
    , t(t)
{ }

void FindingsBuilder::run()
{
    r.findings.clear();
    r.skipped.clear();
    m_subject.clear();
    dominantKernel();
    gpuIdle();
    longGaps();
    ncclOverlap();
    ncclSharedStream();
    ncclSkew();
    launchStorm();
    heavySync();
    memcpys();
    nvtxCoverage();
    iterationOutliers();
    cpuDuringGpuIdle();
    phaseDominance();
    tensorCoreUse();
    mergeSameTextAcrossGpus();
    rank();
}

void FindingsBuilder::add(Finding f, int subject)
{
    r.findings.push_back(std::move(f));
    m_subject.push_back(subject);
}

void FindingsBuilder::setGpuCost(Finding& f, TimeNs ns, int device) const
{
    f.gpuCostNs = std::clamp<TimeNs>(ns, 0, window());
    f.gpuCostDevice = f.gpuCostNs > 0 ? device : -1;
    f.gpuCostPercent = window() > 0 ? 100.0 * double(f.gpuCostNs) / double(window()) : 0.0;
}

void FindingsBuilder::setHostTime(Finding& f, TimeNs ns, const QString& thread) const
{
    f.hostNs = std::clamp<TimeNs>(ns, 0, window());
    f.hostThread = thread;
}

TimeNs FindingsBuilder::worstCauseIdle(std::initializer_list<GapCause> causes, int* device) const
{
    TimeNs worst = 0;
    *device = -1;
    for (const DeviceIdle& d : r.idleGaps.devices) {
        TimeNs idle = 0;
        for (GapCause c : causes)
            idle += d.causeNs[int(c)];
        if (idle > worst) {
            worst = idle;
            *device = d.device;
        }
    }
    return worst;
}

const IdleGap* FindingsBuilder::longestGap(int device) const
{
    return findBy(r.idleGaps.deviceGaps, &IdleGap::device, device); // longest first
}

QString FindingsBuilder::kernelNameOf(std::int64_t row) const
{
    const KernelTable& k = r.profile->kernels;
    if (row < 0 || std::size_t(row) >= k.size())
        return {};
    const StringRef ref = std::size_t(row) < k.demangledName.size() && k.demangledName[std::size_t(row)] != kNoString
        ? k.demangledName[std::size_t(row)]
        : (std::size_t(row) < k.shortName.size() ? k.shortName[std::size_t(row)] : kNoString);
    return r.profile->strings.at(ref);
}

QStringList FindingsBuilder::topNcclKernels() const
{
    QStringList names;
    for (const LaunchCostRow& k : r.launchCost.kernels) // by kernel time
        if (names.size() < 5 && k.name.contains(QLatin1String("nccl"), Qt::CaseInsensitive))
            names << k.name;
    return names;
}

QString FindingsBuilder::listed(const QStringList& items)
{
    if (items.size() < 2)
        return items.value(0);
    return items.mid(0, items.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ") + items.last();
}

QString FindingsBuilder::gpuList(const std::vector<int>& devices) const
{
    static const QRegularExpression pattern(QStringLiteral("^GPU (\\d+)(?: \\((.*)\\))?$"));
    QStringList labels, numbers;
    QString model;
    bool sameModel = devices.size() > 1;
    for (std::size_t i = 0; i < devices.size(); ++i) {
        labels << r.deviceLabel(devices[i]);
        const QRegularExpressionMatch m = pattern.match(labels.last());
        sameModel = sameModel && m.hasMatch() && (i == 0 || m.captured(2) == model);
        model = m.captured(2);
        numbers << m.captured(1);
    }
    if (!sameModel)
        return listed(labels);
    return QStringLiteral("GPUs %1").arg(listed(numbers))
        + (model.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(model));
}

void FindingsBuilder::mergeSameTextAcrossGpus()
{
    std::vector<Finding> merged;
    std::vector<int> subjects;
    std::map<std::tuple<QString, QString, QString, QString>, std::size_t> byText;
    for (std::size_t i = 0; i < r.findings.size(); ++i) {
        Finding& f = r.findings[i];
        const int subject = m_subject[i];
        const auto key = std::make_tuple(f.id, f.title, f.detail, f.recommendation);
        const auto it = subject >= 0 ? byText.find(key) : byText.end();
        if (it == byText.end()) {
            if (subject >= 0)
                byText.emplace(key, merged.size());
            merged.push_back(std::move(f));
            subjects.push_back(subject);
            continue;
        }
        Finding& into = merged[it->second];
        for (int d : f.evidence.devices)
            if (std::find(into.evidence.devices.begin(), into.evidence.devices.end(), d) == into.evidence.devices.end())
                into.evidence.devices.push_back(d);
        for (const QString& k : f.evidence.kernelNames)
            if (!into.evidence.kernelNames.contains(k))
                into.evidence.kernelNames << k;
        if (f.gpuCostNs > into.gpuCostNs) {
            into.gpuCostNs = f.gpuCostNs;
            into.gpuCostDevice = f.gpuCostDevice;
            into.gpuCostPercent = f.gpuCostPercent;
            into.metrics = f.metrics;
            if (f.evidence.hasTimeRange()) {
                into.evidence.start = f.evidence.start;
                into.evidence.end = f.evidence.end;
            }
        }
    }
    for (std::size_t i = 0; i < merged.size(); ++i) {
        Finding& f = merged[i];
        if (subjects[i] < 0)
            continue;
        std::sort(f.evidence.devices.begin(), f.evidence.devices.end());
        const QString gpus = gpuList(f.evidence.devices);
        for (QString* text : { &f.title, &f.detail, &f.recommendation })
            text->replace(kSubjectGpu, gpus);
        if (f.evidence.devices.size() > 1)
            f.metrics.push_back({ QStringLiteral("gpus"), double(f.evidence.devices.size()), QStringLiteral("count") });
    }
    r.findings = std::move(merged);
    m_subject = std::move(subjects);
}

void FindingsBuilder::rank()
{
    // What a finding costs the GPUs first; host time never outranks GPU time.
    std::stable_sort(r.findings.begin(), r.findings.end(), [](const Finding& a, const Finding& b) {
        if (a.gpuCostNs != b.gpuCostNs)
            return a.gpuCostNs > b.gpuCostNs;
        if (a.severity != b.severity)
            return a.severity > b.severity;
        if (a.hostNs != b.hostNs)
            return a.hostNs > b.hostNs;
        return a.id < b.id;
    });
}

void FindingsBuilder::dominantKernel()
{
    const LaunchCostResult& l = r.launchCost;
    if (l.kernels.empty() || l.totalKernelNs <= 0) {
        skip("dominant_kernel", QStringLiteral("no kernels in the window (trace CUDA with -t cuda)"));
        return;
    }
    const LaunchCostRow& top = l.kernels.front();
    const double share = 100.0 * double(top.kernels.total) / double(l.totalKernelNs);
    if (share < th("dominant_kernel_pct"))
        return;
    Finding f = finding(
        "dominant_kernel", Severity::Info, QStringLiteral("One kernel takes %1 of all kernel time").arg(pct(share)));
    f.detail = QStringLiteral("%1 runs %2 times for %3 (%4 of %5 kernel time).")
                   .arg(cutLongText(top.name))
                   .arg(top.kernels.count)
                   .arg(formatDuration(top.kernels.total), pct(share), formatDuration(l.totalKernelNs));
    f.metrics = { { QStringLiteral("share_pct"), share, QStringLiteral("%") },
        { QStringLiteral("kernel_ns"), double(top.kernels.total), QStringLiteral("ns") },
        { QStringLiteral("instances"), double(top.kernels.count), QStringLiteral("count") } };
    f.recommendation = QStringLiteral("Optimise this kernel first (Nsight Compute on one instance): it bounds what "
                                      "any other change can gain.");
    f.evidence.kernelNames = { top.name };
    f.thresholds = { thText("dominant_kernel_pct") };
    add(f);
}

void FindingsBuilder::nvtxCoverage()
{
    if (!r.nvtxCoverage) {
        skip("nvtx_coverage", QStringLiteral("no NVTX ranges in the profile (annotate with NVTX, trace -t nvtx)"));
        return;
    }
    const NvtxCoverage& c = *r.nvtxCoverage;
    if (c.totalNs <= 0) {
        skip("nvtx_coverage", QStringLiteral("no kernel time to attribute to NVTX ranges"));
        return;
    }
    if (c.percent() >= th("nvtx_coverage_pct"))
        return;
    Finding f = finding("nvtx_coverage", Severity::Info,
        QStringLiteral("NVTX ranges cover only %1 of kernel time").arg(pct(c.percent())));
    f.detail = QStringLiteral("%1 of %2 kernel time (%3 of %4 kernels) was launched inside an NVTX range.")
                   .arg(formatDuration(c.attributedNs), formatDuration(c.totalNs))
                   .arg(c.attributedKernels)
                   .arg(c.totalKernels);
    f.metrics = { { QStringLiteral("coverage_pct"), c.percent(), QStringLiteral("%") },
        { QStringLiteral("attributed_ns"), double(c.attributedNs), QStringLiteral("ns") },
        { QStringLiteral("kernel_ns"), double(c.totalNs), QStringLiteral("ns") } };
    f.recommendation = QStringLiteral("Per-range and per-phase numbers explain only the covered part: add NVTX "
                                      "ranges around the main phases (forward, backward, optimizer, decode).");
    f.thresholds = { thText("nvtx_coverage_pct") };
    add(f);
}

void FindingsBuilder::iterationOutliers()
{
    if (!r.iterations) {
        skip("iteration_outliers", QStringLiteral("no iterations detected: %1").arg(r.iterationsMissing));
        return;
    }
    const IterationTable& it = *r.iterations;
    if (!it.isConfident()) {
        skip("iteration_outliers",
            QStringLiteral("the iterations are a guess from GPU idle gaps, %1").arg(it.confidenceReason));
        return;
    }
    std::vector<const Iteration*> outliers;
    for (const Iteration& i : it.iterations) // outliers are flagged over the whole run, reported in the focus
        if (i.outlier && r.focus.overlaps(i.start, i.end))
            outliers.push_back(&i);
    if (outliers.empty() || double(outliers.size()) < th("iteration_outliers_min"))
        return;
    const Iteration* worst = outliers.front();
    TimeNs lost = 0;
    for (const Iteration* i : outliers) {
        lost += std::max<TimeNs>(0, i->duration() - TimeNs(it.medianDurationNs));
        if (std::abs(double(i->duration()) - it.medianDurationNs)
            > std::abs(double(worst->duration()) - it.medianDurationNs))
            worst = i;
    }
    Finding f = finding("iteration_outliers", Severity::Warning,
        QStringLiteral("%1 of %2 iterations are outliers").arg(outliers.size()).arg(it.iterations.size()));
    f.detail
        = QStringLiteral("Median iteration %1; the farthest, %2, takes %3; together the outliers take %4 longer "
                         "than median iterations would.%5")
              .arg(formatDuration(TimeNs(it.medianDurationNs)), it.label(worst->index),
                  formatDuration(worst->duration()), formatDuration(lost),
                  it.isGuess()
                      ? QStringLiteral(" Iterations were guessed from GPU idle gaps (%1).").arg(it.confidenceReason)
                      : QString());
    f.metrics = { { QStringLiteral("outliers"), double(outliers.size()), QStringLiteral("count") },
        { QStringLiteral("iterations"), double(it.iterations.size()), QStringLiteral("count") },
        { QStringLiteral("median_ns"), it.medianDurationNs, QStringLiteral("ns") },
        { QStringLiteral("worst_ns"), double(worst->duration()), QStringLiteral("ns") },
        { QStringLiteral("excess_ns"), double(lost), QStringLiteral("ns") } };
    f.recommendation = QStringLiteral("Compare the outlier with the median iteration (compare TRACE#iter=N "
                                      "TRACE#iter=median) to see which kernels or gaps differ.");
    f.evidence.start = worst->start;
    f.evidence.end = worst->end;
    if (worst->name != kNoString)
        f.evidence.nvtxRange = r.profile->strings.at(worst->name);
    // Every GPU waits out the longer iterations: wall time beyond the median, at most the window.
    setGpuCost(f, lost, -1);
    f.thresholds = { thText("iteration_outliers_min") };
    add(f);
}

} // namespace nsw

void nsw::computeFindings(DiagnosticsResult& result, const Thresholds& thresholds)
{
    result.thresholds = thresholds;
    if (result.profile)
        FindingsBuilder(result, thresholds).run();
}
