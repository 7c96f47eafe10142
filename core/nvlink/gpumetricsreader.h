// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/throughputseries.h"

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
/// typeId & 0xFF). Opens @p path read-only.
GpuMetricsResult readGpuMetricsNvlink(const QString& path);
GpuMetricsResult readGpuMetricsNvlink(const SqliteDb& db);

/// Direction of an NVLink GPU metric name, or -1 when @p name is not an NVLink data throughput metric (protocol
/// metrics and non-percent units are not).
int nvlinkMetricDirection(const QString& name);

} // namespace nsw
