// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/profile.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <variant>
#include <vector>

namespace nsw {

/// One cell of a diagnostics table: empty, an integer (ns, counts, bytes), a real (%, GB/s) or text.
using DiagnosticsCell = std::variant<std::monostate, qint64, double, QString>;

/// A table of one analysis as the report's CSV files and the Findings pane's sub-tabs show it: raw values (ns,
/// bytes, percent), stable column names.
struct DiagnosticsTable
{
    QString id; ///< file stem of its CSV ("gpu_idle_gaps"): stable, used as the JSON key too
    QString title; ///< "GPU idle gaps"
    QStringList columns;
    std::vector<std::vector<DiagnosticsCell>> rows;
};

enum class Severity : std::uint8_t
{
    Info,
    Warning,
    Critical,
};
QString severityName(Severity severity); ///< "info", "warning", "critical"

/// Where a finding's numbers come from, as plain data a pane can open: a time range (the timeline, a focus), kernel
/// names (the Kernels pane filtered), an NVTX range, CUDA API names, GPUs and processes. Empty members mean "none".
struct Evidence
{
    TimeNs start = kNoTime; ///< on the events' clock; kNoTime when the finding has no one time range
    TimeNs end = kNoTime;
    QStringList kernelNames; ///< demangled names
    QString nvtxRange; ///< an NVTX range name (as --nvtx takes it)
    QStringList apiNames; ///< CUDA API names as the export holds them
    std::vector<int> devices; ///< DeviceKey values (see DiagnosticsDevice)
    std::vector<int> pids;

    bool hasTimeRange() const { return start != kNoTime && end != kNoTime; }
};

/// One number that made a finding fire (or that describes it), with its unit ("ns", "%", "count", "bytes", "GB/s").
struct FindingMetric
{
    QString name; ///< stable key: "idle_share_pct"
    double value = 0;
    QString unit;
};

struct Finding
{
    QString id; ///< stable: "gpu_idle", "long_gaps", "nccl_not_overlapped"...
    QString title; ///< one line, with the key number: "GPU 1 idle 11.2 % of the window"
    Severity severity = Severity::Info;
    QString detail; ///< the numbers that triggered it, in a sentence or two
    std::vector<FindingMetric> metrics;
    QString recommendation;
    Evidence evidence;
    /// What the finding costs the GPUs, the sort key: GPU time lost to its cause on the GPU it hurts most (idle time
    /// attributable to the cause, communication not hidden behind compute, time spent waiting for a peer), never
    /// summed over GPUs, so at most the window. 0 when it costs no GPU time that can be measured.
    TimeNs gpuCostNs = 0;
    int gpuCostDevice = -1; ///< the GPU of gpuCostNs (DiagnosticsDevice key), -1 without
    double gpuCostPercent = 0; ///< gpuCostNs as a share of the window, 0..100
    /// Host-side time (a thread inside sync or launch calls) on the thread that spends the most, at most the window;
    /// never added across threads and never ranked as GPU time. 0 when not a host-side finding.
    TimeNs hostNs = 0;
    QString hostThread; ///< the thread of hostNs ("python3 (144)"), empty when not one thread
    QStringList thresholds; ///< the thresholds it was decided by ("gpu_idle_pct=10")
};

/// A check that could not run because the profile lacks what it needs: findings never fire on missing data.
struct SkippedCheck
{
    QString check; ///< the finding id it would have produced ("nvtx_coverage")
    QString reason; ///< "the export has no NVTX ranges (profile with -t nvtx)"
};

/// A GPU as the analyses group work: the nsys GPU id when the profile can tell which GPU a process's CUDA ordinal
/// is, else the CUDA ordinal itself.
struct DiagnosticsDevice
{
    int key = -1;
    QString label; ///< "GPU 0 (NVIDIA H100 80GB HBM3)"
};

} // namespace nsw
