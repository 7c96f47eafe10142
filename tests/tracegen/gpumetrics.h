// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "activitytimeline.h"
#include "random.h"

#include <QList>
#include <QString>
#include <vector>

namespace nsw::tracegen {

class ExportWriter;
class Inserter;

/// GPU_METRICS + TARGET_INFO_GPU_METRICS as `nsys profile --gpu-metrics-devices=all` writes them on a GH100: one
/// event type per GPU (GPU = typeId & 0xFF) and percent-of-peak samples derived from what the GPU was doing. Metric
/// ids are shuffled per seed on purpose: readers must match metrics by name.
class GpuMetricsWriter
{
public:
    GpuMetricsWriter(ExportWriter& w, int gpus, qint64 systemClockNs, std::uint64_t seed, int jitterPct);

    void sample(int gpu, qint64 timestampNs, const ActivityTimeline::Busy& busy, qint64 widthNs);
    qint64 rows() const { return m_rows; }

    static QStringList metricNames();

private:
    Inserter* m_insert = nullptr;
    qint64 m_systemClock;
    int m_jitter;
    Rng m_rng;
    std::vector<qint64> m_typeIds;
    std::vector<qint64> m_metricIds; // per metricNames() index
    qint64 m_rows = 0;
};

} // namespace nsw::tracegen
