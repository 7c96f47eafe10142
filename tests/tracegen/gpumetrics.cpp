// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpumetrics.h"

#include "exportwriter.h"

#include <algorithm>

namespace nsw::tracegen {

namespace {

enum Metric
{
    GrActive,
    SmActive,
    SmIssue,
    TensorActive,
    DramRead,
    DramWrite,
    RxReqUser,
    RxReqProto,
    RxRespUser,
    RxRespProto,
    TxReqUser,
    TxReqProto,
    TxRespUser,
    TxRespProto,
    PcieRx,
    PcieTx,
    MetricCount
};

} // namespace

QStringList GpuMetricsWriter::metricNames()
{
    return {
        QStringLiteral("GR Active [Throughput %]"),
        QStringLiteral("SMs Active [Throughput %]"),
        QStringLiteral("SM Issue [Throughput %]"),
        QStringLiteral("Tensor Active [Throughput %]"),
        QStringLiteral("DRAM Read Bandwidth [Throughput %]"),
        QStringLiteral("DRAM Write Bandwidth [Throughput %]"),
        QStringLiteral("NVLink RX Requests User Data [Throughput %]"),
        QStringLiteral("NVLink RX Requests Protocol Data [Throughput %]"),
        QStringLiteral("NVLink RX Responses User Data [Throughput %]"),
        QStringLiteral("NVLink RX Responses Protocol Data [Throughput %]"),
        QStringLiteral("NVLink TX Requests User Data [Throughput %]"),
        QStringLiteral("NVLink TX Requests Protocol Data [Throughput %]"),
        QStringLiteral("NVLink TX Responses User Data [Throughput %]"),
        QStringLiteral("NVLink TX Responses Protocol Data [Throughput %]"),
        QStringLiteral("PCIe RX Throughput [Throughput %]"),
        QStringLiteral("PCIe TX Throughput [Throughput %]"),
    };
}

GpuMetricsWriter::GpuMetricsWriter(ExportWriter& w, int gpus, qint64 systemClockNs, std::uint64_t seed, int jitterPct)
    : m_systemClock(systemClockNs)
    , m_jitter(jitterPct)
    , m_rng(seed ^ 0x47504D45ULL)
{
    const QStringList names = metricNames();
    // Ids are small integers with gaps, in an order unrelated to the names.
    qint64 next = m_rng.range(1, 6);
    for (int i = 0; i < names.size(); ++i) {
        m_metricIds.push_back(next);
        next += m_rng.range(1, 3);
    }
    for (std::size_t i = m_metricIds.size() - 1; i > 0; --i)
        std::swap(m_metricIds[i], m_metricIds[std::size_t(m_rng.below(i + 1))]);
    const qint64 typeBase = m_rng.range(1, 40) << 8;
    Inserter& info = w.prepare(QStringLiteral("TARGET_INFO_GPU_METRICS"),
        { QStringLiteral("typeId"), QStringLiteral("sourceId"), QStringLiteral("typeName"), QStringLiteral("metricId"),
            QStringLiteral("metricName") });
    for (int g = 0; g < gpus; ++g) {
        m_typeIds.push_back(typeBase | g);
        for (int i = 0; i < names.size(); ++i) {
            info.set(0, typeBase | g);
            info.set(1, typeBase >> 8);
            info.setText(2, QStringLiteral("GPU Metrics [%1] (GH100)").arg(g));
            info.set(3, m_metricIds[std::size_t(i)]);
            info.setText(4, names.at(i));
            info.insert();
        }
    }
    m_insert = &w.prepare(QStringLiteral("GPU_METRICS"),
        { QStringLiteral("rawTimestamp"), QStringLiteral("timestamp"), QStringLiteral("typeId"),
            QStringLiteral("metricId"), QStringLiteral("value") },
        ExportWriter::MissingColumns::Skip);
}

void GpuMetricsWriter::sample(int gpu, qint64 timestampNs, const ActivityTimeline::Busy& busy, qint64 widthNs)
{
    auto frac = [&](ActivityTimeline::Category c) { return std::min(1.0, double(busy[c]) / double(widthNs)); };
    const double any = frac(ActivityTimeline::Any), tensor = frac(ActivityTimeline::Tensor),
                 nccl = frac(ActivityTimeline::Nccl), copy = frac(ActivityTimeline::Copy);
    double v[MetricCount];
    v[GrActive] = any;
    v[SmActive] = any * 0.93;
    v[SmIssue] = any * 0.38 + tensor * 0.12;
    v[TensorActive] = tensor * 0.72;
    v[DramRead] = any * 0.34 + copy * 0.2;
    v[DramWrite] = any * 0.21 + copy * 0.1;
    v[RxReqUser] = nccl * 0.36;
    v[RxRespUser] = nccl * 0.31;
    v[TxReqUser] = nccl * 0.35;
    v[TxRespUser] = nccl * 0.32;
    v[RxReqProto] = v[RxRespProto] = v[TxReqProto] = v[TxRespProto] = nccl * 0.04;
    v[PcieRx] = copy * 0.55;
    v[PcieTx] = copy * 0.08;
    m_insert->set(0, m_systemClock + timestampNs);
    m_insert->set(1, timestampNs);
    m_insert->set(2, m_typeIds[std::size_t(gpu)]);
    for (int i = 0; i < MetricCount; ++i) {
        qint64 pct = qint64(v[i] * 100.0 + 0.5);
        if (m_jitter > 0 && pct > 0)
            pct += m_rng.range(-1, 1);
        m_insert->set(3, m_metricIds[std::size_t(i)]);
        m_insert->set(4, std::clamp<qint64>(pct, 0, 100));
        m_insert->insert();
        ++m_rows;
    }
}

} // namespace nsw::tracegen
