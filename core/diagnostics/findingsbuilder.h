// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnostics.h"

#include <initializer_list>

namespace nsw {

/// Builds DiagnosticsResult::findings for computeFindings: one check per finding id, spread over findings*.cpp by
/// theme. A finding about one GPU writes kSubjectGpu where that GPU's name goes; run() then merges the findings of
/// one check whose text is the same for several GPUs into one finding listing them, and ranks the findings by the
/// GPU time they cost.
class FindingsBuilder
{
public:
    FindingsBuilder(DiagnosticsResult& r, const Thresholds& t);
    void run();

    /// Stands for the GPU a per-GPU finding is about, in its title, detail and recommendation.
    static const QString kSubjectGpu;

private:
    // findings.cpp
    void dominantKernel();
    void nvtxCoverage();
    void iterationOutliers();
    // findingsgpu.cpp
    void gpuIdle();
    void longGaps();
    // findingsnccl.cpp
    void ncclOverlap();
    void ncclSharedStream();
    void ncclSkew();
    // findingshost.cpp
    void launchStorm();
    void heavySync();
    void memcpys();
    // findingssamples.cpp
    void cpuDuringGpuIdle();
    // findingsusage.cpp
    void phaseDominance();
    void tensorCoreUse();

    /// A finding with its id, severity and title; the caller adds the rest.
    static Finding finding(const char* id, Severity severity, QString title)
    {
        Finding f;
        f.id = QLatin1String(id);
        f.severity = severity;
        f.title = std::move(title);
        return f;
    }
    double th(const char* name) const { return t.value(QLatin1String(name)); }
    QString thText(const char* name) const { return t.describe(QLatin1String(name)); }
    void skip(const char* check, const QString& reason) { r.skipped.push_back({ QLatin1String(check), reason }); }
    bool hasGpuWork() const { return r.profile->kernels.size() + r.profile->memops.size() > 0; }
    bool hasApi() const { return r.profile->cudaApi.size() > 0; }
    TimeNs window() const { return r.windowEnd - r.windowStart; }

    /// The finding's GPU cost, at most the window.
    void setGpuCost(Finding& f, TimeNs ns, int device) const;
    /// Host time of one thread, at most the window.
    void setHostTime(Finding& f, TimeNs ns, const QString& thread) const;
    /// The idle time of the given gap causes on the GPU where it is longest; @p device gets that GPU (-1: none).
    TimeNs worstCauseIdle(std::initializer_list<GapCause> causes, int* device) const;
    const IdleGap* longestGap(int device) const;
    QString kernelNameOf(std::int64_t row) const;
    /// The NCCL kernel names with the most time, at most five.
    QStringList topNcclKernels() const;
    /// "a", "a and b", "a, b and c".
    static QString listed(const QStringList& items);
    /// The GPUs' labels listed, their common model named once ("GPUs 0 and 1 (NVIDIA H100)").
    QString gpuList(const std::vector<int>& devices) const;

    void add(Finding f, int subject = -1);
    void mergeSameTextAcrossGpus();
    void rank();

    DiagnosticsResult& r;
    const Thresholds& t;
    std::vector<int> m_subject; ///< per finding: the GPU kSubjectGpu stands for, -1 for none
};

namespace findingtext {
QString pct(double value); ///< "12.3 %"
QString sentence(QString text); ///< capitalised, with a full stop
/// A name for a title: at most @p maxChars characters, the middle replaced by "…" (the detail gives it whole).
QString shortName(const QString& name, qsizetype maxChars = 80);
QString causeAdvice(GapCause cause); ///< what to do about gaps of a cause, lower case, no full stop
} // namespace findingtext

} // namespace nsw
