// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/nvlink/throughputseries.h"
#include "core/profile/profile.h"

#include <QStringList>
#include <map>
#include <memory>

namespace nsw {

class SqliteDb;

/// NVLink throughput that nsys itself sampled (`--gpu-metrics-devices`): per GPU and direction, percent of the
/// link bandwidth, summed over the non-protocol NVLink metrics of that direction ("Requests User Data" +
/// "Responses User Data" on GA100/GH100). Sample i holds from its timestamp to the next one.
struct GpuMetricsNvlink
{
    QString path;
    std::vector<ThroughputSeries> series; ///< PercentOfPeak, link = kAllLinks, times are session ns, by (gpu, dir)
    std::map<int, QString> chips; ///< GPU id -> chip named in TARGET_INFO_GPU_METRICS.typeName, e.g. "GH100"
    QStringList metrics; ///< the metric names that were matched
    qint64 rows = 0;
    qint64 droppedRows = 0; ///< negative or NULL timestamps
    QStringList warnings;
};

struct GpuMetricsResult
{
    std::shared_ptr<GpuMetricsNvlink> data; ///< null when the export has no NVLink metrics (or on error)
    QString error;
};

/// Metrics are matched by name (ids are not stable between captures), GPUs by the "[N]" of the type name (else
/// typeId & 0xFF). Reads only the NVLink metrics' samples (readGpuMetricCounters() with nvlinkOnly).
GpuMetricsResult readGpuMetricsNvlink(const SqliteDb& db);
GpuMetricsResult readGpuMetricsNvlink(const QString& path);

/// Direction of an NVLink GPU metric name, or -1 when @p name is not an NVLink data throughput metric (protocol
/// metrics and non-percent units are not).
int nvlinkMetricDirection(const QString& name);

/// One counter of one GPU as nsys sampled it: a GPU metric, or the NVLink data throughput of one direction (the sum
/// readGpuMetricsNvlink() computes). Whatever its unit, the values are held as the series' `percent` values (series
/// unit PercentOfPeak, times in session ns): the series type the plot reduction works on.
struct GpuMetricCounter
{
    int gpu = 0;
    QString name; ///< without the unit: "SMs Active", "NVLink TX"
    QString unit; ///< "%" for "[Throughput %]", else as written in the brackets ("MHz")
    QStringList metrics; ///< the export's metric names it is made of (several for an NVLink sum)
    int nvlinkDirection = -1; ///< LinkDirection of an NVLink data sum, else -1
    qint64 rows = 0; ///< its GPU_METRICS rows, dropped ones included
    qint64 droppedRows = 0; ///< negative or NULL timestamps
    ThroughputSeries series;
};

/// Every GPU metric of an export, per GPU: NVLink TX and RX first (the data metrics summed, as the NVLink pane
/// shows them), then every other metric in the order of TARGET_INFO_GPU_METRICS. Metrics without samples are left out,
/// except the NVLink sums (the NVLink pane lists a GPU whose links the export defines even when nothing was sampled).
struct GpuMetricCounters
{
    QString path;
    std::vector<GpuMetricCounter> counters;
    std::map<int, QString> chips; ///< GPU id -> chip, as in GpuMetricsNvlink
    QStringList metricNames; ///< every metric named in TARGET_INFO_GPU_METRICS, in its order, once
    qint64 rows = 0;
    qint64 droppedRows = 0; ///< negative or NULL timestamps
};

struct GpuMetricCountersResult
{
    std::shared_ptr<const GpuMetricCounters> data; ///< null when the export has no GPU metrics, on error or cancel
    QString error;
    bool cancelled = false;
};

enum class GpuMetricSelection
{
    Every,
    NvlinkOnly
};

/// Reads every GPU metric of @p db, or only the NVLink data metrics (a long scan on big captures: polls @p job's
/// cancel token).
GpuMetricCountersResult readGpuMetricCounters(
    const SqliteDb& db, const JobContext& job = {}, GpuMetricSelection selection = GpuMetricSelection::Every);
GpuMetricCountersResult readGpuMetricCounters(const QString& path, const JobContext& job = {});

/// Every GPU metric of @p profile's export, read once while anyone holds the result: the timeline's counter rows
/// and the NVLink pane share one scan of GPU_METRICS. A caller that arrives during the read waits for it (polling
/// its own cancel token); if that read was cancelled, the next caller reads.
GpuMetricCountersResult sharedGpuMetricCounters(const ProfilePtr& profile, const JobContext& job = {});

/// The NVLink view of counters read with either selection: the NVLink sums per GPU and direction.
GpuMetricsResult nvlinkFromCounters(const GpuMetricCounters& counters);

/// "SMs Active [Throughput %]" -> { "SMs Active", "%" }; a name without brackets has no unit.
std::pair<QString, QString> splitMetricUnit(const QString& metricName);

} // namespace nsw
