// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/thresholds.h"

#include "core/util/findby.h"

#include <cmath>

namespace nsw {

const std::vector<ThresholdSpec>& thresholdSpecs()
{
    static const std::vector<ThresholdSpec> specs = {
        { QStringLiteral("dominant_kernel_pct"), 30, QStringLiteral("%"),
            QStringLiteral("a kernel name taking at least this share of all kernel time is dominant") },
        { QStringLiteral("gpu_idle_pct"), 10, QStringLiteral("%"),
            QStringLiteral(
                "a GPU idle (no kernel or memory operation) for at least this share of the window: warning") },
        { QStringLiteral("gpu_idle_critical_pct"), 30, QStringLiteral("%"),
            QStringLiteral("the same share that makes it critical") },
        { QStringLiteral("long_gap_ms"), 5, QStringLiteral("ms"),
            QStringLiteral("whole-GPU idle gaps at least this long are reported with their cause") },
        { QStringLiteral("listed_gap_us"), 100, QStringLiteral("us"),
            QStringLiteral("gaps at least this long are listed in gpu_idle_gaps.csv (all gaps count in the totals)") },
        { QStringLiteral("nccl_overlap_pct"), 30, QStringLiteral("%"),
            QStringLiteral("NCCL time hidden behind compute below this share is 'not overlapped'") },
        { QStringLiteral("nccl_min_share_pct"), 5, QStringLiteral("%"),
            QStringLiteral("the overlap check runs on GPUs whose NCCL time is at least this share of the window") },
        { QStringLiteral("nccl_skew_pct"), 25, QStringLiteral("%"),
            QStringLiteral("a GPU waiting for its peers at least this share of its NCCL time (on GPUs whose NCCL "
                           "time is at least nccl_min_share_pct of the window): NCCL skew") },
        { QStringLiteral("short_kernel_us"), 10, QStringLiteral("us"),
            QStringLiteral("kernels shorter than this count as short (launch storm)") },
        { QStringLiteral("launch_storm_pct"), 50, QStringLiteral("%"),
            QStringLiteral("a launch storm: at least this share of the kernels is short") },
        { QStringLiteral("launch_storm_min_kernels"), 1000, QStringLiteral("count"),
            QStringLiteral("... and at least this many kernels in the window") },
        { QStringLiteral("sync_api_share_pct"), 50, QStringLiteral("%"),
            QStringLiteral("heavy synchronisation: sync-like calls take at least this share of all CUDA API time") },
        { QStringLiteral("sync_thread_share_pct"), 20, QStringLiteral("%"),
            QStringLiteral("... or at least this share of one thread's time (first to last CUDA call)") },
        { QStringLiteral("pageable_memcpy_min"), 1, QStringLiteral("count"),
            QStringLiteral("memcpys with a pageable side: at least this many fire the pageable-memcpy finding") },
        { QStringLiteral("sync_memcpy_min"), 1, QStringLiteral("count"),
            QStringLiteral("blocking memcpy/memset calls: at least this many fire the synchronous-memcpy finding") },
        { QStringLiteral("nvtx_coverage_pct"), 70, QStringLiteral("%"),
            QStringLiteral("NVTX coverage (kernel time inside ranges) below this is low") },
        { QStringLiteral("phase_dominance_pct"), 70, QStringLiteral("%"),
            QStringLiteral("one NVTX phase (of the phase map, else the ranges of one level, e.g. under the "
                           "iteration marker) taking at least this share of the phases' NVTX time or kernel time "
                           "dominates") },
        { QStringLiteral("non_tc_matrix_pct"), 10, QStringLiteral("%"),
            QStringLiteral("matrix-like kernels not on tensor cores (by name) taking at least this share of kernel "
                           "time") },
        { QStringLiteral("iteration_outliers_min"), 1, QStringLiteral("count"),
            QStringLiteral("iterations flagged as outliers (robust 3-sigma): at least this many fire the finding") },
        { QStringLiteral("idle_function_pct"), 25, QStringLiteral("%"),
            QStringLiteral("CPU samples taken while a GPU is idle: one function running in at least this share of "
                           "them fires the finding") },
        { QStringLiteral("idle_samples_min"), 10, QStringLiteral("count"),
            QStringLiteral("... with at least this many samples of the GPU's launching threads in its idle gaps") },
    };
    return specs;
}

const ThresholdSpec* findThresholdSpec(const QString& name)
{
    return findBy(thresholdSpecs(), &ThresholdSpec::name, name);
}

double Thresholds::value(const QString& name) const
{
    if (const auto it = m_overrides.find(name); it != m_overrides.end())
        return it->second;
    const ThresholdSpec* spec = findThresholdSpec(name);
    return spec ? spec->defaultValue : 0.0;
}

Status Thresholds::set(const QString& name, double value)
{
    if (!findThresholdSpec(name)) {
        QStringList names;
        for (const ThresholdSpec& s : thresholdSpecs())
            names << s.name;
        return Status::failure(ErrorKind::Usage,
            QStringLiteral("unknown threshold '%1' (known: %2)").arg(name, names.join(QStringLiteral(", "))));
    }
    if (!std::isfinite(value) || value < 0)
        return Status::failure(
            ErrorKind::Usage, QStringLiteral("threshold '%1' must be a number >= 0, not %2").arg(name).arg(value));
    m_overrides[name] = value;
    return success();
}

Status Thresholds::parseAssignment(const QString& assignment)
{
    const qsizetype eq = assignment.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return Status::failure(
            ErrorKind::Usage, QStringLiteral("--threshold takes name=value, not '%1'").arg(assignment));
    const QString name = assignment.left(eq).trimmed();
    const QString text = assignment.mid(eq + 1).trimmed();
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok)
        return Status::failure(
            ErrorKind::Usage, QStringLiteral("threshold '%1' must be a number, not '%2'").arg(name, text));
    return set(name, value);
}

QString Thresholds::describe(const QString& name) const
{
    return QStringLiteral("%1=%2").arg(name).arg(value(name));
}

} // namespace nsw
